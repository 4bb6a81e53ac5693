package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A stepError is why replay stopped inside a step: the stop reason the
// agent hand-off starts from, a sentence for people, and the facts the
// classifier and the trace page need.
type stepError struct {
	Reason StopReason
	// Class is set when the cause alone decides the class (a missing
	// value); otherwise classify decides from the evidence.
	Class FailureClass
	Msg   string
	// Expected and Actual: what a check wanted and what the page showed.
	Expected, Actual string
	// Missing names the variable to set for missing test data.
	Missing string
	// Line is the trail file line of the action or end state that failed.
	Line int
	// Selector is a selector that matched nothing; the failure screen
	// lists the nodes closest to it.
	Selector *selector.Selector
	// ExpectedURL is the path the failing check expected the page on, when
	// it said ("" otherwise).
	ExpectedURL string
	Err         error
	// gone: the tab or the browser went away.
	gone bool
}

func (e *stepError) Error() string { return e.Msg }
func (e *stepError) Unwrap() error { return e.Err }

// asStepError gives any error that stopped a step its stop reason.
func asStepError(err error) *stepError {
	var se *stepError
	if errors.As(err, &se) {
		return se
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return &stepError{Reason: StopTimeout, Msg: "the trail ran out of time (replay.trailTimeout): " + err.Error(), Err: err}
	case errors.Is(err, context.Canceled):
		return &stepError{Reason: StopCancelled, Msg: "the run was cancelled", Err: err}
	case errors.Is(err, errTabCrashed), errors.Is(err, errTabGone):
		return &stepError{Reason: StopActionFailed, Msg: err.Error(), Err: err, gone: true}
	}
	return &stepError{Reason: StopActionFailed, Msg: err.Error(), Err: err}
}

// playStep runs step i and records its result. It returns false when the
// trail must stop.
func (r *trailRun) playStep(ctx context.Context, i int) bool {
	sr := &r.res.Steps[i]
	r.log.setStep(i + 1)
	sr.Started = time.Now()
	sr.Path = r.appPath(r.page.location(ctx))
	r.page.byPath = map[string]*screen.Screen{}
	// The screen the step starts from is the last one replay saw (at the
	// end of the step before): capturing again here would cost a capture
	// of the whole page per step only for the summary of changes.
	before := r.page.screen
	r.stepStartedWithPassword = hasPasswordField(before)

	performed, reason, err := r.runStep(ctx, i)

	sr.Duration = time.Since(sr.Started)
	sr.Performed, sr.Stopped = performed, reason
	// The screen the step ends on: the last one its assertions or end
	// state read, or a new capture when it ended by acting on the page.
	after := r.page.screen
	if (after == nil || r.page.stale) && r.page.nav.gone() == nil && ctx.Err() == nil {
		after, _, _ = r.page.look(ctx)
	}
	sr.Changes = screenChanges(before, after, r.appPath)
	if after != nil && (err != nil || i == len(r.trail.Steps)-1 || r.appPath(after.URL) != sr.Path) {
		last := r.page.byPath[sr.Path]
		if last == nil {
			last = after
		}
		sr.Aria = screen.RenderSnapshot(last, screen.SnapshotOptions{Interactive: true})
	}
	if err != nil {
		r.stop(i, err)
		r.notify(*sr)
		return false
	}
	sr.Status = StatusPassed
	r.notify(*sr)
	return true
}

func (r *trailRun) notify(sr StepResult) {
	if r.opts.OnStep != nil {
		redactStep(&sr, r.redactor)
		r.opts.OnStep(sr)
	}
}

// runStep replays step i's recording from its first action and returns how
// many of its recorded actions it performed, why it stopped (empty when it
// ran to its end and the end state showed) and the error that stopped it.
// The agent hand-off calls it and continues from exactly there.
func (r *trailRun) runStep(ctx context.Context, i int) (performed int, reason StopReason, err error) {
	st := r.trail.Steps[i]
	sr := &r.res.Steps[i]
	if len(st.Actions) == 0 {
		return 0, StopNeedsAgent, &stepError{Reason: StopNeedsAgent, Class: ClassMissingTestData, Line: st.Line,
			Msg: fmt.Sprintf("step %d is a goal for the agent (act: %q) and has no recorded actions; the agent does not exist yet, so replay cannot perform it: record the step's actions", i+1, st.Act)}
	}
	for j, a := range st.Actions {
		if err := r.perform(ctx, a, r.nextAction(i, j), &sr.Actions[j]); err != nil {
			se := asStepError(err)
			if st.Act != "" {
				se.Msg += " (the step's goal is for the agent, which does not exist yet)"
			}
			return j, se.Reason, se
		}
	}
	if st.End != nil {
		if err := r.checkEnd(ctx, st.End); err != nil {
			return len(st.Actions), StopEndMismatch, err
		}
	}
	return len(st.Actions), "", nil
}

// nextAction is the action after action j of step i, across steps; nil at
// the end.
func (r *trailRun) nextAction(i, j int) trail.Action {
	steps := r.trail.Steps
	if j+1 < len(steps[i].Actions) {
		return steps[i].Actions[j+1]
	}
	for k := i + 1; k < len(steps); k++ {
		if len(steps[k].Actions) > 0 {
			return steps[k].Actions[0]
		}
		if steps[k].Act != "" {
			return nil
		}
	}
	return nil
}

// attempt is one recorded action being performed.
type attempt struct {
	res   *ActionResult
	reads *readLog
	// reached is set once input was sent: a failure after it may have
	// reached the app.
	reached bool
	// mark is the tab's navigation counters just before the input, for
	// waiting on the navigation the input started.
	mark navMark
}

