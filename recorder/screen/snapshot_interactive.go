package screen

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
//     the next heading in the same container, as a bare "- heading "Cart""
//     line: the caption a person reads above the controls.
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

// interactiveOnly returns the interactive-only form of nodes; nodes are not
// changed.
func interactiveOnly(nodes []*SnapshotNode) []*SnapshotNode {
	return dropIdleHeadings(collectInteractive(nodes))
}

// collectInteractive keeps the interactive elements of nodes, their
// containers, and every named heading; dropIdleHeadings then drops the
// headings nothing interactive follows.
func collectInteractive(nodes []*SnapshotNode) []*SnapshotNode {
	var out []*SnapshotNode
	for _, n := range nodes {
		switch {
		case n.IsText():
		case interactiveRoles[n.Role]:
			out = append(out, interactiveCopy(n))
		case containerRoles[n.Role]:
			if inner := dropIdleHeadings(collectInteractive(n.Children)); len(inner) > 0 {
				out = append(out, &SnapshotNode{Role: n.Role, Name: n.Name, Children: inner})
			}
		case n.Role == "heading" && n.Name != "":
			out = append(out, &SnapshotNode{Role: n.Role, Name: n.Name})
		default:
			out = append(out, collectInteractive(n.Children)...)
		}
	}
	return out
}

// interactiveCopy is an interactive element as the interactive form shows it.
func interactiveCopy(n *SnapshotNode) *SnapshotNode {
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
	c.Children = dropIdleHeadings(collectInteractive(n.Children))
	if n.Name == "" && len(c.Children) == 0 {
		// A nameless control (an image link) is known by what it shows.
		if d := findNamed(n.Children); d != nil {
			c.Children = []*SnapshotNode{{Role: d.Role, Name: d.Name}}
		}
	}
	return c
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
