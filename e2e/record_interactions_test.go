package e2e

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/trailpin/trailpin/recorder/screen"
)

// TestRecordInteractions records every kind of interaction the recorder
// knows on a fixture page, with trusted input, and reads what the extension
// sent the host from the captured native messages: one type per field with
// its final value, a secret by name only, select, check, file names, a
// double click, keys with and without modifiers, dialogs answered both ways
// (on a page loaded while recording; none on the page open before Record),
// a click in a same-origin frame (a ref of the top screen), a tab the app
// opened, navigation by link, back, forward, reload and typed URL, and the
// recording bar's assertions, mark and undo; nothing on the bar itself.
func TestRecordInteractions(t *testing.T) {
	t.Parallel()
	r := &recordingRig{wire: TempDir(t)}
	r.b = StartBrowser(t, Options{HostPath: teeHost(t, r.wire)})
	dir := filepath.Join(RepoRoot(), "e2e", "testdata", "record", "pages")
	pages := ServeDir(t, dir)
	other := ServeDir(t, dir) // another port: another origin
	app := r.b.OpenTab(t, pages.URL+"/form.html?remote="+other.URL+"/inner.html")
	if err := chromedp.Do(app, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	answers := answerDialogs(t, app)
	popup := r.openPopupFor(t, pages.URL)
	clickCSS(t, popup, "#record")
	popupPhase(t, popup, "recording")
	appAt(t, app, "/form.html?remote="+other.URL+"/inner.html")

	const passphrase = "s3cret-horse-battery"
	clickCSS(t, app, "#name")
	typeKeys(t, app, "Grae")
	typeKeys(t, app, kbBackspace+"ce")
	typeKeys(t, app, "\t") // Tab to the passphrase
	typeKeys(t, app, passphrase)
	typeKeys(t, app, kbEscape)
	clickCSS(t, app, "#size")
	typeKeys(t, app, kbArrowDown)
	typeKeys(t, app, "\r")
	clickCSS(t, app, "#gift")
	upload(t, app, "#file", "note.txt")
	dblClickCSS(t, app, "#twice")
	// This page was open before Record: its dialogs are not recorded (its
	// scripts could fake them), and the bar says so. They are on the page
	// loaded by the typed URL below.
	answers <- dialogAnswer{accept: false}
	clickCSS(t, app, "#ask")
	waitAcrossLoads(t, app, `document.querySelector('#answer').textContent === 'no'`)
	waitAX(t, app, "StaticText", unrecordedDialogNotice)
	answers <- dialogAnswer{accept: true, text: "Ada"}
	clickCSS(t, app, "#prompt")
	waitAcrossLoads(t, app, `document.querySelector('#answer').textContent === 'Ada'`)
	clickCSS(t, app, "body > h1") // the page has the focus: a shortcut
	typeWithModifiers(t, app, "k", kb.ModifierCtrl)
	clickCSS(t, app, "#frame")  // the frame's button fills it
	clickCSS(t, app, "#remote") // the same, in a frame of another origin

	clickAX(t, app, "button", "Mark sensitive")
	clickCSS(t, app, "#greeting")
	clickAX(t, app, "button", "Assert text absent")
	clickAX(t, app, "textbox", "Text that must not be shown")
	typeKeys(t, app, "Out of stock\r")
	clickAX(t, app, "button", "Undo last step")
	waitAX(t, app, "StaticText", "Removed the last step.")

	// A tab the app opens: the person moves to it and acts there.
	help := openedTab(t, r.b, app, "#help", "/help.html")
	appAt(t, help, "/help.html")
	clickCSS(t, help, "#got-it")
	activate(t, app)
	clickCSS(t, app, "#next")
	appAt(t, app, "/next.html")
	navigate(t, app, chromedp.NavigateBack())
	appAt(t, app, "/form.html?remote="+other.URL+"/inner.html")
	navigate(t, app, chromedp.NavigateForward())
	appAt(t, app, "/next.html")
	navigate(t, app, chromedp.Reload())
	appAt(t, app, "/next.html")
	navigate(t, app, chromedp.Navigate(pages.URL+"/form.html?typed=1"))
	appAt(t, app, "/form.html?typed=1")
	answers <- dialogAnswer{accept: false}
	clickCSS(t, app, "#ask")
	waitAcrossLoads(t, app, `document.querySelector('#answer').textContent === 'no'`)
	answers <- dialogAnswer{accept: true, text: "Ada"}
	clickCSS(t, app, "#prompt")
	waitAcrossLoads(t, app, `document.querySelector('#answer').textContent === 'Ada'`)
	clickAX(t, app, "button", "Assert URL")
	waitAX(t, app, "StaticText", "Added: the URL is /form.html?typed=1")
	clickAX(t, app, "button", "Stop")
	popupPhase(t, popup, "stopped")
	if notes := Eval[string](t, popup, `document.querySelector('#notes').textContent`); !strings.Contains(notes, "(click) was left out") {
		t.Errorf("the review's notes do not say the click in the other origin's frame was left out: %q", notes)
	}

	got := sentInteractions(t, r.wire, pages.URL)
	want := []string{
		"click #name",
		"type #name value=Grace",
		"press #name key=Tab",
		"type #pass secret=passphrase",
		"press #pass key=Escape",
		"select #size options=Large",
		"click #gift",
		"check #gift",
		"click #file",
		"upload #file files=note.txt",
		"click #twice",
		"click #twice count=2",
		"click #ask",
		"click #prompt",
		"click body>h1",
		"press key=k modifiers=Control",
		"click iframe#frame>#inner",
		"click", // in the other origin's frame: no screen of this app names it
		"markSensitive #greeting",
		"assertNotVisible text=Out of stock",
		"undo",
		"click #help",
		"switchTab tab=2 url=/help.html",
		"click tab=2 #got-it",
		"switchTab tab=1 url=/form.html?remote=" + other.URL + "/inner.html",
		"click #next",
		"navigate url=/next.html transition=link",
		"navigate url=/form.html?remote=" + other.URL + "/inner.html transition=back",
		"navigate url=/next.html transition=forward",
		"navigate url=/next.html transition=reload",
		"navigate url=/form.html?typed=1 transition=typed",
		"click #ask",
		"dialog dialogKind=confirm message=Really order? accept=false",
		"click #prompt",
		"dialog dialogKind=prompt message=Who is it for? accept=true promptText=Ada",
		"assertUrl url=/form.html?typed=1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("the extension sent these interactions:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	toHost, _ := os.ReadFile(filepath.Join(r.wire, "to-host.bin"))
	CheckNoSecretLeaks(t, passphrase, LeakBytes("native messages to the host", toHost))

	// A second recording in the same page, whose recorder is still there
	// (stopped), records on its own.
	clickCSS(t, popup, "#discard")
	popupPhase(t, popup, "idle")
	clickCSS(t, popup, "#record")
	popupPhase(t, popup, "recording")
	waitAX(t, app, "toolbar", "Trailpin recording")
	clickCSS(t, app, "#twice")
	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	if steps := Eval[[]string](t, popup, `[...document.querySelectorAll('#steps > li > input')].map((i) => i.value)`); !slices.Equal(steps, []string{"Click the Twice button"}) {
		t.Errorf("the second recording's steps are %q, want one click on Twice", steps)
	}
}

// dialogAnswer is how the test answers the next JavaScript dialog.
type dialogAnswer struct {
	accept bool
	text   string
}

// answerDialogs answers each dialog the tab opens with the next answer
// sent on the returned channel, as a person would click OK or Cancel.
func answerDialogs(t *testing.T, tab context.Context) chan<- dialogAnswer {
	answers := make(chan dialogAnswer, 4)
	dialogs := chromedp.Events(tab, page.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			a := <-answers
			chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: a.accept, PromptText: a.text})
		}
	}()
	return answers
}

