package replay

import (
	"bytes"
	"fmt"
	"html"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Tests of the engine on small fixture pages: what the demo shop's flows do
// not exercise (emulation, shortcuts, double and right clicks, prompts,
// listboxes), and failures with a known cause.

// fixturePage exercises inputs; #log collects what the page saw.
const fixturePage = `<!doctype html><html lang="en"><title>Fixture</title>
<style>body { font: 16px sans-serif } [role=option][aria-selected=true] { font-weight: bold }</style>
<p id="env"></p>
<p id="lang">Accept-Language: %s</p>
<p><label>Name <input value="Old"></label></p>
<p><label>Keys <input id="keys-in"></label></p>
<p id="keys"></p>
<p><button ondblclick="say('double')">Twice</button> <button oncontextmenu="say('right'); return false">Menu</button></p>
<p><button onclick="say('name ' + (prompt('Your name?') || 'none'))">Ask</button>
   <button onclick="alert('Hello'); say('after alert')">Alert</button></p>
<p><select multiple aria-label="Sizes"><option>S</option><option>M</option><option>L</option></select></p>
<div role="listbox" aria-label="Colours" aria-multiselectable="false">
  <div role="option" aria-selected="false" tabindex="-1">Red</div>
  <div role="option" aria-selected="false" tabindex="-1">Green</div>
</div>
<p><label><input type="checkbox" checked> Subscribed</label></p>
<p><button onclick="noisy()">Noisy</button> <a href="/echo" target="_blank">Open echo</a></p>
<p id="log"></p>
<script>
const env = document.getElementById('env');
env.textContent = innerWidth + 'x' + innerHeight + ' ' + navigator.language + ' ' + Intl.NumberFormat().resolvedOptions().locale +
  ' ' + Intl.DateTimeFormat().resolvedOptions().timeZone;
const said = [];
function say(s) { said.push(s); document.getElementById('log').textContent = said.join(', '); }
const keys = [];
document.getElementById('keys-in').addEventListener('keydown', (e) => {
  if (['Control', 'Shift', 'Alt', 'Meta'].includes(e.key)) return;
  keys.push((e.ctrlKey ? 'Control+' : '') + e.key);
  if (e.ctrlKey) e.preventDefault();
  document.getElementById('keys').textContent = keys.join(' ');
});
function noisy() {
  console.error('boom from the page');
  fetch('/missing').then(() => say('fetched'));
  setTimeout(() => { throw new Error('uncaught on purpose'); }, 0);
}
for (const o of document.querySelectorAll('[role=option]')) {
  o.addEventListener('click', () => {
    for (const x of document.querySelectorAll('[role=option]')) x.setAttribute('aria-selected', String(x === o));
  });
}
</script>`

// echoPage shows what is typed into its password field, as a careless app
// might.
const echoPage = `<!doctype html><html lang="en"><title>Echo</title>
<p><label>User <input value="ada"></label></p>
<p><label>Password <input type="password" oninput="document.getElementById('echo').textContent = this.value"></label></p>
<p id="echo"></p>`

func fixtureServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /fixture", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, fixturePage, html.EscapeString(r.Header.Get("Accept-Language")))
	})
	mux.HandleFunc("GET /echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, echoPage)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func inlineTrail(t *testing.T, src string) *trail.Trail {
	t.Helper()
	tr, err := trail.LoadTrail("inline.trail.yaml", []byte(src))
	if err != nil {
		t.Fatalf("inline trail: %v", err)
	}
	return tr
}

