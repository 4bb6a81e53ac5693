package suite

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/redact"
)

// A Store records replay runs and their trail and step results in the
// database. Storing is a record for later, never the verdict: a write that
// fails is reported once on Warnings and the run goes on.
type Store struct {
	db    *storage.DB
	path  string
	opts  StoreOptions
	mu    sync.Mutex
	runID int64
	// fromDB maps a trail loaded from the database to its id and version.
	fromDB map[*trail.Trail]storage.TrailVersion
	warned bool
	// redact hides the suite's secrets in everything stored, as in the
	// reports: the last line of defence behind the engine's redaction.
	redact atomic.Pointer[redact.Redactor]
}

// StoreOptions say which database runs are stored in and what a run
// records about itself.
type StoreOptions struct {
	// Path is the database file.
	Path string
	// Named is true when this invocation named the database itself (--db
	// or TRAILPIN_DB): one that cannot be opened is then an error, where
	// the default one is only warned about.
	Named bool
	// Args are the command line's arguments, recorded with the run.
	Args []string
	// CI records that the run took place in CI.
	CI bool
	// ProgramVersion is the host's version, recorded with the run.
	ProgramVersion string
	// Warnings receives what could not be stored (standard error).
	Warnings io.Writer
}

// OpenStore opens the database runs are stored in. A database that was
// named and cannot be opened is an environment error; the default one is
// only warned about, and then OpenStore returns nil: the run still replays
// and reports, it is only not kept.
func OpenStore(ctx context.Context, o StoreOptions) (*Store, error) {
	if o.Warnings == nil {
		o.Warnings = io.Discard
	}
	rs := &Store{path: o.Path, opts: o, fromDB: map[*trail.Trail]storage.TrailVersion{}}
	db, err := storage.Open(ctx, o.Path, storage.WithRedactor(func(b []byte) []byte { return rs.redact.Load().Bytes(b) }))
	switch {
	case err != nil && o.Named:
		return nil, exitcode.EnvironmentError(fmt.Errorf("opening the database %s to store the run: %w (give --db a file you can write to)", o.Path, err))
	case err != nil:
		// The default database is a convenience: without it the run
		// still replays and reports, it is only not kept.
		fmt.Fprintf(o.Warnings, "host: the run will not be stored: opening %s: %v\n", o.Path, err)
		return nil, nil
	}
	rs.db = db
	return rs, nil
}

// DB is the store's database.
func (s *Store) DB() *storage.DB { return s.db }

// Redact makes the store hide r's secrets in everything it stores.
func (s *Store) Redact(r *redact.Redactor) { s.redact.Store(r) }

// dbLookup finds a trail saved in db by its slug, number or title.
func dbLookup(ctx context.Context, db *storage.DB, seen func(*trail.Trail, storage.TrailVersion)) func(string) (*trail.Trail, error) {
	return func(name string) (*trail.Trail, error) {
		tv, err := db.Trail(ctx, name)
		if err != nil {
			return nil, err
		}
		t, err := trail.LoadTrail("", tv.Content)
		if err != nil {
			return nil, fmt.Errorf("version %d of trail %q does not load: %w", tv.Version, tv.Slug, err)
		}
		if seen != nil {
			seen(t, tv)
		}
		return t, nil
	}
}

// Lookup finds a trail saved in the store's database by its slug, number
// or title (Selection.Lookup), and remembers its id and version for the
// results stored.
func (s *Store) Lookup(ctx context.Context) func(string) (*trail.Trail, error) {
	return dbLookup(ctx, s.db, func(t *trail.Trail, tv storage.TrailVersion) {
		s.mu.Lock()
		s.fromDB[t] = tv
		s.mu.Unlock()
	})
}

func (s *Store) warn(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.warned {
		fmt.Fprintf(s.opts.Warnings, "host: the run is not fully stored in %s: %v\n", s.path, err)
		s.warned = true
	}
}

