package selector

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Errors Generate, Retarget and Candidates return for a target they cannot
// name; test them with errors.Is.
var (
	// ErrUnknownRef: no element on the screen has the ref.
	ErrUnknownRef = errors.New("no element with this ref on the screen")
	// ErrHiddenTarget: the element is on the screen but a person cannot see
	// it, so no step can act on it or check it.
	ErrHiddenTarget = errors.New("the element is hidden")
	// ErrUnknownPurpose: the purpose is none of tap, type, select, assert.
	ErrUnknownPurpose = errors.New("unknown purpose: use tap, type, select or assert")
)

// Generate builds the selector a step records for the element targetRef on
// s, following every rule of docs/selectors.md:
//
//   - The purpose decides what is pinned. An assertion pins the element's
//     exact text (or, for an element with no text of its own, its accessible
//     name) and adds the cheapest properties that make it unique. Tap, type
//     and select prefer a test id, a stable id, role + name, a label or a
//     placeholder, and use text only when nothing else is unique.
//   - Text is exact; the one tolerance is a trailing item-count line (see
//     pinText).
//   - The index, when one is needed, is counted for the final set of
//     properties, and only used when no property or scope is unique.
//   - Nothing sensitive is written: not the text of a secret element, and no
//     string containing a value in sensitive (compared without case), in the
//     pinned text or in anything used to tell elements apart. An assertion on
//     such an element checks presence only.
//   - A click inside a control is a click on the control (Retarget).
//   - Generated-looking ids and test ids are never used (looksGenerated).
//   - A within scope (a landmark, a named container, a list or table row by
//     its title) is used when it makes a short selector unique.
//   - A target that shows only while the pointer rests on an element around
//     it (screen.Node.RevealedBy) is named within that element, or a
//     container inside it, when one names it: it is unique only because that
//     row is the one hovered.
//   - Costs are the named constants of generate_score.go; the cheapest
//     selector that names the target alone wins.
//   - The result is matched again on s and must resolve to the target, or
//     Generate fails.
func Generate(purpose Purpose, targetRef string, s *screen.Screen, sensitive []string) (Selector, error) {
	m, release := borrowMatcher(s)
	defer release()
	sel, _, err := GenerateOn(m, purpose, targetRef, sensitive)
	return sel, err
}

// GenerateOn is Generate on an indexed screen; it also returns the element
// the selector names (the target after retargeting). Callers that name many
// elements on one screen keep one Matcher and call this.
func GenerateOn(m *Matcher, purpose Purpose, targetRef string, sensitive []string) (Selector, *screen.Node, error) {
	g, err := newGenerator(purpose, targetRef, m, sensitive)
	if err != nil {
		return Selector{}, nil, err
	}
	best, ok := g.best()
	if !ok {
		return Selector{}, nil, fmt.Errorf("generating a selector for %s: no combination of its properties, scopes and index names it alone", describeNode(g.node))
	}
	if err := g.verify(best.sel); err != nil {
		return Selector{}, nil, err
	}
	return best.sel, g.node, nil
}

// Retarget returns the ref a step for targetRef is recorded against. For
// tap, type and select: the control the target lies inside (the button
// around a span, the link around an img) and, for select, the select an
// option belongs to. For every purpose: the innermost element carrying the
// same text and role when the target only wraps it and has no id of its own.
// An assertion is not moved to an enclosing control: it is about what the
// target shows. Generate and Candidates name the retargeted element.
func Retarget(purpose Purpose, targetRef string, s *screen.Screen) (string, error) {
	m, release := borrowMatcher(s)
	defer release()
	return RetargetOn(m, purpose, targetRef)
}

// RetargetOn is Retarget on a screen already indexed by m.
func RetargetOn(m *Matcher, purpose Purpose, targetRef string) (string, error) {
	g, err := newGenerator(purpose, targetRef, m, nil)
	if err != nil {
		return "", err
	}
	return g.node.Ref, nil
}

type generator struct {
	m       *Matcher
	pos     int32
	node    *screen.Node
	purpose Purpose
	taint   Sensitive

	scopeList []scope
	scopesSet bool
	// nested are the positions in scopeList of the scopes nestedScopes
	// added; nestedSet says they were looked for.
	nested    []int
	nestedSet bool
}

