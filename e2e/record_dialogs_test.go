package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
)

// unrecordedDialogNotice is what the recording bar says when a page open
// before Record opened a dialog (extension/recordbar.js).
const unrecordedDialogNotice = "A dialog on this page was not recorded: the page was open before Record, " +
	"and its own scripts could fake one. Reload the page to record its dialogs."

// TestRecordDialogsForged records a page whose own scripts try every way
// they have to add a dialog step it did not open (testdata/record/forge):
// the trailpin-dialog event the dialog hook used to send, from the first
// moment on and before, during and after a real dialog; a copy of the hook's
// channel; replacing Function.prototype.call and Reflect.apply around a real
// confirm; a message that reads differently the second time. The dialogs
// recorded must be exactly the ones Chrome reports, with the text Chrome
// showed, on the page loaded while recording (and in its frame), and the
// saved trail must have no other dialog step. The page open before Record
// records none of its dialogs, and the bar says so.
func TestRecordDialogsForged(t *testing.T) {
	t.Parallel()
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.b = StartBrowser(t, Options{HostPath: teeHost(t, r.wire)})
	pages := ServeDir(t, filepath.Join(RepoRoot(), "e2e", "testdata", "record", "forge"))
	app := r.b.OpenTab(t, pages.URL+"/forge.html")
	if err := chromedp.Do(app, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	shown := watchDialogs(t, app)
	// The page forges from its first moment, before the recording starts.
	WaitFor[bool](t, app, `document.readyState === 'complete'`)
	popup := r.startRecording(t, pages.URL, "forge")
	appAt(t, app, "/forge.html")

	// Open before Record: the page's scripts ran before the extension could
	// watch its dialogs.
	shown.answer(true, "")
	clickCSS(t, app, "#confirm")
	shown.wait(t, app, "#answer", "yes")
	waitAX(t, app, "StaticText", unrecordedDialogNotice)
	before := len(shown.seen())

	clickCSS(t, app, "#again")
	appAt(t, app, "/forge.html?again=1")
	for _, s := range []struct {
		sel, done string
		accept    bool
		text      string
	}{
		{"#confirm", "no", false, ""},
		{"#prompt", "Ada", true, "Ada"},
		{"#during", "really yes", true, ""},
		{"#sly", "sly no", false, ""},
		{"#shifty", "shifty yes", true, ""},
	} {
		shown.answer(s.accept, s.text)
		clickCSS(t, app, s.sel)
		shown.wait(t, app, "#answer", s.done)
	}
	shown.answer(true, "")
	clickCSS(t, app, "#frame") // its button fills most of it
	waitAcrossLoads(t, app, `document.querySelector('#frame').contentDocument.querySelector('#answer').textContent === 'yes'`)

	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")

	// What Chrome showed on the page loaded while recording is what was recorded.
	seen := shown.seen()
	var want []string
	for _, d := range seen[before:] {
		line := fmt.Sprintf("dialog dialogKind=%s message=%s accept=%v", d.kind, d.message, d.accept)
		if d.kind == "prompt" && d.accept {
			line += " promptText=" + d.text
		}
		want = append(want, line)
	}
	if msgs := messages(seen); !slices.Equal(msgs, []string{"Delete the order?", "Delete the order?", "Who is it for?", "Really?",
		"Keep the sly one?", "Ship it today?", "Delete in the frame?"}) {
		t.Fatalf("Chrome showed the dialogs %q: the page did not do what the test expects", msgs)
	}
	var got []string
	for _, line := range sentInteractions(t, r.wire, pages.URL) {
		if strings.HasPrefix(line, "dialog ") {
			got = append(got, line)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("the extension recorded these dialogs:\n  %s\nwant the ones Chrome showed on the page loaded while recording:\n  %s",
			strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	toHost, err := os.ReadFile(filepath.Join(r.wire, "to-host.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(toHost, []byte("FORGED")); n > 0 {
		t.Errorf("the extension sent the host %d forged dialog texts", n)
	}

	fill(t, popup, "#trail-title", "Answer the dialogs")
	pressSave(t, popup)
	clickCSS(t, popup, "#export")
	path := WaitFor[string](t, popup, `(document.querySelector('#exported').textContent.match(/^Exported to (\S+)/) || [])[1]`)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(path, src)
	if err != nil {
		t.Fatalf("the saved trail does not load: %v\n%s", err, src)
	}
	var answers []string
	for _, st := range tr.Steps {
		for _, a := range st.Actions {
			if d, ok := a.(trail.Dialog); ok {
				answers = append(answers, fmt.Sprintf("%v %s", d.Accept, d.PromptText))
			}
		}
	}
	if wantAnswers := []string{"false ", "true Ada", "true ", "false ", "true ", "true "}; !slices.Equal(answers, wantAnswers) {
		t.Errorf("the saved trail answers the dialogs %q, want %q:\n%s", answers, wantAnswers, src)
	}
	if bytes.Contains(src, []byte("FORGED")) {
		t.Errorf("the saved trail holds a forged dialog's text:\n%s", src)
	}
}

// A shownDialog is a JavaScript dialog as Chrome reported it, with the
// answer the test gave.
type shownDialog struct {
	kind, message string
	accept        bool
	text          string
}

// dialogWatch answers the tab's dialogs as a person would and keeps what
// Chrome reported of each.
type dialogWatch struct {
	answers chan shownDialog
	mu      sync.Mutex
	shown   []shownDialog
}

// watchDialogs answers each dialog the tab opens with the next answer
// given, and keeps it.
func watchDialogs(t *testing.T, tab context.Context) *dialogWatch {
	w := &dialogWatch{answers: make(chan shownDialog, 8)}
	events := chromedp.Events(tab, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			a := <-w.answers
			a.kind, a.message = string(ev.Type), ev.Message
			w.mu.Lock()
			w.shown = append(w.shown, a)
			w.mu.Unlock()
			chromedp.Call(tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: a.accept, PromptText: a.text})
		}
	}()
	return w
}

// answer is how the next dialog is answered: OK (with text, for a
// prompt) or Cancel.
func (w *dialogWatch) answer(accept bool, text string) {
	w.answers <- shownDialog{accept: accept, text: text}
}

// wait waits until the element sel shows text, the page's answer to a
// dialog.
func (w *dialogWatch) wait(t *testing.T, tab context.Context, sel, text string) {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	var now string
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(tab, 5*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).textContent`, sel)))
		cancel()
		if err == nil && got == text {
			return
		}
		now = got
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s shows %q, want %q; Chrome showed the dialogs %+v", sel, now, text, w.seen())
}

func (w *dialogWatch) seen() []shownDialog {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.shown)
}

func messages(ds []shownDialog) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.message)
	}
	return out
}
