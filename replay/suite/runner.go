package suite

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
)

// breakerLimit is how many trails in a row may fail with env-issue or
// auth-blocked before the run stops (docs/ci.md): the app is down or
// locked, and more trails would only repeat it.
const breakerLimit = 4

// A runner replays a suite: workers trails at once, each failed trail
// again up to retries times, until every trail has a verdict or the circuit
// breaker stops the run. What to do with each attempt and each verdict is
// up to its hooks, which may be called from several workers at once.
type runner struct {
	workers int
	retries int
	// attempt replays one attempt at a trail.
	attempt func(ctx context.Context, st Trail, n int) *replay.TrailResult
	// started, attemptDone and finished are told about each attempt's start,
	// each attempt's end (before a retry, if any), and each trail's verdict.
	started     func(st Trail, n int)
	attemptDone func(res replay.TrailResult, willRetry bool)
	finished    func(i int, t report.TrailRun)
	now         func() time.Time
}

// breaker counts trails that failed in a row with a class that says the
// app, not the trail, is the problem.
type breaker struct {
	mu      sync.Mutex
	streak  int
	tripped string
}

// record counts a trail's verdict; it returns true when it trips the
// breaker.
func (b *breaker) record(t report.TrailRun) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tripped != "" {
		return false
	}
	final := t.Final()
	if t.Status() == replay.StatusFailed && (final.Class == replay.ClassEnvIssue || final.Class == replay.ClassAuthBlocked) {
		b.streak++
	} else {
		b.streak = 0
	}
	if b.streak >= breakerLimit {
		b.tripped = fmt.Sprintf("%d trails in a row failed with env-issue or auth-blocked, the last %s (%s); the app looks down, so the trails not yet started were skipped",
			breakerLimit, final.Slug, final.Class)
		return true
	}
	return false
}

func (b *breaker) stopped() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tripped
}

// run replays suite and returns every trail's attempts in suite order, and
// why the run stopped early ("" when it did not): the breaker tripped, or
// ctx ended (an interrupt). Trails that never started get one skipped
// attempt.
func (r *runner) run(ctx context.Context, suite []Trail) ([]report.TrailRun, string) {
	workers := min(max(r.workers, 1), max(len(suite), 1))
	trails := make([]report.TrailRun, len(suite))
	ran := make([]bool, len(suite))
	var br breaker
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				if br.stopped() != "" || ctx.Err() != nil {
					continue // handed over as the breaker tripped: skipped
				}
				ran[i] = true
				t := r.trail(ctx, suite[i])
				trails[i] = t
				br.record(t) // once tripped, no new trail starts; running ones finish
				if r.finished != nil {
					r.finished(i, t)
				}
			}
		})
	}
feed:
	for i := range suite {
		if br.stopped() != "" || ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()

	stopped := br.stopped()
	if stopped == "" && ctx.Err() != nil {
		stopped = "the run was interrupted"
	}
	reason := stopped
	for i, st := range suite {
		if ran[i] {
			continue
		}
		skip := replay.TrailResult{File: st.Trail.File, Slug: st.Slug, Title: st.Trail.Title, Attempt: 1,
			Status: replay.StatusSkipped, Error: "not run: " + reason, Started: r.now()}
		trails[i] = report.TrailRun{Attempts: []replay.TrailResult{skip}}
		if r.finished != nil {
			r.finished(i, trails[i])
		}
	}
	return trails, stopped
}

// trail runs the attempts at one trail: the first, then retries while it
// fails (a later pass makes it flaky).
func (r *runner) trail(ctx context.Context, st Trail) report.TrailRun {
	var t report.TrailRun
	for n := 1; ; n++ {
		if r.started != nil {
			r.started(st, n)
		}
		res := r.attempt(ctx, st, n)
		res.Attempt = n
		t.Attempts = append(t.Attempts, *res)
		retry := res.Status == replay.StatusFailed && n <= r.retries && ctx.Err() == nil
		if r.attemptDone != nil {
			r.attemptDone(*res, retry)
		}
		if !retry {
			if res.Status == replay.StatusPassed && n > 1 {
				t.Attempts[n-1].Status = replay.StatusFlaky
			}
			return t
		}
	}
}
