package replay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
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
	r.stepStartedWithPassword = diagnose.HasPasswordField(before)
	r.stepStart = before
	r.page.dragStart = nil

	run := r.replayOrHandOff(ctx, i)
	if sr.Cache != CacheHit && !run.observed {
		// The agent acted, unobserved: no diff of a recorded action
		// describes the page it left.
		r.changes.Forget()
	}

	sr.Duration = time.Since(sr.Started)
	sr.Performed, sr.Stopped = run.performed, run.reason
	// The screen the step ends on: the last one its assertions or end
	// state read, or a new capture when it ended by acting on the page.
	after := r.page.screen
	if (after == nil || r.page.stale) && r.page.nav.gone() == nil && ctx.Err() == nil {
		after, _, _ = r.page.look(ctx)
	}
	sr.Changes = diagnose.ScreenChanges(before, after, r.appPath)
	if after != nil && (run.err != nil || i == len(r.trail.Steps)-1 || r.appPath(after.URL) != sr.Path) {
		last := r.page.byPath[sr.Path]
		if last == nil {
			last = after
		}
		sr.Aria = screen.RenderSnapshot(last, screen.SnapshotOptions{Interactive: true})
	}
	if run.err != nil {
		r.stop(i, run.err)
		r.notify(*sr)
		return false
	}
	if sr.Status != StatusHealed {
		sr.Status = StatusPassed
	}
	r.notify(*sr)
	return true
}

func (r *trailRun) notify(sr StepResult) {
	if r.opts.OnStep != nil {
		redactStep(&sr, r.redactor)
		r.opts.OnStep(sr)
	}
}

// A stepRun is what replaying a step's recording did: the record the agent
// hand-off starts from.
type stepRun struct {
	// performed counts the recorded actions performed: all of them when
	// the recording ran to its end, else those before the one that stopped.
	performed int
	// reason says why replay stopped ("" when the recording ran to its end
	// and the end state showed); err is the error that stopped it.
	reason StopReason
	err    *stepError
	// done is what each action it ran did, in order, the one that stopped
	// included.
	done []done
	// observed says the agent's part of the step was observed for the
	// assertChange after it (its diff is the last one stored).
	observed bool
}

// runStep replays step i's recording from its first action, in order,
// until an action fails or the step's end state does not show. The agent
// hand-off calls it and continues from exactly where it stopped.
func (r *trailRun) runStep(ctx context.Context, i int) stepRun {
	st := r.trail.Steps[i]
	sr := &r.res.Steps[i]
	var run stepRun
	stop := func(err error) stepRun {
		run.err = asStepError(err)
		run.reason = run.err.Reason
		return run
	}
	if len(st.Actions) == 0 {
		return stop(&stepError{Reason: StopNeedsAgent, Class: ClassMissingTestData, Line: st.Line,
			Msg: fmt.Sprintf("step %d is a goal for the agent (act: %q) and has no recorded actions", i+1, st.Act)})
	}
	r.replaying = r.opts.canHandOff()
	defer func() { r.replaying = false }()
	for j, a := range st.Actions {
		d, err := r.perform(ctx, a, nextAction(r.trail.Steps, i, j), r.diffIDs[trail.ActionAt{Step: i, Action: j}], &sr.Actions[j])
		run.done = append(run.done, d)
		if err != nil {
			return stop(asStepError(err))
		}
		run.performed++
		if a.Kind().IsAssertion() {
			r.checkPassed(fmt.Sprintf("%s (line %d)", a.Kind(), a.SourceLine()))
		}
	}
	if st.End != nil {
		if err := r.checkEnd(ctx, st.End); err != nil {
			run = stop(err)
			run.reason = StopEndMismatch
			return run
		}
		r.checkPassed(fmt.Sprintf("the end state of step %d (line %d)", i+1, st.End.Line))
	}
	return run
}

