package replay

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Assertions wait for visibility only (never for actionability) and until
// they pass or the action timeout passes, noting each distinct thing they
// read while waiting. A failed assertion says what it expected and what the
// page showed whenever the page shows something in its place.

// assertVisible: exactly one visible element matches.
func (r *trailRun) assertVisible(sel selector.Selector) pageAction {
	return func(ctx context.Context, p *tab) error {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return err
		}
		n, err := r.awaitMatch(ctx, p, s)
		if err != nil {
			return r.assertionFailed(trail.ActionAssertVisible, s, err)
		}
		r.cur.res.Summary = "saw " + describe(n)
		return nil
	}
}

// awaitMatch waits until sel names exactly one shown element, noting on the
// way what the selector (or, when it found nothing, the same selector
// without its text) read.
func (r *trailRun) awaitMatch(ctx context.Context, p *tab, sel selector.Selector) (*screen.Node, error) {
	var found *screen.Node
	err := p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
		nodes, err := m.Match(sel)
		if err == nil {
			found = nodes[0]
			p.lastTarget = found.Ref
			r.cur.res.Landed = nodeLine(found)
			return true, nil
		}
		r.cur.reads.add(observe(m, sel, err))
		return false, err
	})
	return found, err
}

// observe says in words what a selector that failed to match read.
func observe(m *selector.Matcher, sel selector.Selector, err error) string {
	var nf *selector.NotFoundError
	if errors.As(err, &nf) {
		if n, loose, ok := relaxedMatch(m, sel); ok {
			return fmt.Sprintf("%s shows %q", loose, shownText(n, sel))
		}
	}
	return err.Error()
}

// relaxedMatch matches sel without the text it pins (its text or
// textRegex, else its name). When that names exactly one element, the
// element is where the page shows something other than what the selector
// expected: the "actual" of an app-bug.
func relaxedMatch(m *selector.Matcher, sel selector.Selector) (*screen.Node, selector.Selector, bool) {
	loose := sel
	switch {
	case sel.Text != "" || sel.TextRegex != "":
		loose.Text, loose.TextRegex = "", ""
	case sel.Name != "":
		loose.Name = ""
	default:
		return nil, loose, false
	}
	if loose.Role == "" && loose.Name == "" && loose.TestID == "" && loose.ID == "" && loose.Label == "" && loose.Placeholder == "" {
		return nil, loose, false
	}
	nodes, err := m.Match(loose)
	if err != nil || len(nodes) != 1 {
		return nil, loose, false
	}
	return nodes[0], loose, true
}

// pinned is the text a selector pins, as an expected value.
func pinned(sel selector.Selector) string {
	switch {
	case sel.Text != "":
		return sel.Text
	case sel.TextRegex != "":
		return "/" + sel.TextRegex + "/"
	}
	return sel.Name
}

// shownText is what a node shows in place of the text sel pins.
func shownText(n *screen.Node, sel selector.Selector) string {
	if sel.Text == "" && sel.TextRegex == "" {
		return n.Name
	}
	if n.Text == "" {
		return n.Name
	}
	return n.Text
}

// assertionFailed turns what an assertion's wait ended with into its step
// error: expected vs actual when the page shows something in the
// selector's place, the closest nodes otherwise.
func (r *trailRun) assertionFailed(kind trail.ActionKind, sel selector.Selector, err error) error {
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
		if s := r.page.screen; s != nil {
			if n, loose, ok := relaxedMatch(r.page.matcher, sel); ok {
				exp, act := pinned(sel), shownText(n, sel)
				return &stepError{Reason: StopAssertionFailed, Expected: exp, Actual: act, Err: err,
					Msg: fmt.Sprintf("%s: expected %q, but %s shows %q (%s)", what, exp, loose, act, describe(n))}
			}
			if kind == trail.ActionAssertVisible && !nf.Scope && nf.Hidden == 0 {
				if n := changedValue(s, sel, r.page.lastTarget); n != nil {
					return changedValueError(what, sel, n, err)
				}
			}
		}
		return &stepError{Reason: StopAssertionFailed, Selector: &nf.Selector, Err: err,
			Msg: fmt.Sprintf("%s: waited %s, but %s", what, r.opts.ActionTimeout, err)}
	}
	return err
}

// changedValueError is the error of an assertion whose pinned text shows
// with other numbers on n (see changedValue): expected vs actual, and the
// selector, so that the failure still lists the closest nodes.
func changedValueError(what string, sel selector.Selector, n *screen.Node, err error) *stepError {
	return &stepError{Reason: StopAssertionFailed, Expected: sel.Text, Actual: n.Text, Selector: &sel, Err: err,
		Msg: fmt.Sprintf("%s: expected %q, but %s shows %q in its place (the same text with other numbers)",
			what, sel.Text, describeChanged(n), n.Text)}
}