// An option is one selector the generator considers, with its cost.
type option struct {
	sel  Selector
	cost int
	// pins is true when the selector pins the assertion's claim: the text, or
	// the name of an element without text.
	pins bool
	// scope is the position in scopeList of the within scope, -1 for none.
	scope int
	// countIndex: the index is counted when the option is evaluated.
	countIndex bool
}

// A scope is a container the target lies in and a selector that names it.
type scope struct {
	pos   int32
	sel   Selector
	cost  int
	valid *int8 // 0 unknown, 1 names the container alone, -1 does not
	// titled: a plain container found by the line it opens with
	// (ContainerTitle).
	titled bool
}

func newGenerator(purpose Purpose, targetRef string, m *Matcher, sensitive []string) (*generator, error) {
	switch purpose {
	case PurposeTap, PurposeType, PurposeSelect, PurposeAssert:
	default:
		return nil, fmt.Errorf("generating a selector for %s: %w (got %q)", targetRef, ErrUnknownPurpose, purpose)
	}
	pos, ok := m.Position(targetRef)
	if !ok {
		return nil, fmt.Errorf("generating a selector for %s: %w (take refs from the same capture)", targetRef, ErrUnknownRef)
	}
	g := &generator{m: m, purpose: purpose, taint: NewSensitive(sensitive)}
	// Retarget first: a click lands on whatever is under the pointer, often
	// an icon hidden from assistive technology inside a visible button.
	g.pos = g.retarget(pos)
	g.node = m.nodes[g.pos]
	if !m.shown[g.pos] {
		return nil, fmt.Errorf("generating a selector for %s: %w: a step can only act on or check an element a person can see", describeNode(g.node), ErrHiddenTarget)
	}
	return g, nil
}

func (g *generator) retarget(pos int32) int32 {
	m := g.m
	// A node out of the accessibility tree (a decorative icon) has no role
	// or name a selector can use; with no text or id of its own either, it
	// stands for the nearest element around it that is in the tree.
	for a := pos; ; a = m.parent[a] {
		n := m.nodes[a]
		if !n.AriaHidden || n.Text != "" || g.usableID(n.TestID) || g.usableNodeID(n) || m.parent[a] < 0 {
			pos = a
			break
		}
	}
	if g.purpose != PurposeAssert {
		if !IsControlRole(m.nodes[pos].Role) && !m.nodes[pos].Editable {
			for a := m.parent[pos]; a >= 0; a = m.parent[a] {
				if (IsControlRole(m.nodes[a].Role) || m.nodes[a].Editable) && m.shown[a] {
					pos = a
					break
				}
			}
		}
		if g.purpose == PurposeSelect && m.nodes[pos].Role == "option" {
			for a := m.parent[pos]; a >= 0; a = m.parent[a] {
				if r := m.nodes[a].Role; (r == "combobox" || r == "listbox") && m.shown[a] {
					pos = a
					break
				}
			}
		}
	}
	// An element whose whole text is one child's, with the same role, looks
	// the same as that child on screen; name the child unless the outer one
	// has an id of its own.
	for {
		n := m.nodes[pos]
		if n.Text == "" || g.usableID(n.TestID) || g.usableNodeID(n) {
			return pos
		}
		inner := int32(-1)
		for c := pos + 1; c < m.end[pos]; c = m.end[c] {
			if k := m.nodes[c]; k.Text == n.Text && k.Role == n.Role && m.shown[c] {
				inner = c
				break
			}
		}
		if inner < 0 {
			return pos
		}
		pos = inner
	}
}

func (g *generator) usableID(id string) bool {
	return id != "" && !LooksGenerated(id) && !g.taint.Leaks(id)
}

// usableNodeID reports whether n's id may name it: an id from inside a
// shadow root is unique only within that root (each instance of a
// component holds the same ids), so it names nothing in the document; the
// host's role and name do (docs/selectors.md).
func (g *generator) usableNodeID(n *screen.Node) bool {
	return !n.ScopedID && g.usableID(n.ID)
}

func (g *generator) usable(s string) bool { return s != "" && !g.taint.Leaks(s) }

// An atom is one property of the target (or a role + name pair) that a
// selector can be built from.
type atom struct {
	set  func(*Selector)
	cost int
	role bool // sets the role
}

// ownAtoms are the target's properties a selector may use: ids, label and
// placeholder (ids), role + name, and text. Unusable ones (empty, generated,
// sensitive, a secret's text) are left out.
type ownAtoms struct {
	ids            []atom
	roleName, text *atom
	// countFree finds a control named by a one-line text that holds a
	// number ("Cart 2 items") by its role and that text with any number:
	// never cheaper than the exact name, which it matches a superset of,
	// so it is a choice the review offers, not one Generate makes.
	countFree *atom
}

