package e2e

import (
	"context"
	"testing"
)

const barFocusPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Alerts</title>
<style>#menu[hidden] { display: none; }</style></head>
<body>
<h1>Alerts</h1>
<a href="#" id="alerts" role="button" aria-expanded="false">Alerts <span id="badge">3+</span></a>
<div id="menu" hidden><p>Alerts Center</p></div>
<p id="state" role="status">closed</p>
<script>
  const a = document.querySelector('#alerts'), m = document.querySelector('#menu');
  const state = document.querySelector('#state');
  a.addEventListener('click', (e) => { e.preventDefault(); m.hidden = false; state.textContent = 'open'; });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') { m.hidden = true; state.textContent = 'closed again'; }
  });
</script>
</body></html>`

// TestRecordKeyAfterUsingTheBar: the person opens a menu, checks its badge
// with the recording bar's Assert visible, then presses Escape, which the
// page's document-wide handler uses to close the menu. Clicking the bar
// must not take the keyboard focus from the page, or the key goes to the
// bar: the page still closes the menu, but the press is not recorded and
// replay leaves the menu open (the person's check that it closed fails).
func TestRecordKeyAfterUsingTheBar(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, barFocusPage, func(app context.Context) {
		clickCSS(t, app, "#alerts")
		WaitFor[bool](t, app, `!document.querySelector('#menu').hidden`)
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		clickCSS(t, app, "#badge")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
		typeKeys(t, app, kbEscape)
		WaitFor[bool](t, app, `document.querySelector('#menu').hidden`)
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		clickCSS(t, app, "#state")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	got := rec.actions(t)
	if !containsInOrder(got, []string{"assertVisible ", "press Escape", "assertVisible "}) {
		t.Errorf("the trail's actions are %q, want the Escape pressed after the first check recorded\n%s", got, rec.yaml)
	}
	rec.replayGreen(t)
}