// nextAction is the action after action j of step i of steps, across
// steps; nil at the end.
func nextAction(steps []trail.Step, i, j int) trail.Action {
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

// perform plays one recorded action on the run's current tab and writes
// what it did into its result: the runner's part is to arm a dialog answer
// before the action that opens it, to follow a switch of tab, to keep
// the element it landed on for the closest nodes of a later failure, and
// to observe the action an assertChange follows (diffID is its id, "" for
// any other).
func (r *trailRun) perform(ctx context.Context, a, next trail.Action, diffID string, ar *ActionResult) (done, error) {
	start := time.Now()
	if d, ok := next.(trail.Dialog); ok {
		r.dialogs.arm(d)
	}
	p := r.page
	// Only an action an assertChange checks pays for the screen before it
	// and the diff after it.
	observe := diffID != ""
	var before *screen.Screen
	var beforeErr error
	if observe {
		before, beforeErr = screenBefore(ctx, p)
		// A pointer action reads it again at its press, after the scroll
		// that brought its target into view: what that scroll showed (a
		// "back to top" link) is on the page before the press, as it was
		// at the recording.
		p.atPress = func() {
			if s, err := screenBefore(ctx, p); err == nil {
				before, beforeErr = s, nil
			}
		}
		defer func() { p.atPress = nil }()
	}
	if !a.Kind().IsAssertion() {
		p.nav.requests.acting()
	}
	// The page's wrapper of setTimeout follows the timers each action
	// sets from here to its end (wait_timers.go): a type an action
	// follows waits for them after it (afterTyping), the hold of a
	// step's end values and the settle of an absence after it too. A key
	// the person pressed at once after the typing (atOnce) came before the
	// page acted on it, and is pressed so (docs/trail-format.md, press).
	_, typed := a.(trail.TypeText)
	typed = typed && next != nil && !next.Kind().IsAssertion() && !pressedAtOnce(next)
	follow := !a.Kind().IsAssertion()
	timed := follow && p.actionTimers(ctx, "open", 0) >= 0
	d, err := r.play(a)(ctx, p)
	if d.page != nil {
		r.page = d.page
	}
	if timed {
		// The top document's wrapper sees the timers of the top
		// document alone, and only of the document it opened on.
		timed = p.actionTimers(ctx, "close", 0) >= 0 && r.page == p && (d.node == nil || !inFrame(d.node.Ref))
	}
	if follow {
		r.page.timersFollowed = timed
	}
	if typed && err == nil {
		r.page.afterTyping(ctx, &d, timed)
	}
	switch _, check := a.(trail.AssertChange); {
	case err == nil && observe:
		r.observe(ctx, diffID, fmt.Sprintf("%s (line %d)", a.Kind(), a.SourceLine()), a.SourceLine(), before, beforeErr)
	case !check:
		r.changes.Forget()
	}
	ar.Change = d.change
	if d.node != nil {
		p.lastTarget = d.node.Ref
	}
	ar.Duration = time.Since(start)
	ar.Summary, ar.Landed, ar.Reads, ar.Navigations = d.summary, d.landed, d.reads, d.navigations
	if ar.Landed == "" && d.node != nil {
		ar.Landed = diagnose.NodeLine(d.node)
	}
	if err == nil {
		ar.Status = StatusPassed
		return d, nil
	}
	if _, ok := next.(trail.Dialog); ok {
		r.dialogs.disarm()
	}
	se := r.actionError(a, d, err)
	ar.Status = StatusFailed
	ar.Error = se.Msg
	return d, se
}

// pressedAtOnce says whether a is a key the person pressed at once after
// the typing before it, before the page acted on what was typed: a search
// box's Enter that went to the results of the search before the typing
// (docs/recording.md, Random walks on the real apps: JSONEditor's seed 3
// at 60 actions).
func pressedAtOnce(a trail.Action) bool {
	p, ok := a.(trail.Press)
	return ok && p.AtOnce
}

// actionError turns what stopped an action into its step error, with its
// stop reason: what the error says, and whether input had been sent.
func (r *trailRun) actionError(a trail.Action, d done, err error) *stepError {
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
		if notReady.state == "read-only" {
			se.Expected = "editable (not read-only)"
		}
		se.Actual = notReady.state
		se.Msg = fmt.Sprintf("%s: waited %s, but %s", what, r.targetTimeout(), err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return asStepError(err)
	case errors.Is(err, errTabCrashed), errors.Is(err, errTabGone):
		se.gone = true
	}
	if d.reached && se.Reason == StopActionFailed {
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
		u, err := r.vals.url(end.URL, "an end state's url")
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
	values, err := expandEndValues(end.Values, r.vals)
	if err != nil {
		return missingValue(err)
	}
	deadline := time.Now().Add(r.opts.ActionTimeout)
	p := r.page
	held := false // the values matched at the last look
	for attempt := 0; ; attempt++ {
		var problem string
		var missing *selector.Selector
		var missed error
		var seen *selector.Matcher
		var valueErr *stepError
		at := r.appPath(p.location(ctx))
		if wantURL != "" && !diagnose.SamePath(at, wantURL) {
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
					missing, missed, seen = &shows[i], err, m
					break
				}
			}
			if problem == "" {
				if valueErr = endValueMismatch(m, values); valueErr != nil {
					problem = valueErr.Msg
				}
			}
		}
		if problem == "" {
			if len(values) == 0 || held {
				return nil
			}
			// The values must hold: a page that puts the old value back a
			// moment after the action shows it at the next look.
			held = true
			if err := p.holdValues(ctx); err != nil {
				return asStepError(err)
			}
			// A value a script set fires no event the watcher sees: look
			// afresh.
			p.acted()
			continue
		}
		held = false
		if valueErr != nil {
			p.acted() // the next look captures again, as above
		}
		if valueErr != nil && p.nav.gone() == nil && p.brokenDocument() == nil && ctx.Err() == nil && time.Now().After(deadline) {
			valueErr.Line = end.Line
			return valueErr
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
			if missing != nil && !se.gone && broken == nil {
				shownInPlace(se, seen, p, *missing, missed)
			}
			return se
		}
		p.waitChange(ctx, p.seq, min(backoff(attempt), time.Until(deadline)+time.Millisecond))
	}
}

