package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The screen after an observed action is taken once the page is quiet, as
// the agent's is (agentQuiet, agentQuietMax): an app answers a tap a moment
// later, and a diff taken in between would say the action did nothing.

// before is the screen an observed action starts from.
func (r *trailRun) before(ctx context.Context, p *tab) (*screen.Screen, error) {
	s, _, err := p.lookCovered(ctx)
	return s, err
}

// observed stores the diff of an action that ran: from before to the page
// once it is quiet. When either screen is missing, the assertChange after
// it has no baseline, and says why.
func (r *trailRun) observed(ctx context.Context, id string, a trail.Action, before *screen.Screen, beforeErr error) {
	r.observe(ctx, id, fmt.Sprintf("%s (line %d)", a.Kind(), a.SourceLine()), a.SourceLine(), before, beforeErr)
}

// observe stores the diff of what happened since before under id; what
// names it (an action and its line, the agent's part of a step) in the
// reason a missing screen gives.
func (r *trailRun) observe(ctx context.Context, id, what string, line int, before *screen.Screen, beforeErr error) {
	if beforeErr != nil {
		r.changes.fail(id, fmt.Sprintf("the page could not be captured before %s: %v", what, beforeErr))
		return
	}
	p := r.page
	p.awaitQuiet(ctx, agentQuiet, agentQuietMax)
	after, _, err := p.lookCovered(ctx)
	if err != nil {
		r.changes.fail(id, fmt.Sprintf("the page could not be captured after %s: %v", what, err))
		return
	}
	res, err := screendiff.Diff(before, after, screendiff.Options{})
	if err != nil {
		r.changes.fail(id, fmt.Sprintf("the diff of %s could not be taken: %v", what, err))
		return
	}
	r.changes.add(id, line, before, res)
}

// assertChange checks what the previous action changed: a stored diff, or
// the page now against the baseline.
func (r *trailRun) assertChange(a trail.AssertChange) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		a, err := expandChange(a, r.vals)
		if err != nil {
			return done{}, err
		}
		var ev *ChangeEvidence
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
func (r *trailRun) storedChange(a trail.AssertChange) *ChangeEvidence {
	return checkStoredIn(&r.changes, a)
}

// checkStoredIn checks a's stored diff as the store holds it.
func checkStoredIn(s *changeStore, a trail.AssertChange) *ChangeEvidence {
	d := s.last
	if a.DiffID != "" {
		var cerr *ChangeError
		if d, cerr = s.lookup(a.DiffID); cerr != nil {
			return unavailable(EvidenceStored, cerr)
		}
	}
	if d == nil {
		return unavailable(EvidenceStored, s.noBaseline())
	}
	ev := evidenceOf(EvidenceStored, d.id, d.result)
	checkStored(ev, d.result, a)
	return ev
}

// noBaseline says why there is no diff to check.
func (s *changeStore) noBaseline() *ChangeError {
	msg := "no baseline: the action right before this assertChange was not observed (it failed, or the agent did not reach the goal of its step)"
	if s.missing != "" {
		msg = "no baseline: " + s.missing
	}
	return &ChangeError{Code: ErrNoBaseline, Message: msg}
}

// ErrNoBaseline is the code of an assertChange with no observed action
// before it, or whose baseline a live check consumed.
const ErrNoBaseline = "NO_BASELINE"

// liveChange runs a's live checks on the page now, diffed against the
// baseline: once, or with retry again until they pass or the budget runs
// out. Unless keepBaseline, the baseline is consumed.
func (r *trailRun) liveChange(ctx context.Context, p *tab, a trail.AssertChange) (*ChangeEvidence, error) {
	base := r.changes.baseline
	if base == nil {
		cerr := r.changes.noBaseline()
		if r.changes.last != nil {
			cerr.Message = "no baseline: a live assertChange before this one consumed it (give that one keepBaseline: true)"
		}
		return unavailable(EvidenceLive, cerr), nil
	}
	if a.KeepBaseline == nil || !*a.KeepBaseline {
		defer func() { r.changes.baseline = nil }()
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
	return liveChecks(ctx, a, base.id, base.before, look, wait, r.appPath)
}

// liveChecks is the loop of a live assertChange: it captures the page
// (look), diffs it against the baseline before and checks a, once or, with
// retry, again after wait until the checks pass or the budget runs out.
// path gives a URL as the trail writes it.
func liveChecks(ctx context.Context, a trail.AssertChange, id string, before *screen.Screen,
	look func(context.Context) (*screen.Screen, error), wait func(context.Context, int, time.Time), path func(string) string) (*ChangeEvidence, error) {
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
	var ev *ChangeEvidence
	for attempt := 0; ; attempt++ {
		s, err := look(ctx)
		if err != nil {
			return nil, err
		}
		res, err := screendiff.Diff(before, s, screendiff.Options{Ignore: a.Ignore})
		if err != nil {
			ev = evidenceOf(EvidenceLive, id, nil)
			check := "ignore"
			if errors.Is(err, screendiff.ErrNoScreen) {
				check = "baseline"
			}
			ev.Checks = append(ev.Checks, ChangeCheck{Check: check, Detail: err.Error()})
			ev.Attempts = attempt + 1
			return ev, nil
		}
		ev = evidenceOf(EvidenceLive, id, res)
		checkLive(ev, s, path(s.URL), a)
		ev.Attempts = attempt + 1
		if ev.Pass || a.Retry == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return ev, ctx.Err()
		}
		wait(ctx, attempt, deadline)
	}
}

// CheckChange runs an assertChange a for the agent, through the code a
// trail's assertChange runs: its stored checks on the diff from before to
// after (the screens around the agent's last action, id naming it), or its
// live checks on the page now (look captures it, with coverage) against
// before. path gives a URL as the trail writes it (path and query). a's
// references must be filled in. A page that cannot be captured is an
// error; anything else that cannot be checked is a result that does not
// pass.
func CheckChange(ctx context.Context, a trail.AssertChange, id string, before, after *screen.Screen,
	look func(context.Context) (*screen.Screen, error), path func(string) string) (*ChangeEvidence, error) {
	if before == nil {
		return unavailable(sourceOf(a), &ChangeError{Code: ErrNoBaseline, Message: "no baseline: no action was taken since the step started"}), nil
	}
	if a.IsLive() {
		wait := func(ctx context.Context, attempt int, deadline time.Time) {
			select {
			case <-ctx.Done():
			case <-time.After(min(backoff(attempt), time.Until(deadline)+time.Millisecond)):
			}
		}
		return liveChecks(ctx, a, id, before, look, wait, path)
	}
	res, err := screendiff.Diff(before, after, screendiff.Options{})
	if err != nil {
		return unavailable(EvidenceStored, &ChangeError{Code: ErrDiffUnavailable, Message: "the diff could not be taken: " + err.Error()}), nil
	}
	ev := evidenceOf(EvidenceStored, id, res)
	checkStored(ev, res, a)
	return ev, nil
}

func sourceOf(a trail.AssertChange) string {
	if a.IsLive() {
		return EvidenceLive
	}
	return EvidenceStored
}

// changeFailed is the step error of an assertChange that did not pass: an
// app-bug with the diff as its evidence, or missing-test-data when there
// was nothing to check against.
func changeFailed(a trail.AssertChange, ev *ChangeEvidence) *stepError {
	if ev.Error != nil {
		return &stepError{Reason: StopAssertionFailed, Class: ClassMissingTestData, Line: a.SourceLine(),
			Msg: fmt.Sprintf("assertChange: %s: %s", ev.Error.Code, ev.Error.Message)}
	}
	failed := ev.failed()
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
