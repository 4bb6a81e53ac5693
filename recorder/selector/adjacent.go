package selector

import (
	"strings"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
)

// maxAdjacentText is the longest text beside a field that is taken for its
// label: a label is a few words ("Nickname", "Delivery date"); a sentence
// before a field is instructions, not its name.
const maxAdjacentText = 40

// AdjacentText returns the label-like text right before an unlabelled
// field at pos among its siblings: <span>Nickname</span> <input> is the
// Nickname field, though no <label> ties the two and the two share their
// wrapper with other fields. It is the nearest shown sibling before the
// field, when that is a text or an element with one short line of text and
// no control in it; "" for a field with a name or label of its own, for
// anything but a field, and when nothing right before it names it.
//
// Text edited in place (screen.Node.Editable) sits in a cell of its own
// beside its row's key, often with a separator between ("firstName : John"
// in a tree editor): for it the wrappers that hold only it are climbed and
// a separator of punctuation alone is passed over.
func AdjacentText(m *Matcher, pos int32) string {
	n := m.nodes[pos]
	if !IsField(n) || n.Name != "" || n.Label != "" {
		return ""
	}
	if n.Editable {
		own := screen.CollapseSpace(n.Text)
		for p := m.parent[pos]; p >= 0; p = m.parent[p] {
			c := m.nodes[p]
			if IsControlRole(c.Role) || IsRowRole(c.Role) || c.Tag == "body" || screen.CollapseSpace(c.Text) != own {
				break
			}
			pos, n = p, c
		}
	}
	parent := m.parent[pos]
	if parent < 0 {
		return ""
	}
	kids := m.nodes[parent].Children
	at := -1
	for i, c := range kids {
		if c == n {
			at = i
			break
		}
	}
	for i := at - 1; i >= 0; i-- {
		c := kids[i]
		text := screen.CollapseSpace(c.Text)
		switch {
		case c.IsText() && text == "":
			continue // the space between the two
		case editableSeparator(m, pos, text):
			continue // the ":" between a key and its value
		case !c.IsText() && !c.Visible && !hasVisible(c):
			continue // nothing a person sees
		case !c.IsText() && holdsControl(c):
			return "" // another control: the text before it is its own
		case text == "" || IsDecoration(c) || strings.Contains(text, "\n") || utf8.RuneCountInString(text) > maxAdjacentText:
			return ""
		}
		return strings.TrimSuffix(text, ":")
	}
	return ""
}

// editableSeparator reports whether text, before the element at pos, is
// the punctuation between a row's key and the text edited in place that
// pos is or holds.
func editableSeparator(m *Matcher, pos int32, text string) bool {
	if text == "" || strings.ContainsFunc(text, isWordRune) || len(text) > 3 {
		return false
	}
	for p := pos; p < m.end[pos]; p++ {
		if m.nodes[p].Editable {
			return true
		}
	}
	return false
}

// holdsControl reports whether n is a control or has one inside.
func holdsControl(n *screen.Node) bool {
	if IsControlRole(n.Role) {
		return true
	}
	for _, c := range n.Children {
		if !c.IsText() && holdsControl(c) {
			return true
		}
	}
	return false
}