func (g *generator) atoms() ownAtoms {
	n := g.node
	var a ownAtoms
	if g.usableID(n.TestID) {
		a.ids = append(a.ids, atom{set: func(s *Selector) { s.TestID = n.TestID }, cost: idCost(n.TestID, costTestID)})
	}
	if g.usableNodeID(n) {
		a.ids = append(a.ids, atom{set: func(s *Selector) { s.ID = n.ID }, cost: idCost(n.ID, costID)})
	}
	if g.usable(n.Label) && !(n.Label == n.Name && g.namedByRow()) {
		a.ids = append(a.ids, atom{set: func(s *Selector) { s.Label = n.Label }, cost: costLabel})
	}
	if g.usable(n.Placeholder) {
		a.ids = append(a.ids, atom{set: func(s *Selector) { s.Placeholder = n.Placeholder }, cost: costPlaceholder})
	}
	if n.Label == "" && n.Name == "" {
		// <span>Country</span> <input>: what a person reads as its label.
		if adj := AdjacentText(g.m, g.pos); g.usable(adj) {
			a.ids = append(a.ids, atom{set: func(s *Selector) { s.Label = adj }, cost: costAdjacentLabel})
		}
	}
	// A name is written as the matcher compares it: without icon glyphs.
	// A name that carries its row's every cell changes with any of them;
	// the control is found within its row (NameWithoutRow).
	if name := g.m.name(g.pos); !IsUnnamedRole(n.Role) && g.usable(name) && !g.namedByRow() {
		a.roleName = &atom{set: func(s *Selector) { s.Role, s.Name = n.Role, name }, cost: costRoleName, role: true}
	}
	// A checkbox's ☐ from ::after is its state drawn, not its text: it
	// turns into ☑ when the box is checked. A drop-down's text is the
	// option it shows now ("--Select a fruit--"), which the step changes.
	if n.Secret || !g.usable(n.Text) || HasGeneratedText(n) || g.showsItsValue() {
		return a
	}
	// The text as it is compared: without icon-font glyphs.
	exact, pattern := PinText(g.m.text(g.pos))
	cost := costText
	if pattern != "" {
		cost += costCountTolerance
		// A control named by its content ("Review sale 3 items") would pin
		// the count through its name; its role and count-tolerant text say
		// the same and survive a new count.
		if a.roleName != nil && n.Name == screen.CollapseSpace(n.Text) {
			a.roleName = &atom{set: func(s *Selector) { s.Role, s.TextRegex = n.Role, pattern }, cost: costRoleName + costCountTolerance, role: true}
		}
	}
	a.text = &atom{set: func(s *Selector) { s.Text, s.TextRegex = exact, pattern }, cost: cost}
	if free := AnyNumber(exact); free != "" && g.purpose != PurposeAssert && a.roleName != nil && n.Name == screen.CollapseSpace(n.Text) {
		a.countFree = &atom{set: func(s *Selector) { s.Role, s.TextRegex = n.Role, free }, cost: costRoleName + costAnyNumber, role: true}
	}
	return a
}

// namedByRow reports whether the target's name carries the content of the
// row it lies in (NameWithoutRow).
func (g *generator) namedByRow() bool {
	_, row := NameWithoutRow(g.m, g.pos)
	return row >= 0
}

// showsItsValue reports whether the target's text is its value and the
// step acts on it: a drop-down's text is its current choice, and text
// edited in place is what the step replaces; either names the value, not
// the control. An assertion on it still pins what it shows.
func (g *generator) showsItsValue() bool {
	return g.purpose != PurposeAssert && (g.node.Role == "combobox" || g.node.Editable)
}

// carriesValue reports whether a container's name holds the target's value:
// a table cell or row named by its content takes in the text box inside it
// ("Pears 7" for the row whose count box holds 7), and would break when the
// step types another value. Text edited in place is its own value.
func (g *generator) carriesValue(name string) bool {
	if g.node.Editable {
		return nameHolds(name, g.m.text(g.pos))
	}
	return nameHolds(name, g.node.Value)
}

// nameHolds reports whether value appears in name as whole words: "Pears 7"
// holds 7, "Step 1 of 3" does not hold 12.
func nameHolds(name, value string) bool {
	v := screen.CollapseSpace(value)
	return v != "" && strings.Contains(" "+screen.CollapseSpace(name)+" ", " "+v+" ")
}

