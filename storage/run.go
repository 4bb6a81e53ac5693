package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// RunStatus is how a replay run stands or ended.
type RunStatus string

const (
	RunRunning   RunStatus = "running"
	RunPassed    RunStatus = "passed"
	RunFailed    RunStatus = "failed"
	RunCancelled RunStatus = "cancelled"
)

// TrailStatus is how one attempt at a trail ended.
type TrailStatus string

const (
	TrailPassed TrailStatus = "passed"
	TrailFailed TrailStatus = "failed"
	// TrailFlaky is an attempt that passed after an earlier one failed.
	TrailFlaky TrailStatus = "flaky"
	// TrailHealed is an attempt that passed with the agent (docs/agent.md).
	TrailHealed TrailStatus = "healed"
)

// StepStatus is how one step of an attempt ended.
type StepStatus string

const (
	StepPassed  StepStatus = "passed"
	StepFailed  StepStatus = "failed"
	StepSkipped StepStatus = "skipped" // after an earlier step failed
	// StepHealed passed with the agent, a check after it passing.
	StepHealed StepStatus = "healed"
)

// A Run is one invocation of host replay.
type Run struct {
	ID         int64
	StartedAt  time.Time
	FinishedAt time.Time // zero while running, or when the process died
	Status     RunStatus
	// Args summarises the command line; callers leave secrets out.
	Args           string
	CI             bool
	ProgramVersion string
}

// NewRun is what StartRun records.
type NewRun struct {
	Args           string
	CI             bool
	ProgramVersion string
}

// A TrailResult is one attempt at one trail in a run.
type TrailResult struct {
	ID    int64 // set by AddTrailResult
	RunID int64
	Slug  string
	Title string
	// TrailID and TrailVersion are set when the trail came from the
	// database; Source is the trail file otherwise.
	TrailID      int64
	TrailVersion int
	Source       string
	Attempt      int // 1, then 2, … for retries
	Status       TrailStatus
	// FailureClass is replay's classification (env-issue, auth-blocked,
	// selector-drift, app-bug, missing-test-data, agent-misread); empty
	// when the attempt passed.
	FailureClass string
	Error        string
	StartedAt    time.Time // zero: when AddTrailResult is called
	Duration     time.Duration
	TracePath    string
	Steps        []StepResult
}

// A StepResult is one step of one trail attempt.
type StepResult struct {
	Index    int // 0-based position in the trail
	Intent   string
	Status   StepStatus
	Duration time.Duration
	// StoppedReason is why replay stopped inside the step (docs/agent.md:
	// target-not-found, ambiguous, end-mismatch, action-failed,
	// action-uncertain, …); empty when its recording ran to the end.
	StoppedReason    string
	ActionsPerformed int // recorded actions performed before it stopped
	ActionsTotal     int // recorded actions in the step
	ModelCalls       int
	// CacheDecision is what the recording cache decided: none, hit, miss,
	// hand-off, stale. Empty is stored as none.
	CacheDecision string
	Error         string
}

// A ModelCall is one request to a model, with what it cost.
type ModelCall struct {
	ID int64 // set by AddModelCall
	// RunID is zero for calls outside a replay run (the save-time review);
	// TrailResultID and StepIndex place a call inside a run when known.
	RunID            int64
	TrailResultID    int64
	StepIndex        *int
	Purpose          string // heal, review, record (the agent asked while recording)
	Model            string
	PromptTokens     int
	CompletionTokens int
	Latency          time.Duration
	StartedAt        time.Time // zero: when AddModelCall is called
	Error            string
}

// A HealingDecision is what became of a step the agent healed (docs/agent.md).
type HealingDecision struct {
	ID            int64 // set by AddHealingDecision
	RunID         int64
	TrailResultID int64 // zero when unknown
	StepIndex     int
	// Decision is saved, dropped, kept or reported.
	Decision  string
	Reason    string
	CreatedAt time.Time // set by AddHealingDecision
}