// shownInPlace adds to the error of an end state that did not show sel
// what the page shows in its place, as a failed assertion says it: the
// element sel names without its text, or the same text with other numbers
// or words where the step acted. That is the app showing something else (app-bug,
// expected vs actual), not a node gone missing.
func shownInPlace(se *stepError, m *selector.Matcher, p *tab, sel selector.Selector, err error) {
	var nf *selector.NotFoundError
	if m == nil || !errors.As(err, &nf) {
		return
	}
	if n, loose, ok := diagnose.ShownInItsPlace(m, sel); ok {
		se.Expected, se.Actual = diagnose.Pinned(sel), diagnose.ShownText(n, sel)
		se.Msg = fmt.Sprintf("the step's end state did not show %s: expected %q, but %s shows %q (%s)",
			sel, se.Expected, loose, se.Actual, diagnose.Describe(n))
		return
	}
	if exp, act, says, ok := diagnose.ScopeEvidence(m.Screen(), sel, p.lastTarget, err); ok {
		se.Expected, se.Actual = exp, act
		se.Msg = fmt.Sprintf("the step's end state did not show %s: %s", sel, says)
		return
	}
	if nf.Scope || nf.Hidden != 0 {
		return
	}
	if leftInPlace(se, m, p.dragStart, sel) {
		return
	}
	how := "numbers"
	n := diagnose.ChangedValue(m.Screen(), sel, p.lastTarget)
	if n == nil {
		how, n = "words", diagnose.ChangedWords(m.Screen(), sel, p.lastTarget)
	}
	if n != nil {
		shown := selector.StripTextGlyphs(n.Text) // as it was compared
		se.Expected, se.Actual = sel.Text, shown
		se.Msg = fmt.Sprintf("the step's end state did not show %s: expected %q, but %s shows %q in its place (the same text with other %s)",
			sel, sel.Text, diagnose.DescribeChanged(n), shown, how)
		return
	}
	if n := diagnose.StillThere(p.r.stepStart, m.Screen(), sel); n != nil {
		_, read, _ := diagnose.PinnedRead(sel)
		se.Expected, se.Actual = diagnose.Pinned(sel), read(n)
		se.Msg = fmt.Sprintf("the step's end state did not show %s: the page still shows what it showed when the step began, where the step should have changed it (%s, as before)",
			sel, diagnose.DescribeShown(n, read(n)))
	}
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
