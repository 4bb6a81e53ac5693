package steps

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A step's end (DESIGN §5) is what the screen after it shows that the
// screen before it did not: the path it is on, and up to MaxEndShows
// selectors of nodes that appeared or changed because of the step.
//
// The screen before is the one captured before the step's first
// interaction; the screen after is the one captured before the next
// interaction in the same tab, or the final screen. Nodes are compared by
// ref within one document and by content across documents.
//
// The selectors are presence checks, built here rather than by Generate: an
// end needs a node to be there (at least one visible match at replay), not
// one node named alone, and a test id, an id, role + name or a role alone
// survives a new price or count in the node where a pinned text would not.
// A count line is tolerated as Generate tolerates it; other text with
// digits (prices, order numbers, times) is not used. Each selector must
// match a visible node on the screen after and none on the screen before,
// so it shows that the step took effect. What the pointer alone shows (a
// node with RevealedBy: a row's delete button under the pointer) is never
// chosen: the step did not make it, and replay never hovers there. Nodes are
// chosen by meaning:
// status messages, alerts and dialogs first, then headings, named
// landmarks, named controls, and text last.
//
// What the person's own assertions right after the step check is left out
// of its end: the end would check it first, and a changed text would stop
// the replay there, without the person's check (and its expected vs actual)
// ever running. A text of several lines (a menu, a list, a card) is not
// pinned as one: a node of it that says one thing is.

// endOf returns the end of the step built from group g (number for notes),
// or nil when the screen after it is not known.
func (b *builder) endOf(g *group, number int) (*trail.End, error) {
	before, after := b.screensAround(g)
	if after == nil {
		return nil, nil
	}
	end := &trail.End{}
	if p, err := b.appPath(after.URL); err == nil {
		end.URL = trail.EscapeRefs(p)
	} else if fo := (*trail.ForeignOriginError)(nil); errors.As(err, &fo) {
		return nil, fmt.Errorf("building steps: step %d ends on another origin: %w", number, err)
	}
	end.Shows = b.endShows(before, after, b.assertedAfter(g))
	end.Values = b.endValues(g, before, after)
	if end.URL == "" && len(end.Shows) == 0 && len(end.Values) == 0 {
		return nil, nil
	}
	return end, nil
}

// screensAround returns the screen before group g and the screen after it.
func (b *builder) screensAround(g *group) (before, after *screen.Screen) {
	for _, i := range g.recs {
		if b.recs[i].Before != nil {
			before = b.recs[i].Before
			break
		}
	}
	if before == nil {
		for i := g.recs[0] - 1; i >= 0; i-- {
			if b.recs[i].Before != nil {
				before = b.recs[i].Before
				break
			}
		}
	}
	// An Assert change ending the step captured the screen after its
	// action.
	for _, i := range g.recs {
		if b.recs[i].Kind == InteractAssertChange && b.recs[i].Before != nil {
			return before, b.recs[i].Before
		}
	}
	// The screen after is the next one captured in the step's tab. An
	// interaction without a screen (a navigation, a dialog) changes the page
	// before any capture shows the step's effect alone: then there is none.
	// The final screen is the tab's only when the recording stayed in it.
	tab := b.recs[g.last()].Tab
	elsewhere := false
	for i := g.last() + 1; i < len(b.recs); i++ {
		r := &b.recs[i]
		switch {
		case r.Kind == InteractUndo, r.Kind == InteractAgentStart, r.Kind == InteractAgentEnd:
		case tab != 0 && r.Tab != 0 && r.Tab != tab:
			elsewhere = true
		case r.Before != nil:
			return before, r.Before
		default:
			return before, nil
		}
	}
	if elsewhere {
		return before, nil
	}
	return before, b.final
}

// An endCandidate is a node of the screen after that appeared or changed.
type endCandidate struct {
	pos      int32
	class    int
	appeared bool
	level    int
}

// Meaning classes of end candidates, most telling first.
const (
	// endFeedback: what an app shows to say an action took effect.
	endFeedback = iota
	// endHeading: the title of a new page or section.
	endHeading
	// endLandmark: a named region, form, list or table.
	endLandmark
	// endControl: a named control, such as a "Remove code" button.
	endControl
	// endContent: other named or text content.
	endContent
	// endNone: not worth checking.
	endNone
)

var feedbackRoles = map[string]bool{"status": true, "alert": true, "alertdialog": true, "dialog": true, "log": true}

// presenceRoles are roles whose mere presence says something: a dialog or
// a message that was not there before, a list of suggestions, a menu or a
// tooltip a hover opened. (A progress bar is not one: it shows while the
// step is still under way.)
var presenceRoles = map[string]bool{
	"status": true, "alert": true, "alertdialog": true, "dialog": true, "log": true,
	"listbox": true, "menu": true, "tooltip": true,
}