// pin returns what an assertion on the target pins: its text, or without
// text its role and name, or its name alone; nil when all are unusable (the
// assertion then checks presence only).
func (g *generator) pin(a ownAtoms) *atom {
	switch {
	case a.text != nil:
		return &atom{set: a.text.set, cost: costPinned + a.text.cost - costText}
	case a.roleName != nil:
		return &atom{set: a.roleName.set, cost: costPinned, role: true}
	case g.usable(g.node.Name):
		name := g.m.name(g.pos)
		return &atom{set: func(s *Selector) { s.Name = name }, cost: costPinned}
	}
	return nil
}

// bases returns the selectors built from the target's own properties,
// cheapest first: for an assertion the pinned claim plus up to two of its
// ids, label and placeholder; for an action (or an assertion with nothing
// to pin) any one or two of test id, id, label, placeholder, role + name and
// text; each with or without the role. With presenceToo an assertion's list
// goes on with the selectors that check presence only, for the menu.
func (g *generator) bases(presenceToo bool) []option {
	a := g.atoms()
	var out []option
	seen := map[string]bool{}
	add := func(pins bool, atoms ...atom) {
		for _, o := range g.combine(pins, atoms) {
			if key := o.sel.String(); !seen[key] {
				seen[key] = true
				out = append(out, o)
			}
		}
	}
	if g.purpose == PurposeAssert {
		if pin := g.pin(a); pin != nil {
			add(true, *pin)
			for i, x := range a.ids {
				add(true, *pin, x)
				for _, y := range a.ids[i+1:] {
					add(true, *pin, x, y)
				}
			}
			if !presenceToo {
				sortOptions(out)
				return out
			}
			a.text = nil // what follows checks presence only
		}
	}
	all := a.ids
	if a.roleName != nil {
		all = append(all, *a.roleName)
	}
	if a.text != nil {
		all = append(all, *a.text)
	}
	if a.countFree != nil {
		all = append(all, *a.countFree)
	}
	for i, x := range all {
		add(false, x)
		for _, y := range all[i+1:] {
			add(false, x, y)
		}
	}
	if g.node.Role != "" {
		add(false, atom{set: func(s *Selector) { s.Role = g.node.Role }, cost: costRole, role: true})
	}
	sortOptions(out)
	return out
}

// combine builds the selector of some atoms, as it is and with the target's
// role added when the atoms do not set it.
func (g *generator) combine(pins bool, atoms []atom) []option {
	var sel Selector
	cost, hasRole := 0, false
	for _, a := range atoms {
		a.set(&sel)
		cost += a.cost
		hasRole = hasRole || a.role
	}
	out := []option{{sel: sel, cost: cost, scope: -1}}
	if role := g.node.Role; !hasRole && role != "" {
		qualified := option{sel: sel, cost: cost + costRoleQualifier, scope: -1}
		if IsUnnamedRole(role) {
			qualified.cost = cost + costGenericQualifier
		}
		qualified.sel.Role = role
		out = append(out, qualified)
	}
	valid := out[:0]
	for _, o := range out {
		if o.sel.Validate() == nil {
			o.pins = pins || g.pinsValue(o.sel)
			valid = append(valid, o)
		}
	}
	return valid
}

// pinsValue reports whether sel checks the target's text: it has the text,
// or the name that is the text (a button named by its content), or the name
// of an element without text.
func (g *generator) pinsValue(sel Selector) bool {
	n := g.node
	return sel.Text != "" || sel.TextRegex != "" ||
		sel.Name != "" && (n.Text == "" || sel.Name == screen.CollapseSpace(g.m.text(g.pos)))
}

func sortOptions(opts []option) {
	sort.SliceStable(opts, func(i, j int) bool { return opts[i].cost < opts[j].cost })
}

