package diagnose

import (
	"errors"
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// Two more kinds of evidence that a selector which matched nothing found
// the app changed, not the trail (besides a text shown in its place with
// other numbers or words, changed.go):
//
//   - Its scope is there with other values. A selector found within a
//     scope named by what the scope shows (a row named by its cells:
//     within: {role: row, name: "Ada Sales 30"}) matches nothing once a
//     value in the scope changed, although the row is in its place. The
//     scope in its place (the element with what else the scope asks for
//     whose name reads the same but for numbers or a few words), and what
//     stands inside it in the place of what the selector asks for, are the
//     app's values: an app-bug with expected vs actual.
//   - What the step should have changed is still there. An end state
//     names a node the step made (an empty grid's "No rows to show" after
//     a delete); when the page still shows, of the kind that node is (its
//     role, its scope), only what it showed when the step began, the step
//     did not change what it changed when it was recorded (a delete that
//     left a row it should have removed): an app-bug too.
//
// A control gone or renamed, a kind of element no longer on the page, and
// a text that could stand for anything on it stay selector-drift: nothing
// says where the element went.

// PinnedRead is the text a selector pins (its text, else its name) and how
// to read the same on a node; ok is false when it pins neither.
func PinnedRead(sel selector.Selector) (want string, read func(*screen.Node) string, ok bool) {
	switch {
	case sel.Text != "":
		return sel.Text, func(n *screen.Node) string { return selector.StripTextGlyphs(n.Text) }, true
	case sel.Name != "":
		return sel.Name, func(n *screen.Node) string { return n.Name }, true
	}
	return "", nil, false
}

// unpinned is sel without the text it pins (and without an index, which
// counts among the nodes with that text): the kind of element it names.
// ok is false when nothing is left to name a kind by.
func unpinned(sel selector.Selector) (selector.Selector, bool) {
	sel.Text, sel.TextRegex, sel.Name, sel.Index = "", "", "", nil
	return sel, sel.Role != "" || sel.TestID != "" || sel.ID != "" || sel.Label != "" || sel.Placeholder != ""
}

// readsInPlace says whether got, shown where want was expected, is want
// with other numbers or a few words changed (as ChangedValue and
// ChangedWords accept it), how far it is from want (0 to 1) and which.
func readsInPlace(want, got string) (dist float64, how string, ok bool) {
	if sameButNumbers(want, got) {
		return numberDistance(want, got), "numbers", true
	}
	if want == got || strings.Count(want, "\n") != strings.Count(got, "\n") {
		return 0, "", false
	}
	words, letters := rewordedShares(want, got)
	if words >= changedWordsShare || letters >= changedLettersShare {
		return 1 - max(words, letters), "words", true
	}
	return 0, "", false
}

// scopeInPlace returns the element of s in the place of the scope w that
// matched nothing, and how its name differs ("numbers" or "words"): the
// one element with what else w asks for whose name (or text, for a scope
// pinned by its text) reads as w's with other numbers or words, clearly
// nearer to it than any other (changedWordsFactor). Nil otherwise.
func scopeInPlace(s *screen.Screen, w selector.Selector) (*screen.Node, string) {
	want, read, ok := PinnedRead(w)
	kind, named := unpinned(w)
	if s == nil || s.Root == nil || !ok || !named {
		return nil, ""
	}
	nodes, _ := selector.NewMatcher(s).Match(kind) // all of them, also when ambiguous
	var best *screen.Node
	var bestDist, nextDist float64
	bestHow := ""
	nextDist = 2
	for _, n := range nodes {
		if !n.Visible {
			continue
		}
		d, how, ok := readsInPlace(want, read(n))
		switch {
		case !ok:
		case best == nil || d < bestDist:
			if best != nil {
				nextDist = bestDist
			}
			best, bestDist, bestHow = n, d, how
		case d < nextDist:
			nextDist = d
		}
	}
	if best == nil || nextDist <= 1 && (bestDist >= nextDist || bestDist > changedWordsFactor*nextDist) {
		return nil, ""
	}
	return best, bestHow
}

// ScopeEvidence is the evidence of a selector whose within scope matched
// nothing (err says so) because the scope shows other values: expected vs
// actual, and a sentence that ends the failure's message ("expected …, but
// …"). ok is false without such evidence.
func ScopeEvidence(s *screen.Screen, sel selector.Selector, ref string, err error) (expected, actual, says string, ok bool) {
	var nf *selector.NotFoundError
	if !errors.As(err, &nf) || !nf.Scope || sel.Within == nil || nf.Part.String() != sel.Within.String() {
		return "", "", "", false
	}
	scope, how := scopeInPlace(s, *sel.Within)
	if scope == nil {
		return "", "", "", false
	}
	want, read, _ := PinnedRead(*sel.Within)
	what := "name"
	if sel.Within.Text != "" {
		what = "text"
	}
	scopeNow := DescribeShown(scope, read(scope))
	scopeSays := fmt.Sprintf("its scope %s is now %s (the same %s with other %s)", sel.Within, scopeNow, what, how)
	inner := sel
	inner.Within = nil
	in := &screen.Screen{URL: s.URL, Document: s.Document, Root: scope}
	m := selector.NewMatcher(in)
	if _, err := m.Match(inner); err != nil {
		if n, loose, ok := ShownInItsPlace(m, inner); ok {
			exp, act := Pinned(inner), ShownText(n, inner)
			return exp, act, fmt.Sprintf("expected %q, but %s shows %q (%s); %s", exp, loose, act, Describe(n), scopeSays), true
		}
		if inner.Text != "" {
			n, innerHow := ChangedValue(in, inner, ref), "numbers"
			if n == nil {
				n, innerHow = ChangedWords(in, inner, ref), "words"
			}
			if n != nil {
				act := selector.StripTextGlyphs(n.Text)
				return inner.Text, act, fmt.Sprintf("expected %q, but %s shows %q in its place (the same text with other %s); %s",
					inner.Text, DescribeChanged(n), act, innerHow, scopeSays), true
			}
		}
	}
	return want, read(scope), fmt.Sprintf("expected %s, but %s is in its place (the same %s with other %s)",
		sel.Within, scopeNow, what, how), true
}

// StillThere returns, for an end state's node sel that matched nothing
// on now, a node of its kind that now shows as the step's first screen
// (before) showed it, when every node of that kind does: the step left as
// it was the place where its end expected what it made. Nil when sel
// names a control (a control gone or renamed is drift), pins no text, has
// nothing else to name its kind by, when the page shows no node of that
// kind or one that is new or changed, or when the step went to another
// document.
func StillThere(before, now *screen.Screen, sel selector.Selector) *screen.Node {
	want, read, ok := PinnedRead(sel)
	kind, named := unpinned(sel)
	if before == nil || now == nil || before.Root == nil || now.Root == nil || !ok || !named ||
		selector.IsControlRole(sel.Role) || before.Document != now.Document {
		return nil
	}
	shown := func(s *screen.Screen) []*screen.Node {
		nodes, _ := selector.NewMatcher(s).Match(kind)
		var out []*screen.Node
		for _, n := range nodes {
			if n.Visible {
				out = append(out, n)
			}
		}
		return out
	}
	key := func(n *screen.Node) string { return n.Role + "\x00" + n.Name + "\x00" + n.Text }
	was := map[string]int{}
	for _, n := range shown(before) {
		was[key(n)]++
	}
	var closest *screen.Node
	for _, n := range shown(now) {
		if was[key(n)] == 0 {
			return nil // new or changed: the step did change the place
		}
		was[key(n)]--
		if closest == nil || similarity(want, read(n)) > similarity(want, read(closest)) {
			closest = n
		}
	}
	return closest
}

// DescribeShown names node n, which shows text, in a message: with the
// text, unless its description already quotes it (its name).
func DescribeShown(n *screen.Node, text string) string {
	d := DescribeChanged(n)
	if strings.Contains(d, fmt.Sprintf("%q", text)) {
		return d
	}
	return fmt.Sprintf("%s reading %q", d, text)
}
