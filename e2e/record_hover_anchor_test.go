package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
)

// anchorPopoverPage shows a schema error's message as JSONEditor does: the
// pointer entering the error's icon makes a script add, elsewhere in the
// document, an absolutely placed layer over the icon that holds the
// message, so the press that follows lands on the layer, not on the icon.
const anchorPopoverPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Schema</title>
<style>
  #frame { position: relative; padding: 40px; }
  .anchor { position: absolute; box-sizing: border-box; }
  .popover { position: absolute; bottom: 100%; left: -80px; width: 200px; background: #fee; }
  .icon { width: 24px; height: 24px; }
</style></head>
<body>
<div id="frame">
  <p><label>Search <input id="search"></label></p>
  <p>address <button id="icon" class="icon" type="button" aria-label="Error"></button></p>
  <p id="status" role="status"></p>
</div>
<script>
  const frame = document.querySelector('#frame'), icon = document.querySelector('#icon');
  let anchor = null;
  icon.onmouseover = () => {
    if (anchor) return;
    const r = icon.getBoundingClientRect(), f = frame.getBoundingClientRect();
    anchor = document.createElement('div');
    anchor.className = 'anchor';
    Object.assign(anchor.style, { left: (r.left - f.left) + 'px', top: (r.top - f.top) + 'px', width: (r.width - 2) + 'px', height: (r.height - 2) + 'px' });
    const pop = document.createElement('div');
    pop.className = 'popover';
    pop.textContent = "should have required property 'address'";
    anchor.appendChild(pop);
    frame.appendChild(anchor);
    anchor.onmouseout = () => setTimeout(() => { if (anchor && !anchor.matches(':hover')) { anchor.remove(); anchor = null; } }, 200);
  };
  document.addEventListener('mousedown', (e) => {
    if (anchor && !anchor.contains(e.target)) { anchor.remove(); anchor = null; }
    if (anchor && anchor.contains(e.target)) document.querySelector('#status').textContent = 'Message read';
  });
</script>
</body></html>`

// TestRecordHoverAnchoredPopover: right after typing into the search box,
// the pointer enters the icon and presses at once (a script's click: a
// move, then the press) on the layer the entry put over it. The search
// box's change event, which the press fires as the focus leaves it, is no
// interaction that makes the entry forgotten: the trail types, hovers over
// the icon, taps the message, and replays green.
func TestRecordHoverAnchoredPopover(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, anchorPopoverPage, func(app context.Context) {
		x, y := centreOf(t, app, "#search")
		clickAt(t, app, x, y, input.MouseButtonLeft, 1, 0)
		typeKeys(t, app, "42")
		x, y = centreOf(t, app, "#icon")
		clickAt(t, app, x, y, input.MouseButtonLeft, 1, 0)
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Message read'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := actionSelectors(rec.trail)
	want := []string{"type {id: search}", "hover {id: icon}", `tap {text: "should have required property 'address'"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}
