package screen

import (
	"fmt"
	"strings"
)

// The interactive-only form, for prompts that must stay small. It keeps:
//
//   - every interactive element (interactiveRoles) with its states and ref;
//     its text when that is its only content (a field's value, the label of
//     a nameless button); its /url and placeholder only when it has no name,
//     and then also the first named element inside it (the image of an
//     image link), so a nameless control still says what it is;
//   - the landmarks, dialogs, menus and frames (containerRoles) that hold an
//     interactive element, as "- navigation "Main":" lines without refs, so
//     a model can tell the header's "Search" from the dialog's;
//   - each named heading that is followed by an interactive element before
//     the next heading in the same container, as a "- heading "Cart"
//     [level=2]" line without a ref: the caption a person reads above the
//     controls;
//   - the rows, list items, groups and articles (contextRoles) that hold an
//     interactive element, as lines without refs that keep the text they
//     show besides their controls (- listitem: Feed the cat), so four
//     checkboxes of four rows do not read the same.
//
// Everything else (paragraphs, lists, tables, generic wrappers, images,
// text) is left out; the interactive elements inside it move up to the
// nearest kept container, in document order.

// interactiveRoles are the roles a person or model acts on.
var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true,
	"checkbox": true, "radio": true, "switch": true, "combobox": true,
	"listbox": true, "option": true, "slider": true, "spinbutton": true,
	"tab": true, "menuitem": true, "menuitemcheckbox": true, "menuitemradio": true,
	"treeitem": true, "scrollbar": true,
}

// containerRoles give interactive elements the context that tells them apart.
var containerRoles = map[string]bool{
	"banner": true, "navigation": true, "main": true, "contentinfo": true,
	"complementary": true, "search": true, "form": true, "region": true,
	"dialog": true, "alertdialog": true, "menu": true, "menubar": true,
	"iframe": true,
}

// contextRoles hold a set of controls that belong together and say, by
// their own text, which set it is: a table row, a list item, a group.
var contextRoles = map[string]bool{
	"row": true, "listitem": true, "group": true, "radiogroup": true,
	"article": true, "toolbar": true,
}

// maxContextText bounds the text a context line keeps: enough to tell one
// row from the next, not the row's whole content.
const maxContextText = 80

// interactiveOnly returns the interactive-only form of nodes; nodes are not
// changed.
func interactiveOnly(nodes []*SnapshotNode) []*SnapshotNode {
	first := dropIdleHeadings((&collector{}).collect(nodes))
	// A control that still reads like another may be told apart by the
	// text of a plain wrapper around it (a field's caption): keep those
	// wrappers, but only around such controls, so the form stays small.
	need := map[string]bool{}
	for _, refs := range sameReadings(readings(first)) {
		for _, r := range refs {
			need[r] = true
		}
	}
	if len(need) == 0 {
		return first
	}
	return dropIdleHeadings((&collector{need: need}).collect(nodes))
}

// A collector builds the interactive form; need holds the refs of controls
// whose plain wrappers are kept as context.
type collector struct{ need map[string]bool }

// holdsNeeded reports whether nodes hold a control in k.need.
func (k *collector) holdsNeeded(nodes []*SnapshotNode) bool {
	for _, n := range nodes {
		if n.Ref != "" && k.need[n.Ref] || k.holdsNeeded(n.Children) {
			return true
		}
	}
	return false
}

// collect keeps the interactive elements of nodes, their
// containers, and every named heading; dropIdleHeadings then drops the
// headings nothing interactive follows.
func (k *collector) collect(nodes []*SnapshotNode) []*SnapshotNode {
	var out []*SnapshotNode
	for _, n := range nodes {
		switch {
		case n.IsText():
		case interactiveRoles[n.Role]:
			out = append(out, k.copy(n))
		case containerRoles[n.Role]:
			if inner := dropIdleHeadings(k.collect(n.Children)); len(inner) > 0 {
				out = append(out, &SnapshotNode{Role: n.Role, Name: n.Name, Children: inner})
			}
		case contextRoles[n.Role] || n.Role == "generic" && k.need != nil && k.holdsNeeded(n.Children) && addsContext(n):
			inner := dropIdleHeadings(k.collect(n.Children))
			text := contextText(n)
			if text == n.Name {
				text = ""
			}
			if !hasInteractive(inner) || text == "" && n.Name == "" {
				// Nothing of its own to tell its controls apart by.
				out = append(out, inner...)
				break
			}
			c := &SnapshotNode{Role: n.Role, Name: n.Name, Level: n.Level}
			if text != "" {
				c.Children = append(c.Children, &SnapshotNode{Role: SnapshotTextRole, Text: text})
			}
			c.Children = append(c.Children, inner...)
			out = append(out, c)
		case n.Role == "heading" && n.Name != "":
			out = append(out, &SnapshotNode{Role: n.Role, Name: n.Name, Level: n.Level})
		default:
			out = append(out, k.collect(n.Children)...)
		}
	}
	return out
}

