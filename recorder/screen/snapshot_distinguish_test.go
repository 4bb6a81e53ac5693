package screen

import (
	"strings"
	"testing"
)

// Four rows of a to-do list: each checkbox has no name, only its row's
// text tells them apart.
func todoScreen(withText bool) *Screen {
	var rows []*Node
	for _, title := range []string{"Feed the cat", "Water the plants", "Post the letter", "Brush the cat"} {
		kids := []*Node{snapWith(snapEl("input", "checkbox", ""), func(n *Node) { n.Checked = "false" })}
		if withText {
			kids = append(kids, snapWith(snapEl("label", "generic", "", snapText(title)), func(n *Node) { n.Text = title }))
		}
		rows = append(rows, snapEl("li", "listitem", "", kids...))
	}
	return snapScreen("", snapEl("main", "main", "",
		snapWith(snapEl("h1", "heading", "todos", snapText("todos")), func(n *Node) { n.Level = 1 }),
		snapEl("ul", "list", "", rows...)))
}

func TestInteractiveFormKeepsRowText(t *testing.T) {
	got := RenderSnapshot(todoScreen(true), SnapshotOptions{Interactive: true})
	for _, want := range []string{`- heading "todos" [level=1]`, "- listitem:\n    - text: Feed the cat\n    - checkbox [ref="} {
		if !strings.Contains(got, want) {
			t.Errorf("interactive form lacks %q:\n%s", want, got)
		}
	}
	if err := CheckDistinguishable(todoScreen(true)); err != nil {
		t.Errorf("CheckDistinguishable(rows with their text) = %v, want nil", err)
	}
}

func TestCheckDistinguishableFindsSameLines(t *testing.T) {
	// Rows without text: the page itself does not tell the boxes apart,
	// so no form of it can.
	if err := CheckDistinguishable(todoScreen(false)); err != nil {
		t.Errorf("CheckDistinguishable(four bare rows) = %v, want nil: the page gives nothing more", err)
	}
	// A form that drops the row text the full outline has is caught.
	full := snapshotTree(todoScreen(true), ModeAI, true)
	var bare []*SnapshotNode
	var collect func([]*SnapshotNode)
	collect = func(nodes []*SnapshotNode) {
		for _, n := range nodes {
			if n.Role == "checkbox" {
				bare = append(bare, &SnapshotNode{Role: n.Role, Ref: n.Ref})
			}
			collect(n.Children)
		}
	}
	collect(full)
	err := distinguishable(bare, full)
	if err == nil || !strings.Contains(err.Error(), "4× checkbox") {
		t.Errorf("distinguishable(four bare checkbox lines, rows with text) = %v, want the checkbox line counted 4 times", err)
	}
}

// captionedFields are two fields with the same label, the first under a
// caption that is part of that label (UIkit's form gallery).
func captionedFields() *Screen {
	field := func() *Node {
		return snapEl("div", "generic", "", snapEl("input", "textbox", "Not clickable icon"))
	}
	caption := snapWith(snapEl("span", "generic", "", snapText("Not clickable")), func(n *Node) { n.Text = "Not clickable" })
	return snapScreen("", snapEl("form", "form", "Icons",
		snapWith(snapEl("div", "generic", "", caption, field()), func(n *Node) { n.Text = "Not clickable"; n.Block = true }),
		snapWith(snapEl("div", "generic", "", field()), func(n *Node) { n.Block = true })))
}

func TestInteractiveFormKeepsACaptionThatIsPartOfTheLabel(t *testing.T) {
	got := RenderSnapshot(captionedFields(), SnapshotOptions{Interactive: true})
	if want := "- generic:\n    - text: Not clickable\n    - textbox \"Not clickable icon\""; !strings.Contains(got, want) {
		t.Errorf("interactive form lacks %q:\n%s", want, got)
	}
	if err := CheckDistinguishable(captionedFields()); err != nil {
		t.Errorf("CheckDistinguishable(two fields, one captioned) = %v, want nil", err)
	}
}

// Two drop-downs, each beside the option it shows: one in a run of text,
// one in a plain element of its own. A reader sees the same, and so does the check,
// however deep the wrappers go.
func TestCheckDistinguishableReadsWhatAReaderReads(t *testing.T) {
	shown := func(inElement bool) *Node {
		text := snapText("Option 01")
		if inElement {
			text = snapWith(snapEl("div", "generic", "", text), func(n *Node) { n.Text = "Option 01"; n.Block = true })
		}
		return snapWith(snapEl("div", "generic", "", snapEl("select", "combobox", "Custom controls"), text),
			func(n *Node) { n.Text = "Option 01"; n.Block = true })
	}
	s := snapScreen("", snapEl("form", "form", "Custom",
		shown(false),
		snapWith(snapEl("div", "generic", "", shown(true)), func(n *Node) { n.Text = "Option 01"; n.Block = true })))
	full := snapshotTree(s, ModeAI, true)
	r := readings(full)
	if len(r.order) != 2 || r.of[r.order[0]] != r.of[r.order[1]] {
		t.Errorf("readings of the two drop-downs in the full outline = %q, want the same reading twice", r.of)
	}
	if err := CheckDistinguishable(s); err != nil {
		t.Errorf("CheckDistinguishable(two drop-downs the page does not tell apart) = %v, want nil", err)
	}
}