// perform plays one recorded action and fills in its result.
func (r *trailRun) perform(ctx context.Context, a, next trail.Action, ar *ActionResult) error {
	start := time.Now()
	att := &attempt{res: ar, reads: &readLog{}}
	r.cur = att
	if d, ok := next.(trail.Dialog); ok {
		r.dialogs.arm(d)
	}
	err := runActions(ctx, r, r.plan(a))
	ar.Duration = time.Since(start)
	ar.Reads = att.reads.items
	if err == nil {
		ar.Status = StatusPassed
		return nil
	}
	if _, ok := next.(trail.Dialog); ok {
		r.dialogs.disarm()
	}
	se := r.actionError(a, att, err)
	ar.Status = StatusFailed
	ar.Error = se.Msg
	return se
}

// actionError turns what stopped an action into its step error.
func (r *trailRun) actionError(a trail.Action, att *attempt, err error) *stepError {
	var se *stepError
	if errors.As(err, &se) {
		if se.Line == 0 {
			se.Line = a.SourceLine()
		}
		return se
	}
	what := describeAction(a, r.vals)
	se = &stepError{Reason: StopActionFailed, Line: a.SourceLine(), Err: err, Msg: what + ": " + err.Error()}
	var notFound *selector.NotFoundError
	var ambiguous *selector.AmbiguousError
	var notReady *notActionableError
	var missing *MissingValueError
	switch {
	case errors.As(err, &missing):
		se = missingValue(err)
		se.Line = a.SourceLine()
		return se
	case errors.As(err, &ambiguous):
		se.Reason = StopAmbiguous
		se.Msg = what + ": " + err.Error() + "; nothing was clicked or typed"
	case errors.As(err, &notFound):
		se.Reason = StopTargetNotFound
		sel := notFound.Selector
		se.Selector = &sel
	case errors.As(err, &notReady):
		se.Expected = "visible, enabled, stable and not covered"
		se.Actual = notReady.state
		se.Msg = fmt.Sprintf("%s: waited %s, but %s", what, r.opts.ActionTimeout, err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return asStepError(err)
	case errors.Is(err, errTabCrashed), errors.Is(err, errTabGone):
		se.gone = true
	}
	if att.reached && se.Reason == StopActionFailed {
		se.Reason = StopActionUncertain
	}
	return se
}

// checkEnd waits until the page shows the step's recorded end state: its
// URL path, and a visible node for each shows selector (several matches
// are fine: the end state only says the node is there).
func (r *trailRun) checkEnd(ctx context.Context, end *trail.End) error {
	wantURL := ""
	if end.URL != "" {
		u, err := r.vals.expand(end.URL)
		if err != nil {
			return missingValue(err)
		}
		wantURL = u
	}
	shows := make([]selector.Selector, len(end.Shows))
	for i, sel := range end.Shows {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return missingValue(err)
		}
		shows[i] = s
	}
	deadline := time.Now().Add(r.opts.ActionTimeout)
	p := r.page
	for attempt := 0; ; attempt++ {
		var problem string
		var missing *selector.Selector
		at := r.appPath(p.location(ctx))
		if wantURL != "" && !samePath(at, wantURL) {
			problem = fmt.Sprintf("the page is at %s, not %s", at, wantURL)
		} else if _, m, err := p.look(ctx); err != nil {
			problem = err.Error()
		} else {
			for i := range shows {
				if _, err := m.Match(shows[i]); err != nil {
					var amb *selector.AmbiguousError
					if errors.As(err, &amb) && !amb.Scope {
						continue
					}
					problem = err.Error()
					missing = &shows[i]
					break
				}
			}
		}
		if problem == "" {
			return nil
		}
		broken := p.brokenDocument()
		if gone := p.nav.gone(); gone != nil || broken != nil || ctx.Err() != nil || time.Now().After(deadline) {
			se := &stepError{Reason: StopEndMismatch, Line: end.Line, ExpectedURL: wantURL, Selector: missing,
				Msg: "the step's end state did not show: " + problem}
			if gone != nil {
				se.gone, se.Err = true, gone
			} else if broken != nil {
				se.Msg += "; " + broken.Error()
				se.Err = broken
			}
			if missing == nil && wantURL != "" {
				se.Expected, se.Actual = wantURL, at
			}
			return se
		}
		p.waitChange(ctx, p.seq, min(backoff(attempt), time.Until(deadline)+time.Millisecond))
	}
}

// samePath compares a page's path with a recorded one: with the query when
// the recorded one has a query, the path alone otherwise; never the
// fragment.
func samePath(at, want string) bool {
	at, _, _ = strings.Cut(at, "#")
	want, _, _ = strings.Cut(want, "#")
	if !strings.Contains(want, "?") {
		at, _, _ = strings.Cut(at, "?")
	}
	return at == want
}

// expandSelector fills in the references of a selector's values.
func expandSelector(sel selector.Selector, v *values) (selector.Selector, error) {
	var err error
	for _, f := range []*string{&sel.Name, &sel.Text, &sel.TestID, &sel.ID, &sel.Label, &sel.Placeholder} {
		if err != nil || *f == "" {
			continue
		}
		*f, err = v.expand(*f)
	}
	if err != nil {
		return sel, err
	}
	if sel.Within != nil {
		w, err := expandSelector(*sel.Within, v)
		if err != nil {
			return sel, err
		}
		sel.Within = &w
	}
	return sel, nil
}