// copy is an interactive element as the interactive form shows it.
func (k *collector) copy(n *SnapshotNode) *SnapshotNode {
	c := &SnapshotNode{
		Role: n.Role, Name: n.Name, Ref: n.Ref,
		Checked: n.Checked, Pressed: n.Pressed, Disabled: n.Disabled,
		Expanded: n.Expanded, Selected: n.Selected, Active: n.Active,
		Invalid: n.Invalid, Level: n.Level,
	}
	if n.Name == "" {
		c.URL = n.URL
		c.Props = n.Props
	}
	if len(n.Children) == 1 && n.Children[0].IsText() {
		c.Children = []*SnapshotNode{{Role: SnapshotTextRole, Text: n.Children[0].Text}}
		return c
	}
	c.Children = dropIdleHeadings(k.collect(n.Children))
	if n.Name == "" && len(c.Children) == 0 {
		// A nameless control (an image link) is known by what it shows.
		if d := findNamed(n.Children); d != nil {
			c.Children = []*SnapshotNode{{Role: d.Role, Name: d.Name}}
		}
	}
	return c
}

// addsContext reports whether a generic wrapper says more about the
// controls in it than their names do (a field's caption beside an
// unlabelled drop-down), and so is kept as a context line. Its text must
// be its own: a wrapper whose text is only its control's label adds
// nothing. (A caption that is part of the label does: "Not clickable"
// above one of two fields labelled "Not clickable icon" tells that one
// apart.)
func addsContext(n *SnapshotNode) bool {
	text := contextText(n)
	if text == "" {
		return false
	}
	for _, c := range n.Children {
		if !c.IsText() && interactiveRoles[c.Role] && c.Name == text {
			return false
		}
	}
	return true
}

// hasInteractive reports whether nodes hold an interactive element.
func hasInteractive(nodes []*SnapshotNode) bool {
	for _, n := range nodes {
		if interactiveRoles[n.Role] || hasInteractive(n.Children) {
			return true
		}
	}
	return false
}

// contextText is the text a context element shows outside its interactive
// elements, in order, cut to maxContextText characters.
func contextText(n *SnapshotNode) string {
	var parts []string
	var walk func([]*SnapshotNode)
	walk = func(nodes []*SnapshotNode) {
		for _, c := range nodes {
			switch {
			case c.IsText():
				parts = append(parts, c.Text)
			case interactiveRoles[c.Role]:
			case c.Name != "" && len(c.Children) == 0:
				parts = append(parts, c.Name)
			default:
				walk(c.Children)
			}
		}
	}
	walk(n.Children)
	text := normalizeSnapshotSpace(strings.Join(parts, " "))
	if r := []rune(text); len(r) > maxContextText {
		text = strings.TrimRight(string(r[:maxContextText]), " ") + "…"
	}
	return text
}

// findNamed returns the first named element among nodes and their
// descendants, depth first.
func findNamed(nodes []*SnapshotNode) *SnapshotNode {
	for _, n := range nodes {
		if !n.IsText() && n.Name != "" {
			return n
		}
		if d := findNamed(n.Children); d != nil {
			return d
		}
	}
	return nil
}

// dropIdleHeadings removes headings not followed by an interactive element
// or container before the next heading.
func dropIdleHeadings(nodes []*SnapshotNode) []*SnapshotNode {
	out := nodes[:0]
	for i, n := range nodes {
		if n.Role == "heading" && (i+1 == len(nodes) || nodes[i+1].Role == "heading") {
			continue
		}
		out = append(out, n)
	}
	return out
}

