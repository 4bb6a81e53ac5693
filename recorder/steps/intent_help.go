package steps

import (
	"regexp"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// A help text is a tooltip that explains a control rather than names it:
// "Click to open the actions menu (Ctrl+M)". A control named only by one
// (no text, no label, its name its title) is called by the help text cut to
// what the control does: its first sentence without a key shortcut in
// parentheses, and "Click to …" read as "the button to …". A short title
// ("Search") is a name and stays as it is.

// maxHelpName is the most words a title has and still reads as a name.
const maxHelpName = 3

// clickTo finds a help text that says what a click does.
var clickTo = regexp.MustCompile(`(?i)^(?:click|tap|press)(?: here)? to (.+)$`)

// isHelpText reports whether n is named only by a tooltip that reads as
// help: longer than a name, or with a shortcut in parentheses, or more
// than one sentence.
func isHelpText(n *screen.Node) bool {
	title := screen.CollapseSpace(n.Title)
	if title == "" || n.Text != "" || n.Label != "" || screen.CollapseSpace(n.Name) != title {
		return false
	}
	return len(strings.Fields(title)) > maxHelpName || strings.Contains(title, "(") || strings.Contains(title, ". ")
}

// shortHelp cuts a help text to its first sentence, without a shortcut in
// parentheses: "Drag to move this field (Alt+Shift+Arrows)" is "Drag to
// move this field".
func shortHelp(s string) string {
	s = screen.CollapseSpace(s)
	if i := strings.Index(s, ". "); i > 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "("); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "."))
}

// ownName is what a person calls n by its own name: the name cut to a
// short help text, or without the content of its row when it carries it
// (selector.NameWithoutRow); with the position of the row it needs to be
// told apart by (-1 for none).
func (b *builder) ownName(s *screen.Screen, n *screen.Node) (string, int32) {
	if isHelpText(n) {
		return shortHelp(n.Name), b.rowAround(s, n)
	}
	m := b.matcher(s)
	if p, ok := m.Position(n.Ref); ok {
		if short, row := selector.NameWithoutRow(m, p); row >= 0 {
			return short, row
		}
	}
	return n.Name, -1
}

// rowAround is the position of the nearest row around n, -1 for none.
func (b *builder) rowAround(s *screen.Screen, n *screen.Node) int32 {
	m := b.matcher(s)
	p, ok := m.Position(n.Ref)
	if !ok {
		return -1
	}
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		if selector.IsRowRole(m.Nodes()[a].Role) {
			return a
		}
	}
	return -1
}

// rowPlace names the row at a by its title, "" for none.
func (b *builder) rowPlace(s *screen.Screen, a int32) string {
	if a < 0 {
		return ""
	}
	return b.usableText(selector.RowTitle(b.matcher(s), a), maxIntentName)
}
