package replay

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// Assertions wait for visibility only (never for actionability) and until
// they pass or the action timeout passes, noting each distinct thing they
// read while waiting. A failed assertion says what it expected and what the
// page showed whenever the page shows something in its place.

// assertVisible: exactly one visible element matches.
func (r *trailRun) assertVisible(sel selector.Selector) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return done{}, err
		}
		d, err := awaitMatch(ctx, p, s)
		if err != nil {
			return d, assertionFailed(p, trail.ActionAssertVisible, s, err, r.opts.ActionTimeout)
		}
		d.summary = "saw " + diagnose.Describe(d.node)
		return d, nil
	}
}

// awaitMatch waits until sel names exactly one shown element (the done's
// node), noting on the way what the selector (or, when it found nothing,
// the same selector without its text) read.
func awaitMatch(ctx context.Context, p *tab, sel selector.Selector) (done, error) {
	var d done
	var reads readLog
	err := p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
		nodes, err := m.Match(sel)
		if err == nil {
			d.node = nodes[0]
			return true, nil
		}
		reads.add(observe(m, sel, err))
		return false, err
	})
	d.reads = reads.items
	return d, err
}

// observe says in words what a selector that failed to match read.
func observe(m *selector.Matcher, sel selector.Selector, err error) string {
	var nf *selector.NotFoundError
	if errors.As(err, &nf) {
		if n, loose, ok := diagnose.RelaxedMatch(m, sel); ok {
			return fmt.Sprintf("%s shows %q", loose, diagnose.ShownText(n, sel))
		}
	}
	return err.Error()
}

// assertionFailed turns what an assertion's wait (of up to waited) ended
// with into its step error: expected vs actual when the page shows
// something in the selector's place, the closest nodes otherwise.
func assertionFailed(p *tab, kind trail.ActionKind, sel selector.Selector, err error, waited time.Duration) error {
	var se *stepError
	if errors.As(err, &se) {
		return se
	}
	what := string(kind) + " " + sel.String()
	var amb *selector.AmbiguousError
	if errors.As(err, &amb) {
		return &stepError{Reason: StopAmbiguous, Msg: what + ": " + err.Error(), Err: err}
	}
	var nf *selector.NotFoundError
	if errors.As(err, &nf) {
		if s := p.screen; s != nil {
			if n, loose, ok := diagnose.ShownInItsPlace(p.matcher, sel); ok {
				exp, act := diagnose.Pinned(sel), diagnose.ShownText(n, sel)
				return &stepError{Reason: StopAssertionFailed, Expected: exp, Actual: act, Err: err,
					Msg: fmt.Sprintf("%s: expected %q, but %s shows %q (%s)", what, exp, loose, act, diagnose.Describe(n))}
			}
			if exp, act, says, ok := diagnose.ScopeEvidence(s, sel, p.lastTarget, err); ok {
				return &stepError{Reason: StopAssertionFailed, Expected: exp, Actual: act, Selector: &sel, Err: err,
					Msg: what + ": " + says}
			}
			// Also when a hidden element still holds the text (a list that
			// closed, beside the one that opened in its place): what shows
			// where the step acted is what the app shows now.
			if kind == trail.ActionAssertVisible && !nf.Scope {
				if n := diagnose.ChangedValue(s, sel, p.lastTarget); n != nil {
					return changedValueError(what, sel, n, err)
				}
				if n := diagnose.ChangedWords(s, sel, p.lastTarget); n != nil {
					return changedWordsError(what, sel, n, err)
				}
			}
		}
		return &stepError{Reason: StopAssertionFailed, Selector: &nf.Selector, Err: err,
			Msg: fmt.Sprintf("%s: waited %s, but %s", what, waited, err)}
	}
	return err
}