// StartRun records the start of a replay run and returns it with its id.
func (db *DB) StartRun(ctx context.Context, nr NewRun) (Run, error) {
	r := Run{StartedAt: fromMillis(db.nowMillis()), Status: RunRunning, Args: db.redactString(nr.Args),
		CI: nr.CI, ProgramVersion: db.redactString(nr.ProgramVersion)}
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			INSERT INTO runs (started_at, status, args, ci, program_version) VALUES (?, ?, ?, ?, ?)`,
			r.StartedAt.UnixMilli(), string(r.Status), r.Args, boolInt(r.CI), r.ProgramVersion)
		if err != nil {
			return err
		}
		r.ID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return Run{}, fmt.Errorf("starting run: %w", err)
	}
	return r, nil
}

// FinishRun records how run id ended.
func (db *DB) FinishRun(ctx context.Context, id int64, status RunStatus) error {
	switch status {
	case RunPassed, RunFailed, RunCancelled:
	default:
		return fmt.Errorf("finishing run %d: %w", id, invalidf("run status %q: a run ends passed, failed or cancelled", status))
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?",
			string(status), db.nowMillis(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("run %d: %w", id, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("finishing run %d: %w", id, err)
	}
	return nil
}

// AddTrailResult stores one trail attempt with its steps, in one transaction,
// and returns its id.
func (db *DB) AddTrailResult(ctx context.Context, tr TrailResult) (int64, error) {
	if err := checkTrailResult(tr); err != nil {
		return 0, fmt.Errorf("storing result of trail %q: %w", tr.Slug, err)
	}
	if tr.StartedAt.IsZero() {
		tr.StartedAt = db.now()
	}
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			INSERT INTO trail_results (run_id, trail_slug, trail_title, trail_id, trail_version, source, attempt,
				status, failure_class, error, started_at, duration_ms, trace_path)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			tr.RunID, db.redactString(tr.Slug), db.redactString(tr.Title), nullInt(tr.TrailID), nullInt(int64(tr.TrailVersion)),
			db.redactString(tr.Source), tr.Attempt, string(tr.Status), db.redactString(tr.FailureClass), db.redactString(tr.Error),
			tr.StartedAt.UnixMilli(), tr.Duration.Milliseconds(), db.redactString(tr.TracePath))
		if err != nil {
			return foreignKeyNotFound(err, fmt.Sprintf("run %d", tr.RunID))
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, s := range tr.Steps {
			decision := s.CacheDecision
			if decision == "" {
				decision = "none"
			}
			if _, err := tx.ExecContext(ctx, `
				INSERT INTO step_results (trail_result_id, step_index, intent, status, duration_ms, stopped_reason,
					actions_performed, actions_total, model_calls, cache_decision, error)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				id, s.Index, db.redactString(s.Intent), string(s.Status), s.Duration.Milliseconds(), db.redactString(s.StoppedReason),
				s.ActionsPerformed, s.ActionsTotal, s.ModelCalls, db.redactString(decision), db.redactString(s.Error)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("storing result of trail %q: %w", tr.Slug, err)
	}
	return id, nil
}

func checkTrailResult(tr TrailResult) error {
	switch tr.Status {
	case TrailPassed, TrailFailed, TrailFlaky, TrailHealed:
	default:
		return invalidf("trail status %q: want passed, failed, flaky or healed", tr.Status)
	}
	if tr.Attempt < 1 {
		return invalidf("attempt %d: attempts start at 1", tr.Attempt)
	}
	seen := map[int]bool{}
	for _, s := range tr.Steps {
		switch s.Status {
		case StepPassed, StepFailed, StepSkipped, StepHealed:
		default:
			return invalidf("step %d status %q: want passed, failed, skipped or healed", s.Index, s.Status)
		}
		if s.Index < 0 || seen[s.Index] {
			return invalidf("step index %d is negative or repeated", s.Index)
		}
		seen[s.Index] = true
		if s.ActionsPerformed < 0 || s.ActionsTotal < 0 || s.ActionsPerformed > s.ActionsTotal {
			return invalidf("step %d performed %d of %d actions", s.Index, s.ActionsPerformed, s.ActionsTotal)
		}
	}
	return nil
}

