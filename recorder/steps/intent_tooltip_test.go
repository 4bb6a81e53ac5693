package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Tooltips of a tree editor's buttons, the same on every row.
const (
	tipDrag    = "Drag to move this field (Alt+Shift+Arrows)"
	tipActions = "Click to open the actions menu (Ctrl+M)"
	tipExpand  = "Click to expand/collapse this field (Ctrl+E). Ctrl+Click to expand/collapse including all childs."
)

// treeEditorPage is a JSON tree editor in small: a menu bar with the mode
// switch ("Tree ▾") and an unlabelled search box, then one table row per
// field. Each row holds a drag handle and an actions button named only by
// their tooltips, and a table of its own for the expand button, the key, a
// colon and the value; the row's name is all of it read out, tooltips
// first. With open, the address object shows its child row.
func treeEditorPage(doc string, open bool) *screen.Screen {
	tip := func(ref, title string) *screentest.Spec {
		return el(ref, "button", screentest.Tag("button"), screentest.Name(title), screentest.Node(func(n *screen.Node) { n.Title = title }))
	}
	row := func(key, value string, expandable bool) *screentest.Spec {
		first := el("c0-"+key, "cell")
		names := tipDrag + " " + tipActions + " "
		if expandable {
			first = el("c0-"+key, "cell", screentest.Kids(tip("expand-"+key, tipExpand)))
			names += tipExpand + " "
		}
		return el("row-"+key, "row", screentest.Name(names+key+" : "+value), screentest.Kids(
			el("c1-"+key, "cell", screentest.Kids(tip("drag-"+key, tipDrag))),
			el("c2-"+key, "cell", screentest.Kids(tip("actions-"+key, tipActions))),
			el("c3-"+key, "cell", screentest.Kids(el("t-"+key, "table", screentest.Kids(
				el("inner-"+key, "row", screentest.Kids(first,
					el("c4-"+key, "cell", screentest.Kids(leaf("key-"+key, "generic", key))),
					el("c5-"+key, "cell", screentest.Kids(leaf("sep-"+key, "generic", ":"))),
					el("c6-"+key, "cell", screentest.Kids(leaf("value-"+key, "generic", value))),
				)),
			)))),
		))
	}
	rows := []*screentest.Spec{row("firstName", "Ada", false), row("lastName", "Lovelace", false), row("address", "{1}", true)}
	if open {
		rows = append(rows, row("city", "London", false))
	}
	return shopPage("/editor", doc, "Editor",
		el("nick", "textbox", labelled("Nickname")),
		el("menu", "generic", screentest.Kids(
			leaf("mode", "button", "Tree ▾", screentest.Tag("button")),
			el("search", "textbox", screentest.Tag("input")),
		)),
		el("tree", "table", screentest.Kids(rows...)),
	)
}

// gridPage is a data grid whose row checkboxes are labelled (aria-label)
// "Select Row" and every cell of their row.
func gridPage() *screen.Screen {
	row := func(ref string, cells ...string) *screentest.Spec {
		kids := []*screentest.Spec{el("cb-"+ref, "cell", screentest.Kids(el("select-"+ref, "checkbox", screentest.Text(""), checked("false"),
			labelled("Select Row "+strings.Join(cells, " ")))))}
		for i, c := range cells {
			kids = append(kids, leaf(ref+"-"+string(rune('a'+i)), "cell", c))
		}
		return el(ref, "row", screentest.Kids(kids...))
	}
	return shopPage("/people", "grid", "People", el("grid", "grid", screentest.Kids(
		row("r1", "Ada Lovelace", "Engineering", "36", "$90,000", "2015-03"),
		row("r2", "Liam Johnson", "Support", "56", "$62,000", "2017-11"),
	)))
}

// TestIntentsFromTooltips: a help text (a tooltip) names a control only
// shortened to what it does, a row is named by its key, never by every
// tooltip on it, and a text beside a field that belongs to a button is not
// the field's name.
func TestIntentsFromTooltips(t *testing.T) {
	tests := []struct {
		name string
		rec  func() *session
		want string
	}{
		{"the expand button of a row", func() *session {
			return newSession().click(treeEditorPage("d", false), "expand-address")
		}, "Click the button to expand/collapse this field in address"},
		{"the actions button of a row", func() *session {
			return newSession().click(treeEditorPage("d", false), "actions-lastName")
		}, "Click the button to open the actions menu in lastName"},
		{"the drag handle of a row", func() *session {
			return newSession().click(treeEditorPage("d", false), "drag-firstName")
		}, `Click the Drag to move this field button in firstName`},
		{"a search box beside a button", func() *session {
			return newSession().typ(treeEditorPage("d", false), "search", "Lovelace")
		}, "Type Lovelace"},
		{"a grid row's checkbox", func() *session {
			return newSession().check(gridPage(), "select-r2")
		}, "Check Select Row in Liam Johnson"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bt, err := BuildSteps(tt.rec().recs, nil, BuildOptions{BaseURL: shopOrigin})
			if err != nil {
				t.Fatal(err)
			}
			if got := bt.Steps[len(bt.Steps)-1].Intent; got != tt.want {
				t.Errorf("intent = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestBuildStepsTooltipsAreNoNames: a step's end names a row by its key,
// never by the tooltips on it; a grid row's checkbox is found within its
// row, never by every cell of the row.
func TestBuildStepsTooltipsAreNoNames(t *testing.T) {
	runStepsCases(t, []stepsCase{
		{
			name: "a row that opens is named by its key",
			rec: func() (*session, *screen.Screen) {
				return newSession().click(treeEditorPage("d", false), "expand-address"), treeEditorPage("d", true)
			},
			start: "/editor",
			want:  []string{`Click the button to expand/collapse this field in address :: tap => /editor {role: row, textRegex: "^city\\n"}`},
		},
	})
}

func TestGridRowCheckboxWithinItsRow(t *testing.T) {
	bt, err := BuildSteps(newSession().check(gridPage(), "select-r2").recs, nil, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatal(err)
	}
	a, ok := bt.Steps[0].Actions[0].(trail.Check)
	want := `{role: checkbox, within: {role: row, textRegex: "^Liam Johnson\\n"}}`
	if !ok || a.Selector.String() != want {
		t.Errorf("the checkbox is found by %v, want %s", bt.Steps[0].Actions[0], want)
	}
}

// TestIntentHelpTextOutsideARow: a help text names a control the same way
// where no row is around it.
func TestIntentHelpTextOutsideARow(t *testing.T) {
	tip := "Click to undo the last change (Ctrl+Z)"
	s := shopPage("/editor", "d", "Editor", el("undo", "button", screentest.Name(tip), screentest.Node(func(n *screen.Node) { n.Title = tip })))
	bt, err := BuildSteps(newSession().click(s, "undo").recs, nil, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := bt.Steps[0].Intent, "Click the button to undo the last change"; got != want {
		t.Errorf("intent = %q, want %q", got, want)
	}
}
