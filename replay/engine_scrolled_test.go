package replay

import (
	"testing"
)

// scrolledShowsPage shows a "Back to top" link once the page is scrolled
// down, as SB Admin 2's scroll-to-top link does, and has a button far
// below the fold that scrolls back to the top, as SB Admin 2's links to
// "#" do.
const scrolledShowsPage = `<!doctype html><html lang="en"><title>Scrolled</title>
<a id="top" href="#" style="position: fixed; right: 8px; bottom: 8px; display: none">Back to top</a>
<div style="height: 2000px">Far above</div>
<button type="button" onclick="window.scrollTo(0, 0)">Go up</button>
<div style="height: 600px"></div>
<script>
  addEventListener('scroll', () => {
    document.querySelector('#top').style.display = scrollY > 100 ? 'block' : 'none';
  });
</script>
`

const scrolledShowsTrail = `version: 1
trail: Go up from below the fold
app: scrolled
start: /
steps:
  - intent: Click the Go up button
    actions:
      - tap: {selector: {role: button, name: Go up}}
      - assertChange:
          mustInclude:
            - {change: style, selector: {role: link, name: Back to top}, to: {visible: false}}
`

// The screen before a tap is the page once the target was scrolled into
// view, as the recorder reads it at the press (docs/recording.md, The
// step's boundary): the scroll that brings a button up from below the fold
// shows what the page shows when scrolled, and the tap that scrolls back
// hides it again, a change of the tap's (SB Admin 2, walk seed 9 of 60
// actions). Read before the scroll, the link was hidden before and after,
// and the assertion found no change.
func TestReplayScreenBeforeATapIsAfterItsScroll(t *testing.T) {
	t.Parallel()
	srv := servePage(t, scrolledShowsPage)
	res := replayOn(t, inlineTrail(t, scrolledShowsTrail), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}
