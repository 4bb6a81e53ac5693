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

// editorRows is a tree editor's two rows whose values are edited in
// place; focused names the value that has the focus ("" for none).
func editorRows(doc, first, last, focused string, hidden bool) *screen.Screen {
	value := func(key, v string) *screentest.Spec {
		opts := []screentest.Opt{screentest.Label(key), val(v), screentest.Kids(screentest.Txt(v))}
		if hidden {
			opts = append(opts, screentest.Hidden())
		}
		return el(doc+"-"+key, "textbox", opts...)
	}
	s := shopPage("/", doc, "Editor",
		el(doc+"-row1", "row", screentest.Kids(leaf(doc+"-k1", "generic", "firstName"), value("firstName", first))),
		el(doc+"-row2", "row", screentest.Kids(leaf(doc+"-k2", "generic", "lastName"), value("lastName", last))),
	)
	if focused != "" {
		s.Focused = doc + "-" + focused
	}
	return s
}

// selectAll is a press of Control+A in the field ref, as the extension
// sends it (with the field's ref).
func (s *session) selectAll(sc *screen.Screen, ref string) *session {
	return s.add(InteractPress, sc, ref, func(it *Interaction) { it.Key, it.Modifiers = "a", []string{"Control"} })
}

// stepsOf lists each step's actions, as "kind selector", one step a line.
func stepsOf(t *testing.T, s *session, final *screen.Screen) []string {
	t.Helper()
	bt, err := BuildSteps(s.recs, final, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	var out []string
	for _, st := range bt.Steps {
		var acts []string
		for _, a := range st.Actions {
			sel, _ := trail.ActionSelector(a)
			acts = append(acts, string(a.Kind())+" "+sel.String())
		}
		out = append(out, st.Intent+": "+strings.Join(acts, ", "))
	}
	return out
}

// TestClickJoinsTypingAfterAPassingHover: at a machine's pace the pointer
// enters the next field while the page still changes on its own (a tree
// editor validates and renders its rows a debounce after the typing
// before), so the extension sends the entry as a hover that may have shown
// something, right before the click. It showed nothing the click needed
// (the field was there before it): the click only focused the field, and
// the typing after Control+A is the step, as at a person's pace, where no
// hover comes. (JSONEditor gave `Click "Doe"` as a step of its own in about
// one recording in five.)
func TestClickJoinsTypingAfterAPassingHover(t *testing.T) {
	flow := func(hover bool) *session {
		s := newSession().
			click(editorRows("d", "John", "Doe", "", false), "d-firstName").
			selectAll(editorRows("d", "John", "Doe", "firstName", false), "d-firstName").
			typ(editorRows("d", "John", "Doe", "firstName", false), "d-firstName", "Ada")
		passing := editorRows("d", "Ada", "Doe", "firstName", false)
		if hover {
			s.hover(passing, "d-lastName")
		}
		return s.click(passing, "d-lastName").
			selectAll(editorRows("d", "Ada", "Doe", "lastName", false), "d-lastName").
			typ(editorRows("d", "Ada", "Doe", "lastName", false), "d-lastName", "Lovelace")
	}
	final := editorRows("d", "Ada", "Lovelace", "lastName", false)
	person, machine := stepsOf(t, flow(false), final), stepsOf(t, flow(true), final)
	want := []string{"Type Ada into firstName: type {label: firstName}", "Type Lovelace into lastName: type {label: lastName}"}
	if strings.Join(person, "\n") != strings.Join(want, "\n") {
		t.Fatalf("without the hover, steps =\n  %s\nwant\n  %s", strings.Join(person, "\n  "), strings.Join(want, "\n  "))
	}
	if strings.Join(machine, "\n") != strings.Join(person, "\n") {
		t.Errorf("with the hover before the click, steps =\n  %s\nwant them as without it:\n  %s", strings.Join(machine, "\n  "), strings.Join(person, "\n  "))
	}
}

// TestClickJoinsTypingAfterTheHoverThatShowedTheField: a field that only
// the pointer's hover shows needs the hover before the typing into it;
// the click that focused it says nothing of its own.
func TestClickJoinsTypingAfterTheHoverThatShowedTheField(t *testing.T) {
	s := newSession().
		hover(editorRows("d", "John", "Doe", "", true), "d-row2").
		click(editorRows("d", "John", "Doe", "", false), "d-lastName").
		typ(editorRows("d", "John", "Doe", "lastName", false), "d-lastName", "Lovelace")
	got := stepsOf(t, s, editorRows("d", "John", "Lovelace", "lastName", false))
	t.Logf("steps: %q", got)
	if len(got) != 1 || !strings.Contains(got[0], ": hover ") || !strings.HasSuffix(got[0], ", type {label: lastName}") {
		t.Errorf("steps =\n  %s\nwant one step that hovers over the row and types into the field it showed", strings.Join(got, "\n  "))
	}
}