// AddModelCall records one model call and returns its id.
func (db *DB) AddModelCall(ctx context.Context, mc ModelCall) (int64, error) {
	if mc.Purpose == "" || mc.Model == "" {
		return 0, fmt.Errorf("storing model call: %w", invalidf("a model call needs a purpose and a model"))
	}
	if mc.StartedAt.IsZero() {
		mc.StartedAt = db.now()
	}
	var step any
	if mc.StepIndex != nil {
		step = *mc.StepIndex
	}
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			INSERT INTO model_calls (run_id, trail_result_id, step_index, purpose, model, prompt_tokens,
				completion_tokens, latency_ms, started_at, error)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			nullInt(mc.RunID), nullInt(mc.TrailResultID), step, db.redactString(mc.Purpose), db.redactString(mc.Model), mc.PromptTokens,
			mc.CompletionTokens, mc.Latency.Milliseconds(), mc.StartedAt.UnixMilli(), db.redactString(mc.Error))
		if err != nil {
			return foreignKeyNotFound(err, fmt.Sprintf("run %d or trail result %d", mc.RunID, mc.TrailResultID))
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("storing model call: %w", err)
	}
	return id, nil
}

// AddHealingDecision records what became of a healed step and returns its id.
func (db *DB) AddHealingDecision(ctx context.Context, hd HealingDecision) (int64, error) {
	if hd.Decision == "" {
		return 0, fmt.Errorf("storing healing decision: %w", invalidf("the decision is empty"))
	}
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
			INSERT INTO healing_decisions (run_id, trail_result_id, step_index, decision, reason, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`,
			hd.RunID, nullInt(hd.TrailResultID), hd.StepIndex, db.redactString(hd.Decision), db.redactString(hd.Reason), db.nowMillis())
		if err != nil {
			return foreignKeyNotFound(err, fmt.Sprintf("run %d or trail result %d", hd.RunID, hd.TrailResultID))
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("storing healing decision: %w", err)
	}
	return id, nil
}

// Run returns run id.
func (db *DB) Run(ctx context.Context, id int64) (Run, error) {
	runs, err := db.queryRuns(ctx, "WHERE id = ?", id)
	if err != nil {
		return Run{}, fmt.Errorf("reading run %d: %w", id, err)
	}
	if len(runs) == 0 {
		return Run{}, fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	return runs[0], nil
}

// Runs lists the latest runs, newest first; limit <= 0 lists all.
func (db *DB) Runs(ctx context.Context, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = -1
	}
	runs, err := db.queryRuns(ctx, "ORDER BY id DESC LIMIT ?", limit)
	if err != nil {
		return nil, fmt.Errorf("listing runs: %w", err)
	}
	return runs, nil
}

func (db *DB) queryRuns(ctx context.Context, where string, args ...any) ([]Run, error) {
	var list []Run
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, "SELECT id, started_at, finished_at, status, args, ci, program_version FROM runs "+where, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r Run
			var started int64
			var finished sql.NullInt64
			var status string
			var ci int
			if err := rows.Scan(&r.ID, &started, &finished, &status, &r.Args, &ci, &r.ProgramVersion); err != nil {
				return err
			}
			r.StartedAt, r.FinishedAt, r.Status, r.CI = fromMillis(started), fromNullMillis(finished), RunStatus(status), ci != 0
			list = append(list, r)
		}
		return rows.Err()
	})
	return list, err
}

// TrailResults returns the trail attempts of run id with their steps, in the
// order they were stored.
func (db *DB) TrailResults(ctx context.Context, runID int64) ([]TrailResult, error) {
	var list []TrailResult
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, `
			SELECT id, trail_slug, trail_title, trail_id, trail_version, source, attempt, status, failure_class,
				error, started_at, duration_ms, trace_path
			FROM trail_results WHERE run_id = ? ORDER BY id`, runID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			tr := TrailResult{RunID: runID}
			var trailID, version sql.NullInt64
			var status string
			var started, dur int64
			if err := rows.Scan(&tr.ID, &tr.Slug, &tr.Title, &trailID, &version, &tr.Source, &tr.Attempt, &status,
				&tr.FailureClass, &tr.Error, &started, &dur, &tr.TracePath); err != nil {
				return err
			}
			tr.TrailID, tr.TrailVersion, tr.Status = trailID.Int64, int(version.Int64), TrailStatus(status)
			tr.StartedAt, tr.Duration = fromMillis(started), time.Duration(dur)*time.Millisecond
			list = append(list, tr)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		for i := range list {
			if list[i].Steps, err = stepResults(ctx, q, list[i].ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading results of run %d: %w", runID, err)
	}
	return list, nil
}

func stepResults(ctx context.Context, q *sql.DB, trailResultID int64) ([]StepResult, error) {
	rows, err := q.QueryContext(ctx, `
		SELECT step_index, intent, status, duration_ms, stopped_reason, actions_performed, actions_total,
			model_calls, cache_decision, error
		FROM step_results WHERE trail_result_id = ? ORDER BY step_index`, trailResultID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var steps []StepResult
	for rows.Next() {
		var s StepResult
		var status string
		var dur int64
		if err := rows.Scan(&s.Index, &s.Intent, &status, &dur, &s.StoppedReason, &s.ActionsPerformed,
			&s.ActionsTotal, &s.ModelCalls, &s.CacheDecision, &s.Error); err != nil {
			return nil, err
		}
		s.Status, s.Duration = StepStatus(status), time.Duration(dur)*time.Millisecond
		steps = append(steps, s)
	}
	return steps, rows.Err()
}

// ModelCalls returns the model calls of run id, oldest first.
func (db *DB) ModelCalls(ctx context.Context, runID int64) ([]ModelCall, error) {
	var list []ModelCall
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, `
			SELECT id, trail_result_id, step_index, purpose, model, prompt_tokens, completion_tokens, latency_ms,
				started_at, error
			FROM model_calls WHERE run_id = ? ORDER BY id`, runID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			mc := ModelCall{RunID: runID}
			var tr, step sql.NullInt64
			var latency, started int64
			if err := rows.Scan(&mc.ID, &tr, &step, &mc.Purpose, &mc.Model, &mc.PromptTokens, &mc.CompletionTokens,
				&latency, &started, &mc.Error); err != nil {
				return err
			}
			mc.TrailResultID = tr.Int64
			if step.Valid {
				i := int(step.Int64)
				mc.StepIndex = &i
			}
			mc.Latency, mc.StartedAt = time.Duration(latency)*time.Millisecond, fromMillis(started)
			list = append(list, mc)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading model calls of run %d: %w", runID, err)
	}
	return list, nil
}

// HealingDecisions returns the healing decisions of run id, oldest first.
func (db *DB) HealingDecisions(ctx context.Context, runID int64) ([]HealingDecision, error) {
	var list []HealingDecision
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, `
			SELECT id, trail_result_id, step_index, decision, reason, created_at
			FROM healing_decisions WHERE run_id = ? ORDER BY id`, runID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			hd := HealingDecision{RunID: runID}
			var tr sql.NullInt64
			var created int64
			if err := rows.Scan(&hd.ID, &tr, &hd.StepIndex, &hd.Decision, &hd.Reason, &created); err != nil {
				return err
			}
			hd.TrailResultID, hd.CreatedAt = tr.Int64, fromMillis(created)
			list = append(list, hd)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading healing decisions of run %d: %w", runID, err)
	}
	return list, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nullInt stores 0 as NULL, for optional references.
func nullInt(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

// foreignKeyNotFound turns a foreign key violation into ErrNotFound about
// what the row referred to.
func foreignKeyNotFound(err error, what string) error {
	var se interface{ Code() int }
	if errors.As(err, &se) && se.Code() == sqliteConstraintForeignKey {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return err
}
