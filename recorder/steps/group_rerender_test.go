package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestClickJoinsTypingIntoAFieldTheAppRewrote: a tree editor rewrites a
// row a debounce after each change (JSONEditor re-validates and renders
// its rows again), so the field a click put the focus in can be another
// element by the time the typing into it is captured: the same field, by
// the same selector, under another ref. The click only focused it and
// joins the typing, as it does when the element stays.
func TestClickJoinsTypingIntoAFieldTheAppRewrote(t *testing.T) {
	row := func(ref, value string) *screen.Screen {
		return shopPage("/", "d", "Editor",
			el("row", "row", screentest.Kids(
				leaf("key", "generic", "firstName"),
				el(ref, "textbox", screentest.Label("firstName"), val(value), screentest.Kids(screentest.Txt(value))),
			)))
	}
	before, rewritten := row("value-1", "John"), row("value-2", "John")
	s := newSession().click(before, "value-1").typ(rewritten, "value-2", "Ada")
	bt, err := BuildSteps(s.recs, row("value-2", "Ada"), BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	var intents []string
	for _, st := range bt.Steps {
		intents = append(intents, st.Intent)
	}
	if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 1 {
		t.Fatalf("steps = %q, want one step that types Ada into the field the click focused", intents)
	}
	if _, ok := bt.Steps[0].Actions[0].(trail.TypeText); !ok || !strings.Contains(intents[0], "Ada") {
		t.Errorf("step %q does %#v, want the typing", intents[0], bt.Steps[0].Actions[0])
	}
}