// start records the run's start.
func (s *Store) start(ctx context.Context) {
	r, err := s.db.StartRun(ctx, storage.NewRun{Args: strings.Join(append([]string{"replay"}, s.opts.Args...), " "),
		CI: s.opts.CI, ProgramVersion: s.opts.ProgramVersion})
	s.warn(err)
	s.mu.Lock()
	s.runID = r.ID
	s.mu.Unlock()
}

// trail records every attempt at a trail that ran, with its steps.
func (s *Store) trail(ctx context.Context, t report.TrailRun, st Trail, trace string) {
	s.mu.Lock()
	runID, tv := s.runID, s.fromDB[st.Trail]
	s.mu.Unlock()
	if runID == 0 {
		return
	}
	for _, a := range t.Attempts {
		status := storage.TrailStatus(a.Status)
		switch a.Status {
		case replay.StatusSkipped:
			continue
		case replay.StatusPassed, replay.StatusHealed:
			if a.Attempt > 1 {
				status = storage.TrailFlaky
			}
		}
		tr := storage.TrailResult{RunID: runID, Slug: a.Slug, Title: a.Title, TrailID: tv.TrailID, TrailVersion: tv.Version,
			Source: a.File, Attempt: a.Attempt, Status: status, FailureClass: string(a.Class), Error: a.Error,
			StartedAt: a.Started, Duration: a.Duration, TracePath: trace}
		for _, sr := range a.Steps {
			tr.Steps = append(tr.Steps, storedStep(sr, st.Trail))
		}
		id, err := s.db.AddTrailResult(ctx, tr)
		s.warn(err)
		if err == nil {
			s.heals(ctx, runID, id, a)
		}
	}
}

// heals records the agent's part of an attempt: a row per model request
// (tokens, latency, the failure of one that failed) and what became of
// each step's healed flow.
func (s *Store) heals(ctx context.Context, runID, trailResultID int64, a replay.TrailResult) {
	for _, sr := range a.Steps {
		h := sr.Heal
		if h == nil {
			continue
		}
		step := sr.Index - 1
		for _, turn := range h.Turns {
			for _, c := range turn.Usage.Attempts {
				mc := storage.ModelCall{RunID: runID, TrailResultID: trailResultID, StepIndex: &step, Purpose: "heal",
					Model: turn.Usage.Model, PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens,
					Latency: c.Latency, StartedAt: c.Started}
				if c.Failure != "" {
					mc.Error = string(c.Failure) + ": " + c.Detail
				}
				_, err := s.db.AddModelCall(ctx, mc)
				s.warn(err)
			}
		}
		if h.Decision != "" {
			_, err := s.db.AddHealingDecision(ctx, storage.HealingDecision{RunID: runID, TrailResultID: trailResultID,
				StepIndex: step, Decision: h.Decision, Reason: h.Reason})
			s.warn(err)
		}
	}
}

// storedStep is a step result as the database keeps it.
func storedStep(sr replay.StepResult, t *trail.Trail) storage.StepResult {
	total := 0
	if i := sr.Index - 1; i >= 0 && i < len(t.Steps) {
		total = len(t.Steps[i].Actions)
	}
	status := storage.StepPassed
	switch sr.Status {
	case replay.StatusHealed:
		status = storage.StepHealed
	case replay.StatusFailed:
		status = storage.StepFailed
	case replay.StatusSkipped:
		status = storage.StepSkipped
	}
	return storage.StepResult{Index: sr.Index - 1, Intent: sr.Intent, Status: status, Duration: sr.Duration,
		StoppedReason: string(sr.Stopped), ActionsPerformed: sr.Performed, ActionsTotal: max(total, sr.Performed),
		ModelCalls: sr.ModelCalls, CacheDecision: sr.Cache, Error: sr.Error}
}

// finish records how the run ended.
func (s *Store) finish(run report.Run, interrupted bool) {
	s.mu.Lock()
	runID := s.runID
	s.mu.Unlock()
	if runID == 0 {
		return
	}
	status := storage.RunPassed
	switch {
	case interrupted:
		status = storage.RunCancelled
	case !run.Passed():
		status = storage.RunFailed
	}
	s.warn(s.db.FinishRun(context.Background(), runID, status))
}

// Close closes the database.
func (s *Store) Close() { s.db.Close() }
