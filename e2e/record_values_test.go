package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trailpin/trailpin/recorder/trail"
)

// Controls a person sets rather than types into (sliders, spinners, list
// boxes): each setting is recorded as the value or choice it ended at, and
// replay either reaches that value or fails the step. A variant of the page
// whose control refuses the value must fail as action-failed, never pass.

// valueActions lists the trail's actions with the values they set.
func valueActions(tr *trail.Trail) []string {
	var out []string
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			line := string(a.Kind())
			if sel, ok := trail.ActionSelector(a); ok {
				line += " " + sel.String()
			}
			switch a := a.(type) {
			case trail.Set:
				line += " = " + a.Value
			case trail.SelectOption:
				line += " = [" + strings.Join(a.Options, ", ") + "]"
			case trail.Press:
				line += " " + strings.Join(append(trail.ModifierStrings(a.Modifiers), a.Key), "+")
			}
			out = append(out, line)
		}
	}
	return out
}

// replayRefused serves variant in place of the recorded page, replays the
// trail on it and fails the test unless the replay fails with each of wants
// (its stop reason among them) in its output or trace page.
func (p *pageRecording) replayRefused(t *testing.T, variant string, wants ...string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, "page.html"), []byte(variant), 0o600); err != nil {
		t.Fatal(err)
	}
	results := TempDir(t)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", p.site, "--results", results, p.path)
	trace, _ := os.ReadFile(filepath.Join(results, trail.Slug(p.trail.Title), "trace.md"))
	out := string(run.Stdout) + string(run.Stderr) + string(trace)
	if run.ExitCode == 0 {
		t.Fatalf("the replay on a page that refuses the recorded value passed:\n%s\n--- trail\n%s", out, p.yaml)
	}
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("the failed replay does not say %q:\n%s\n--- trail\n%s", w, out, p.yaml)
		}
	}
}

// dragBy presses the mouse at (x, y), moves it dx to the right in small
// moves, as a hand does, and lets go.
func dragBy(t *testing.T, ctx context.Context, x, y, dx float64) {
	t.Helper()
	mouse := func(typ input.DispatchMouseEventType, x float64, buttons int64) {
		p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons}
		if typ != input.DispatchMouseEventTypeMouseMoved {
			p.ClickCount = 1
		}
		if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, p); err != nil {
			t.Fatalf("dragging: %v", err)
		}
	}
	mouse(input.DispatchMouseEventTypeMousePressed, x, 1)
	for i := 1; i <= 6; i++ {
		mouse(input.DispatchMouseEventTypeMouseMoved, x+dx*float64(i)/6, 1)
	}
	mouse(input.DispatchMouseEventTypeMouseReleased, x+dx, 0)
}

const sliderPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sound</title>
<style>#volume { width: 300px; } [role=slider] { display: inline-block; width: 120px; border: 1px solid #888; }</style></head>
<body>
<h1>Sound</h1>
<p><label for="volume">Volume</label> <input type="range" id="volume" min="0" max="100" value="50"></p>
<p><span id="balance-label">Balance</span>
  <span id="balance" role="slider" tabindex="0" aria-labelledby="balance-label"
    aria-valuemin="0" aria-valuemax="10" aria-valuenow="5">5</span></p>
<p><label for="qty">Quantity</label> <input type="number" id="qty" min="0" max="20" value="1"></p>
<p><button id="save" type="button">Save</button></p>
<p id="status" role="status"></p>
<script>
  const balance = document.querySelector('#balance');
  balance.addEventListener('keydown', (e) => {
    const step = {ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1}[e.key];
    if (!step) return;
    e.preventDefault();
    const max = Number(balance.getAttribute('aria-valuemax'));
    const v = Math.min(max, Math.max(0, Number(balance.getAttribute('aria-valuenow')) + step));
    balance.setAttribute('aria-valuenow', String(v));
    balance.textContent = String(v);
  });
  document.querySelector('#save').addEventListener('click', () => {
    document.querySelector('#status').textContent = 'Saved';
  });
