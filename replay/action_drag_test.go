package replay

import (
	"strings"
	"testing"
)

// TestReplayDragBetweenLists: a drag of a card into another list, on a
// board that moves cards with HTML5 drag and drop, is played as the
// browser's drag events and ends with the card in Done; on a board whose
// lists refuse the drop, the step fails at its end as an app-bug that says
// the card is still where it was (before, the class was selector-drift).
func TestReplayDragBetweenLists(t *testing.T) {
	t.Parallel()
	steps := `
  - intent: Drag the Write docs card to Done
    actions:
      - drag: {selector: {text: Write docs}, to: {role: list, name: Done}}
    end: {shows: [{text: Write docs, within: {role: list, name: Done}}]}`
	for _, tc := range []struct {
		name, app string
		class     FailureClass
		says      string
	}{
		{"on the board", "", "", ""},
		{"on a board that refuses the drop", "refuses", ClassAppBug,
			`listitem "Write docs" is still where it was when the step began, in list "To do"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := "/board.html"
			if tc.app != "" {
				start += "?app=" + tc.app
			}
			tr := inlineTrail(t, "version: 1\ntrail: Board\napp: board\nstart: "+start+"\nsteps:"+steps+"\n")
			res := replayOn(t, tr, site.URL, Options{})
			if tc.class == "" {
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
				return
			}
			if res.Status != StatusFailed || res.Class != tc.class || !strings.Contains(res.Error, tc.says) {
				t.Fatalf("got %s; want class %s and an error saying %q", explain(res), tc.class, tc.says)
			}
		})
	}
}