// changedValueError is the error of an assertion whose pinned text shows
// with other numbers on n (see diagnose.ChangedValue): expected vs actual, and the
// selector, so that the failure still lists the closest nodes.
func changedValueError(what string, sel selector.Selector, n *screen.Node, err error) *stepError {
	shown := selector.StripTextGlyphs(n.Text) // as it was compared
	return &stepError{Reason: StopAssertionFailed, Expected: sel.Text, Actual: shown, Selector: &sel, Err: err,
		Msg: fmt.Sprintf("%s: expected %q, but %s shows %q in its place (the same text with other numbers)",
			what, sel.Text, diagnose.DescribeChanged(n), shown)}
}

// changedWordsError is the error of an assertion whose pinned text shows
// with some of its words changed on n (see diagnose.ChangedWords).
func changedWordsError(what string, sel selector.Selector, n *screen.Node, err error) *stepError {
	shown := selector.StripTextGlyphs(n.Text) // as it was compared
	return &stepError{Reason: StopAssertionFailed, Expected: sel.Text, Actual: shown, Selector: &sel, Err: err,
		Msg: fmt.Sprintf("%s: expected %q, but %s shows %q in its place (the same text with other words)",
			what, sel.Text, diagnose.DescribeChanged(n), shown)}
}

// assertNotVisible: no visible element's text or name is text, on a page
// that has settled after the action before it (see wait_settle.go): a look
// before the app has answered would pass on a page that shows text a
// moment later. While text shows, it waits for the page to change and to
// settle again, up to the action timeout.
func (r *trailRun) assertNotVisible(text string) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		t, err := r.vals.expand(text)
		if err != nil {
			return d, err
		}
		start := time.Now()
		deadline := start.Add(r.opts.ActionTimeout)
		var reads readLog
		end := func(err error) (done, error) {
			d.reads = reads.items
			return d, err
		}
		st := p.awaitSettled(ctx, start, deadline, &reads)
		for {
			if gone := p.nav.gone(); gone != nil {
				return end(gone)
			}
			if broken := p.brokenDocument(); broken != nil {
				return end(broken)
			}
			if ctx.Err() != nil {
				return end(ctx.Err())
			}
			_, m, err := p.look(ctx)
			var shown *screen.Node
			if err == nil {
				if shown = visibleWith(m, t); shown == nil {
					d.summary = fmt.Sprintf("nothing visible reads %q %s", t, st)
					return end(nil)
				}
				reads.add("visible: " + diagnose.NodeLine(shown))
			}
			if time.Now().After(deadline) {
				if shown == nil {
					return end(err)
				}
				d.node = shown
				how := "once the page had settled"
				if !st.settled {
					how = "and " + st.String()
				}
				return end(&stepError{Reason: StopAssertionFailed, Expected: fmt.Sprintf("nothing visible reads %q", t),
					Actual: diagnose.NodeLine(shown),
					Msg:    fmt.Sprintf("assertNotVisible %q: %s is still visible after %s, %s", t, diagnose.Describe(shown), r.opts.ActionTimeout, how)})
			}
			// It shows (or the page could not be read): it may yet go, as
			// a message that fades does. Wait for the page to change, and
			// for it to settle again; a page that did not change is as
			// settled as it was.
			seq := p.seq
			p.waitChange(ctx, seq, time.Until(deadline)+time.Millisecond)
			if now, err := p.changeSeq(ctx); err != nil || now != seq || !st.settled {
				st = p.awaitSettled(ctx, start, deadline, &reads)
			}
		}
	}
}

// visibleWith returns a shown element whose text or name is t, or nil.
func visibleWith(m *selector.Matcher, t string) *screen.Node {
	for _, sel := range []selector.Selector{{Text: t}, {Name: t}} {
		nodes, err := m.Match(sel)
		var amb *selector.AmbiguousError
		if err == nil || (errors.As(err, &amb) && len(nodes) > 0) {
			return nodes[0]
		}
	}
	return nil
}

