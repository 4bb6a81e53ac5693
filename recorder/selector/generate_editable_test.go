package selector

import (
	"testing"

	st "github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// selEditableRows is a tree editor's rows: each a key, a separator and the
// value, edited in place (a contenteditable div in a cell of its own).
func selEditableRows() *screen.Screen {
	editable := st.Node(func(n *screen.Node) { n.Editable = true; n.Tag = "div" })
	row := func(key, value string) *st.Spec {
		return st.El("treeitem", st.Kids(
			st.Leaf("cell", key, st.Tag("td")),
			st.Leaf("cell", ":", st.Tag("td")),
			st.El("cell", st.Tag("td"), st.Kids(st.Leaf("generic", value, st.Ref(key), editable))),
		))
	}
	return st.Page(st.El("tree", st.Name("Person"), st.Kids(
		row("firstName", "John"),
		row("lastName", "Smith"),
		row("age", "100"),
	)))
}

// TestGenerateNamesTextEditedInPlaceByItsKey: text edited in place is a
// field: typing into it, or tapping it, names it by its row's key (the row
// found by its title, or the key read as its label where the row holds
// more), never by the text it holds, which the step replaces, nor by the
// row or cell whose name carries that text.
func TestGenerateNamesTextEditedInPlaceByItsKey(t *testing.T) {
	page := selEditableRows()
	for _, purpose := range []Purpose{PurposeType, PurposeTap} {
		for _, tt := range []struct{ ref, want string }{
			{"firstName", `{role: generic, within: {role: treeitem, textRegex: "^firstName\\n"}}`},
			{"age", `{role: generic, within: {role: treeitem, textRegex: "^age\\n"}}`},
		} {
			got, err := Generate(purpose, tt.ref, page, nil)
			if err != nil {
				t.Fatalf("Generate(%s %s) error: %v", purpose, tt.ref, err)
			}
			if got.String() != tt.want {
				t.Errorf("Generate(%s %s) = %q, want %q", purpose, tt.ref, got, tt.want)
			}
		}
	}
	// Where the key is edited in place too, as in JSON editors, the row
	// holds two such fields: the value is found by its key as its label.
	keyed := st.Page(st.El("tree", st.Kids(st.El("treeitem", st.Kids(
		st.El("cell", st.Tag("td"), st.Kids(st.Leaf("generic", "firstName", st.Ref("key"), st.Node(func(n *screen.Node) { n.Editable = true })))),
		st.Leaf("cell", ":", st.Tag("td")),
		st.El("cell", st.Tag("td"), st.Kids(st.Leaf("generic", "John", st.Ref("value"), st.Node(func(n *screen.Node) { n.Editable = true })))),
	)))))
	if got, err := Generate(PurposeType, "value", keyed, nil); err != nil || got.String() != `{label: firstName}` {
		t.Errorf("Generate(type value) = %q, %v; want {label: firstName}", got, err)
	}
	if got, err := Match(page, Selector{Label: "lastName"}); err != nil || len(got) != 1 || got[0].Ref != "lastName" {
		t.Errorf("Match({label: lastName}) = %v, %v; want the lastName value", got, err)
	}
}
