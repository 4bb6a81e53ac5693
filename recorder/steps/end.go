package steps

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A step's end (docs/trail-format.md) is what the screen after it shows that the
// screen before it did not: the path it is on, and up to MaxEndShows
// selectors of nodes that appeared or changed because of the step.
//
// The screen before is the one captured before the step's first
// interaction; the screen after is the one captured before the next
// interaction in the same tab, or the final screen. What changed between
// them is what screendiff.Diff says, the diff an assertChange and the
// recording bar's Assert change read, so that an end and a check on change
// agree on what a step changed (docs/screen-diffs.md, Ends). The nodes an
// end may pin are the after side of the changes that show something new:
//   - added and possible-replacement: the root and every node inside it. A
//     whole subtree is a candidate, not only its root, because the end pins
//     a node that says one thing: a dialog or a status that appeared is
//     pinned itself (it ranks first), a menu or a list of several lines is
//     pinned by its items, and a node chosen takes what is inside it and
//     around it out of the running;
//   - content and state: the changed node (for disabled, with the fields
//     disabled with it);
//   - style, when the node became visible: the node and what was shown
//     with it (the items of a menu).
//
// Moves, resizes, a change of coverage and removals show nothing a
// presence selector could check. Across documents (a full navigation) the
// diff pairs nothing and lists the new page as one added root: every node
// of it is a candidate, and the rule below that a selector match nothing
// on the screen before compares the two pages by what they show, so the
// banner and the menu both pages have are left out.
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
	if pin, ok := b.dragPin(g, before, after); ok {
		end.Shows = append([]selector.Selector{pin}, end.Shows...)
		if len(end.Shows) > trail.MaxEndShows {
			end.Shows = end.Shows[:trail.MaxEndShows]
		}
	}
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
	cands := b.endCandidates(before, ma)
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

// endCandidates lists the shown nodes of the screen after that the step
// made or changed, as the diff of the two screens says, most telling first.
func (b *builder) endCandidates(before *screen.Screen, ma *selector.Matcher) []endCandidate {
	marks := b.endChanges(before, ma)
	var cands []endCandidate
	for p, n := range ma.Nodes() {
		if marks[p] == unchanged || !ma.Shown(int32(p)) || n.Secret || n.AriaHidden || n.RevealedBy != "" {
			// What the pointer alone shows (a row's delete button under the
			// pointer) is no effect of the step: replay never hovers there.
			continue
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
		cands = append(cands, endCandidate{pos: int32(p), class: class, appeared: marks[p] == appeared, level: n.Level})
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

// What the diff says of a node of the screen after, for its end.
const (
	unchanged = iota
	// changedNode: the after side of a content or state change.
	changedNode
	// appeared: in an added or possibly replaced subtree, or shown by a
	// style change (visible: false → true) with what was shown with it.
	appeared
)

// endChanges marks the nodes of ma's screen (the screen after) by what the
// diff from before says of them. Moves, resizes, a change of coverage and
// removals show nothing new that a presence selector could check.
func (b *builder) endChanges(before *screen.Screen, ma *selector.Matcher) []uint8 {
	marks := make([]uint8, ma.Len())
	if before == ma.Screen() {
		// One capture before and after (an assertion's step, a step whose
		// screen after is the next step's): nothing changed.
		return marks
	}
	var res *screendiff.Result
	if before != nil && before.Root != nil {
		// A screen without a document token (a hand-built one) is told
		// apart by its URL, as everywhere in steps.
		res, _ = screendiff.Diff(withDocument(before), withDocument(ma.Screen()), screendiff.Options{})
	}
	if res == nil {
		// Nothing to compare with (without an ignore list, Diff fails
		// only so): all of the screen is new.
		for p := range marks {
			marks[p] = appeared
		}
		return marks
	}
	pos := b.refPositions(ma)
	for k, c := range res.Changes {
		var mark uint8
		switch c.Kind {
		case screendiff.Added, screendiff.PossibleReplacement:
			mark = appeared
		case screendiff.Content, screendiff.State:
			mark = changedNode
		case screendiff.Style:
			if d, ok := c.Delta("visible"); !ok || d.To != "true" {
				continue
			}
			mark = appeared
		default:
			continue
		}
		for _, ref := range res.AfterRefs(k) {
			if p, ok := pos[ref]; ok {
				marks[p] = max(marks[p], mark)
			}
		}
	}
	return marks
}

// withDocument is s with its document named as documentOf names it.
func withDocument(s *screen.Screen) *screen.Screen {
	if s.Document != "" {
		return s
	}
	c := *s
	c.Document = documentOf(s)
	return &c
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
	// An id that reads as a name and a counter (sl-tab-2) comes last: the
	// library may number its parts otherwise on the next load. An id in a
	// shadow root is not the document's (docs/selectors.md).
	var counted []selector.Selector
	ids := []selector.Selector{{TestID: n.TestID}}
	if !n.ScopedID {
		ids = append(ids, selector.Selector{ID: n.ID})
	}
	for _, id := range ids {
		switch v := id.TestID + id.ID; {
		case !usableID(v):
		case selector.LooksCounted(v):
			counted = append(counted, id)
		default:
			out = append(out, id)
		}
	}
	named := !selector.IsUnnamedRole(n.Role) && n.Name != ""
	fromContent := n.Text != "" && n.Name == screen.CollapseSpace(n.Text)
	if rowNamedByContent(n) {
		// A row's name read from its content takes in the tooltip of every
		// button on it ("Drag to move this field … city : London"): the
		// row is found by its title, the first thing a person reads in it.
		named = false
		if sel, ok := b.rowByTitle(n); ok {
			out = append(out, sel)
		}
	}
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
	return append(out, counted...)
}

// rowNamedByContent reports whether n is a row whose name holds its whole
// text: a name read from its content, buttons' tooltips included.
func rowNamedByContent(n *screen.Node) bool {
	text := screen.CollapseSpace(n.Text)
	return selector.IsRowRole(n.Role) && text != "" && n.Name != text && strings.Contains(n.Name, text)
}

// rowByTitle finds the row n by its title: its first line, with what
// follows left open.
func (b *builder) rowByTitle(n *screen.Node) (selector.Selector, bool) {
	title, rest, _ := strings.Cut(n.Text, "\n")
	if title == "" || rest == "" || hasDigit(title) || b.taint.Leaks(title) {
		return selector.Selector{}, false
	}
	return selector.Selector{Role: n.Role, TextRegex: "^" + regexp.QuoteMeta(title) + `\n`}, true
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
		if g == n || wrapsRow(m, n, g) {
			return true
		}
	}
	return false
}

// wrapsRow reports whether n is a row that only wraps the row g (the same
// role and text): a row's title finds the inner one, and a within scope
// stands for the whole row (docs/selectors.md), so g names n.
func wrapsRow(m *selector.Matcher, n, g *screen.Node) bool {
	if !selector.IsRowRole(n.Role) || g.Role != n.Role || g.Text != n.Text {
		return false
	}
	pn, ok1 := m.Position(n.Ref)
	pg, ok2 := m.Position(g.Ref)
	return ok1 && ok2 && m.Inside(pg, pn)
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