// scopes returns the containers of the target that a selector can name on
// their own, cheapest first. Whether each names its container alone is
// checked when it is first used.
func (g *generator) scopes() []scope {
	if g.scopesSet {
		return g.scopeList
	}
	g.scopesSet = true
	m := g.m
	field, fieldTitle := g.fieldGroup()
	rowTitles := g.rowTitles()
	depth := 0
	for a := m.parent[g.pos]; a >= 0; a = m.parent[a] {
		depth++
		n := m.nodes[a]
		if m.parent[a] < 0 || n.Tag == "html" || n.Tag == "body" {
			continue // the whole page scopes nothing
		}
		base := costWithin + depth*costScopeDepth
		addScope := func(sel Selector, cost int) bool {
			if sel.Validate() != nil {
				return false
			}
			g.scopeList = append(g.scopeList, scope{pos: a, sel: sel, cost: base + cost, valid: new(int8)})
			return true
		}
		if g.usableID(n.TestID) {
			addScope(Selector{TestID: n.TestID}, idCost(n.TestID, costTestID))
		}
		if g.usableNodeID(n) {
			addScope(Selector{ID: n.ID}, idCost(n.ID, costID))
		}
		// A row named by its content carries every cell, prices and counts
		// too: it is found by its title instead.
		if !IsUnnamedRole(n.Role) && g.usable(n.Name) && !g.carriesValue(n.Name) && !g.namedByContent(a) {
			addScope(Selector{Role: n.Role, Name: g.m.name(a)}, costRoleName)
		}
		// A row whose text is the target's own adds nothing to it.
		if IsRowRole(n.Role) && n.Text != g.node.Text {
			if title := RowTitle(m, a); g.usable(title) && g.claims(title) {
				// An assertion on the row's title (the status code of a
				// response row) would pin its claim in the scope too: a
				// changed value would fail as a missing row, not as the
				// check that it is. The row is found by its next line.
				if second := g.secondLine(a, title); second != "" {
					addScope(Selector{Role: n.Role, TextRegex: "(?m)^" + regexp.QuoteMeta(second) + "$"}, costRowTitle+costRowSecondLine)
				}
			} else if g.usable(title) {
				if exact, pattern := rowScopeText(n.Text, title); exact != "" || pattern != "" {
					addScope(Selector{Role: n.Role, Text: exact, TextRegex: pattern}, costRowTitle)
				}
				if second := g.secondLine(a, title); second != "" {
					pattern := "^" + regexp.QuoteMeta(title) + `\n` + regexp.QuoteMeta(second) + `(\n|$)`
					addScope(Selector{Role: n.Role, TextRegex: pattern}, costRowTitle+costRowSecondLine)
				}
			}
		}
		if IsScopeRole(n.Role) {
			addScope(Selector{Role: n.Role}, costRole)
		}
		if a == field {
			if exact, pattern := rowScopeText(n.Text, fieldTitle); exact != "" || pattern != "" {
				addScope(Selector{Role: n.Role, Text: exact, TextRegex: pattern}, costFieldTitle)
			}
		} else if IsUnnamedRole(n.Role) && n.Text != g.node.Text {
			// A plain container (a form, a field group, a section) found
			// by the heading, legend or label it starts with.
			// Inside a row with the same title, the row says it better.
			if title, heading := g.containerTitle(a); g.usable(title) && !slices.Contains(rowTitles, title) {
				if exact, pattern := rowScopeText(n.Text, title); exact != "" || pattern != "" {
					cost := costLabelTitle
					if heading {
						cost = costHeadingTitle
					}
					if addScope(Selector{Role: n.Role, Text: exact, TextRegex: pattern}, cost) {
						g.scopeList[len(g.scopeList)-1].titled = true
					}
				}
			}
		}
	}
	sort.SliceStable(g.scopeList, func(i, j int) bool { return g.scopeList[i].cost < g.scopeList[j].cost })
	return g.scopeList
}

// nestedScopes adds to scopeList, once, the scopes that name their
// container only within a container around it: Swagger UI's live response
// row is found by its "Response body" line, but every open operation has
// one, so it is found by that line within its operation
// ({role: row, textRegex: "(?m)^Response body$", within: {id: …}}). Each
// scope that does not name its container alone is nested in the cheapest
// scope around it that does, and within which it does; one level, at the
// cost of both. It returns their positions in scopeList.
func (g *generator) nestedScopes() []int {
	if g.nestedSet {
		return g.nested
	}
	g.nestedSet = true
	list := g.scopes()
	n := len(list)
	for i := 0; i < n; i++ {
		inner := &g.scopeList[i]
		if inner.sel.Within != nil || g.scopeValid(inner) {
			continue
		}
		for j := 0; j < n; j++ {
			outer := &g.scopeList[j]
			if outer.pos == inner.pos || !g.m.Inside(inner.pos, outer.pos) || outer.sel.Within != nil || !g.scopeValid(outer) {
				continue
			}
			all, err := g.m.allIn(&inner.sel, outer.pos+1, g.m.end[outer.pos], matchConfig{})
			if err != nil || len(all) != 1 || all[0] != inner.pos {
				continue
			}
			sel := inner.sel
			w := outer.sel
			sel.Within = &w
			if sel.Validate() != nil {
				continue
			}
			valid := int8(1)
			g.scopeList = append(g.scopeList, scope{pos: inner.pos, sel: sel, cost: inner.cost + outer.cost, valid: &valid, titled: inner.titled})
			g.nested = append(g.nested, len(g.scopeList)-1)
			break // scopeList is sorted: the first that fits is the cheapest
		}
	}
	return g.nested
}

