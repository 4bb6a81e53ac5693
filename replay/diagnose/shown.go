package diagnose

import (
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// RelaxedMatch matches sel without the text it pins (its text or
// textRegex, else its name). When that names exactly one element, the
// element is where the page shows something other than what the selector
// expected: the "actual" of an app-bug.
func RelaxedMatch(m *selector.Matcher, sel selector.Selector) (*screen.Node, selector.Selector, bool) {
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

// ShownInItsPlace is RelaxedMatch taken as evidence that the app shows
// something else where sel expected its text: an app-bug. For a control
// that holds only when its text reads the same but for its numbers or a
// few words (a count on a button, a name in a link: readsInPlace); a
// control that reads otherwise was renamed, which is selector-drift
// (docs/ci.md, Failure classes).
func ShownInItsPlace(m *selector.Matcher, sel selector.Selector) (*screen.Node, selector.Selector, bool) {
	n, loose, ok := RelaxedMatch(m, sel)
	if ok && selector.IsControlRole(n.Role) {
		if _, _, same := readsInPlace(Pinned(sel), ShownText(n, sel)); !same {
			return nil, loose, false
		}
	}
	return n, loose, ok
}

// Pinned is the text a selector pins, as an expected value.
func Pinned(sel selector.Selector) string {
	switch {
	case sel.Text != "":
		return sel.Text
	case sel.TextRegex != "":
		return "/" + sel.TextRegex + "/"
	}
	return sel.Name
}

// ShownText is what a node shows in place of the text sel pins.
func ShownText(n *screen.Node, sel selector.Selector) string {
	if sel.Text == "" && sel.TextRegex == "" {
		return n.Name
	}
	if n.Text == "" {
		return n.Name
	}
	return n.Text
}