</script>
</body></html>`

// TestRecordSliderSetsItsValue: a native slider dragged and moved by keys,
// an ARIA slider moved by keys and a number field typed into and stepped
// with ArrowUp are each recorded as one set of the value they ended at (no
// tap or key press on them), and the trail replays green. On a page whose
// slider cannot reach the value (a lower max), whose script puts the old
// value back, or whose ARIA slider stops short, the replay fails as
// action-failed with the value expected and the value shown.
func TestRecordSliderSetsItsValue(t *testing.T) {
	t.Parallel()
	var volume string
	rec := recordPage(t, sliderPage, func(app context.Context) {
		x, y := centreOf(t, app, "#volume")
		dragBy(t, app, x, y, 60)
		typeKeys(t, app, kb.ArrowRight)
		typeKeys(t, app, kb.ArrowRight)
		volume = WaitFor[string](t, app, `(() => { const v = document.querySelector('#volume').value; return v !== '50' && document.activeElement.id === 'volume' ? v : ''; })()`)
		clickCSS(t, app, "#balance")
		for range 3 {
			typeKeys(t, app, kb.ArrowRight)
		}
		WaitFor[bool](t, app, `document.querySelector('#balance').getAttribute('aria-valuenow') === '8'`)
		clickCSS(t, app, "#qty")
		typeKeys(t, app, kb.Delete+kb.Backspace+"7")
		typeKeys(t, app, kb.ArrowUp)
		WaitFor[bool](t, app, `document.querySelector('#qty').value === '8'`)
		clickCSS(t, app, "#save")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Saved'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	if volume == "" || volume == "50" {
		t.Fatalf("the drag did not move the slider (value %q)", volume)
	}
	got := valueActions(rec.trail)
	want := []string{
		"set {id: volume} = " + volume,
		"set {id: balance} = 8",
		"set {id: qty} = 8",
		"tap {id: save}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	if !strings.Contains(string(rec.yaml), "Set Volume to "+volume) {
		t.Errorf("no intent says it sets Volume to %s:\n%s", volume, rec.yaml)
	}
	for _, s := range rec.trail.Steps {
		if strings.HasPrefix(s.Intent, "Set Volume") && (s.End == nil || len(s.End.Values) != 1 || s.End.Values[0].Want != volume) {
			t.Errorf("the step that set Volume does not end with its value %s:\n%s", volume, rec.yaml)
		}
	}
	rec.replayGreen(t)

	// The slider takes the value, and the page puts the old one back a
	// moment later: the step's end shows that.
	later := strings.Replace(sliderPage, `<script>`, `<script>
  document.querySelector('#volume').addEventListener('change', (e) => { setTimeout(() => { e.target.value = '50'; }, 30); });`, 1)
	rec.replayRefused(t, later, "end-mismatch", "app-bug", fmt.Sprintf(`ended the recorded step with value %q, and shows "50"`, volume))

	lowMax := strings.Replace(sliderPage, `max="100"`, `max="60"`, 1)
	rec.replayRefused(t, lowMax, "action-failed", fmt.Sprintf(`did not take the value %q: it shows "60"`, volume), fmt.Sprintf("- Expected: `%s`", volume), "- Actual: `60`")
	putBack := strings.Replace(sliderPage, `<script>`, `<script>
  document.querySelector('#volume').addEventListener('input', (e) => { e.target.value = '50'; });`, 1)
	rec.replayRefused(t, putBack, "action-failed", fmt.Sprintf(`did not take the value %q: it shows "50"`, volume))
	shortAria := strings.Replace(sliderPage, `aria-valuemax="10"`, `aria-valuemax="6"`, 1)
	rec.replayRefused(t, shortAria, "action-failed", `did not take the value "8": it shows "6"`)
}

const listBoxPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Market</title>
<style>[role=option] { padding: 2px 6px; cursor: default; } [aria-selected=true] { background: #cde; }</style></head>
<body>
<h1>Market</h1>
<p><label for="fruits">Fruits</label>
<select id="fruits" multiple size="4">
  <option id="apples">apples</option><option id="bananas">bananas</option>
  <option id="oranges">oranges</option><option id="pears">pears</option>
</select></p>
<p id="veg-label">Vegetables</p>
<div id="veg" role="listbox" aria-multiselectable="true" aria-labelledby="veg-label">
  <div role="option" id="carrots" aria-selected="false">carrots</div>
  <div role="option" id="leeks" aria-selected="false">leeks</div>
  <div role="option" id="peas" aria-selected="false">peas</div>
</div>
<p><button id="save" type="button">Save</button></p>
<p id="status" role="status"></p>
<script>
  const veg = document.querySelector('#veg');
  veg.addEventListener('click', (e) => {
    const o = e.target.closest('[role=option]');
    if (!o) return;
    if (e.ctrlKey || e.metaKey)
      o.setAttribute('aria-selected', o.getAttribute('aria-selected') === 'true' ? 'false' : 'true');
    else
      for (const x of veg.querySelectorAll('[role=option]')) x.setAttribute('aria-selected', String(x === o));
  });
  document.querySelector('#save').addEventListener('click', () => {
    document.querySelector('#status').textContent = 'Saved';
  });
</script>
</body></html>`

