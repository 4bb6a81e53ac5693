package main

import (
	"context"

	"github.com/trailpin/trailpin/replay"
)

// keepHeals decides what becomes of the saveable heals of one attempt
// (replay.Heal.Saveable): it sets each one's Decision and Reason. mode is
// the cache mode in effect (read-write, read-only, off) and results the
// --results folder. runSuite calls it after each attempt, before the trace
// page, JUnit and the database are written, and never for an attempt the
// run's cancel ended (a cancelled run writes nothing).
//
// This default writes nothing: the trail file's comment-preserving edit
// (read-write) and the healed trail in the results folder (read-only) are
// the heal-saving part's.
var keepHeals = func(ctx context.Context, st replay.SuiteTrail, res *replay.TrailResult, mode, results string) {
	for i := range res.Steps {
		h := res.Steps[i].Heal
		if h.Saveable() && h.Decision == "" {
			h.Decision, h.Reason = replay.HealReported, "this build does not write healed recordings yet"
		}
	}
}
