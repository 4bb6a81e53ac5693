package replay

import (
	"strings"
	"testing"
)

// TestReplayAssertChangeOnTheFixture observes a double tap: the stored diff
// names the log's new text, a live check reads the page against the same
// baseline (kept for the next one), a later step reads d1 by id, and every
// assertChange result carries its evidence. The actions that no
// assertChange follows are not observed.
func TestReplayAssertChangeOnTheFixture(t *testing.T) {
	t.Parallel()
	srv := fixtureServer(t)
	tr := inlineTrail(t, `version: 1
trail: Change
app: fixture
start: /fixture
steps:
  - intent: Tap twice
    actions:
      - tap: {selector: {role: button, name: Twice}, count: 2}
      - assertChange: {changed: true, mustInclude: [{change: content, selector: {id: log}}], maxChanges: 3}
      - assertChange: {exists: [{id: log, text: double}], url: /fixture, keepBaseline: true}
      - assertChange: {notCovered: [{role: button, name: Twice}], retry: {budgetMs: 500}}
  - intent: Type a name
    actions:
      - type: {selector: {role: textbox, name: Name}, text: New}
      - assertChange: {diffId: d1, only: [{selector: {id: log}}]}
`)
	res := replayOn(t, tr, srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("status %s: %s\n%q", res.Status, res.Error, res.Steps[0].Actions[1].Change.Lines)
	}
	acts := res.Steps[0].Actions
	if acts[0].Change != nil {
		t.Errorf("the tap carries evidence: %+v", acts[0].Change)
	}
	stored := acts[1].Change
	if stored == nil || !stored.Pass || stored.DiffID != "d1" || stored.Source != EvidenceStored || len(stored.Lines) != 3 ||
		!strings.Contains(stored.Lines[0], `→ "double"`) || stored.Navigated || !strings.HasSuffix(stored.BaselineURL, "/fixture") {
		t.Fatalf("stored evidence = %+v", stored)
	}
	for _, k := range []int{2, 3} {
		live := acts[k].Change
		if live == nil || !live.Pass || live.Source != EvidenceLive || live.DiffID != "d1" || !live.HasBaseline || live.Attempts < 1 {
			t.Errorf("live evidence %d = %+v", k, live)
		}
	}
	if byID := res.Steps[1].Actions[1].Change; byID == nil || !byID.Pass || byID.DiffID != "d1" {
		t.Errorf("d1 read by id = %+v", byID)
	}
}
