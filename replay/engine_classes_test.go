package replay

import (
	"strings"
	"testing"
)

// TestReplayClassesByEvidence replays trails recorded on testdata/grid.html
// on the unchanged page (they pass) and on copies that behave otherwise:
// the class of the failure follows the evidence (docs/ci.md, Failure
// classes). A delete that left a row the step removed when recorded fails
// at the step's end as an app-bug, naming the row still there; a value
// changed in a row that scopes an assertion (the row is named by its
// cells) is an app-bug with expected vs actual; a control renamed is
// selector-drift.
func TestReplayClassesByEvidence(t *testing.T) {
	t.Parallel()
	deleteBoth := `
  - intent: Check Select Ada Lovelace
    actions:
      - check: {selector: {role: checkbox, name: Select Ada Lovelace}}
  - intent: Check Select Bob Jones
    actions:
      - check: {selector: {role: checkbox, name: Select Bob Jones}}
  - intent: Click the Delete selected button
    actions:
      - tap: {selector: {role: button, name: Delete selected}}
    end: {shows: [{role: row, name: No rows to show}]}`
	adaIs36 := `
  - intent: Ada is 36
    actions:
      - assertVisible: {selector: {role: gridcell, text: "36", within: {role: row, name: Select Ada Lovelace Ada Lovelace Research 36}}}`
	deleteNamed := `
  - intent: The delete button is there
    actions:
      - assertVisible: {selector: {role: button, name: Purge chosen}}`
	tests := []struct {
		name, app, steps string
		class            FailureClass // "" for a pass
		expected, actual string
		says             string
	}{
		{"a delete on the unchanged app", "", deleteBoth, "", "", "", ""},
		{"a delete that removed one row of two", "broken", deleteBoth, ClassAppBug, "No rows to show", "Select Bob Jones Bob Jones Support 44",
			`the page still shows what it showed when the step began, where the step should have changed it (row "Select Bob Jones Bob Jones Support 44"`},
		{"a value in its row on the unchanged app", "", adaIs36, "", "", "", ""},
		{"a value changed in the row that scopes it", "older", adaIs36, ClassAppBug, "36", "37",
			`shows "37" in its place (the same text with other numbers); its scope {role: row, name: "Select Ada Lovelace Ada Lovelace Research 36"} is now row "Select Ada Lovelace Ada Lovelace Research 37"`},
		{"a control renamed", "", deleteNamed, ClassSelectorDrift, "", "", `no visible element matches {role: button, name: "Purge chosen"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := "/grid.html"
			if tc.app != "" {
				start += "?app=" + tc.app
			}
			tr := inlineTrail(t, "version: 1\ntrail: People\napp: people\nstart: "+start+"\nsteps:"+tc.steps+"\n")
			res := replayOn(t, tr, site.URL, Options{})
			if tc.class == "" {
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
				return
			}
			t.Logf("%s: %s", res.Class, res.Error)
			if res.Status != StatusFailed || res.Class != tc.class || !strings.Contains(res.Error, tc.says) {
				t.Fatalf("got %s; want class %s and an error saying %q", explain(res), tc.class, tc.says)
			}
			if res.Expected != tc.expected || res.Actual != tc.actual {
				t.Errorf("expected %q, actual %q; want %q, %q", res.Expected, res.Actual, tc.expected, tc.actual)
			}
		})
	}
}