// FieldGroup returns the plain wrapper an unlabelled field at pos shares
// with the text that names it, and that text: <div><span>Size</span>
// <select>…</div> is the Size field, though no <label> ties the two. It is
// the nearest plain (generic) container of the field whose title is not the
// field's own text (a drop-down's text is its current option), and that
// holds no other field (whose text its first text may be); -1 for a field
// with a name or label of its own, and for anything but a field.
func FieldGroup(m *Matcher, pos int32) (int32, string) {
	n := m.nodes[pos]
	if !IsField(n) || n.Name != "" || n.Label != "" {
		return -1, ""
	}
	for a := m.parent[pos]; a >= 0; a = m.parent[a] {
		c := m.nodes[a]
		if m.parent[a] < 0 || c.Tag == "body" || !IsUnnamedRole(c.Role) {
			return -1, ""
		}
		if c.Text == n.Text {
			continue // a wrapper of the field alone
		}
		for q := a + 1; q < m.end[a]; q++ {
			if q != pos && IsField(m.nodes[q]) {
				return -1, "" // shared with other fields: its first text is not this one's
			}
		}
		title := RowTitle(m, a)
		if title == "" || n.Text != "" && strings.Contains(n.Text, title) {
			return -1, ""
		}
		// A button's text ("Tree ▾" before a search box) is its own name,
		// not the field's.
		if src := lineSource(m, a, title); src >= 0 && (IsControlRole(m.nodes[src].Role) || m.insideControl(src, a)) {
			return -1, ""
		}
		return a, title
	}
	return -1, ""
}

// insideControl reports whether the element at p lies in a control inside
// the container at a.
func (m *Matcher) insideControl(p, a int32) bool {
	for q := m.parent[p]; q > a; q = m.parent[q] {
		if IsControlRole(m.nodes[q].Role) {
			return true
		}
	}
	return false
}

// secondLine is the line after a row's title, which tells apart rows that
// share their title (the documented 200 response and the live one, whose
// next line is "Response body": "^200\nResponse body(\n|$)"). It must read
// as a name, come from no control (a drop-down's choice) and not hold the
// target's value; "" otherwise.
func (g *generator) secondLine(row int32, title string) string {
	m := g.m
	text := m.nodes[row].Text
	if !strings.HasPrefix(text, title+"\n") {
		return ""
	}
	second, _, _ := strings.Cut(text[len(title)+1:], "\n")
	if !isTitleLine(second) || !g.usable(second) || nameHolds(second, g.node.Value) {
		return ""
	}
	src := lineSource(m, row, second)
	if src < 0 || src == g.pos || m.Inside(src, g.pos) || IsControlRole(m.nodes[src].Role) || holdsControl(m.nodes[src]) {
		return ""
	}
	return second
}

// claims reports whether an assertion on the target checks text: the
// title of a row around it that is its own text.
func (g *generator) claims(title string) bool {
	return g.purpose == PurposeAssert && title == g.node.Text
}

// lineSource is the innermost element in the row at row whose text opens
// with line: where that line is read from; -1 when none.
func lineSource(m *Matcher, row int32, line string) int32 {
	src := int32(-1)
	for q := row + 1; q < m.end[row]; q++ {
		if src >= 0 && !m.Inside(q, src) {
			break // past the first element reading it
		}
		if first, _, _ := strings.Cut(m.nodes[q].Text, "\n"); first == line {
			src = q
		}
	}
	return src
}

// rowTitles are the titles of the rows around the target.
func (g *generator) rowTitles() []string {
	var out []string
	for a := g.m.parent[g.pos]; a >= 0; a = g.m.parent[a] {
		if IsRowRole(g.m.nodes[a].Role) {
			out = append(out, RowTitle(g.m, a))
		}
	}
	return out
}

