package main

import (
	"context"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/heal"
)

// keepHeals decides what becomes of the saveable heals of one attempt
// (replay.Heal.Saveable): it sets each one's Decision and Reason, and
// writes them (heal_save.go): in read-write mode into the trail file and a
// new trail version, in read-only mode into the results folder for `host
// accept`. mode is the cache mode in effect (read-write, read-only, off)
// and results the --results folder. Under cache.strict nothing is written:
// the agent performed only steps with no recording, and their flows are
// reported (docs/agent.md). runSuite calls it after each attempt, before
// the trace page, JUnit and the database are written, and never for an
// attempt the run's cancel ended (a cancelled run writes nothing).
func (s *replaySetup) keepHeals(ctx context.Context, st replay.SuiteTrail, res *replay.TrailResult, mode, results string) {
	k := s.heals
	if k == nil {
		k = &healKeeper{}
	}
	if s.opts.Strict {
		mode = heal.ModeStrict
	}
	k.keep(ctx, st, res, mode, results)
}