// assertNotVisible: no visible element's text or name is text.
func (r *trailRun) assertNotVisible(text string) pageAction {
	return func(ctx context.Context, p *tab) error {
		t, err := r.vals.expand(text)
		if err != nil {
			return err
		}
		var shown *screen.Node
		err = p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
			shown = visibleWith(m, t)
			if shown == nil {
				return true, nil
			}
			r.cur.reads.add("visible: " + nodeLine(shown))
			return false, nil
		})
		if shown != nil {
			r.cur.res.Landed = nodeLine(shown)
			return &stepError{Reason: StopAssertionFailed, Expected: fmt.Sprintf("nothing visible reads %q", t),
				Actual: nodeLine(shown),
				Msg:    fmt.Sprintf("assertNotVisible %q: %s is still visible after %s", t, describe(shown), r.opts.ActionTimeout)}
		}
		if err != nil {
			return err
		}
		r.cur.res.Summary = fmt.Sprintf("nothing visible reads %q", t)
		return nil
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
func (r *trailRun) assertValue(sel selector.Selector, value string) pageAction {
	return func(ctx context.Context, p *tab) error {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return err
		}
		want, err := r.vals.expand(value)
		if err != nil {
			return err
		}
		return r.assertNode(ctx, p, trail.ActionAssertValue, s, "value", want, func(n *screen.Node) (string, error) {
			if n.Secret {
				return "", &stepError{Reason: StopAssertionFailed, Class: ClassMissingTestData,
					Msg: fmt.Sprintf("assertValue %s: %s is a secret field, whose value replay never reads; check that it is there with assertVisible", s, describe(n))}
			}
			return n.Value, nil
		})
	}
}

// assertState: one state of an element.
func (r *trailRun) assertState(sel selector.Selector, state, want string) pageAction {
	return func(ctx context.Context, p *tab) error {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return err
		}
		return r.assertNode(ctx, p, trail.ActionAssertState, s, state, want, func(n *screen.Node) (string, error) {
			return stateOf(n, state)
		})
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
// read) is want.
func (r *trailRun) assertNode(ctx context.Context, p *tab, kind trail.ActionKind, sel selector.Selector, prop, want string,
	read func(*screen.Node) (string, error)) error {
	var got string
	var node *screen.Node
	err := p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
		nodes, err := m.Match(sel)
		if err != nil {
			node = nil
			r.cur.reads.add(observe(m, sel, err))
			return false, err
		}
		node = nodes[0]
		r.cur.res.Landed = nodeLine(node)
		if got, err = read(node); err != nil {
			return false, err
		}
		r.cur.reads.add(fmt.Sprintf("%s %q", prop, got))
		return got == want, nil
	})
	var se *stepError
	switch {
	case errors.As(err, &se):
		return se
	case node != nil && got != want:
		return &stepError{Reason: StopAssertionFailed, Expected: want, Actual: got,
			Msg: fmt.Sprintf("%s %s: expected %s %q, but %s has %q", kind, sel, prop, want, describe(node), got)}
	case err != nil:
		return r.assertionFailed(kind, sel, err)
	}
	r.cur.res.Summary = fmt.Sprintf("%s of %s is %q", prop, describe(node), want)
	return nil
}

// assertURL: the page's path and query, exactly or matching a pattern.
func (r *trailRun) assertURL(a trail.AssertURL) pageAction {
	return func(ctx context.Context, p *tab) error {
		want, err := r.vals.expand(a.URL)
		if err != nil {
			return err
		}
		var re *regexp.Regexp
		if a.Pattern != "" {
			if re, err = regexp.Compile(a.Pattern); err != nil {
				return fmt.Errorf("assertUrl pattern %q: %w", a.Pattern, err)
			}
		}
		var at string
		err = p.poll(ctx, false, func(*screen.Screen, *selector.Matcher) (bool, error) {
			at = r.appPath(p.location(ctx))
			if !strings.Contains(want, "#") {
				at, _, _ = strings.Cut(at, "#")
			}
			r.cur.reads.add("at " + at)
			if re != nil {
				return re.MatchString(at), nil
			}
			return at == want, nil
		})
		if err == nil {
			r.cur.res.Summary = "the page is at " + at
			return nil
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		exp := want
		if re != nil {
			exp = "pattern " + a.Pattern
		}
		return &stepError{Reason: StopAssertionFailed, Expected: exp, Actual: at, ExpectedURL: want,
			Msg: fmt.Sprintf("assertUrl: expected the page at %s, but it is at %s", exp, at)}
	}
}