// namedByContent reports whether the container at a is named by what it
// holds rather than by a name of its own: a name longer than a title
// (maxScopeName), or a row's name that is its text, or that starts with its
// title and goes on (a response row named "200 Response body … date: …").
// Such a name changes with the content, the date a response was sent, the
// price in a row; the container is found by its title instead.
func (g *generator) namedByContent(a int32) bool {
	n := g.m.nodes[a]
	if utf8.RuneCountInString(n.Name) > maxScopeName {
		return true
	}
	if !IsRowRole(n.Role) {
		return false
	}
	if n.Name == screen.CollapseSpace(n.Text) {
		return true
	}
	title := screen.CollapseSpace(RowTitle(g.m, a))
	return title != "" && title != n.Name && strings.HasPrefix(n.Name, title)
}

// containerTitle is the title a plain container at a is found by (see
// ContainerTitle), "" when it has none or its title lies in the target.
func (g *generator) containerTitle(a int32) (string, bool) {
	title, by, heading := containerTitle(g.m, a)
	if by == nil {
		return "", false
	}
	if by == g.node || title == g.node.Name || title == g.node.Text {
		return "", false // the target's own text names nothing around it
	}
	if p, ok := g.m.Position(by.Ref); ok && by.Ref != "" && g.m.Inside(p, g.pos) {
		return "", false
	}
	return title, heading
}

func (g *generator) fieldGroup() (int32, string) {
	a, title := FieldGroup(g.m, g.pos)
	if a < 0 || !g.usable(title) {
		return -1, ""
	}
	return a, title
}

// fieldRoles are the controls a person fills in or chooses in, which a
// label-like text beside them names.
var fieldRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true, "listbox": true, "slider": true}

// IsField reports whether n is a field a person fills in or chooses in: a
// control of a field role, or text edited in place (whatever its role).
func IsField(n *screen.Node) bool { return fieldRoles[n.Role] || n.Editable }

// scopeValid reports whether sc's selector names its container alone.
func (g *generator) scopeValid(sc *scope) bool {
	if *sc.valid == 0 {
		*sc.valid = -1
		if got, err := g.m.resolve(&sc.sel, &sc.sel, matchConfig{}); err == nil && g.m.wholeRow(got[0]) == sc.pos {
			*sc.valid = 1
		}
	}
	return *sc.valid == 1
}

// best finds the cheapest option that names the target alone: the first
// unique base, unless a scope or an index on a cheaper ambiguous base costs
// less. An option's cost can only grow when it is evaluated (an index adds
// the number of elements it counts among), so the search stops at the first
// option that cannot beat the best found.
func (g *generator) best() (option, bool) {
	if rp := g.revealer(); rp >= 0 {
		if o, ok := g.bestRevealed(rp); ok {
			return o, true
		}
	}
	var found option
	ok := false
	var ambiguous []ambiguousBase
	for _, b := range g.bases(false) {
		all, err := g.m.all(&b.sel, matchConfig{})
		if err != nil {
			continue
		}
		at := slices.Index(all, g.pos)
		if at < 0 {
			continue
		}
		if len(all) == 1 {
			found, ok = b, true
			break
		}
		ambiguous = append(ambiguous, ambiguousBase{option: b, at: at, matches: len(all)})
	}
	cheaper := func(cost int) bool { return !ok || cost < found.cost }
	var further []option
	for _, a := range ambiguous {
		if o := a.withIndex(); cheaper(o.cost) {
			further = append(further, o)
		}
		for i, sc := range g.scopes() {
			if !cheaper(a.cost + sc.cost) {
				break
			}
			o := a.within(sc, i)
			further = append(further, o)
			if cheaper(o.cost + costIndex) {
				o.cost += costIndex
				o.countIndex = true
				further = append(further, o)
			}
		}
	}
	sortOptions(further)
	for _, o := range further {
		if !cheaper(o.cost) {
			break
		}
		if got, yes := g.resolves(o); yes && cheaper(got.cost) {
			found, ok = got, true
		}
	}
	// No single scope told the target apart: a scope within another may,
	// before a position is counted.
	if !ok || hasIndex(found.sel) {
		for _, a := range ambiguous {
			for _, i := range g.nestedScopes() {
				if o := a.within(g.scopeList[i], i); cheaper(o.cost) {
					if got, yes := g.resolves(o); yes {
						found, ok = got, true
					}
				}
			}
		}
	}
	return found, ok
}