const (
	kbBackspace = "\b"
	kbEscape    = "\u001b"
	kbArrowDown = kb.ArrowDown
)

func dblClickCSS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	p := Eval[struct{ X, Y float64 }](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, sel))
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(p.X, p.Y), chromedp.MouseClickXY(p.X, p.Y, chromedp.ClickCount(2))); err != nil {
		t.Fatal(err)
	}
}

func typeWithModifiers(t *testing.T, ctx context.Context, key string, m chromedp.Modifier) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(key, chromedp.KeyModifiers(m))); err != nil {
		t.Fatal(err)
	}
}

// upload chooses a file for the file input the way the file chooser does.
func upload(t *testing.T, ctx context.Context, sel, name string) {
	t.Helper()
	file := filepath.Join(TempDir(t), name)
	if err := os.WriteFile(file, []byte("Happy birthday"), 0o600); err != nil {
		t.Fatal(err)
	}
	clickCSS(t, ctx, sel) // the file chooser is not shown headless
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.CSS(sel), []string{file})); err != nil {
		t.Fatal(err)
	}
}

// openedTab clicks the link sel that opens a tab, and returns that tab.
func openedTab(t *testing.T, b *Browser, ctx context.Context, sel, path string) context.Context {
	t.Helper()
	ch := chromedp.WaitNewTarget(ctx, func(i *target.Info) bool { return strings.Contains(i.URL, path) })
	clickCSS(t, ctx, sel)
	var id target.ID
	select {
	case id = <-ch:
	case <-time.After(WaitTimeout):
		t.Fatalf("no tab opened on %s", path)
	}
	tab, cancel := chromedp.NewContext(b.Ctx, chromedp.WithTargetID(id))
	t.Cleanup(cancel)
	if err := chromedp.Do(tab); err != nil {
		t.Fatal(err)
	}
	activate(t, tab)
	return tab
}