// CheckDistinguishable checks the interactive form of a screen: no two of
// its interactive lines may read the same together with their context (the
// containers, rows, list items and groups above them with their text, and
// the heading before them), refs aside, where the page itself tells them
// apart (two "Delete" buttons side by side with nothing around them read
// the same in the full snapshot too, and no form of it can do better). The
// error lists every line that repeats.
func CheckDistinguishable(s *Screen) error {
	tree := snapshotTree(s, ModeAI, true)
	return distinguishable(interactiveOnly(tree), tree)
}

// distinguishable checks the interactive form small of the outline full.
func distinguishable(small, full []*SnapshotNode) error {
	inFull := readings(full)
	var dups []string
	for _, refs := range sameReadings(readings(small)) {
		for _, r := range refs[1:] {
			if inFull.of[r] != inFull.of[refs[0]] {
				dups = append(dups, fmt.Sprintf("%d× %s (%s)", len(refs), readings(small).of[refs[0]], strings.Join(refs, ", ")))
				break
			}
		}
	}
	if len(dups) == 0 {
		return nil
	}
	return fmt.Errorf("%d interactive lines of the interactive form read the same as another with their context, though the page tells them apart:\n  %s",
		len(dups), strings.Join(dups, "\n  "))
}

// lineReadings is how each interactive line reads, by ref, in order.
type lineReadings struct {
	of    map[string]string
	order []string
}

// sameReadings returns the refs of the lines that read alike, by reading,
// each group in document order and with more than one ref.
func sameReadings(r lineReadings) [][]string {
	groups := map[string][]string{}
	var order []string
	for _, ref := range r.order {
		k := r.of[ref]
		if len(groups[k]) == 0 {
			order = append(order, k)
		}
		groups[k] = append(groups[k], ref)
	}
	var out [][]string
	for _, k := range order {
		if len(groups[k]) > 1 {
			out = append(out, groups[k])
		}
	}
	return out
}

func readings(nodes []*SnapshotNode) lineReadings {
	r := lineReadings{of: map[string]string{}}
	readInteractive(nodes, nil, &r)
	return r
}

// readInteractive records how each interactive line of nodes reads below
// context.
func readInteractive(nodes []*SnapshotNode, context []string, r *lineReadings) {
	below := func(line string, heading string) []string {
		out := append([]string(nil), context...)
		if heading != "" {
			out = append(out, heading)
		}
		return append(out, line)
	}
	heading := ""
	for _, n := range nodes {
		if n.IsText() {
			continue
		}
		line := readLine(n)
		switch {
		case line == "generic":
			// A wrapper with neither name nor text tells a reader
			// nothing: how deep a control sits is not something one
			// reads.
			readInteractive(n.Children, context, r)
		case interactiveRoles[n.Role]:
			if n.Ref != "" {
				if _, ok := r.of[n.Ref]; !ok {
					r.order = append(r.order, n.Ref)
				}
				r.of[n.Ref] = strings.Join(below(line, heading), " > ")
			}
			readInteractive(n.Children, below(line, heading), r)
		case n.Role == "heading":
			heading = line
		default:
			readInteractive(n.Children, below(line, heading), r)
		}
	}
}

// readLine is a node's line as a reader sees it: role, name, marks, and
// the text or /url that follows, without the ref. A line that holds
// other lines reads with the text it shows besides its controls, as the
// interactive form's context lines do: whether that text sits in the
// element itself or in a plain element inside it is no difference to a
// reader.
func readLine(n *SnapshotNode) string {
	c := *n
	c.Ref = ""
	c.Extra = nil
	line := buildSnapshotKey(&c, true, true)
	if text, ok := soleText(n); ok {
		line += ": " + text
	} else if interactiveRoles[n.Role] {
		for _, k := range n.Children {
			if k.IsText() {
				line += " / " + k.Text
				break
			}
		}
	} else if text := contextText(n); text != "" && text != n.Name {
		line += " / " + text
	}
	if n.URL != "" {
		line += " /url: " + n.URL
	}
	return line
}