// hasIndex reports whether sel or a scope of it counts a position.
func hasIndex(sel Selector) bool {
	for s := &sel; s != nil; s = s.Within {
		if s.Index != nil {
			return true
		}
	}
	return false
}

// revealer returns the position of the element around the target whose
// hover alone shows it (screen.Node.RevealedBy), -1 for none.
func (g *generator) revealer() int32 {
	ref := g.node.RevealedBy
	if ref == "" {
		return -1
	}
	p, ok := g.m.Position(ref)
	if !ok || !g.m.Inside(g.pos, p) {
		return -1
	}
	return p
}

// bestRevealed names a target that shows only while the pointer is over
// the element at rp around it (a row's delete button) within that element
// or a container inside it, else within the row around that element (a
// plain wrapper of the row's content is often what the rule names): the
// one button shown looks unique only because the pointer rests on its row,
// and at replay the row is hovered first, then the button is found in it.
func (g *generator) bestRevealed(rp int32) (option, bool) {
	// A plain wrapper found only by its first line is what the hover rule
	// names, not what a person names: the row around it is.
	if o, ok := g.bestInScopes(func(sc scope) bool { return (sc.pos == rp || g.m.Inside(sc.pos, rp)) && !sc.titled }); ok {
		return o, true
	}
	return g.bestInScopes(func(sc scope) bool { return g.m.Inside(rp, sc.pos) && IsRowRole(g.m.nodes[sc.pos].Role) })
}

// bestInScopes is the cheapest option within one of the scopes keep takes
// that names the target alone.
func (g *generator) bestInScopes(keep func(scope) bool) (option, bool) {
	var found option
	ok := false
	scopes := g.scopes()
	for _, b := range g.bases(false) {
		for i, sc := range scopes {
			if !keep(sc) {
				continue
			}
			o := ambiguousBase{option: b}.within(sc, i)
			if ok && o.cost >= found.cost {
				continue
			}
			if got, yes := g.resolves(o); yes {
				found, ok = got, true
			}
		}
	}
	return found, ok
}

// An ambiguous base matches the target and others: scopes and an index can
// still make it name the target alone.
type ambiguousBase struct {
	option
	at      int // the target's position among its matches
	matches int // how many it matches
}

func (a ambiguousBase) withIndex() option {
	o := a.option
	at := a.at
	o.sel.Index = &at
	o.cost += costIndex + a.matches*costIndexCandidate
	return o
}

func (a ambiguousBase) within(sc scope, i int) option {
	o := a.option
	w := sc.sel
	o.sel.Within = &w
	o.cost += sc.cost
	o.scope = i
	return o
}

// resolves reports whether o names the target alone, counting its index
// when it has one to count.
func (g *generator) resolves(o option) (option, bool) {
	lo, hi := int32(0), int32(len(g.m.nodes))
	if o.scope >= 0 {
		sc := &g.scopeList[o.scope]
		if !g.scopeValid(sc) {
			return o, false
		}
		lo, hi = sc.pos+1, g.m.end[sc.pos]
	}
	all, err := g.m.allIn(&o.sel, lo, hi, matchConfig{})
	if err != nil {
		return o, false
	}
	at := slices.Index(all, g.pos)
	switch {
	case at < 0:
		return o, false
	case o.countIndex:
		if len(all) == 1 {
			return o, false // the index is dropped when the rest is unique
		}
		o.sel.Index = &at
		o.cost += len(all) * costIndexCandidate
		return o, true
	case o.sel.Index != nil:
		return o, *o.sel.Index == at && len(all) > 1
	}
	return o, len(all) == 1
}

// verify matches sel again on the screen, the way replay will, and checks
// that it names the target and writes nothing sensitive.
func (g *generator) verify(sel Selector) error {
	got, err := g.m.Match(sel)
	if err != nil {
		return fmt.Errorf("generated selector %s for %s does not match on its own screen: %w", sel, describeNode(g.node), err)
	}
	if len(got) != 1 || got[0] != g.node {
		return fmt.Errorf("generated selector %s resolves to %s, not to its target %s", sel, describeNode(got[0]), describeNode(g.node))
	}
	if g.taint.LeaksFrom(&sel) {
		return fmt.Errorf("generated selector for %s would show a sensitive value; refusing it", g.node.Ref)
	}
	return nil
}
