package selector

import (
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// TestGenerateSkipsShadowRootIDs: an id from inside a shadow root is unique
// only within that root (every instance of a component holds the same
// ids), so the selector names the control by its role and name, even where
// the id is the only one of its kind on the screen today; an id of the
// document is still used.
func TestGenerateSkipsShadowRootIDs(t *testing.T) {
	scoped := screentest.Node(func(n *screen.Node) { n.ScopedID = true })
	s := screentest.Page(screentest.El("main", screentest.Kids(
		screentest.El("generic", screentest.Tag("x-panel"), screentest.Kids(
			screentest.Leaf("button", "Shipping", screentest.Ref("header"), screentest.ID("header"), scoped),
			screentest.El("textbox", screentest.Name("Address"), screentest.Ref("input"), screentest.ID("input"), scoped),
		)),
		screentest.Leaf("button", "Save", screentest.Ref("save"), screentest.ID("save")),
	)))
	for _, c := range []struct {
		purpose   Purpose
		ref, want string
	}{
		{PurposeTap, "header", `{role: button, name: Shipping}`},
		{PurposeType, "input", `{role: textbox, name: Address}`},
		{PurposeTap, "save", `{id: save}`},
	} {
		got, err := Generate(c.purpose, c.ref, s, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.ref, err)
		}
		if got.String() != c.want {
			t.Errorf("%s: got %s, want %s", c.ref, got.String(), c.want)
		}
	}
}
