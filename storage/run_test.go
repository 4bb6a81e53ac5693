package storage

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestRunsAndResults(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	clock := time.UnixMilli(1_700_000_000_000)
	db.now = func() time.Time { return clock }

	trail, err := db.SaveTrail(ctx, TrailInput{Slug: "checkout", Title: "Checkout", Content: trailYAML("Checkout", 2)})
	if err != nil {
		t.Fatal(err)
	}
	run, err := db.StartRun(ctx, NewRun{Args: "replay --headless trails/ --retries 1", CI: true, ProgramVersion: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if run.ID == 0 || run.Status != RunRunning || !run.CI {
		t.Errorf("StartRun() = %+v, want a running CI run with an id", run)
	}
	failed := TrailResult{RunID: run.ID, Slug: "checkout", Title: "Checkout", TrailID: trail.TrailID, TrailVersion: 1,
		Attempt: 1, Status: TrailFailed, FailureClass: "selector-drift", Error: `no element matches {role: button, name: "Pay"}`,
		StartedAt: clock, Duration: 2500 * time.Millisecond, TracePath: "trailpin-results/checkout/trace.md",
		Steps: []StepResult{
			{Index: 0, Intent: "Add the boots to the cart", Status: StepPassed, Duration: 900 * time.Millisecond,
				ActionsPerformed: 2, ActionsTotal: 2, CacheDecision: "none"},
			{Index: 1, Intent: "Pay", Status: StepFailed, Duration: 1600 * time.Millisecond, StoppedReason: "target-not-found",
				ActionsPerformed: 1, ActionsTotal: 3, Error: "timed out after 10s"},
		}}
	if failed.ID, err = db.AddTrailResult(ctx, failed); err != nil {
		t.Fatal(err)
	}
	flaky := TrailResult{RunID: run.ID, Slug: "checkout", Title: "Checkout", Source: "trails/checkout.trail.yaml",
		Attempt: 2, Status: TrailFlaky, StartedAt: clock.Add(3 * time.Second), Duration: time.Second,
		Steps: []StepResult{{Index: 0, Intent: "Add the boots to the cart", Status: StepPassed, ActionsPerformed: 2, ActionsTotal: 2}}}
	if flaky.ID, err = db.AddTrailResult(ctx, flaky); err != nil {
		t.Fatal(err)
	}
	step := 1
	mc := ModelCall{RunID: run.ID, TrailResultID: failed.ID, StepIndex: &step, Purpose: "heal", Model: "gpt-test",
		PromptTokens: 1200, CompletionTokens: 80, Latency: 900 * time.Millisecond, StartedAt: clock}
	if mc.ID, err = db.AddModelCall(ctx, mc); err != nil {
		t.Fatal(err)
	}
	review := ModelCall{Purpose: "review", Model: "gpt-test", PromptTokens: 300, StartedAt: clock}
	if _, err := db.AddModelCall(ctx, review); err != nil {
		t.Fatalf("AddModelCall outside a run: %v", err)
	}
	hd := HealingDecision{RunID: run.ID, TrailResultID: failed.ID, StepIndex: 1, Decision: "dropped", Reason: "the step failed"}
	if hd.ID, err = db.AddHealingDecision(ctx, hd); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(time.Minute)
	if err := db.FinishRun(ctx, run.ID, RunPassed); err != nil {
		t.Fatal(err)
	}

	got, err := db.Run(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != RunPassed || !got.FinishedAt.Equal(clock) || got.Args != run.Args || got.ProgramVersion != "0.1.0" {
		t.Errorf("Run() = %+v, want passed, finished at %v", got, clock)
	}
	results, err := db.TrailResults(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	failed.Steps[1].CacheDecision = "none" // empty is stored as none
	flaky.Steps[0].CacheDecision = "none"
	for i, want := range []TrailResult{failed, flaky} {
		if i >= len(results) {
			t.Fatalf("TrailResults() has %d results, want 2", len(results))
		}
		got := results[i]
		if !got.StartedAt.Equal(want.StartedAt) {
			t.Errorf("result %d started %v, want %v", i, got.StartedAt, want.StartedAt)
		}
		got.StartedAt, want.StartedAt = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("TrailResults()[%d] =\n%+v\nwant\n%+v", i, got, want)
		}
	}
	calls, err := db.ModelCalls(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].PromptTokens != 1200 || calls[0].Latency != 900*time.Millisecond ||
		calls[0].StepIndex == nil || *calls[0].StepIndex != 1 {
		t.Errorf("ModelCalls() = %+v, want the one heal call of the run", calls)
	}
	hds, err := db.HealingDecisions(ctx, run.ID)
	if err != nil || len(hds) != 1 || hds[0].Decision != "dropped" || hds[0].TrailResultID != failed.ID {
		t.Errorf("HealingDecisions() = %+v, %v", hds, err)
	}
	runs, err := db.Runs(ctx, 10)
	if err != nil || len(runs) != 1 || runs[0].ID != run.ID {
		t.Errorf("Runs(10) = %+v, %v", runs, err)
	}

	// Deleting the trail keeps its results, without the link.
	if _, err := db.DeleteTrail(ctx, "checkout"); err != nil {
		t.Fatal(err)
	}
	results, _ = db.TrailResults(ctx, run.ID)
	if len(results) != 2 || results[0].TrailID != 0 || results[0].Slug != "checkout" {
		t.Errorf("results after deleting the trail = %+v, want them kept, unlinked", results)
	}
	checkIntegrity(t, ctx, db)
}

func TestRunsRefuseBadInput(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	run, err := db.StartRun(ctx, NewRun{})
	if err != nil {
		t.Fatal(err)
	}
	ok := TrailResult{RunID: run.ID, Slug: "x", Title: "X", Attempt: 1, Status: TrailPassed}
	tests := []struct {
		name string
		edit func(*TrailResult)
		want error
	}{
		{"unknown run", func(tr *TrailResult) { tr.RunID = 999 }, ErrNotFound},
		{"unknown status", func(tr *TrailResult) { tr.Status = "green" }, ErrInvalid},
		{"attempt zero", func(tr *TrailResult) { tr.Attempt = 0 }, ErrInvalid},
		{"repeated step", func(tr *TrailResult) {
			tr.Steps = []StepResult{{Index: 0, Status: StepPassed}, {Index: 0, Status: StepPassed}}
		}, ErrInvalid},
		{"more actions performed than recorded", func(tr *TrailResult) {
			tr.Steps = []StepResult{{Index: 0, Status: StepFailed, ActionsPerformed: 3, ActionsTotal: 2}}
		}, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := ok
			tt.edit(&tr)
			if _, err := db.AddTrailResult(ctx, tr); !errors.Is(err, tt.want) {
				t.Errorf("AddTrailResult(%s) = %v, want an error wrapping %v", tt.name, err, tt.want)
			}
		})
	}
	if err := db.FinishRun(ctx, run.ID, RunRunning); !errors.Is(err, ErrInvalid) {
		t.Errorf("FinishRun(running) = %v, want ErrInvalid", err)
	}
	if err := db.FinishRun(ctx, 999, RunPassed); !errors.Is(err, ErrNotFound) {
		t.Errorf("FinishRun(unknown run) = %v, want ErrNotFound", err)
	}
	if _, err := db.Run(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("Run(999) = %v, want ErrNotFound", err)
	}
	if _, err := db.AddModelCall(ctx, ModelCall{RunID: 999, Purpose: "heal", Model: "m"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddModelCall(unknown run) = %v, want ErrNotFound", err)
	}
}