// controlClick clicks the element sel names with Control held, as a person
// adds a choice to a list box.
func controlClick(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	x, y := centreOf(t, ctx, sel)
	withControl(t, ctx, func() {
		if err := chromedp.Do(ctx, chromedp.MouseClickXY(x, y, chromedp.ButtonModifiers(chromedp.ModifierCtrl))); err != nil {
			t.Fatal(err)
		}
	})
}

// TestRecordListBoxChoices: choosing two options of a <select multiple> and
// of an ARIA list box (a click, then a Control-click) records one select of
// each list box, named by its label, with both options, and no tap of an
// option or press of Control; the trail replays green. On a page whose list
// box ends with another selection (a change handler that drops a choice, a
// list box that ignores Control), the replay fails as action-failed with
// the selection expected and the one shown.
func TestRecordListBoxChoices(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, listBoxPage, func(app context.Context) {
		clickCSS(t, app, "#apples")
		controlClick(t, app, "#oranges")
		WaitFor[bool](t, app, `[...document.querySelector('#fruits').selectedOptions].map((o) => o.text).join() === 'apples,oranges'`)
		clickCSS(t, app, "#carrots")
		controlClick(t, app, "#peas")
		WaitFor[bool](t, app, `[...document.querySelectorAll('#veg [aria-selected=true]')].map((o) => o.id).join() === 'carrots,peas'`)
		clickCSS(t, app, "#save")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Saved'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := valueActions(rec.trail)
	want := []string{
		"select {id: fruits} = [apples, oranges]",
		"select {id: veg} = [carrots, peas]",
		"tap {id: save}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	for _, intent := range []string{"Select apples and oranges in Fruits", "Select carrots and peas in Vegetables"} {
		if !strings.Contains(string(rec.yaml), "intent: "+intent+"\n") {
			t.Errorf("no step's intent is %q:\n%s", intent, rec.yaml)
		}
	}
	rec.replayGreen(t)

	dropsOranges := strings.Replace(listBoxPage, `<script>`, `<script>
  document.querySelector('#fruits').addEventListener('change', () => { document.querySelector('#oranges').selected = false; });`, 1)
	rec.replayRefused(t, dropsOranges, "action-failed", `did not end with "apples", "oranges" selected: it has "apples"`)
	noControl := strings.Replace(listBoxPage, `if (e.ctrlKey || e.metaKey)`, `if (false)`, 1)
	rec.replayRefused(t, noControl, "action-failed", `did not end with "carrots", "peas" selected: it has "peas"`)
}

const enterClearsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tasks</title></head>
<body>
<h1>Tasks</h1>
<input id="new" aria-label="New task">
<ul id="list"></ul>
<script>
  const box = document.querySelector('#new');
  box.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !box.value) return;
    const li = document.createElement('li');
    li.textContent = box.value;
    document.querySelector('#list').append(li);
    box.value = '';
  });
