package replay

import "testing"

// scrolledShowsPage shows a "Back to top" link once the page is scrolled
// down, as SB Admin 2's scroll-to-top link does, and has, far below the
// fold, the control of body (a button, a checkbox, …) that scrolls back to
// the top when acted on, as SB Admin 2's links to "#" do.
func scrolledShowsPage(body string) string {
	return `<!doctype html><html lang="en"><title>Scrolled</title>
<a id="top" href="#" style="position: fixed; right: 8px; bottom: 8px; display: none">Back to top</a>
<div style="height: 2000px">Far above</div>
` + body + `
<div style="height: 600px"></div>
<script>
  addEventListener('scroll', () => {
    document.querySelector('#top').style.display = scrollY > 100 ? 'block' : 'none';
  });
  const up = () => window.scrollTo(0, 0);
</script>
`
}

// scrolledShowsTrail is one step that acts (action, a trail line) and
// checks that the "Back to top" link went from shown to hidden.
func scrolledShowsTrail(action string) string {
	return `version: 1
trail: Go up from below the fold
app: scrolled
start: /
steps:
  - intent: Act on the control below the fold
    actions:
      - ` + action + `
      - assertChange:
          mustInclude:
            - {change: style, selector: {role: link, name: Back to top}, to: {visible: false}}
`
}

// The screen before a pointer action is the page once the target was
// scrolled into view, as the recorder reads it at the press (docs/recording.md,
// The step's boundary): the scroll that brings a control up from below the
// fold shows what the page shows when scrolled, and the action that
// scrolls back hides it again, a change of the action's (SB Admin 2, walk
// seed 9 of 60 actions, a tap). Read before the scroll, the link was
// hidden before and after, and the assertion found no change.
func TestReplayScreenBeforeATapIsAfterItsScroll(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, body, action string }{
		{"tap", `<button type="button" onclick="up()">Go up</button>`,
			`tap: {selector: {role: button, name: Go up}}`},
		{"check", `<label><input type="checkbox" onchange="up()"> Go up</label>`,
			`check: {selector: {role: checkbox, name: Go up}}`},
		{"hover", `<button type="button" onmouseenter="up()">Go up</button>`,
			`hover: {selector: {role: button, name: Go up}}`},
		{"drag", `<button type="button" id="handle">Go up</button> <p id="zone" style="display: inline-block; padding: 20px">Drop here</p>
<script>document.querySelector('#handle').addEventListener('mousedown', () => addEventListener('mouseup', () => up(), { once: true }));</script>`,
			`drag: {selector: {role: button, name: Go up}, to: {text: Drop here}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := servePage(t, scrolledShowsPage(c.body))
			res := replayOn(t, inlineTrail(t, scrolledShowsTrail(c.action)), srv.URL, Options{})
			if res.Status != StatusPassed {
				t.Fatalf("%s", explain(res))
			}
		})
	}
}
