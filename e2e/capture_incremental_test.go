package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/extension"
)

// incrementalPage has what an incremental capture must get right: many
// subtrees that can be reused, shadow DOM with slots, a same-origin frame,
// form controls whose state changes without a DOM change, labels and
// IDREFs that name elements elsewhere, sibling combinators, and a
// scrollable box.
func incrementalPage() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Incremental</title><style>
.card { border: 1px solid #ccc; margin: 4px; padding: 4px; } .row { display: flex; gap: 4px; }
.hidden { display: none; } .flag ~ p { visibility: hidden; } input:checked + span { display: none; }
#scroller { height: 60px; overflow: auto; } #scroller div { height: 30px; }
</style></head><body><header><p id="tick">0</p><span id="lbl">Named here</span>
<div role="group" aria-labelledby="lbl">Group</div>
<label><input type="checkbox" id="cb"><span>Shown while unchecked</span></label>
<label><input type="radio" name="r" id="r1" checked><span>One</span></label>
<label><input type="radio" name="r" id="r2"><span>Two</span></label>
<label for="q">Quantity</label><input id="q" value="1">
<details id="det"><summary>More</summary><p>Inside details</p></details>
<div id="host"><span slot="a">Slotted text</span><span>Unslotted</span></div>
<iframe id="fr" srcdoc="<p id=inner>Frame text</p><button>Frame button</button>"></iframe>
<div id="scroller"><div>a</div><div>b</div><div>c</div><div>d</div></div>
</header><main>`)
	for i := range 60 {
		fmt.Fprintf(&b, `<section class="card" id="s%d" aria-label="Order %d"><h2>Order #%d</h2>`, i, i, 1000+i)
		fmt.Fprintf(&b, `<p>Placed by <b>Customer %d</b> on <time>Monday</time>, <span>3 items</span>.</p><ul>`, i)
		for j := range 3 {
			fmt.Fprintf(&b, `<li><a href="#i%d-%d">Item %d of order %d</a></li>`, i, j, j+1, i)
		}
		fmt.Fprintf(&b, `</ul><div class="row"><span class="tag">T%d</span><p>after tag</p><button type="button">Save order %d</button></div></section>`, i, i)
	}
	b.WriteString(`</main><script>
const root = document.querySelector('#host').attachShadow({mode: 'open'});
root.innerHTML = '<div class="in"><b>Shadow text</b><slot name="a"></slot><button>Shadow button</button></div>';
</script></body></html>`)
	return b.String()
}

