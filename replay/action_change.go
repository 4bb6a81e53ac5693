package replay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// The screen after an observed action is taken once the page is quiet, as
// the agent's is (agentQuiet, agentQuietMax): an app answers a tap a moment
// later, and a diff taken in between would say the action did nothing.

// screenBefore is the screen an observed action starts from.
func screenBefore(ctx context.Context, p *tab) (*screen.Screen, error) {
	s, _, err := p.lookCovered(ctx)
	return s, err
}

// observe stores the diff of what happened since before under id: from
// before to the page once it is quiet. When either screen is missing, the
// assertChange after it has no baseline, and says why; what names the
// action (an action and its line, the agent's part of a step) in that
// reason.
func (r *trailRun) observe(ctx context.Context, id, what string, line int, before *screen.Screen, beforeErr error) {
	if beforeErr != nil {
		r.changes.Fail(id, fmt.Sprintf("the page could not be captured before %s: %v", what, beforeErr))
		return
	}
	p := r.page
	p.awaitQuiet(ctx, agentQuiet, agentQuietMax)
	after, _, err := p.lookCovered(ctx)
	if err != nil {
		r.changes.Fail(id, fmt.Sprintf("the page could not be captured after %s: %v", what, err))
		return
	}
	res, err := screendiff.Diff(before, after, screendiff.Options{})
	if err != nil {
		r.changes.Fail(id, fmt.Sprintf("the diff of %s could not be taken: %v", what, err))
		return
	}
	r.changes.Add(id, line, before, res)
}

// assertChange checks what the previous action changed: a stored diff, or
// the page now against the baseline.
func (r *trailRun) assertChange(a trail.AssertChange) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		a, err := expandChange(a, r.vals)
		if err != nil {
			return done{}, err
		}
		var ev *assertchange.Evidence
		if a.IsLive() {
			if ev, err = r.liveChange(ctx, p, a); err != nil {
				return done{change: ev}, err
			}
		} else {
			ev = r.storedChange(a)
		}
		d := done{change: ev}
		if ev.Pass {
			d.summary = fmt.Sprintf("%d check(s) passed on the %s diff %s (%s)", len(ev.Checks), ev.Source, ev.DiffID, plural(len(ev.Changes), "change"))
			return d, nil
		}
		return d, changeFailed(a, ev)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// storedChange checks the diff of the previous action, or the one
// a.DiffID names.
func (r *trailRun) storedChange(a trail.AssertChange) *assertchange.Evidence {
	return r.changes.CheckStored(a)
}

// liveChange runs a's live checks on the page now, diffed against the
// baseline: once, or with retry again until they pass or the budget runs
// out. Unless keepBaseline, the baseline is consumed.
func (r *trailRun) liveChange(ctx context.Context, p *tab, a trail.AssertChange) (*assertchange.Evidence, error) {
	id, before, none := r.changes.Baseline()
	if none != nil {
		return none, nil
	}
	if a.KeepBaseline == nil || !*a.KeepBaseline {
		defer r.changes.ConsumeBaseline()
	}
	look := func(ctx context.Context) (*screen.Screen, error) {
		s, _, err := p.lookCovered(ctx)
		return s, err
	}
	wait := func(ctx context.Context, attempt int, deadline time.Time) {
		p.waitChange(ctx, p.seq, min(backoff(attempt), time.Until(deadline)+time.Millisecond))
		// A transition moves boxes without a DOM change the watcher
		// counts: capture again whatever it says.
		p.acted()
	}
	return assertchange.Live(ctx, a, id, before, look, wait, r.appPath)
}

// changeFailed is the step error of an assertChange that did not pass: an
// app-bug with the diff as its evidence, or missing-test-data when there
// was nothing to check against.
func changeFailed(a trail.AssertChange, ev *assertchange.Evidence) *stepError {
	if ev.Error != nil {
		return &stepError{Reason: StopAssertionFailed, Class: ClassMissingTestData, Line: a.SourceLine(),
			Msg: fmt.Sprintf("assertChange: %s: %s", ev.Error.Code, ev.Error.Message)}
	}
	failed := ev.Failed()
	se := &stepError{Reason: StopAssertionFailed, Class: ClassAppBug, Line: a.SourceLine()}
	se.Msg = fmt.Sprintf("assertChange on the %s diff %s: %s", ev.Source, ev.DiffID, strings.Join(failed, "; "))
	if len(ev.Checks) > 0 {
		for _, c := range ev.Checks {
			if !c.Pass {
				se.Expected, se.Actual = c.Check, c.Detail
				break
			}
		}
	}
	if ev.Navigated {
		se.Msg += fmt.Sprintf(" (the page moved from %s since the baseline)", ev.BaselineURL)
	}
	return se
}

// expandChange fills in the references of an assertChange's selectors and
// URL.
func expandChange(a trail.AssertChange, v *values) (trail.AssertChange, error) {
	var err error
	sels := func(in []selector.Selector) []selector.Selector {
		if in == nil {
			return nil
		}
		out := make([]selector.Selector, len(in))
		for i, s := range in {
			if err == nil {
				out[i], err = expandSelector(s, v)
			}
		}
		return out
	}
	matches := func(in []trail.ChangeMatch) []trail.ChangeMatch {
		if in == nil {
			return nil
		}
		out := make([]trail.ChangeMatch, len(in))
		for i, m := range in {
			out[i] = m
			if m.Selector != nil && err == nil {
				var s selector.Selector
				s, err = expandSelector(*m.Selector, v)
				out[i].Selector = &s
			}
		}
		return out
	}
	a.MustInclude, a.MustNotInclude, a.Only = matches(a.MustInclude), matches(a.MustNotInclude), matches(a.Only)
	a.BecameVisible, a.BecameCovered = sels(a.BecameVisible), sels(a.BecameCovered)
	a.Exists, a.NotCovered, a.Ignore = sels(a.Exists), sels(a.NotCovered), sels(a.Ignore)
	if err == nil && a.URL != "" {
		a.URL, err = v.url(a.URL, "assertChange's url")
	}
	if err != nil {
		return a, missingValue(err)
	}
	return a, nil
}