</script>
</body></html>`

// TestRecordTypingEndsBeforeTheNextKey: a field that the page empties on
// Enter, typed into again at once, ends the first step empty: the first key
// of the next typing is no value of the step before (its end would pin it,
// and the unchanged page would fail the replay).
func TestRecordTypingEndsBeforeTheNextKey(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, enterClearsPage, func(app context.Context) {
		clickCSS(t, app, "#new")
		typeKeys(t, app, "Feed the cat\rWater the plants\r")
		WaitFor[bool](t, app, `document.querySelectorAll('#list li').length === 2`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	for _, s := range rec.trail.Steps {
		if s.End == nil {
			continue
		}
		for _, v := range s.End.Values {
			if v.Property == trail.EndPropertyValue && v.Want != "" {
				t.Errorf("step %q ends with the field holding %q, which the page emptied:\n%s", s.Intent, v.Want, rec.yaml)
			}
		}
	}
	rec.replayGreen(t)
}

const customCheckboxPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title>
<style>
  .custom-control { position: relative; padding-left: 1.5rem; }
  .custom-control-input { position: absolute; left: 0; z-index: -1; width: 1rem; height: 1.25rem; opacity: 0; }
  .custom-control-label::before { content: ""; position: absolute; left: 0; width: 1rem; height: 1rem; border: 1px solid #888; }
  .custom-control-input:checked ~ .custom-control-label::before { background: #36c; }
</style></head>
<body>
<h1>Sign in</h1>
<div class="custom-control custom-checkbox">
  <input type="checkbox" class="custom-control-input" id="customCheck">
  <label class="custom-control-label" for="customCheck">Remember Me</label>
</div>
<p><input type="checkbox" id="news"> <label for="news">Send me news</label></p>
</body></html>`

// TestRecordLabelClickIsOneCheck: one click on the label of a check box
// (a styled one whose input is hidden, and a plain one) is one check: the
// click the browser passes on from the label to its box is not a second.
func TestRecordLabelClickIsOneCheck(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, customCheckboxPage, func(app context.Context) {
		clickCSS(t, app, "label[for=customCheck]")
		WaitFor[bool](t, app, `document.querySelector('#customCheck').checked`)
		clickCSS(t, app, "label[for=news]")
		WaitFor[bool](t, app, `document.querySelector('#news').checked`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := valueActions(rec.trail)
	want := []string{"check {id: customCheck}", "check {id: news}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}

const textAreaPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Notes</title></head>
<body>
<h1>Notes</h1>
<p><label for="notes">Notes</label> <textarea id="notes"></textarea></p>
<p><label for="chat">Message</label> <textarea id="chat"></textarea></p>
<ul id="sent" aria-label="Sent"></ul>
<script>
  const chat = document.querySelector('#chat');
  chat.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    const li = document.createElement('li');
    li.textContent = chat.value;
    document.querySelector('#sent').append(li);
    chat.value = '';
  });
</script>
</body></html>`

// pressEnter presses Enter as a keyboard does: one keydown that carries
// its text, so a page that prevents the keydown gets no line break (the
// char event chromedp adds would insert one regardless).
func pressEnter(t *testing.T, ctx context.Context) {
	t.Helper()
	enter := input.DispatchKeyEventParams{Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13, Text: "\r", UnmodifiedText: "\r"}
	keyDownUp(t, ctx, input.DispatchKeyEventTypeKeyDown, enter, 0)
	enter.Text, enter.UnmodifiedText = "", ""
	keyDownUp(t, ctx, input.DispatchKeyEventTypeKeyUp, enter, 0)
}

// TestRecordTextAreaEnter: Enter in a text area types a line break, part
// of the typing (its end value holds it), unless the page takes the key (a
// chat that sends on Enter): then it is a press, after the typing.
func TestRecordTextAreaEnter(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, textAreaPage, func(app context.Context) {
		clickCSS(t, app, "#notes")
		typeKeys(t, app, "First line")
		pressEnter(t, app)
		typeKeys(t, app, "Second line")
		WaitFor[bool](t, app, `document.querySelector('#notes').value === 'First line\nSecond line'`)
		clickCSS(t, app, "#chat")
		typeKeys(t, app, "Hello")
		pressEnter(t, app)
		WaitFor[bool](t, app, `document.querySelectorAll('#sent li').length === 1`)
		clickCSS(t, app, "h1")
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	var got []string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			switch a := a.(type) {
			case trail.TypeText:
				got = append(got, "type "+a.Selector.String()+" "+strings.ReplaceAll(a.Text, "\n", `\n`))
			default:
				got = append(got, valueActions(&trail.Trail{Steps: []trail.Step{{Actions: []trail.Action{a}}}})...)
			}
		}
	}
	want := []string{`type {id: notes} First line\nSecond line`, "type {id: chat} Hello", "press Enter", "tap {role: heading, name: Notes}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}
