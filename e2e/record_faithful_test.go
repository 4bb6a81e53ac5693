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

// Recording a minimal page faithfully: each test here serves one small page,
// records what a person does on it through the real extension with trusted
// input, saves and exports the trail, and checks the steps it holds (and,
// where it matters, that the trail replays green on the same page).

// A pageRecording is a recorded, saved and exported trail of a minimal page.
type pageRecording struct {
	rig   *recordingRig
	site  string // the page's origin
	dir   string // the folder the page is served from
	path  string // the exported trail file
	yaml  []byte
	trail *trail.Trail
	notes string // the review's notes, as the popup shows them
}

// recordPage serves html as /page.html, records drive's trusted input on it
// and returns the saved trail.
func recordPage(t *testing.T, html string, drive func(app context.Context)) *pageRecording {
	t.Helper()
	return recordPageWith(t, html, func(_, app context.Context) { drive(app) })
}

// recordPageWith is recordPage whose drive is given the popup too.
func recordPageWith(t *testing.T, html string, drive func(popup, app context.Context)) *pageRecording {
	t.Helper()
	return recordPageEnv(t, html, nil, drive)
}

// recordPageEnv is recordPageWith with more variables for the browser and
// the host it starts.
func recordPageEnv(t *testing.T, html string, env []string, drive func(popup, app context.Context)) *pageRecording {
	t.Helper()
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	site := TempDir(t)
	if err := os.WriteFile(filepath.Join(site, "page.html"), []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, site)
	p := recordAt(t, r, srv.URL, "/page.html", env, drive)
	p.dir = site
	return p
}

// recordAt records drive's trusted input on the page at origin+path with
// the rig r (its project written), as recordPageEnv does, and returns the
// saved trail.
func recordAt(t *testing.T, r *recordingRig, origin, path string, env []string, drive func(popup, app context.Context)) *pageRecording {
	t.Helper()
	popup, app := startRecordingAt(t, r, origin, path, env)

	drive(popup, app)

	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	notes := Eval[string](t, popup, `document.querySelector('#notes').textContent`)
	fill(t, popup, "#trail-title", "Minimal page")
	pressSave(t, popup)
	clickCSS(t, popup, "#export")
	file := WaitFor[string](t, popup, `(document.querySelector('#exported').textContent.match(/^Exported to (\S+)/) || [])[1]`)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(file, src)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, src)
	}
	return &pageRecording{rig: r, site: origin, path: file, yaml: src, trail: tr, notes: notes}
}

// replay runs host replay on the recorded trail against the same page and
// fails the test unless it passes.
func (p *pageRecording) replayGreen(t *testing.T) {
	t.Helper()
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", p.site, "--results", TempDir(t), p.path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the recorded trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, p.yaml)
	}
}

// actions lists the trail's actions, one line each, as the trail writes them.
func (p *pageRecording) actions(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, s := range p.trail.Steps {
		for _, a := range s.Actions {
			out = append(out, string(a.Kind())+" "+actionDetail(a))
		}
	}
	return out
}

func actionDetail(a trail.Action) string {
	switch a := a.(type) {
	case trail.Press:
		return strings.Join(append(trail.ModifierStrings(a.Modifiers), a.Key), "+")
	case trail.Tap:
		s := a.Selector.String()
		if a.Button != "" {
			s += " button=" + string(a.Button)
		}
		if len(a.Modifiers) > 0 {
			s += " modifiers=" + strings.Join(trail.ModifierStrings(a.Modifiers), "+")
		}
		return s
	}
	return ""
}

// Raw trusted key events, for a modifier held down across another key or a
// click, as a person holds it: the modifier's own keydown comes first.
var controlKey = input.DispatchKeyEventParams{Key: "Control", Code: "ControlLeft", WindowsVirtualKeyCode: 17, NativeVirtualKeyCode: 17}

func keyDownUp(t *testing.T, ctx context.Context, typ input.DispatchKeyEventType, p input.DispatchKeyEventParams, mods int64) {
	t.Helper()
	p.Type, p.Modifiers = typ, mods
	if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, p); err != nil {
		t.Fatalf("dispatching %s %s: %v", typ, p.Key, err)
	}
}

