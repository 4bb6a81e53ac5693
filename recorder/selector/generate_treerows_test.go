package selector

import (
	"strings"
	"testing"

	st "github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// Tooltips of a tree editor's row buttons, the same on every row.
const (
	treeDragTitle    = "Drag to move this field (Alt+Shift+Arrows)"
	treeActionsTitle = "Click to open the actions menu (Ctrl+M)"
	treeExpandTitle  = "Click to expand/collapse this field (Ctrl+E). Ctrl+Click to expand/collapse including all childs."
)

// selTreeEditor is a JSON tree editor in small: a table with one row per
// field, each holding a drag handle and an actions button named only by
// their tooltips (the same on every row), then a table of its own whose
// one row holds the expand button, the field's key, a colon and its value.
// The outer row's text is the inner row's: the key scopes the expand
// button (in the inner row) and the actions button (only in the outer).
func selTreeEditor() *screen.Screen {
	button := func(ref, title string) *st.Spec {
		return st.El("button", st.Tag("button"), st.Ref(ref), st.Name(title), st.Node(func(n *screen.Node) { n.Title = title }))
	}
	row := func(key, value string, expandable bool) *st.Spec {
		var inner []*st.Spec
		if expandable {
			inner = append(inner, st.El("cell", st.Tag("td"), st.Kids(button("expand-"+key, treeExpandTitle))))
		} else {
			inner = append(inner, st.El("cell", st.Tag("td")))
		}
		inner = append(inner,
			st.El("cell", st.Tag("td"), st.Kids(st.Leaf("generic", key, st.Ref("key-"+key)))),
			st.El("cell", st.Tag("td"), st.Kids(st.Leaf("generic", ":"))),
			st.El("cell", st.Tag("td"), st.Kids(st.Leaf("generic", value, st.Ref("value-"+key)))),
		)
		return st.El("row", st.Tag("tr"), st.Ref("row-"+key), st.Kids(
			st.El("cell", st.Tag("td"), st.Kids(button("drag-"+key, treeDragTitle))),
			st.El("cell", st.Tag("td"), st.Kids(button("actions-"+key, treeActionsTitle))),
			st.El("cell", st.Tag("td"), st.Kids(st.El("table", st.Tag("table"), st.Kids(
				st.El("row", st.Tag("tr"), st.Ref("inner-"+key), st.Kids(inner...)),
			)))),
		))
	}
	return st.Page(st.El("table", st.Tag("table"), st.Kids(
		row("object", "{4}", true),
		row("firstName", "Ada", false),
		row("lastName", "Lovelace", false),
		row("address", "{2}", true),
		row("city", "London", false),
	)))
}

// TestGenerateTreeRowButtons: repeated icon buttons of a tree editor's
// rows are found within their row by its key, never by their position,
// the actions button (outside the table that holds the key) as the
// expand button (inside it).
func TestGenerateTreeRowButtons(t *testing.T) {
	s := selTreeEditor()
	for _, ref := range []string{"expand-address", "actions-firstName", "actions-city", "drag-lastName"} {
		t.Run(ref, func(t *testing.T) {
			got, err := Generate(PurposeTap, ref, s, nil)
			if err != nil {
				t.Fatalf("Generate(tap %s) error: %v", ref, err)
			}
			key := ref[strings.Index(ref, "-")+1:]
			if hasIndex(got) || got.Within == nil || !strings.Contains(got.Within.String(), key) {
				t.Errorf("Generate(tap %s) = %s, want it within the row of %s, with no index", ref, got, key)
			}
		})
	}
}

// TestMatchWithinTheWholeRow: a row found by its title is the whole row,
// also where an outer row of the same text only wraps the one the title
// finds: the actions button beside the key's table is in the key's row.
func TestMatchWithinTheWholeRow(t *testing.T) {
	s := selTreeEditor()
	within := &Selector{Role: "row", TextRegex: `^firstName\n`}
	for _, tt := range []struct {
		sel  Selector
		want string
	}{
		{Selector{Role: "button", Name: treeActionsTitle, Within: within}, "actions-firstName"},
		{Selector{Role: "button", Name: treeDragTitle, Within: within}, "drag-firstName"},
		{Selector{Text: "Ada", Within: within}, "value-firstName"},
		{Selector{Role: "button", Name: treeExpandTitle, Within: &Selector{Role: "row", TextRegex: `^address\n`}}, "expand-address"},
	} {
		got, err := Match(s, tt.sel)
		if err != nil || len(got) != 1 || got[0].Ref != tt.want {
			t.Errorf("Match(%s) = %v, %v; want %s", tt.sel, got, err, tt.want)
		}
	}
}