func endClass(n *screen.Node) int {
	// A name or text without a letter or a digit is a glyph (an icon
	// font's "\uf106", a ×): it names nothing a person reads, and the
	// controls such glyphs name (a "scroll to top" link a scroll fades in)
	// come and go with the page's scroll and pointer, not with the step.
	named := hasWords(n.Name)
	texted := hasWords(n.Text)
	switch {
	case !named && !texted:
		return endNone // shows nothing a person could check
	case feedbackRoles[n.Role]:
		return endFeedback
	case n.Role == "heading":
		return endHeading
	case selector.IsScopeRole(n.Role) && named:
		return endLandmark
	case presenceRoles[n.Role]:
		return endLandmark
	case selector.IsControlRole(n.Role) && named:
		return endControl
	case n.Role == "" || n.Role == "none" || n.Role == "presentation":
		return endNone
	case named || texted:
		return endContent
	}
	return endNone
}

// hasWords reports whether s holds a letter or a digit.
func hasWords(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) })
}

// assertedAfter returns the refs of the elements that the assertions
// recorded right after group g (before any other interaction) check. An
// undo takes back the assertion before it.
func (b *builder) assertedAfter(g *group) []string {
	var checks []string // one per assertion; "" for one that names no element
	for i := g.last() + 1; i < len(b.recs); i++ {
		r := &b.recs[i]
		switch r.Kind {
		case InteractAssertVisible, InteractAssertValue, InteractAssertState:
			checks = append(checks, r.Ref)
		case InteractAssertNotVisible, InteractAssertURL:
			checks = append(checks, "")
		case InteractUndo:
			if len(checks) == 0 {
				return nil
			}
			checks = checks[:len(checks)-1]
		case InteractAgentEnd:
			// The person's checks right after the agent's goal.
		default:
			i = len(b.recs)
		}
	}
	var refs []string
	for _, ref := range checks {
		if ref != "" {
			refs = append(refs, ref)
		}
	}
	return refs
}

// endShows picks the selectors of an end; nothing in, around or inside the
// elements of asserted (refs of the screen after) is chosen.
func (b *builder) endShows(before, after *screen.Screen, asserted []string) []selector.Selector {
	ma := b.matcher(after)
	var mb *selector.Matcher
	if before != nil {
		mb = b.matcher(before)
	}
	cands := b.endCandidates(mb, ma)
	var out []selector.Selector
	var chosen []int32
	if len(asserted) > 0 {
		pos := b.refPositions(ma)
		for _, ref := range asserted {
			if p, ok := pos[ref]; ok {
				// Taken, as a chosen node is: what is related to it is out.
				chosen = append(chosen, p)
			}
		}
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if len(out) == trail.MaxEndShows {
			break
		}
		related := false
		for _, p := range chosen {
			related = related || c.pos == p || ma.Inside(c.pos, p) || ma.Inside(p, c.pos)
		}
		if related {
			continue
		}
		sel, ok := b.presenceSelector(mb, ma, c.pos)
		if !ok || seen[sel.String()] {
			continue
		}
		seen[sel.String()] = true
		chosen = append(chosen, c.pos)
		out = append(out, escapeSelector(sel))
	}
	return out
}

// endCandidates lists the shown nodes of the screen after that appeared or
// changed, most telling first.
func (b *builder) endCandidates(mb, ma *selector.Matcher) []endCandidate {
	var old map[string]int32
	if mb != nil && documentOf(mb.Screen()) == documentOf(ma.Screen()) {
		old = b.refPositions(mb)
	}
	var cands []endCandidate
	for p, n := range ma.Nodes() {
		if !ma.Shown(int32(p)) || n.Secret || n.AriaHidden || n.RevealedBy != "" {
			// What the pointer alone shows (a row's delete button under the
			// pointer) is no effect of the step: replay never hovers there.
			continue
		}
		// Most nodes are as they were: that is settled first, cheaply.
		appeared := true
		if q, ok := old[n.Ref]; ok && mb.Shown(q) {
			if !changed(mb.Nodes()[q], n) {
				continue
			}
			appeared = false
		}
		class := endClass(n)
		if class == endNone {
			continue
		}
		if class > endFeedback && class < endContent && inRow(ma, int32(p)) {
			// A heading or a button in a card of a list is the list's data
			// (products, orders), which changes more than the page does.
			class = endContent
		}
		cands = append(cands, endCandidate{pos: int32(p), class: class, appeared: appeared, level: n.Level})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, c := cands[i], cands[j]
		if a.class != c.class {
			return a.class < c.class
		}
		if a.appeared != c.appeared {
			return a.appeared
		}
		return a.level < c.level
	})
	return cands
}

