package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
)

// uncheckPage holds the check boxes people uncheck, each checked: a native
// box with a label beside it, one inside its label, a styled one whose
// input hides behind its label, an ARIA check box, one drawn over a hidden
// native input that the wrapper's click handler clicks (as component
// libraries draw them), and an ARIA one whose label (a plain element)
// toggles it.
const uncheckPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Settings</title>
<style>
  .custom-control { position: relative; padding-left: 1.5rem; }
  .custom-control-input { position: absolute; left: 0; z-index: -1; width: 1rem; height: 1.25rem; opacity: 0; }
  .custom-control-label::before { content: ""; position: absolute; left: 0; width: 1rem; height: 1rem; border: 1px solid #888; }
  .hidden-accessible { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .box { display: inline-block; width: 16px; height: 16px; border: 1px solid #333; vertical-align: middle; }
  .box[aria-checked=true] { background: #36c; }
</style></head>
<body>
<h1>Settings</h1>
<p><input type="checkbox" id="alerts" checked> <label for="alerts">Alerts</label></p>
<p><input type="checkbox" id="digest" checked> <label for="digest">Digest</label></p>
<p><label><input type="checkbox" id="sounds" checked> Sounds</label></p>
<div class="custom-control"><input type="checkbox" class="custom-control-input" id="remember" checked><label class="custom-control-label" for="remember">Remember me</label></div>
<p><span id="tips" class="box" role="checkbox" aria-checked="true" aria-label="Tips" tabindex="0"></span></p>
<div id="news-wrap"><span class="hidden-accessible"><input type="checkbox" id="news-input" checked aria-label="Newsletter"></span><span id="news" class="box" role="checkbox" aria-checked="true" aria-label="Newsletter"></span></div>
<p><span id="offers" class="box" role="checkbox" aria-checked="true" aria-labelledby="offers-label"></span> <span id="offers-label">Offers</span></p>
<script>
const toggle = (box) => box.setAttribute('aria-checked', String(box.getAttribute('aria-checked') !== 'true'));
document.getElementById('tips').addEventListener('click', (e) => toggle(e.currentTarget));
document.getElementById('news-wrap').addEventListener('click', () => document.getElementById('news-input').click());
document.getElementById('news-input').addEventListener('click', (e) => e.stopPropagation());
document.getElementById('news-input').addEventListener('change', (e) => document.getElementById('news').setAttribute('aria-checked', String(e.target.checked)));
for (const id of ['offers', 'offers-label'])
  document.getElementById(id).addEventListener('click', () => toggle(document.getElementById('offers')));
</script>
</body></html>`

// TestRecordUncheckIsOneStep: one click that unchecks a box is one step,
// whatever the box is made of and wherever the person clicks it: on the
// box, on its label, on a box drawn over a hidden input that the page
// clicks itself (whose change the extension reports as well), or on an
// ARIA box's label. The trail replays green.
func TestRecordUncheckIsOneStep(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, uncheckPage, func(app context.Context) {
		for _, c := range []struct{ click, done string }{
			{"#alerts", `!document.querySelector('#alerts').checked`},
			{"label[for=digest]", `!document.querySelector('#digest').checked`},
			{"label:has(#sounds)", `!document.querySelector('#sounds').checked`},
			{"label[for=remember]", `!document.querySelector('#remember').checked`},
			{"#tips", `document.querySelector('#tips').ariaChecked === 'false'`},
			{"#news", `document.querySelector('#news').ariaChecked === 'false' && !document.querySelector('#news-input').checked`},
			{"#offers-label", `document.querySelector('#offers').ariaChecked === 'false'`},
		} {
			clickCSS(t, app, c.click)
			WaitFor[bool](t, app, c.done)
		}
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	var got []string
	for _, s := range rec.trail.Steps {
		got = append(got, s.Intent+": "+strings.Join(valueActions(&trail.Trail{Steps: []trail.Step{s}}), "; "))
	}
	want := []string{
		"Uncheck Alerts: uncheck {id: alerts}",
		"Uncheck Digest: uncheck {id: digest}",
		"Uncheck Sounds: uncheck {id: sounds}",
		"Uncheck Remember me: uncheck {id: remember}",
		"Uncheck Tips: uncheck {id: tips}",
		"Uncheck Newsletter: uncheck {id: news}",
		`Click "Offers": tap {id: offers-label}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's steps are\n  %s\nwant one step for each click\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}

// shadowCheckPage holds a check box drawn by a web component: its native
// box and the label around the slot live in the component's open shadow
// root, and the text the person clicks is slotted in from the page.
const shadowCheckPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reports</title></head>
<body>
<h1>Reports</h1>
<x-check id="weekly" checked><span id="weekly-text">Weekly report</span></x-check>
<script>
customElements.define('x-check', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<label part="base"><input type="checkbox" part="input"> <slot></slot></label>';
    const input = root.querySelector('input');
    input.checked = this.hasAttribute('checked');
    input.addEventListener('change', () => this.toggleAttribute('checked', input.checked));
  }
});
</script>
</body></html>`

// TestRecordUncheckInShadowRoot: a click on the text slotted into a web
// component's label unchecks the box in its shadow root. The browser passes
// the click on to that box; the person clicked once, so the trail holds one
// step that unchecks it, and replays green.
func TestRecordUncheckInShadowRoot(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, shadowCheckPage, func(app context.Context) {
		clickCSS(t, app, "#weekly-text")
		WaitFor[bool](t, app, `!document.querySelector('#weekly').hasAttribute('checked')`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	var got []string
	for _, s := range rec.trail.Steps {
		got = append(got, s.Intent+": "+strings.Join(valueActions(&trail.Trail{Steps: []trail.Step{s}}), "; "))
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "Uncheck Weekly report: uncheck ") {
		t.Fatalf("the trail's steps are\n  %s\nwant one step that unchecks Weekly report\n--- trail\n%s", strings.Join(got, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}
