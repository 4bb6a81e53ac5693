package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"github.com/trailpin/trailpin/recorder/trail"
)

// Components in open shadow roots, their labels slotted in from the light
// DOM, as a web-component library builds them (docs/recording.md, "Shadow
// DOM"): every instance holds the same ids in its own root, a button's
// label is text slotted into it, a panel opens inside the root a moment
// after its header is pressed, and a slider in a root is focused there.

const shadowPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order</title></head>
<body>
<h1>Order</h1>
<x-panel detail="Ships in two days">Shipping</x-panel>
<x-panel detail="Pay by card or invoice">Billing</x-panel>
<x-field>Full name</x-field>
<x-dial label="Balance" max="10" value="5"></x-dial>
<script>
  customElements.define('x-panel', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({mode: 'open'});
      root.innerHTML = '<style>button { font: 16px sans-serif; padding: 2px 4px; }</style>' +
        '<h2 id="title"><button id="header" aria-expanded="false"><slot></slot></button></h2>' +
        '<div id="body" role="region" aria-labelledby="header" hidden></div>';
      root.querySelector('#body').textContent = this.getAttribute('detail');
      root.querySelector('#header').addEventListener('click', () => {
        // The panel opens inside the shadow root, a moment later.
        setTimeout(() => {
          root.querySelector('#header').setAttribute('aria-expanded', 'true');
          root.querySelector('#body').hidden = false;
        }, 300);
      });
    }
  });
  customElements.define('x-field', class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({mode: 'open'}).innerHTML =
        '<label for="input"><slot></slot></label> <input id="input" type="text">';
    }
  });
  customElements.define('x-dial', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({mode: 'open'});
      root.innerHTML = '<style>[role=slider] { display: inline-block; width: 120px; border: 1px solid #888; }</style>' +
        '<span id="knob" role="slider" tabindex="0" aria-valuemin="0"></span>';
      const knob = root.querySelector('#knob');
      knob.setAttribute('aria-label', this.getAttribute('label'));
      knob.setAttribute('aria-valuemax', this.getAttribute('max'));
      knob.setAttribute('aria-valuenow', this.getAttribute('value'));
      knob.textContent = this.getAttribute('value');
      knob.addEventListener('keydown', (e) => {
        const step = {ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1}[e.key];
        if (!step) return;
        e.preventDefault();
        const max = Number(knob.getAttribute('aria-valuemax'));
        const v = Math.min(max, Math.max(0, Number(knob.getAttribute('aria-valuenow')) + step));
        knob.setAttribute('aria-valuenow', String(v));
        knob.textContent = String(v);
      });
    }
  });
</script>
</body></html>`

// clickShadow clicks the centre of the element a JavaScript expression
// finds (inside a shadow root, where a CSS selector of the document does
// not reach).
func clickShadow(t *testing.T, ctx context.Context, find string) {
	t.Helper()
	p := WaitFor[*struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`(() => { const e = %s;
		if (!e) return null;
		e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
		const r = e.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, find))
	mouseClick(t, ctx, p.X, p.Y)
}

// TestRecordShadowComponents: on a page of components in open shadow
// roots, a tap on a button whose label is slotted text, typing into a
// field of a shadow root and moving a slider there by keys are recorded by
// role and name (never by an id from inside a root, which every instance
// holds), and the trail replays green: the tap is not "covered" by the
// host, the panel that opens inside the shadow root is seen by the step's
// end, and the slider takes the focus. A slider that stops short fails the
// replay as action-failed.
func TestRecordShadowComponents(t *testing.T) {
	t.Parallel()
	const billing = `document.querySelectorAll('x-panel')[1].shadowRoot`
	rec := recordPage(t, shadowPage, func(app context.Context) {
		clickShadow(t, app, billing+`.querySelector('#header')`)
		WaitFor[bool](t, app, `!`+billing+`.querySelector('#body').hidden`)
		clickShadow(t, app, `document.querySelector('x-field').shadowRoot.querySelector('#input')`)
		typeKeys(t, app, "Ada Lovelace")
		typeKeys(t, app, kb.Tab)
		WaitFor[bool](t, app, `document.querySelector('x-field').shadowRoot.querySelector('#input').value === 'Ada Lovelace'`)
		clickShadow(t, app, `document.querySelector('x-dial').shadowRoot.querySelector('#knob')`)
		for range 3 {
			typeKeys(t, app, kb.ArrowRight)
		}
		WaitFor[bool](t, app, `document.querySelector('x-dial').shadowRoot.querySelector('#knob').getAttribute('aria-valuenow') === '8'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := strings.Join(valueActions(rec.trail), "\n")
	for _, want := range []string{"tap {role: button, name: Billing}", `{role: textbox, name: "Full name"}`, "set {role: slider, name: Balance} = 8"} {
		if !strings.Contains(got, want) {
			t.Errorf("no action %q in\n%s\n--- trail\n%s", want, got, rec.yaml)
		}
	}
	if strings.Contains(string(rec.yaml), "id: ") {
		t.Errorf("the trail names an element by an id from inside a shadow root:\n%s", rec.yaml)
	}
	// The panel opens inside its shadow root a moment after the tap: the
	// tap's step ends with it shown, and no later step claims it.
	opened := false
	for i, s := range rec.trail.Steps {
		if s.End == nil {
			continue
		}
		for _, sel := range s.End.Shows {
			if sel.Role == "region" && sel.Name == "Billing" {
				opened = i == 0 && strings.Contains(s.Intent, "Billing")
			}
		}
	}
	if !opened {
		t.Errorf("the step that opened Billing does not end with its panel shown:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
	short := strings.Replace(shadowPage, `max="10"`, `max="6"`, 1)
	rec.replayRefused(t, short, "action-failed", `did not take the value "8": it shows "6"`)
}

// TestReplaySeesChangesInShadowRoots: a panel that opens inside a shadow
// root a moment after its header is pressed, with nothing in the document
// changing, is seen by the step's end: replay's change watcher observes
// every open shadow root (those a custom element attaches after the page
// loaded too), so the end check does not keep a stale "hidden" until it
// times out. A panel that never opens still fails the step.
func TestReplaySeesChangesInShadowRoots(t *testing.T) {
	t.Parallel()
	const tr = `version: 1
trail: Open billing
app: page
viewport: {width: 1280, height: 800}
locale: en-US
timeZone: UTC
start: /page.html
steps:
  - intent: Open the Billing panel
    actions:
      - tap: {selector: {role: button, name: Billing}}
    end:
      url: /page.html
      shows: [{role: region, name: Billing}]
`
	replay := func(page string) (HostRun, string) {
		site := TempDir(t)
		if err := os.WriteFile(filepath.Join(site, "page.html"), []byte(page), 0o600); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(TempDir(t), "open-billing.trail.yaml")
		if err := os.WriteFile(path, []byte(tr), 0o600); err != nil {
			t.Fatal(err)
		}
		srv := ServeDir(t, site)
		results := TempDir(t)
		run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", srv.URL, "--results", results, path)
		trace, _ := os.ReadFile(filepath.Join(results, trail.Slug("Open billing"), "trace.md"))
		return run, string(run.Stdout) + string(run.Stderr) + string(trace)
	}
	run, out := replay(shadowPage)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("the replay did not see the panel open inside its shadow root (exit %d):\n%s", run.ExitCode, out)
	}
	never := strings.Replace(shadowPage, `root.querySelector('#body').hidden = false;`, ``, 1)
	if run, out := replay(never); run.ExitCode == 0 {
		t.Fatalf("the replay passed on a page whose panel never opens:\n%s", out)
	}
}