// inRow reports whether the node at p lies in a row, card or list item.
func inRow(m *selector.Matcher, p int32) bool {
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		if selector.IsRowRole(m.Nodes()[a].Role) {
			return true
		}
	}
	return false
}

// changed reports whether the node shows something else than before: its
// name, value, a state, or its own text (not counting text that changed
// inside a child element, which is a candidate of its own).
func changed(was, n *screen.Node) bool {
	return was.Name != n.Name || was.Value != n.Value || was.Checked != n.Checked ||
		was.Pressed != n.Pressed || !sameBool(was.Expanded, n.Expanded) ||
		!sameBool(was.Selected, n.Selected) || was.Disabled != n.Disabled ||
		was.Invalid != n.Invalid || was.Text != n.Text && ownText(n) != ownText(was)
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// ownText is the text of a node's own text runs.
func ownText(n *screen.Node) string {
	var parts []string
	for _, c := range n.Children {
		if c.IsText() {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// presenceSelector returns a selector that finds the node at pos on the
// screen after (among its matches) and nothing on the screen before.
func (b *builder) presenceSelector(mb, ma *selector.Matcher, pos int32) (selector.Selector, bool) {
	n := ma.Nodes()[pos]
	for _, sel := range b.presenceOptions(n) {
		if sel.Validate() != nil || b.taint.LeaksFrom(&sel) {
			continue
		}
		if !matchesAmong(ma, sel, n) {
			continue
		}
		if mb != nil {
			if _, err := mb.Match(sel); !isNotFound(err) {
				continue // it was there before: it shows nothing about the step
			}
		}
		return sel, true
	}
	return selector.Selector{}, false
}

// presenceOptions are the selectors that find n by what it is rather than
// what it says, steadiest first.
func (b *builder) presenceOptions(n *screen.Node) []selector.Selector {
	var out []selector.Selector
	usableID := func(id string) bool { return id != "" && !selector.LooksGenerated(id) && !b.taint.Leaks(id) }
	if usableID(n.TestID) {
		out = append(out, selector.Selector{TestID: n.TestID})
	}
	if usableID(n.ID) {
		out = append(out, selector.Selector{ID: n.ID})
	}
	named := !selector.IsUnnamedRole(n.Role) && n.Name != ""
	fromContent := n.Text != "" && n.Name == screen.CollapseSpace(n.Text)
	// Names and texts are written as they are compared: without icon-font
	// glyphs, which change with the page's state.
	name, text := selector.StripIconGlyphs(n.Name), selector.StripTextGlyphs(n.Text)
	if named {
		if exact, pattern := selector.PinText(text); fromContent && exact == "" && pattern != "" {
			out = append(out, selector.Selector{Role: n.Role, TextRegex: pattern})
		} else if !hasDigit(name) {
			out = append(out, selector.Selector{Role: n.Role, Name: name})
		}
	}
	if presenceRoles[n.Role] {
		out = append(out, selector.Selector{Role: n.Role})
	}
	if !n.Secret && n.Text != "" && !fromContent {
		exact, pattern := selector.PinText(text)
		role := n.Role
		if selector.IsUnnamedRole(role) {
			role = ""
		}
		switch {
		case pattern != "":
			out = append(out, selector.Selector{Role: role, TextRegex: pattern})
		case !hasDigit(exact) && !strings.Contains(exact, "\n"):
			out = append(out, selector.Selector{Role: role, Text: exact})
		}
	}
	return out
}

// matchesAmong reports whether sel matches at least one visible node on
// m's screen, n among them.
func matchesAmong(m *selector.Matcher, sel selector.Selector, n *screen.Node) bool {
	got, err := m.Match(sel)
	var amb *selector.AmbiguousError
	if err != nil && !errors.As(err, &amb) {
		return false
	}
	for _, g := range got {
		if g == n {
			return true
		}
	}
	return false
}

func isNotFound(err error) bool {
	var nf *selector.NotFoundError
	return errors.As(err, &nf)
}

func hasDigit(s string) bool {
	return strings.IndexFunc(s, unicode.IsDigit) >= 0
}

// refPositions maps the refs of m's screen to their positions, built once
// per screen: the screen before one step is the screen after the last.
func (b *builder) refPositions(m *selector.Matcher) map[string]int32 {
	if pos, ok := b.positions[m.Screen()]; ok {
		return pos
	}
	pos := make(map[string]int32, m.Len())
	for p, n := range m.Nodes() {
		pos[n.Ref] = int32(p)
	}
	b.positions[m.Screen()] = pos
	return pos
}