// activate brings the tab to the front, as a person clicking on it does.
func activate(t *testing.T, tab context.Context) {
	t.Helper()
	if _, err := chromedp.Call(tab, page.BringToFront, struct{}{}); err != nil {
		t.Fatal(err)
	}
}

func navigate(t *testing.T, tab context.Context, a chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, WaitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, a); err != nil {
		t.Fatal(err)
	}
}

// sentInteractions reads the record.interaction messages the extension sent
// the host and writes each as one line: its kind, the target as a CSS-ish
// path read from its screen, and its other fields. Tabs are numbered in the
// order they appear; URLs lose the origin.
func sentInteractions(t *testing.T, dir, origin string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "to-host.bin"))
	if err != nil {
		t.Fatal(err)
	}
	screens := map[string]sentScreen{}
	tabs := map[float64]int{}
	seen := map[float64]bool{}
	var lines []string
	for len(raw) >= 4 {
		n := binary.LittleEndian.Uint32(raw)
		var m struct {
			Type        string          `json:"type"`
			Interaction map[string]any  `json:"interaction"`
			Screen      json.RawMessage `json:"screen"`
		}
		if err := json.Unmarshal(raw[4:4+n], &m); err != nil {
			t.Fatalf("a native message does not parse: %v", err)
		}
		raw = raw[4+n:]
		if m.Type != "record.interaction" {
			continue
		}
		i := m.Interaction
		if id, _ := i["screen"].(string); id != "" && len(m.Screen) > 0 {
			screens[id] = parseSentScreen(t, m.Screen)
		}
		seq, _ := i["seq"].(float64)
		if seen[seq] {
			continue // sent again after a reconnect
		}
		seen[seq] = true
		if tab, ok := i["tab"].(float64); ok && tabs[tab] == 0 {
			tabs[tab] = len(tabs) + 1
		}
		lines = append(lines, describeInteraction(i, screens, tabs, origin))
	}
	return lines
}

func describeInteraction(i map[string]any, screens map[string]sentScreen, tabs map[float64]int, origin string) string {
	parts := []string{fmt.Sprint(i["kind"])}
	if tab, _ := i["tab"].(float64); tabs[tab] > 1 || i["kind"] == "switchTab" {
		parts = append(parts, fmt.Sprintf("tab=%d", tabs[tab]))
	}
	if ref, _ := i["ref"].(string); ref != "" {
		parts = append(parts, screens[fmt.Sprint(i["screen"])].path(ref))
	}
	for _, k := range []string{"count", "key", "modifiers", "value", "secret", "options", "files", "dialogKind", "message", "accept", "promptText", "text", "url", "transition"} {
		v, ok := i[k]
		if !ok || k == "count" && v == float64(1) {
			continue
		}
		if k == "url" {
			if i["kind"] != "navigate" && i["kind"] != "switchTab" && i["kind"] != "assertUrl" {
				continue
			}
			v = strings.TrimPrefix(fmt.Sprint(v), origin)
		}
		if list, ok := v.([]any); ok {
			var s []string
			for _, x := range list {
				s = append(s, fmt.Sprint(x))
			}
			v = strings.Join(s, ",")
		}
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	return strings.Join(parts, " ")
}

// A sentScreen is the part of a wire-form screen the test reads: for each
// ref, its tag, id and parent.
type sentScreen map[string]sentNode

type sentNode struct{ tag, id, parent string }

func parseSentScreen(t *testing.T, raw json.RawMessage) sentScreen {
	t.Helper()
	// The host's own decoder reads it, as the host does: the wire form
	// codes refs, roles and tags (docs/screen-schema.md).
	sc, err := screen.DecodeWire(raw)
	if err != nil {
		t.Fatalf("a screen the extension sent does not decode: %v", err)
	}
	out := sentScreen{}
	var walk func(n *screen.Node, parent string)
	walk = func(n *screen.Node, parent string) {
		if n == nil {
			return
		}
		if n.Ref != "" {
			out[n.Ref] = sentNode{tag: n.Tag, id: n.ID, parent: parent}
			parent = n.Ref
		}
		for _, k := range n.Children {
			walk(k, parent)
		}
	}
	walk(sc.Root, "")
	return out
}

// path names the element: #id when it has one, else its parent's path and
// its tag; an element in a frame is prefixed by the iframe.
func (s sentScreen) path(ref string) string {
	n, ok := s[ref]
	if !ok {
		return "?" + ref
	}
	prefix := ""
	if strings.HasPrefix(ref, "f") {
		for p := n.parent; p != ""; p = s[p].parent {
			if s[p].tag == "iframe" {
				prefix = "iframe" + s.path(p) + ">"
				break
			}
		}
	}
	if n.id != "" {
		return prefix + "#" + n.id
	}
	return prefix + s[n.parent].tag + ">" + n.tag
}