// assertValue: a form control's value. Never for secrets.
func (r *trailRun) assertValue(sel selector.Selector, value string) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return done{}, err
		}
		want, err := r.vals.expand(value)
		if err != nil {
			return done{}, err
		}
		return assertNode(ctx, p, trail.ActionAssertValue, s, "value", want, func(n *screen.Node) (string, error) {
			if n.Secret {
				return "", &stepError{Reason: StopAssertionFailed, Class: ClassMissingTestData,
					Msg: fmt.Sprintf("assertValue %s: %s is a secret field, whose value replay never reads; check that it is there with assertVisible", s, diagnose.Describe(n))}
			}
			return n.Value, nil
		}, r.opts.ActionTimeout)
	}
}

// assertState: one state of an element.
func (r *trailRun) assertState(sel selector.Selector, state, want string) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return done{}, err
		}
		return assertNode(ctx, p, trail.ActionAssertState, s, state, want, func(n *screen.Node) (string, error) {
			return stateOf(n, state)
		}, r.opts.ActionTimeout)
	}
}

// stateOf reads a state of a node in the form assertState compares.
func stateOf(n *screen.Node, state string) (string, error) {
	switch state {
	case trail.StateChecked:
		return checkedState(n), nil
	case trail.StateDisabled:
		return strconv.FormatBool(n.Disabled), nil
	case trail.StateExpanded:
		return strconv.FormatBool(n.Expanded != nil && *n.Expanded), nil
	case trail.StateSelected:
		return strconv.FormatBool(n.Selected != nil && *n.Selected), nil
	}
	return "", fmt.Errorf("unknown state %q", state)
}

// assertNode waits until sel names one element whose property (read by
// read) is want; waited is how long the wait may take, for its error.
func assertNode(ctx context.Context, p *tab, kind trail.ActionKind, sel selector.Selector, prop, want string,
	read func(*screen.Node) (string, error), waited time.Duration) (done, error) {
	var d done
	var got string
	var node *screen.Node
	var reads readLog
	err := p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
		nodes, err := m.Match(sel)
		if err != nil {
			node = nil
			reads.add(observe(m, sel, err))
			return false, err
		}
		node = nodes[0]
		d.node = node
		if got, err = read(node); err != nil {
			return false, err
		}
		reads.add(fmt.Sprintf("%s %q", prop, got))
		return got == want, nil
	})
	d.reads = reads.items
	var se *stepError
	switch {
	case errors.As(err, &se):
		return d, se
	case node != nil && got != want:
		return d, &stepError{Reason: StopAssertionFailed, Expected: want, Actual: got,
			Msg: fmt.Sprintf("%s %s: expected %s %q, but %s has %q", kind, sel, prop, want, diagnose.Describe(node), got)}
	case err != nil:
		return d, assertionFailed(p, kind, sel, err, waited)
	}
	d.summary = fmt.Sprintf("%s of %s is %q", prop, diagnose.Describe(node), want)
	return d, nil
}

// assertURL: the page's path and query, exactly or matching a pattern.
func (r *trailRun) assertURL(a trail.AssertURL) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		want, err := r.vals.url(a.URL, "assertUrl")
		if err != nil {
			return d, err
		}
		var re *regexp.Regexp
		if a.Pattern != "" {
			if re, err = regexp.Compile(a.Pattern); err != nil {
				return d, fmt.Errorf("assertUrl pattern %q: %w", a.Pattern, err)
			}
		}
		var at string
		var reads readLog
		err = p.poll(ctx, false, func(*screen.Screen, *selector.Matcher) (bool, error) {
			at = r.appPath(p.location(ctx))
			if !strings.Contains(want, "#") {
				at, _, _ = strings.Cut(at, "#")
			}
			reads.add("at " + at)
			if re != nil {
				return re.MatchString(at), nil
			}
			return at == want, nil
		})
		d.reads = reads.items
		if err == nil {
			d.summary = "the page is at " + at
			return d, nil
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return d, err
		}
		exp := want
		if re != nil {
			exp = "pattern " + a.Pattern
		}
		return d, &stepError{Reason: StopAssertionFailed, Expected: exp, Actual: at, ExpectedURL: want,
			Msg: fmt.Sprintf("assertUrl: expected the page at %s, but it is at %s", exp, at)}
	}
}
