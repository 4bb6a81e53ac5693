package e2e

import (
	"context"
	"slices"
	"strings"
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

const barClickPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Messages</title>
<style>#menu[hidden] { display: none; }</style></head>
<body>
<h1>Messages</h1>
<a href="#" id="messages" role="button" aria-expanded="false">Messages</a>
<div id="menu" hidden><p id="from">Emily Fowler · 58m</p></div>
<script>
  const a = document.querySelector('#messages'), m = document.querySelector('#menu');
  a.addEventListener('click', (e) => {
    e.preventDefault();
    e.stopPropagation();
    m.hidden = false;
    a.setAttribute('aria-expanded', 'true');
  });
  // A click anywhere outside the menu closes it, as Bootstrap's drop-downs do.
  for (const type of ['mousedown', 'click'])
    document.addEventListener(type, (e) => {
      if (!m.contains(e.target)) { m.hidden = true; a.setAttribute('aria-expanded', 'false'); }
    });
</script>
</body></html>`

// TestRecordBarClickLeavesTheMenuOpen: the person opens a menu that closes
// on any click outside it and checks a line of it with Assert visible. The
// click on the bar's button is not a click on the page: the menu stays
// open, the line is picked and recorded, and the trail replays green.
func TestRecordBarClickLeavesTheMenuOpen(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, barClickPage, func(app context.Context) {
		clickCSS(t, app, "#messages")
		WaitFor[bool](t, app, `!document.querySelector('#menu').hidden`)
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		if Eval[bool](t, app, `document.querySelector('#menu').hidden`) {
			t.Fatal("a click on the recording bar's Assert visible closed the page's menu")
		}
		clickCSS(t, app, "#from")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
		if Eval[bool](t, app, `document.querySelector('#menu').hidden`) {
			t.Fatal("picking the line closed the page's menu")
		}
	})
	var kinds []string
	for _, a := range rec.actions(t) {
		kinds = append(kinds, strings.Fields(a)[0])
	}
	if !slices.Equal(kinds, []string{"tap", "assertVisible"}) || !strings.Contains(string(rec.yaml), "text: Emily Fowler · 58m") {
		t.Errorf("the trail's actions are %q, want the tap and the check of the menu's line\n%s", kinds, rec.yaml)
	}
	rec.replayGreen(t)
}