// withControl runs fn with the Control key held down.
func withControl(t *testing.T, ctx context.Context, fn func()) {
	t.Helper()
	keyDownUp(t, ctx, input.DispatchKeyEventTypeRawKeyDown, controlKey, 2) // Ctrl
	fn()
	keyDownUp(t, ctx, input.DispatchKeyEventTypeKeyUp, controlKey, 0)
}

// centreOf is the centre of the element sel names, scrolled into view.
func centreOf(t *testing.T, ctx context.Context, sel string) (float64, float64) {
	t.Helper()
	p := Eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
		const r = e.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, sel))
	return p.X, p.Y
}

const modifierPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Notes</title></head>
<body>
<h1>Notes</h1>
<label for="note">Note</label> <textarea id="note">first line</textarea>
<p><a id="more" href="#more-notes">More notes</a></p>
<p id="more-notes">Nothing more.</p>
</body></html>`

// TestRecordModifierIsPartOfItsKey: Control+A in a field and a
// Control-click record the key and the click with Control held, and no
// press of Control on its own.
func TestRecordModifierIsPartOfItsKey(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, modifierPage, func(app context.Context) {
		clickCSS(t, app, "#note")
		withControl(t, app, func() {
			if err := chromedp.Do(app, chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
				t.Fatal(err)
			}
		})
		WaitFor[bool](t, app, `(() => { const n = document.querySelector('#note'); return n.selectionStart === 0 && n.selectionEnd === n.value.length; })()`)
		x, y := centreOf(t, app, "#more")
		withControl(t, app, func() {
			if err := chromedp.Do(app, chromedp.MouseClickXY(x, y, chromedp.ButtonModifiers(chromedp.ModifierCtrl))); err != nil {
				t.Fatal(err)
			}
		})
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := rec.actions(t)
	want := []string{
		"press Control+a",
		"tap {id: more} modifiers=Control",
	}
	for _, a := range got {
		if strings.HasPrefix(a, "press ") && isModifierWord(strings.TrimPrefix(a, "press ")) {
			t.Errorf("the trail presses a modifier on its own (%q):\n%s", a, rec.yaml)
		}
	}
	if !containsInOrder(got, want) {
		t.Errorf("the trail's actions are\n  %s\nwant them to include, in order,\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	if strings.Contains(string(rec.yaml), "Press Control in") || strings.Contains(string(rec.yaml), "press Control and") {
		t.Errorf("an intent names a lone press of Control:\n%s", rec.yaml)
	}
}

func isModifierWord(k string) bool {
	switch k {
	case "Control", "Shift", "Alt", "Meta", "AltGraph", "CapsLock":
		return true
	}
	return false
}

// containsInOrder says whether want appear in got in order (others between).
func containsInOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

const contextMenuPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Files</title>
<style>
  #menu { position: absolute; border: 1px solid #888; background: #fff; padding: 4px; }
  #menu[hidden] { display: none; }
  li { padding: 4px; }
</style></head>
<body>
<h1>Files</h1>
<ul aria-label="Files">
  <li id="report">report.pdf</li>
  <li id="notes">notes.txt</li>
</ul>
<div id="menu" role="menu" aria-label="File actions" hidden>
  <div role="menuitem" id="rename" tabindex="-1">Rename</div>
  <div role="menuitem" id="delete" tabindex="-1">Delete</div>
</div>
<p id="status" role="status"></p>
<p><span id="pin">Pin report.pdf</span> (middle-click)</p>
<script>
  document.querySelector('#pin').addEventListener('auxclick', (e) => {
    if (e.button === 1) document.querySelector('#status').textContent = 'Pinned report.pdf';
  });
  const menu = document.querySelector('#menu');
  let target = null;
  document.querySelector('ul').addEventListener('contextmenu', (e) => {
    const li = e.target.closest('li');
    if (!li) return;
    e.preventDefault();
    target = li;
    menu.style.left = e.pageX + 'px';
    menu.style.top = e.pageY + 'px';
    menu.hidden = false;
  });
  document.querySelector('#delete').addEventListener('click', () => {
    menu.hidden = true;
    document.querySelector('#status').textContent = 'Deleted ' + target.textContent;
    target.remove();
  });
</script>
</body></html>`