// servePage serves one HTML page at every path, for a test's own fixture.
func servePage(t *testing.T, page string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const inputsTrail = `version: 1
trail: Inputs
app: fixture
viewport: {width: 1024, height: 700}
locale: de-DE
timeZone: Asia/Tokyo
start: /fixture
params:
  who: Ada
steps:
  - intent: The trail's viewport, locale and time zone apply
    actions:
      - assertVisible: {selector: {id: env, text: 1024x700 de-DE de-DE Asia/Tokyo}}
      - assertVisible: {selector: {id: lang, text: 'Accept-Language: de-DE'}}
  - intent: Typing replaces what a field holds
    actions:
      - type: {selector: {role: textbox, name: Name}, text: New}
      - assertValue: {selector: {role: textbox, name: Name}, value: New}
  - intent: Shortcuts and capitals reach the page as key presses
    actions:
      - tap: {selector: {role: textbox, name: Keys}}
      - press: {key: s, modifiers: [Control]}
      - press: {key: A}
      - press: {key: Enter}
      - assertVisible: {selector: {id: keys, text: Control+s A Enter}}
  - intent: Double and right clicks, a prompt and an unexpected alert
    actions:
      - tap: {selector: {role: button, name: Twice}, count: 2}
      - tap: {selector: {role: button, name: Menu}, button: right}
      - tap: {selector: {role: button, name: Ask}}
      - dialog: {response: accept, promptText: '${param:who}'}
      - tap: {selector: {role: button, name: Alert}}
      - assertVisible: {selector: {id: log, text: 'double, right, name Ada, after alert'}}
  - intent: Choose in a drop-down list, a listbox and a checkbox
    actions:
      - select: {selector: {role: listbox, name: Sizes}, options: [S, L]}
      - assertValue: {selector: {role: listbox, name: Sizes}, value: 'S, L'}
      - select: {selector: {role: listbox, name: Colours}, option: Green}
      - assertState: {selector: {role: option, name: Green}, selected: true}
      - uncheck: {selector: {role: checkbox, name: Subscribed}}
      - assertState: {selector: {role: checkbox, name: Subscribed}, checked: false}
  - intent: The app logs, fails a request and throws
    actions:
      - tap: {selector: {role: button, name: Noisy}}
      - assertVisible: {selector: {id: log, text: 'double, right, name Ada, after alert, fetched'}}
  - intent: Another tab, found by its title, and back
    actions:
      - tap: {selector: {role: link, name: Open echo}}
      - switchTab: {title: Echo}
      - assertVisible: {selector: {role: textbox, name: User}}
      - switchTab: {title: Fixture}
      - assertUrl: {pattern: '^/fix'}
  - intent: A reload starts the page afresh
    actions:
      - navigate: reload
      - assertValue: {selector: {role: textbox, name: Name}, value: Old}
      - assertNotVisible: {text: 'double, right, name Ada, after alert, fetched'}
`

func TestReplayInputs(t *testing.T) {
	t.Parallel()
	srv := fixtureServer(t)
	res := replayOn(t, inlineTrail(t, inputsTrail), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
	if !hasLog(res, LogConsole, "warning", `alert dialog "Hello" dismissed`) {
		t.Errorf("the unexpected alert is not in the log: %+v", res.Log)
	}
	want := map[string]string{
		"tap":    "double-tapped button \"Twice\"",
		"press":  "pressed s with Control",
		"dialog": "accepted the prompt dialog \"Your name?\"",
		"select": "chose \"S\", \"L\" in listbox \"Sizes\"",
	}
	for _, s := range res.Steps {
		for _, a := range s.Actions {
			if w, ok := want[string(a.Kind)]; ok && a.Summary == w {
				delete(want, string(a.Kind))
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no action summarised as %q", want)
	}
	noisy := 6 // the step that taps Noisy
	for _, w := range []struct {
		kind        LogKind
		level, text string
	}{
		{LogConsole, "error", "boom from the page"},
		{LogRequest, "404", "GET /missing answered 404"},
		{LogException, "error", "uncaught on purpose"},
	} {
		found := false
		for _, l := range res.Log {
			found = found || (l.Kind == w.kind && l.Level == w.level && strings.Contains(l.Text, w.text) && l.Step == noisy)
		}
		if !found {
			t.Errorf("no %s %s log entry %q in step %d: %+v", w.kind, w.level, w.text, noisy, res.Log)
		}
	}
	if ch := strings.Join(res.Steps[3].Changes, "\n"); !strings.Contains(ch, "double") {
		t.Errorf("step 4's changes do not show the log it wrote:\n%s", ch)
	}
}

// TestReplayEchoedSecret types a password that the page echoes: the echo
// must be secret on every screen, so no snapshot, line or log holds it, and
// the screenshot at failure paints over the field and the echo.
func TestReplayEchoedSecret(t *testing.T) {
	t.Parallel()
	srv := fixtureServer(t)
	tr := inlineTrail(t, `version: 1
trail: Echo
app: fixture
start: /echo
steps:
  - intent: Type the password, then look for what is not there
    actions:
      - type: {selector: {role: textbox, name: Password}, text: '${secret:demo-password}'}
      - assertVisible: {selector: {text: Welcome}}
`)
	res := replayOn(t, tr, srv.URL, Options{ActionTimeout: time.Second})
	if res.Status != StatusFailed || res.Failure == nil {
		t.Fatalf("%s", explain(res))
	}
	checkNoSecret(t, res, "zq7-velvet-otter-4921")
	f := res.Failure
	if len(f.Masked) < 2 {
		t.Fatalf("masked %d boxes, want the password field and its echo: %+v", len(f.Masked), f.Masked)
	}
	img, err := png.Decode(bytes.NewReader(f.Screenshot))
	if err != nil {
		t.Fatal(err)
	}
	scale := float64(img.Bounds().Dx()) / browser.DefaultViewportWidth
	for _, b := range f.Masked {
		for y := int(b.Y*scale) + 1; y < int((b.Y+b.Height)*scale)-1; y++ {
			for x := int(b.X*scale) + 1; x < int((b.X+b.Width)*scale)-1; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if uint8(r>>8) != MaskColor.R || uint8(g>>8) != MaskColor.G || uint8(bl>>8) != MaskColor.B {
					t.Fatalf("pixel (%d, %d) in masked box %+v is not the mask colour", x, y, b)
				}
			}
		}
	}
	// Outside the masks the page shows through: the screenshot is of the page.
	if r, g, b, _ := img.At(2, 2).RGBA(); uint8(r>>8) == MaskColor.R && uint8(g>>8) == MaskColor.G && uint8(b>>8) == MaskColor.B {
		t.Errorf("the corner of the screenshot is mask-coloured too")
	}
}

// TestReplayStops checks failures whose cause is the trail or the run, not
// the app.
func TestReplayStops(t *testing.T) {
	t.Parallel()
	srv := fixtureServer(t)
	tests := []struct {
		name, trail string
		opts        Options
		class       FailureClass
		stop        StopReason
		msg         string
	}{
		{"a bare goal needs the agent", `
  - intent: Log in as the admin
    act: Log in as the admin`, Options{}, ClassMissingTestData, StopNeedsAgent, "no model is configured: configure a model"},
		{"a tap that changes nothing", `
  - intent: Something changes
    actions:
      - tap: {selector: {role: button, name: Twice}}
      - assertChange: {changed: true}`, Options{}, ClassAppBug, StopAssertionFailed, "assertChange on the stored diff d1: changed: true: nothing changed"},
		{"an upload file that is not there", `
  - intent: Attach a file
    actions:
      - upload: {selector: {role: textbox, name: Name}, files: [no-such-file.txt]}`, Options{Dir: t.TempDir()}, ClassMissingTestData, StopMissingData, "no-such-file.txt does not exist"},
		{"an upload file that is a link out of the trail's folder", `
  - intent: Attach a file
    actions:
      - upload: {selector: {role: textbox, name: Name}, files: [link.txt]}`, Options{Dir: linkOut(t, "link.txt")}, ClassMissingTestData, StopMissingData,
			"upload (inline.trail.yaml:8): the file link.txt cannot be read from the trail's folder"},
		{"the trail's deadline", `
  - intent: Wait for what never comes
    actions:
      - assertVisible: {selector: {text: Never}}`, Options{TrailTimeout: 4 * time.Second}, ClassEnvIssue, StopTimeout, "ran out of time"},
		{"an end state that never shows", `
  - intent: Tap and expect a heading
    actions:
      - tap: {selector: {role: button, name: Twice}}
    end: {shows: [{role: heading, name: Welcome}]}`, Options{ActionTimeout: time.Second}, ClassSelectorDrift, StopEndMismatch, "end state did not show"},
		{"an end state whose node shows other text", `
  - intent: Tap twice and expect the log to say so
    actions:
      - tap: {selector: {role: button, name: Twice}, count: 2}
    end: {shows: [{id: log, text: triple}]}`, Options{ActionTimeout: time.Second}, ClassAppBug, StopEndMismatch,
			`the step's end state did not show {text: triple, id: log}: expected "triple", but {id: log} shows "double"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := inlineTrail(t, "version: 1\ntrail: Stops\napp: fixture\nstart: /fixture\nsteps:"+tc.trail+"\n")
			res := replayOn(t, tr, srv.URL, tc.opts)
			st := res.Steps[0]
			if res.Status != StatusFailed || res.Class != tc.class || st.Stopped != tc.stop || !strings.Contains(res.Error, tc.msg) {
				t.Fatalf("got %s, class %s, stopped %q, error %q; want class %s, stopped %q, an error saying %q",
					res.Status, res.Class, st.Stopped, res.Error, tc.class, tc.stop, tc.msg)
			}
			if tc.stop == StopNeedsAgent && (st.Performed != 0 || st.ModelCalls != 0 || st.Cache != CacheAgent) {
				t.Errorf("a goal for the agent: performed %d, model calls %d, cache %q", st.Performed, st.ModelCalls, st.Cache)
			}
		})
	}
}

// TestReplayInCrossOriginFrame taps a button inside a frame of another
// site, which Chromium renders in its own process: the target is found on
// the merged screen and aimed at through the frame.
func TestReplayInCrossOriginFrame(t *testing.T) {
	t.Parallel()
	tr := inlineTrail(t, `version: 1
trail: Frames
app: fixture
start: /embed?src=`+otherSiteURL("/inner.html")+`
steps:
  - intent: Tap the button in the frame
    actions:
      - assertVisible: {selector: {text: Inner text}}
      - tap: {selector: {role: button, name: Inner button}}
`)
	res := replayOn(t, tr, site.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
	if landed := res.Steps[0].Actions[1].Landed; !strings.Contains(landed, `button "Inner button" [ref=f`) {
		t.Errorf("the tap landed on %q, want the frame's button (a ref with its frame prefix)", landed)
	}
}

// TestReplayBrokenDocument: a wait on a page whose document answered 5xx,
// 401 or 403, or did not load, ends at once with the class the evidence
// gives, long before the action timeout; a login page's 401 (a wrong
// password) and an error page the trail checks are waited on as usual.
func TestReplayBrokenDocument(t *testing.T) {
	t.Parallel()
	closed := httptest.NewServer(http.NotFoundHandler())
	unreachable := closed.URL + "/gone"
	closed.Close()
	mux := http.NewServeMux()
	page := func(status int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(status)
			fmt.Fprint(w, `<!doctype html><html lang="en"><title>Page</title>`+body)
		}
	}
	mux.HandleFunc("GET /down", page(http.StatusInternalServerError, `<h1>Internal Server Error</h1>`))
	mux.HandleFunc("GET /refused", page(http.StatusForbidden, `<h1>Forbidden</h1>`))
	mux.HandleFunc("GET /start", page(http.StatusOK, `<a href="`+unreachable+`">Elsewhere</a>`))
	mux.HandleFunc("GET /login", page(http.StatusUnauthorized, `<label>Password <input type="password"></label><p id="m"></p>
<script>setTimeout(() => { document.getElementById('m').textContent = 'Wrong password.'; }, 300)</script>`))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	// A wait that ran out would take this long; the ones that end at once
	// take a fraction of it.
	const timeout = 20 * time.Second
	tests := []struct {
		name, start, steps string
		class              FailureClass // "" for a pass
		msg                string
	}{
		{"a 500 page", "/down", `
      - tap: {selector: {role: button, name: Checkout}}`, ClassEnvIssue, "/down answered 500"},
		{"a 403 page", "/refused", `
      - assertVisible: {selector: {text: Welcome back}}`, ClassAuthBlocked, "/refused answered 403"},
		{"a page that did not load", "/start", `
      - tap: {selector: {role: link, name: Elsewhere}}
      - assertVisible: {selector: {text: Welcome back}}`, ClassEnvIssue, "net::ERR_"},
		{"an error page the trail checks", "/down", `
      - assertVisible: {selector: {role: heading, name: Internal Server Error}}`, "", ""},
		{"a login page's 401 and a message that comes late", "/login", `
      - assertVisible: {selector: {text: Wrong password.}}`, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := inlineTrail(t, "version: 1\ntrail: Broken\napp: fixture\nstart: "+tc.start+"\nsteps:\n  - intent: Wait on the page\n    actions:"+tc.steps+"\n")
			res := replayOn(t, tr, srv.URL, Options{ActionTimeout: timeout})
			if tc.class == "" {
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
				return
			}
			if res.Status != StatusFailed || res.Class != tc.class || !strings.Contains(res.Error, "stopped waiting at once") ||
				!strings.Contains(res.Error, tc.msg) {
				t.Fatalf("got %s; want class %s, an error saying it stopped waiting at once and %q", explain(res), tc.class, tc.msg)
			}
			if d := res.Steps[0].Duration; d >= timeout {
				t.Errorf("the step took %s: it waited out the action timeout %s", d, timeout)
			}
		})
	}
}

// linkOut makes a trail folder holding name, a symbolic link to a file
// outside the folder, and returns the folder.
func linkOut(t *testing.T, name string) string {
	t.Helper()
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("not for the app"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, name)); err != nil {
		t.Skipf("symbolic links cannot be made here: %v", err)
	}
	return dir
}
