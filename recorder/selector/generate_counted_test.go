package selector

import (
	"testing"

	st "github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// selCountedIDs is a component library's tabs, numbered in the order they
// were made (sl-tab-1, sl-tab-2, …), a drop-down whose id is its name and
// a counter that differs on every load (theme_7, theme_419 the next time),
// after the text that names it, and two unlabelled fields that nothing
// but their counted ids tells apart.
func selCountedIDs() *screen.Screen {
	return st.Page(
		st.El("tablist", st.Kids(
			st.Leaf("tab", "General", st.Tag("sl-tab"), st.Ref("t1"), st.ID("sl-tab-1")),
			st.Leaf("tab", "Options", st.Tag("sl-tab"), st.Ref("t2"), st.ID("sl-tab-2")),
			st.Leaf("tab", "Advanced", st.Tag("sl-tab"), st.Ref("t3"), st.ID("sl-tab-3")),
		)),
		st.El("generic", st.Kids(
			st.Leaf("generic", "Theme", st.Tag("span")),
			st.El("combobox", st.Tag("select"), st.Ref("theme"), st.ID("theme_7"), st.Kids(st.Txt("Light"))),
		)),
		st.El("combobox", st.Tag("select"), st.Name("Language"), st.Label("Language"), st.ID("language_8"), st.Kids(st.Txt("English"))),
		st.El("textbox", st.Tag("input"), st.Ref("n1"), st.ID("note-1")),
		st.El("textbox", st.Tag("input"), st.Ref("n2"), st.ID("note-2")),
	)
}

// TestGenerateCountedIDs: an id that reads as a name and a counter is
// what a library numbered, and is passed over when a selector without it
// names the element alone; with nothing else, it is still better than a
// position.
func TestGenerateCountedIDs(t *testing.T) {
	s := selCountedIDs()
	tests := []struct {
		name    string
		purpose Purpose
		ref     string
		want    string
	}{
		{"a numbered tab by its role and name", PurposeTap, "t2", `{role: tab, name: Options}`},
		{"a drop-down with a clock in its id by the text naming it", PurposeSelect, "theme", `{role: combobox, within: {role: generic, textRegex: "^Theme\\n"}}`},
		{"fields nothing else tells apart keep their id", PurposeType, "n2", `{id: note-2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generate(tt.purpose, tt.ref, s, nil)
			if err != nil {
				t.Fatalf("Generate(%s %s) error: %v", tt.purpose, tt.ref, err)
			}
			if got.String() != tt.want {
				t.Errorf("Generate(%s %s) = %q, want %q", tt.purpose, tt.ref, got, tt.want)
			}
		})
	}
}

func TestLooksCounted(t *testing.T) {
	for id, want := range map[string]bool{
		"sl-tab-2": true, "theme_419": true, "note-1": true, "tab-panel-1": true,
		"checkout": false, "h1-title": false, "mp3-player": false, "q4": false, "step2": false, "42": false,
	} {
		if got := LooksCounted(id); got != want {
			t.Errorf("LooksCounted(%q) = %v, want %v", id, got, want)
		}
	}
}