// TestRecordRightClick: a right-click that opens the page's own context
// menu is recorded as a tap with the right button, the menu item after it
// as a tap, a middle click as a tap with the middle button, and the trail
// replays green on the same page (replay presses the same buttons, so the
// menu opens again).
func TestRecordRightClick(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, contextMenuPage, func(app context.Context) {
		x, y := centreOf(t, app, "#notes")
		if err := chromedp.Do(app, chromedp.MouseClickXY(x, y, chromedp.ButtonRight)); err != nil {
			t.Fatal(err)
		}
		WaitFor[bool](t, app, `!document.querySelector('#menu').hidden`)
		clickCSS(t, app, "#delete")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Deleted notes.txt'`)
		x, y = centreOf(t, app, "#pin")
		if err := chromedp.Do(app, chromedp.MouseClickXY(x, y, chromedp.ButtonMiddle)); err != nil {
			t.Fatal(err)
		}
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Pinned report.pdf'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := rec.actions(t)
	want := []string{"tap {id: notes} button=right", "tap {id: delete}", "tap {id: pin} button=middle"}
	if !containsInOrder(got, want) {
		t.Errorf("the trail's actions are\n  %s\nwant them to include, in order,\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	if !strings.Contains(string(rec.yaml), "Right-click the notes.txt item") {
		t.Errorf("no step says it right-clicks notes.txt:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
}

const valueChangePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order</title></head>
<body>
<h1>Order</h1>
<label for="fruit">Fruit</label>
<select id="fruit"><option>apples</option><option>bananas</option><option>cherries</option></select>
<p><input type="checkbox" id="gift"><label for="gift">Gift wrap</label></p>
<p><label for="who">Name</label> <input id="who"></p>
<p><button id="note" type="button">Add a note</button></p>
<div id="notes"></div>
<script>
  document.querySelector('#note').addEventListener('click', () => {
    const p = document.createElement('p');
    p.textContent = 'Note ' + (document.querySelectorAll('#notes p').length + 1);
    document.querySelector('#notes').append(p);
  });
</script>
</body></html>`

// TestRecordValueChangeEndsItsOwnStep: choosing an option and checking a box
// change no markup; the step that made the change ends with it, and the
// next, unrelated step (a click that adds a paragraph) does not pin it.
func TestRecordValueChangeEndsItsOwnStep(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, valueChangePage, func(app context.Context) {
		clickCSS(t, app, "#fruit")
		typeKeys(t, app, kbArrowDown)
		typeKeys(t, app, "\r")
		WaitFor[bool](t, app, `document.querySelector('#fruit').value === 'bananas'`)
		clickCSS(t, app, "#note")
		WaitFor[bool](t, app, `document.querySelectorAll('#notes p').length === 1`)
		clickCSS(t, app, "#gift")
		WaitFor[bool](t, app, `document.querySelector('#gift').checked`)
		clickCSS(t, app, "#note")
		WaitFor[bool](t, app, `document.querySelectorAll('#notes p').length === 2`)
		clickCSS(t, app, "#who")
		typeKeys(t, app, "Ada")
		clickCSS(t, app, "#note")
		WaitFor[bool](t, app, `document.querySelectorAll('#notes p').length === 3`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	ends := map[string]string{}
	var order []string
	for _, s := range rec.trail.Steps {
		var shows []string
		if s.End != nil {
			for _, sel := range s.End.Shows {
				shows = append(shows, sel.String())
			}
		}
		ends[s.Intent] = strings.Join(shows, " ")
		order = append(order, s.Intent)
	}
	// Each step's end, found by the start of its intent.
	endOf := func(prefix string, nth int) (string, bool) {
		for _, in := range order {
			if strings.HasPrefix(in, prefix) {
				if nth == 0 {
					return ends[in], true
				}
				nth--
			}
		}
		return "", false
	}
	sel, ok := endOf("Select bananas", 0)
	if !ok || !strings.Contains(sel, "bananas") {
		t.Errorf("the step that chose bananas ends with %q (found: %v), want the drop-down showing bananas\n%s", sel, ok, rec.yaml)
	}
	for n := 0; n < 3; n++ {
		note, ok := endOf("Click the Add a note button", n)
		if !ok {
			t.Errorf("no step %d clicks Add a note:\n%s", n+1, rec.yaml)
			continue
		}
		if strings.Contains(note, "bananas") || strings.Contains(note, "gift") || strings.Contains(note, "Gift") || strings.Contains(note, "Ada") || strings.Contains(note, "who") {
			t.Errorf("click %d on Add a note ends with %q: the change of an earlier step is pinned to it\n%s", n+1, note, rec.yaml)
		}
	}
	rec.replayGreen(t)
}

const menuKeysPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mail</title>
<style>[role=menu][hidden] { display: none; } [role=menuitem]:focus { outline: 2px solid blue; }</style></head>
<body>
<h1>Mail</h1>
<button id="actions" aria-haspopup="menu" aria-controls="menu">Actions</button>
<div id="menu" role="menu" aria-label="Actions" hidden>
  <div role="menuitem" tabindex="-1">Reply</div>
  <div role="menuitem" tabindex="-1">Archive</div>
  <div role="menuitem" tabindex="-1">Delete</div>
</div>
<p id="status" role="status"></p>
<script>
  const menu = document.querySelector('#menu');
  const items = [...menu.querySelectorAll('[role=menuitem]')];
  document.querySelector('#actions').addEventListener('click', () => {
    menu.hidden = false;
    items[0].focus();
  });
  menu.addEventListener('keydown', (e) => {
    const i = items.indexOf(document.activeElement);
    if (e.key === 'ArrowDown') { items[(i + 1) % items.length].focus(); e.preventDefault(); }
    if (e.key === 'ArrowUp') { items[(i + items.length - 1) % items.length].focus(); e.preventDefault(); }
    if (e.key === 'Enter') {
      menu.hidden = true;
      document.querySelector('#status').textContent = items[i].textContent + ' done';
      e.preventDefault();
    }
  });
</script>
</body></html>`

// TestRecordKeysInAWidget: the arrow key that moves through a menu is
// recorded (it chose the item Enter then acts on); without it the trail
// would press Enter on the first item, and replay would fail the person's
// assertion that the mail was archived.
func TestRecordKeysInAWidget(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, menuKeysPage, func(app context.Context) {
		clickCSS(t, app, "#actions")
		WaitFor[bool](t, app, `document.activeElement.textContent === 'Reply'`)
		typeKeys(t, app, kb.ArrowDown)
		WaitFor[bool](t, app, `document.activeElement.textContent === 'Archive'`)
		typeKeys(t, app, "\r")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Archive done'`)
		// The person checks what the menu did: replay must do the same.
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		clickCSS(t, app, "#status")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	got := rec.actions(t)
	want := []string{"press ArrowDown", "press Enter"}
	if !containsInOrder(got, want) {
		t.Errorf("the trail's actions are\n  %s\nwant them to include, in order,\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}

// startRecordingAt starts a browser with the rig r (its project written),
// opens the page at origin+path, presses Record in the popup, names the
// project and the app "page", and returns the popup and the app's tab.
func startRecordingAt(t *testing.T, r *recordingRig, origin, path string, env []string) (popup, app context.Context) {
	t.Helper()
	r.b = StartBrowser(t, Options{HostPath: teeHost(t, r.wire), Env: append([]string{"TZ=UTC", "LANG=en_US.UTF-8", "LANGUAGE=en_US"}, env...)})
	app = r.b.OpenTab(t, origin+path)
	r.app = app
	if err := chromedp.Do(app, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	popup = r.openPopupFor(t, origin)
	clickCSS(t, popup, "#record")
	popupPhase(t, popup, "recording")
	WaitFor[bool](t, popup, `!document.querySelector('#project-form').hidden`)
	fill(t, popup, "#project-dir", r.project)
	clickCSS(t, popup, "#project-form button[type=submit]")
	WaitFor[bool](t, popup, `!document.querySelector('#app-form').hidden`)
	fill(t, popup, "#app-name", "page")
	clickCSS(t, popup, "#app-form button[type=submit]")
	WaitFor[bool](t, popup, `document.querySelector('#rec-app').textContent.startsWith('page ')`)
	appAt(t, app, path)
	return popup, app
}
