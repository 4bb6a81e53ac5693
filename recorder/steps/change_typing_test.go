package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// pathBarEditor is a tree editor with a path bar, as JSONEditor draws it:
// "Select a node..." until a node has the focus, then the node's path
// ("object ► firstName"), written anew (new elements, the same text) each
// time the focus or the key changes. bar is the bar's path after "object"
// ("" for none), gen tells one writing of the bar from another, and key is
// the first row's key, edited in place.
func pathBarEditor(bar, gen, key string, focused bool) *screen.Screen {
	var path []*screentest.Spec
	if bar == "" {
		path = []*screentest.Spec{leaf("bar-empty", "generic", "Select a node...")}
	} else {
		path = []*screentest.Spec{
			leaf("bar-object-"+gen, "generic", "object"),
			leaf("bar-sep-"+gen, "generic", "►"),
			leaf("bar-key-"+gen, "generic", bar),
		}
	}
	s := shopPage("/", "d", "Editor",
		el("bar", "generic", screentest.Kids(path...)),
		el("row1", "row", screentest.Kids(
			el("key1", "textbox", screentest.Label("Key"), val(key), screentest.Kids(screentest.Txt(key))),
			leaf("value1", "generic", "John"))),
	)
	if focused {
		s.Focused = "key1"
	}
	return s
}

// TestPreviewChangeAfterTypingFromTheClicksScreen: a click that only put
// the focus in a field joins the typing into it, so replay's type clicks
// the field and types, and the diff it checks an assertChange against runs
// from before that click. The click's own effects (the path bar written
// for the focused key) happen at replay within the type; the preview
// diffs from the click's screen too. From the typing's screen, the bar
// written again with the typed key offered its "►" as a possible
// replacement, which replay, where the bar was written once from "Select
// a node...", never sees (JSONEditor, walk seed 8).
func TestPreviewChangeAfterTypingFromTheClicksScreen(t *testing.T) {
	clicked := pathBarEditor("", "", "firstName", false)
	typing := pathBarEditor("firstName", "1", "firstName", true)
	after := pathBarEditor("Ada", "2", "Ada", true)
	s := newSession().click(clicked, "key1").typ(typing, "key1", "Ada")
	p, err := PreviewChange(s.recs, after, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("PreviewChange() failed: %v", err)
	}
	var texts []string
	for _, c := range p.Changes {
		texts = append(texts, c.Text)
		if strings.HasPrefix(c.Text, "possible-replacement") {
			t.Errorf("offered %q: the path bar was not there before the click", c.Text)
		}
	}
	sep := offerByText(t, p, `added generic [bar-sep-2]`)
	s.assertChange(after, false, sep.Key)
	bt, err := BuildSteps(s.recs, after, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 2 {
		t.Fatalf("steps = %+v, want one step: the typing and its assertChange (offers %q)", bt.Steps, texts)
	}
	ac, ok := bt.Steps[0].Actions[1].(trail.AssertChange)
	if !ok || len(ac.MustInclude) != 1 || ac.MustInclude[0].Change != "added" || ac.MustInclude[0].Selector.String() != `{text: "►"}` {
		t.Errorf("second action = %#v, want an assertChange that the ► was added", bt.Steps[0].Actions[1])
	}
}
