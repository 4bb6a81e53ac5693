package suite

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

func fakeSuite(n int) []Trail {
	suite := make([]Trail, n)
	for i := range suite {
		slug := fmt.Sprintf("t%d", i+1)
		suite[i] = Trail{Trail: &trail.Trail{Title: slug}, Slug: slug}
	}
	return suite
}

// outcome makes an attempt's result: class "" passes.
func outcome(st Trail, class replay.FailureClass) *replay.TrailResult {
	res := &replay.TrailResult{Slug: st.Slug, Title: st.Trail.Title, Status: replay.StatusPassed, Started: time.Now()}
	if class != "" {
		res.Status, res.Class, res.Error = replay.StatusFailed, class, "broken"
	}
	return res
}

func statuses(trails []report.TrailRun) string {
	var s []string
	for _, t := range trails {
		s = append(s, string(t.Status()))
	}
	return fmt.Sprint(s)
}

func TestRunnerBreakerStopsAfterFourInARow(t *testing.T) {
	classes := []replay.FailureClass{replay.ClassEnvIssue, replay.ClassAppBug, replay.ClassEnvIssue, replay.ClassAuthBlocked,
		replay.ClassEnvIssue, replay.ClassEnvIssue, "", ""}
	var ran atomic.Int32
	r := &runner{workers: 1, now: time.Now, attempt: func(_ context.Context, st Trail, _ int) *replay.TrailResult {
		ran.Add(1)
		var i int
		fmt.Sscanf(st.Slug, "t%d", &i)
		return outcome(st, classes[i-1])
	}}
	trails, stopped := r.run(context.Background(), fakeSuite(len(classes)))
	if stopped == "" {
		t.Fatal("the breaker did not trip after env-issue, auth-blocked, env-issue, env-issue in a row")
	}
	want := "[failed failed failed failed failed failed skipped skipped]"
	if got := statuses(trails); got != want || ran.Load() != 6 {
		t.Errorf("statuses %s after %d trails ran, want %s after 6", got, ran.Load(), want)
	}
	if trails[7].Final().Error == "" || trails[7].Slug() != "t8" {
		t.Errorf("a skipped trail says nothing about why: %+v", trails[7].Final())
	}
}

func TestRunnerBreakerResetsOnOtherOutcomes(t *testing.T) {
	classes := []replay.FailureClass{replay.ClassEnvIssue, replay.ClassEnvIssue, replay.ClassEnvIssue, replay.ClassSelectorDrift,
		replay.ClassEnvIssue, replay.ClassEnvIssue, replay.ClassEnvIssue, ""}
	r := &runner{workers: 1, now: time.Now, attempt: func(_ context.Context, st Trail, _ int) *replay.TrailResult {
		var i int
		fmt.Sscanf(st.Slug, "t%d", &i)
		return outcome(st, classes[i-1])
	}}
	trails, stopped := r.run(context.Background(), fakeSuite(len(classes)))
	if stopped != "" {
		t.Errorf("the breaker tripped on three in a row: %s (%s)", stopped, statuses(trails))
	}
}

func TestRunnerRetriesMakeFlaky(t *testing.T) {
	var mu sync.Mutex
	tries := map[string]int{}
	r := &runner{workers: 2, retries: 2, now: time.Now, attempt: func(_ context.Context, st Trail, n int) *replay.TrailResult {
		mu.Lock()
		tries[st.Slug]++
		mu.Unlock()
		switch {
		case st.Slug == "t1" && n == 1: // passes on the second attempt
			return outcome(st, replay.ClassAppBug)
		case st.Slug == "t2": // never passes
			return outcome(st, replay.ClassAppBug)
		}
		return outcome(st, "")
	}}
	trails, _ := r.run(context.Background(), fakeSuite(3))
	if got := statuses(trails); got != "[flaky failed passed]" {
		t.Errorf("statuses %s, want [flaky failed passed]", got)
	}
	if tries["t1"] != 2 || tries["t2"] != 3 || tries["t3"] != 1 {
		t.Errorf("attempts %v, want t1 2, t2 3 (1 + 2 retries), t3 1", tries)
	}
	if a := trails[0].Attempts; len(a) != 2 || a[0].Attempt != 1 || a[1].Attempt != 2 {
		t.Errorf("attempts of t1 are not numbered 1, 2: %+v", a)
	}
}

func TestRunnerWorkersOverlap(t *testing.T) {
	var running, most atomic.Int32
	r := &runner{workers: 3, now: time.Now, attempt: func(_ context.Context, st Trail, _ int) *replay.TrailResult {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		running.Add(-1)
		return outcome(st, "")
	}}
	trails, _ := r.run(context.Background(), fakeSuite(6))
	if most.Load() != 3 || len(trails) != 6 {
		t.Errorf("at most %d trails ran at once of %d, want 3", most.Load(), len(trails))
	}
}

// TestRunnerInterrupted: an interrupted run is stopped, never passed, and
// the trails it did not start are skipped.
func TestRunnerInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := &runner{workers: 1, now: time.Now, attempt: func(_ context.Context, st Trail, _ int) *replay.TrailResult {
		cancel()
		return outcome(st, "")
	}}
	trails, stopped := r.run(ctx, fakeSuite(3))
	if stopped == "" || statuses(trails) != "[passed skipped skipped]" {
		t.Errorf("interrupted after the first trail: stopped %q, statuses %s", stopped, statuses(trails))
	}
	if run := (report.Run{Trails: trails, Stopped: stopped}); run.ExitCode() != exitcode.Stopped {
		t.Errorf("an interrupted run exits %d, want %d", run.ExitCode(), exitcode.Stopped)
	}
}
