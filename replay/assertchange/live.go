package assertchange

import (
	"context"
	"errors"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/trail"
)

// ErrNoBaseline is the code of an assertChange with no observed action
// before it, or whose baseline a live check consumed.
const ErrNoBaseline = "NO_BASELINE"

// Live is the loop of a live assertChange: it captures the page
// (look), diffs it against the baseline before and checks a, once or, with
// retry, again after wait until the checks pass or the budget runs out.
// path gives a URL as the trail writes it.
func Live(ctx context.Context, a trail.AssertChange, id string, before *screen.Screen,
	look func(context.Context) (*screen.Screen, error), wait func(context.Context, int, time.Time), path func(string) string) (*Evidence, error) {
	if a.SettleMs != nil && *a.SettleMs > 0 {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(*a.SettleMs) * time.Millisecond):
		}
	}
	var deadline time.Time
	if a.Retry != nil {
		deadline = time.Now().Add(time.Duration(a.Retry.BudgetMs) * time.Millisecond)
	}
	var ev *Evidence
	for attempt := 0; ; attempt++ {
		s, err := look(ctx)
		if err != nil {
			return nil, err
		}
		res, err := screendiff.Diff(before, s, screendiff.Options{Ignore: a.Ignore})
		if err != nil {
			ev = evidenceOf(SourceLive, id, nil)
			check := "ignore"
			if errors.Is(err, screendiff.ErrNoScreen) {
				check = "baseline"
			}
			ev.Checks = append(ev.Checks, CheckResult{Check: check, Detail: err.Error()})
			ev.Attempts = attempt + 1
			return ev, nil
		}
		ev = evidenceOf(SourceLive, id, res)
		checkLive(ev, s, path(s.URL), a)
		ev.Attempts = attempt + 1
		if ev.Pass || a.Retry == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return ev, ctx.Err()
		}
		wait(ctx, attempt, deadline)
	}
}

// Check runs an assertChange a for the agent, through the code a
// trail's assertChange runs: its stored checks on the diff from before to
// after (the screens around the agent's last action, id naming it), or its
// live checks on the page now (look captures it, with coverage) against
// before. path gives a URL as the trail writes it (path and query). a's
// references must be filled in. A page that cannot be captured is an
// error; anything else that cannot be checked is a result that does not
// pass.
func Check(ctx context.Context, a trail.AssertChange, id string, before, after *screen.Screen,
	look func(context.Context) (*screen.Screen, error), path func(string) string) (*Evidence, error) {
	if before == nil {
		return unavailable(SourceOf(a), &Unchecked{Code: ErrNoBaseline, Message: "no baseline: no action was taken since the step started"}), nil
	}
	if a.IsLive() {
		wait := func(ctx context.Context, attempt int, deadline time.Time) {
			select {
			case <-ctx.Done():
			case <-time.After(min(Backoff(attempt), time.Until(deadline)+time.Millisecond)):
			}
		}
		return Live(ctx, a, id, before, look, wait, path)
	}
	res, err := screendiff.Diff(before, after, screendiff.Options{})
	if err != nil {
		return unavailable(SourceStored, &Unchecked{Code: ErrDiffUnavailable, Message: "the diff could not be taken: " + err.Error()}), nil
	}
	ev := evidenceOf(SourceStored, id, res)
	checkStored(ev, res, a)
	return ev, nil
}

// SourceOf is where an assertChange reads its evidence: the stored diff
// of an action, or the page now.
func SourceOf(a trail.AssertChange) string {
	if a.IsLive() {
		return SourceLive
	}
	return SourceStored
}
