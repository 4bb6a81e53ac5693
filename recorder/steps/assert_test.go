package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestBuildStepsAssertValueNamesTheField: an assertValue on a drop-down
// names it as a step that chooses in it would, not by what it shows: its
// text is its choice, and a selector that pinned it would stop matching
// when the value changes, before the check could say what it expected and
// found.
func TestBuildStepsAssertValueNamesTheField(t *testing.T) {
	// A drop-down shows its choice as its text, as the page model reads it.
	tag := func(t string) screentest.Opt { return screentest.Node(func(n *screen.Node) { n.Tag = t }) }
	// The same form twice, as a component gallery shows it, in containers
	// that name nothing: only its choice tells one drop-down from the other.
	form := func(name, fruit, note string) *screentest.Spec {
		return el(strings.ToLower(name), "generic", screentest.Kids(
			el(strings.ToLower(name)+"-fruit", "combobox", labelled("Fruit"), tag("select"), val(fruit), screentest.Kids(screentest.Txt(fruit))),
			el(strings.ToLower(name)+"-note", "textbox", labelled("Note"), val(note), screentest.Kids(screentest.Txt(note)))))
	}
	c := shopPage("/form", "f", "Form", form("Horizontal", "bananas", "ripe"), form("Stacked", "apples", "green"))
	for _, tc := range []struct{ ref, value, want string }{
		{"horizontal-fruit", "bananas", "{role: combobox, name: Fruit, index: 0}"},
	} {
		s := newSession().assertValue(c, tc.ref, tc.value)
		bt, err := BuildSteps(s.recs, c, BuildOptions{BaseURL: shopOrigin})
		if err != nil {
			t.Fatalf("BuildSteps() failed: %v", err)
		}
		if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 1 {
			t.Fatalf("BuildSteps(assertValue on %s) = %+v, want one step of one action", tc.ref, bt.Steps)
		}
		a, ok := bt.Steps[0].Actions[0].(trail.AssertValue)
		if !ok {
			t.Fatalf("BuildSteps(assertValue on %s) action = %T, want trail.AssertValue", tc.ref, bt.Steps[0].Actions[0])
		}
		if got := a.Selector.String(); got != tc.want || strings.Contains(got, tc.value) {
			t.Errorf("assertValue on %s: selector %s, want %s (the field, not its value)", tc.ref, got, tc.want)
		}
	}
}
