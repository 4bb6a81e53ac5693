package replay

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/replay/assertchange"
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
	if stored == nil || !stored.Pass || stored.DiffID != "d1" || stored.Source != assertchange.SourceStored || len(stored.Lines) != 3 ||
		!strings.Contains(stored.Lines[0], `→ "double"`) || stored.Navigated || !strings.HasSuffix(stored.BaselineURL, "/fixture") {
		t.Fatalf("stored evidence = %+v", stored)
	}
	for _, k := range []int{2, 3} {
		live := acts[k].Change
		if live == nil || !live.Pass || live.Source != assertchange.SourceLive || live.DiffID != "d1" || !live.HasBaseline || live.Attempts < 1 {
			t.Errorf("live evidence %d = %+v", k, live)
		}
	}
	if byID := res.Steps[1].Actions[1].Change; byID == nil || !byID.Pass || byID.DiffID != "d1" {
		t.Errorf("d1 read by id = %+v", byID)
	}
}

// slidingPage: the Open button starts a CSS transition that slides a
// curtain off the Save button over six seconds (it uncovers Save's
// centre after about 5.6, well after the tap and its quiet wait of at
// most two). Nothing in the DOM changes while it runs, so the screen
// after the tap catches it mid-flight.
const slidingPage = `<!doctype html><html lang="en"><title>Sliding</title>
<style>
  body { font: 16px sans-serif; margin: 0 }
  #save { position: absolute; left: 40px; top: 120px; width: 120px; height: 40px }
  #curtain { position: absolute; left: -1200px; top: 100px; width: 1400px; height: 80px; background: #ccc;
    transition: transform 6000ms linear }
  #curtain.open { transform: translateX(1400px) }
</style>
<button id="open" onclick="document.getElementById('curtain').classList.add('open')">Open</button>
<button id="save">Save</button>
<div id="curtain"></div>`

// TestReplayLiveRetryWaitsOutATransition: a live notCovered right after
// the tap fails (the curtain still covers Save), and passes with a retry
// budget, captured again against the same baseline.
func TestReplayLiveRetryWaitsOutATransition(t *testing.T) {
	t.Parallel()
	srv := servePage(t, slidingPage)
	run := func(check string) *TrailResult {
		return replayOn(t, inlineTrail(t, `version: 1
trail: Sliding
app: fixture
viewport: {width: 1024, height: 700}
start: /
steps:
  - intent: Open the curtain
    actions:
      - tap: {selector: {role: button, name: Open}}
      - `+check+`
`), srv.URL, Options{})
	}
	without := run(`assertChange: {notCovered: [{role: button, name: Save}]}`)
	ev := without.Steps[0].Actions[1].Change
	if without.Status != StatusFailed || without.Class != ClassAppBug || ev == nil || ev.Pass || ev.Attempts != 1 ||
		!strings.Contains(without.Error, `notCovered {role: button, name: Save}: button "Save" is covered`) {
		t.Errorf("without retry: %s %s %q %+v", without.Status, without.Class, without.Error, ev)
	}
	with := run(`assertChange: {notCovered: [{role: button, name: Save}], retry: {budgetMs: 15000}}`)
	ev = with.Steps[0].Actions[1].Change
	if with.Status != StatusPassed || ev == nil || !ev.Pass || ev.Attempts < 2 || ev.DiffID != "d1" {
		t.Errorf("with retry: %s %q %+v", with.Status, with.Error, ev)
	}
}
