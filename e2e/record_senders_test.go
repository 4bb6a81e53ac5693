package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestRecordContentScriptRefused sends, from the recorder's own world in a
// recorded tab (a content script, which Chrome says to treat as the page
// it runs in), what only the extension's pages may send: a host request, a
// recording operation, and news the popup would show. The background
// refuses the first two and the popup ignores the third; the recording
// goes on and the interactions it records are still taken.
func TestRecordContentScriptRefused(t *testing.T) {
	t.Parallel()
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.b = StartBrowser(t, Options{HostPath: teeHost(t, r.wire)})
	pages := ServeDir(t, filepath.Join(RepoRoot(), "e2e", "testdata", "record", "pages"))
	app := r.b.OpenTab(t, pages.URL+"/next.html")
	worlds := watchExtensionWorlds(t, app)
	popup := r.startRecording(t, pages.URL, "pages")
	appAt(t, app, "/next.html")
	world := worlds.top(t, app)

	var reply struct {
		OK      bool   `json:"ok"`
		Refused bool   `json:"refused"`
		Error   string `json:"error"`
	}
	for _, m := range []string{
		`{to: 'background', kind: 'request', type: 'hello', body: {protocol: 1, version: 'page'}}`,
		`{to: 'background', kind: 'record', op: 'discard'}`,
		`{to: 'background', kind: 'reconnect'}`,
	} {
		evalIn(t, app, world, "chrome.runtime.sendMessage("+m+")", &reply)
		if reply.OK || !reply.Refused || !strings.Contains(reply.Error, "only from the extension's own pages") {
			t.Errorf("the background answered %s from a content script with %+v, want a refusal", m, reply)
		}
	}
	popupPhase(t, popup, "recording")

	// The popup shows what the background says, not what a page says.
	var none any
	evalIn(t, app, world, `chrome.runtime.sendMessage({kind: 'recording-changed', recording: {phase: 'saved', agent: {state: 'idle'}}}).catch(() => null)`, &none)
	if phase := Eval[string](t, popup, `document.querySelector('#rec-state').dataset.phase`); phase != "recording" {
		t.Errorf("after a content script's recording-changed the popup shows phase %q, want recording", phase)
	}

	clickCSS(t, app, "h1")
	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	if got := sentInteractions(t, r.wire, pages.URL); !slices.Equal(got, []string{"click body>h1"}) {
		t.Errorf("the extension sent the interactions %q, want the one click", got)
	}
}

// startRecording opens the popup for the tab showing urlPrefix, presses
// Record and names the project and the app.
func (r *recordingRig) startRecording(t *testing.T, urlPrefix, app string) context.Context {
	t.Helper()
	popup := r.openPopupFor(t, urlPrefix)
	clickCSS(t, popup, "#record")
	popupPhase(t, popup, "recording")
	WaitFor[bool](t, popup, `!document.querySelector('#project-form').hidden`)
	fill(t, popup, "#project-dir", r.project)
	clickCSS(t, popup, "#project-form button[type=submit]")
	WaitFor[bool](t, popup, `!document.querySelector('#app-form').hidden`)
	fill(t, popup, "#app-name", app)
	clickCSS(t, popup, "#app-form button[type=submit]")
	WaitFor[bool](t, popup, fmt.Sprintf(`document.querySelector('#rec-app').textContent.startsWith(%q)`, app+" "))
	return popup
}

// extensionWorlds keeps the tab's execution contexts of the extension's
// content scripts (Chrome names them after the extension).
type extensionWorlds struct {
	mu  sync.Mutex
	ids []runtime.ExecutionContextID
}

// watchExtensionWorlds starts keeping them; call it before the recording
// injects the recorder.
func watchExtensionWorlds(t *testing.T, tab context.Context) *extensionWorlds {
	t.Helper()
	w := &extensionWorlds{}
	err := chromedp.Listen(tab, func(ev any) {
		if c, ok := ev.(*runtime.EventExecutionContextCreated); ok && c.Context != nil && c.Context.Name == "Trailpin" {
			w.mu.Lock()
			w.ids = append(w.ids, c.Context.ID)
			w.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// top returns the newest of them that is the top frame's and has the
// recorder.
func (w *extensionWorlds) top(t *testing.T, tab context.Context) runtime.ExecutionContextID {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		ids := slices.Clone(w.ids)
		w.mu.Unlock()
		for _, id := range slices.Backward(ids) {
			var ok bool
			if tryEvalIn(tab, id, `window === window.top && !!globalThis.__trailpinRecorder`, &ok) == nil && ok {
				return id
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no world of the extension's content scripts with the recorder in the tab's top frame")
	return 0
}

// evalIn evaluates js in the execution context id, awaiting a promise, and
// decodes its value into out.
func evalIn(t *testing.T, tab context.Context, id runtime.ExecutionContextID, js string, out any) {
	t.Helper()
	if err := tryEvalIn(tab, id, js, out); err != nil {
		t.Fatalf("evaluating %s in the extension's world: %v", js, err)
	}
}

func tryEvalIn(tab context.Context, id runtime.ExecutionContextID, js string, out any) error {
	ctx, cancel := context.WithTimeout(tab, WaitTimeout)
	defer cancel()
	yes := true
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: js, ContextID: id, AwaitPromise: &yes, ReturnByValue: &yes})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("%s", res.ExceptionDetails.Text)
	}
	if res.Result == nil || len(res.Result.Value) == 0 {
		return json.Unmarshal([]byte("null"), out)
	}
	return json.Unmarshal(res.Result.Value, out)
}