// TestCaptureIncrementalMatchesFull changes the page in many ways and after
// each change asks for an incremental capture and then a full one: the two
// wire texts must be the same, byte for byte. Changes the incremental
// capture can follow must reuse part of the last capture; those it cannot
// (style sheets, scrolling) must make it capture in full.
func TestCaptureIncrementalMatchesFull(t *testing.T) {
	t.Parallel()
	br := StartBrowser(t, Options{NoHost: true})
	page := incrementalPage()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	tab := br.OpenTab(t, srv.URL)
	WaitFor[bool](t, tab, `document.querySelector('#fr').contentDocument?.querySelector('#inner') !== null`)
	Eval[chromedp.Void](t, tab, extension.PageModel())

	type stats struct {
		Full   bool `json:"full"`
		Reused int  `json:"reused"`
	}
	type result struct {
		Inc   string `json:"inc"`
		Full  string `json:"full"`
		Stats stats  `json:"stats"`
	}
	compare := func(t *testing.T) result {
		t.Helper()
		// Changes are made in one evaluation and captured in the next, as
		// the recorder does (mutation records are delivered in between).
		return Eval[result](t, tab, `(() => {
			const pm = globalThis.__trailpinPageModel;
			const inc = pm.captureWire({incremental: true});
			const stats = pm.lastIncremental();
			const full = pm.captureWire();
			return {inc, full, stats};
		})()`)
	}
	first := compare(t)
	if first.Inc != first.Full {
		t.Fatalf("first incremental capture differs from a full one:\n%s", firstDiff(first.Inc, first.Full))
	}
	if !first.Stats.Full {
		t.Fatalf("the first incremental capture reused something: %+v", first.Stats)
	}

	steps := []struct {
		name, js string
		full     bool   // the change must make the capture a full one
		hover    string // a selector: move the mouse over the element first
	}{
		{"nothing", ``, false, ""},
		{"text", `document.querySelector('#s3 h2').textContent = 'Order changed'`, false, ""},
		{"tick", `document.querySelector('#tick').textContent = '12345'`, false, ""},
		{"attribute", `document.querySelector('#s5').setAttribute('aria-label', 'Renamed order')`, false, ""},
		{"class", `document.querySelector('#s7 p').classList.add('hidden')`, false, ""},
		{"sibling combinator", `document.querySelector('#s9 .tag').classList.add('flag')`, false, ""},
		{"style attribute", `document.querySelector('#s2 .row').style.width = '300px'`, false, ""},
		{"insert", `(() => { const s = document.createElement('section'); s.className = 'card'; s.innerHTML = '<h2>New</h2><button>New button</button>'; document.querySelector('#s4').before(s); })()`, false, ""},
		{"remove", `document.querySelector('#s6').remove()`, false, ""},
		{"move", `document.querySelector('main').prepend(document.querySelector('#s8'))`, false, ""},
		{"move back", `document.querySelector('#s9').after(document.querySelector('#s8'))`, false, ""},
		{"idref target text", `document.querySelector('#lbl').textContent = 'Named elsewhere'`, false, ""},
		{"label text", `document.querySelector('label[for=q]').firstChild.data = 'How many'`, false, ""},
		{"shadow text", `document.querySelector('#host').shadowRoot.querySelector('b').textContent = 'Shadow changed'`, false, ""},
		{"shadow insert", `document.querySelector('#host').shadowRoot.querySelector('.in').append(Object.assign(document.createElement('i'), {textContent: 'added'}))`, false, ""},
		{"slotted text", `document.querySelector('#host span').textContent = 'Slot changed'`, false, ""},
		{"slot attribute", `document.querySelector('#host span:last-child').setAttribute('slot', 'a')`, false, ""},
		{"frame text", `document.querySelector('#fr').contentDocument.querySelector('#inner').textContent = 'Frame changed'`, false, ""},
		{"input value", `(() => { const q = document.querySelector('#q'); q.value = '42'; q.dispatchEvent(new Event('input', {bubbles: true})); })()`, false, ""},
		{"checked", `document.querySelector('#cb').click()`, false, ""},
		{"radio", `document.querySelector('#r2').click()`, false, ""},
		{"checked by a script", `document.querySelector('#cb').checked = false`, false, ""},
		{"value by a script", `document.querySelector('#q').value = '7'`, false, ""},
		{"details", `document.querySelector('#det').open = true`, false, ""},
		{"hidden attribute", `document.querySelector('#s11 ul').hidden = true`, false, ""},
		{"overlay over reused controls", `document.querySelector('#s16').append(Object.assign(document.createElement('div'), {id: 'overlay', style: 'position: fixed; inset: 0; background: white'}))`, false, ""},
		{"overlay gone", `document.querySelector('#overlay').remove()`, false, ""},
		{"layout shift", `document.querySelector('#tick').textContent = 'a much longer text\nthat wraps '.repeat(40)`, false, ""},
		{"inner scroll", `document.querySelector('#scroller').scrollTop = 40`, false, ""},
		{"label added", `document.querySelector('#s12 .row').append(Object.assign(document.createElement('label'), {htmlFor: 'q', textContent: 'Also quantity'}))`, true, ""},
		{"duplicate id", `document.querySelector('label[for=q]').before(Object.assign(document.createElement('span'), {id: 'q', textContent: 'same id'}))`, true, ""},
		{"control into a label", `document.querySelector('#cb').before(Object.assign(document.createElement('input'), {type: 'checkbox'}))`, true, ""},
		{"id changed", `document.querySelector('#s13 h2').id = 'lbl2'`, true, ""},
		{"button named by a new label", `(() => { const b = document.querySelector('#s14 button'); b.id = 'b14'; })()`, true, ""},
		{"its label", `document.querySelector('#s15 h2').append(Object.assign(document.createElement('label'), {htmlFor: 'b14', textContent: 'Saves 14'}))`, true, ""},
		{"its label text", `document.querySelector('label[for=b14]').textContent = 'Saves order 14'`, false, ""},
		{"style element", `document.head.append(Object.assign(document.createElement('style'), {textContent: 'h2 { display: none }'}))`, true, ""},
		{"insertRule", `document.styleSheets[0].insertRule('b { visibility: hidden }', 0)`, true, ""},
		{"adopted sheet", `(() => { const s = new CSSStyleSheet(); s.replaceSync('time { display: none }'); document.adoptedStyleSheets = [s]; })()`, true, ""},
		{"scroll", `window.scrollTo(0, 400)`, true, ""},
		{"after scroll", `document.querySelector('#s20 h2').textContent = 'Changed after scroll'`, false, ""},
		{"hover rule", `window.scrollTo(0, 0); document.head.append(Object.assign(document.createElement('style'), {textContent: '#tick:hover + #lbl { display: none }'}))`, true, ""},
		{name: "hover", hover: "#tick"},
		{name: "hover elsewhere", hover: "#det"},
		{"rules on hover, focus and press", `document.head.append(Object.assign(document.createElement('style'), {textContent: '.card:hover .tag { visibility: hidden } .card:hover h2 { visibility: hidden } .row:hover > :is(p:hover, button) { display: none } button:focus { visibility: hidden } li:active a { display: none } h2:hover::after { content: " (hovered)" }'})); document.querySelector('#tick').textContent = '0'; document.querySelector('#s3').scrollIntoView()`, true, ""},
		{name: "hover a card", hover: "#s3 h2"},
		{name: "hover another card", hover: "#s5 .tag"},
		{name: "hover a row", hover: "#s5 .row p"},
		{"focus", `document.querySelector('#s7 button').focus({preventScroll: true})`, false, ""},
		{"focus moves", `document.querySelector('#s8 button').focus({preventScroll: true})`, false, ""},
		{"blur", `document.activeElement.blur()`, false, ""},
		{name: "hover a list", hover: "#s4 ul"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.hover != "" {
				p := Eval[struct{ X, Y float64 }](t, tab, `(() => { const r = document.querySelector('`+s.hover+`').getBoundingClientRect(); return {x: r.x + 5, y: r.y + 5}; })()`)
				if err := chromedp.Do(tab, chromedp.MouseEvent("mouseMoved", p.X, p.Y)); err != nil {
					t.Fatal(err)
				}
			}
			if s.js != "" {
				Eval[chromedp.Void](t, tab, s.js)
			}
			// Scroll and load events are delivered after this evaluation.
			Eval[chromedp.Void](t, tab, `new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))`)
			got := compare(t)
			if got.Inc != got.Full {
				t.Fatalf("incremental capture differs from a full one:\n%s", firstDiff(got.Inc, got.Full))
			}
			if s.full && !got.Stats.Full {
				t.Errorf("capture reused the last one after a change it cannot follow: %+v", got.Stats)
			}
			if !s.full && (got.Stats.Full || got.Stats.Reused == 0) {
				t.Errorf("capture reused nothing after a local change: %+v", got.Stats)
			}
		})
	}
	// The recorder's capture when the page has settled: fresh reads the
	// whole page again, which also catches what no mutation tells (here a
	// shadow root attached to an element already captured).
	t.Run("fresh", func(t *testing.T) {
		Eval[chromedp.Void](t, tab, `document.querySelector('#s20 h2').attachShadow({mode: 'open'}).innerHTML = '<b>Shadowed heading</b>'`)
		got := Eval[result](t, tab, `(() => {
			const pm = globalThis.__trailpinPageModel;
			const inc = pm.captureWire({incremental: true, fresh: true});
			const stats = pm.lastIncremental();
			const full = pm.captureWire();
			return {inc, full, stats};
		})()`)
		if got.Inc != got.Full {
			t.Fatalf("a fresh capture differs from a full one:\n%s", firstDiff(got.Inc, got.Full))
		}
		if !got.Stats.Full || !strings.Contains(got.Inc, "Shadowed heading") {
			t.Errorf("a fresh capture reused the last one (%+v) or missed the new shadow root", got.Stats)
		}
	})
}

// firstDiff shows where two texts start to differ.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return fmt.Sprintf("at byte %d\nincremental: …%s…\nfull:        …%s…", i, a[from:min(len(a), i+300)], b[from:min(len(b), i+300)])
}
