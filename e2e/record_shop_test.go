package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The recording test: a person opens the popup as a page for the shop's
// tab, presses Record, signs in with the demo password, searches, puts two
// items in the cart, applies a discount code, asserts the total and the URL
// with the recording bar, stops and saves. The saved trail must equal the
// trail written by hand in testdata, export must be deterministic, import
// must give the trail back, and the password must appear nowhere.

// expectedShopTrail is the trail the recording must give, written by hand.
const expectedShopTrail = "testdata/record/buy-two-iphone-items.trail.yaml"

// shopTrailTitle is the title typed into the popup before saving.
const shopTrailTitle = "Buy two iPhone items with a discount"

// A recordingRig is a browser with the extension and a host whose native
// messages are captured, the demo shop, and a project folder.
type recordingRig struct {
	b       *Browser
	shop    *httptest.Server
	project string // the repo folder: trailpin.yaml and trails/
	wire    string // folder of the captured native messages
	popup   context.Context
	app     context.Context // the recorded tab, once recordShopFlow opened it
}

func newRecordingRig(t *testing.T, env ...string) *recordingRig {
	t.Helper()
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	// A project that knows no app yet: the popup asks for one.
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.shop = httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(r.shop.Close)
	r.b = StartBrowser(t, Options{
		HostPath: teeHost(t, r.wire),
		Env:      append([]string{"TZ=UTC", "LANG=en_US.UTF-8", "LANGUAGE=en_US"}, env...),
	})
	return r
}

// teeHost writes a host wrapper that copies every native message (both
// directions, as framed on stdin and stdout) and the host's stderr into
// dir, for the leak scan.
func teeHost(t *testing.T, dir string) string {
	t.Helper()
	// The wrapper is only ever a browser's host: under -short the test is
	// skipped here, before the host is built for nothing.
	browsertest.Need(t)
	script := filepath.Join(dir, "host-tee.sh")
	// The host replaces the shell (exec), so that Chrome sees it end when
	// it is killed: a shell waiting for a pipeline would keep Chrome's end
	// of stdout open.
	body := fmt.Sprintf("#!/bin/bash\nexec %q \"$@\" 2>>%q < <(exec tee -a %q) > >(exec tee -a %q)\n",
		HostPath(t), filepath.Join(dir, "host-stderr.log"), filepath.Join(dir, "to-host.bin"), filepath.Join(dir, "from-host.bin"))
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script
}

// openPopupFor opens popup.html?tab=<id> for the tab showing url.
func (r *recordingRig) openPopupFor(t *testing.T, urlPrefix string) context.Context {
	t.Helper()
	popup := r.b.OpenPopup(t)
	// About the size of the toolbar popup.
	if err := chromedp.Do(popup, chromedp.EmulateViewport(460, 900)); err != nil {
		t.Fatal(err)
	}
	WaitFor[bool](t, popup, `document.querySelector('#state')?.dataset.state === 'connected'`)
	ctx, cancel := context.WithTimeout(popup, WaitTimeout)
	defer cancel()
	id, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(
		`chrome.tabs.query({}).then((ts) => ts.find((t) => (t.url || '').startsWith(%q))?.id ?? -1)`, urlPrefix),
		chromedp.EvalAwaitPromise))
	if err != nil || id < 0 {
		t.Fatalf("finding the tab of %s: id %d, %v", urlPrefix, id, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(r.b.ExtensionURL(fmt.Sprintf("popup.html?tab=%d", id)))); err != nil {
		t.Fatal(err)
	}
	WaitFor[bool](t, popup, `document.querySelector('#state')?.dataset.state === 'connected' && !!document.querySelector('#rec-state')?.textContent`)
	r.popup = popup
	return popup
}

// badgeText is the text on the toolbar button.
func badgeText(t *testing.T, popup context.Context) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(popup, WaitTimeout)
	defer cancel()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`chrome.action.getBadgeText({})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("reading the badge: %v", err)
	}
	return text
}

// popupPhase waits until the popup shows the recording in phase.
func popupPhase(t *testing.T, popup context.Context, phase string) {
	t.Helper()
	WaitFor[bool](t, popup, fmt.Sprintf(`(() => {
		const err = document.querySelector('#rec-error');
		if (err && !err.hidden) throw new Error('the popup says: ' + err.textContent);
		return document.querySelector('#rec-state')?.dataset.phase === %q;
	})()`, phase))
}

// reviewWait bounds the wait for Save's first answer, the selector review
// or the trail saved. The popup gives the host's review of the selectors two
// minutes (hostRequest in extension/popup.js) before it saves the recorder's
// choices and says why; the test waits as long, and for the save after it.
// WaitTimeout was too short for a long recording on a crowded machine:
// TestRealAppSwagger's 46 steps at a load average of 110.
const reviewWait = 2*time.Minute + 30*time.Second

// pressSave presses Save in the popup and, when it opens the selector
// review (docs/review.md), keeps the recorder's choice on every step and
// saves with those choices: the trail is the recording as the recorder
// wrote it, which the recording tests check.
func pressSave(t *testing.T, popup context.Context) {
	t.Helper()
	pressSaveShowing(t, popup, "")
}

// pressSaveShowing is pressSave that keeps a picture of the selector review
// as the README's picture shot, when shot is not "".
func pressSaveShowing(t *testing.T, popup context.Context, shot string) {
	t.Helper()
	// What the status line under the steps says while the host reviews:
	// the handler writes it before it waits for the host, so an observer
	// set now sees it however fast the review answers.
	Eval[bool](t, popup, `(() => {
		const line = document.querySelector('#review-progress');
		window.reviewProgressSeen = [];
		new MutationObserver(() => {
			if (!line.hidden && line.textContent) window.reviewProgressSeen.push(line.textContent);
		}).observe(line, { attributes: true, childList: true, characterData: true, subtree: true });
		return true;
	})()`)
	steps := Eval[int](t, popup, `document.querySelectorAll('#steps > li').length`)
	clickCSS(t, popup, "#save")
	next := WaitForWithin[string](t, popup, `(() => {
		const err = document.querySelector('#rec-error');
		if (err && !err.hidden) throw new Error('the popup says: ' + err.textContent);
		if (document.querySelector('#rec-state')?.dataset.phase === 'saved') return 'saved';
		return document.querySelector('#selector-review')?.hidden === false ? 'review' : '';
	})()`, reviewWait)
	seen := Eval[[]string](t, popup, `window.reviewProgressSeen`)
	want := fmt.Sprintf("Reviewing the selectors of %d steps…", steps)
	switch steps {
	case 0:
		want = "Reviewing the selectors of the steps…"
	case 1:
		want = "Reviewing the selectors of the step…"
	}
	if len(seen) == 0 || !strings.HasPrefix(seen[0], want) {
		t.Errorf("while the host reviewed, the popup's status line said %q, want it to begin %q", seen, want)
	}
	if Eval[bool](t, popup, `!document.querySelector('#review-progress').hidden`) {
		t.Error("the popup still says it is reviewing after the review answered")
	}
	if next == "review" {
		// Every option and button of the review has a role and a name:
		// two radios at least, Accept all, Save with these choices, Back.
		n := Eval[int](t, popup, `document.querySelectorAll('#selector-review fieldset').length`)
		t.Logf("the popup's selector review shows %d steps", n)
		assertControlsNamed(t, popup, 5)
		if shot != "" {
			keepScreenshot(t, shot, screenshotPopup(t, popup))
		}
		Eval[bool](t, popup, `(document.querySelectorAll('#selector-review input[data-recorded]').forEach((r) => r.click()), true)`)
		clickCSS(t, popup, "#save-choices")
	}
	popupPhase(t, popup, "saved")
}

// fill puts text into a popup field the way a person does: click, select
// what is there, type.
func fill(t *testing.T, popup context.Context, sel, text string) {
	t.Helper()
	clickCSS(t, popup, sel)
	Eval[chromedp.Void](t, popup, fmt.Sprintf(`document.querySelector(%q).select()`, sel))
	typeKeys(t, popup, text)
}

// page waits until the app tab shows path (with query) and the recorder is
// in it again (the recording bar is back).
func appAt(t *testing.T, app context.Context, pathQuery string) {
	t.Helper()
	waitAcrossLoads(t, app, fmt.Sprintf(`location.pathname + location.search === %q && document.readyState === 'complete'`, pathQuery))
	waitAX(t, app, "toolbar", "Trailpin recording")
}

// recordShopFlow records the flow of the test through the popup and the
// recording bar, and returns the popup. between, when set, runs at a few
// points of the flow (it is given their number, from 1).
func (r *recordingRig) recordShopFlow(t *testing.T, between func(point int)) (popup, app context.Context) {
	t.Helper()
	if between == nil {
		between = func(int) {}
	}
	popup, app = r.recordLogin(t)
	between(1)
	clickCSS(t, app, "input[type=search]")
	typeKeys(t, app, "iphone\r")

	appAt(t, app, "/products?q=iphone")
	clickCSS(t, app, `li:has(a[href="/products/iphone-17"]) button[data-testid=add-to-cart]`)
	// The page after the post has the URL of the one before: wait for its
	// text first, then for the recorder in it.
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)
	appAt(t, app, "/products?q=iphone")
	between(2)
	clickCSS(t, app, `li:has(a[href="/products/iphone-17-case"]) button[data-testid=add-to-cart]`)
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 Silicone Case to your cart.')`)
	appAt(t, app, "/products?q=iphone")

	clickCSS(t, app, `a[href="/cart"]`)
	appAt(t, app, "/cart")
	clickCSS(t, app, `a[href="/checkout"]`)
	appAt(t, app, "/checkout")

	clickCSS(t, app, "#discount-code")
	between(3)
	typeKeys(t, app, "SUMMER")
	clickCSS(t, app, ".discount button[type=submit]")
	waitAcrossLoads(t, app, `!!document.querySelector('[data-testid=discount-status]')`)
	appAt(t, app, "/checkout")
	between(4)

	clickAX(t, app, "button", "Assert visible")
	waitAX(t, app, "StaticText", "Click the element that must be visible.")
	clickCSS(t, app, "[data-testid=order-total]")
	waitAX(t, app, "StaticText", "Added: the element must be visible.")
	clickAX(t, app, "button", "Assert URL")
	waitAX(t, app, "StaticText", "Added: the URL is /checkout")
	return popup, app
}

// recordLogin opens the shop's login page, starts recording it through the
// popup (naming the project and the app), signs in as the demo user and
// returns once the tab shows /products.
func (r *recordingRig) recordLogin(t *testing.T) (popup, app context.Context) {
	t.Helper()
	popup, app = r.recordStart(t)
	clickCSS(t, app, "#username")
	typeKeys(t, app, demo.Username)
	clickCSS(t, app, "#password")
	typeKeys(t, app, demo.Password)
	clickCSS(t, app, "form button.primary")
	appAt(t, app, "/products")
	return popup, app
}

// recordStart opens the shop's login page and starts recording it through
// the popup, naming the project and the app.
func (r *recordingRig) recordStart(t *testing.T) (popup, app context.Context) {
	t.Helper()
	app = r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	// The viewport the trail records, whatever the window's size.
	if err := chromedp.Do(app, chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatal(err)
	}
	popup = r.openPopupFor(t, r.shop.URL)

	clickCSS(t, popup, "#record")
	popupPhase(t, popup, "recording")
	if badge := badgeText(t, popup); badge != "REC" {
		t.Errorf("while recording the toolbar button's badge is %q, want REC", badge)
	}
	// The popup asks for the project, then for a name of the shop's origin.
	WaitFor[bool](t, popup, `!document.querySelector('#project-form').hidden`)
	fill(t, popup, "#project-dir", r.project)
	clickCSS(t, popup, "#project-form button[type=submit]")
	WaitFor[bool](t, popup, `!document.querySelector('#app-form').hidden`)
	fill(t, popup, "#app-name", "shop")
	clickCSS(t, popup, "#app-form button[type=submit]")
	WaitFor[bool](t, popup, `document.querySelector('#rec-app').textContent.startsWith('shop ')`)

	appAt(t, app, "/login")
	return popup, app
}

func TestRecordShopTrail(t *testing.T) {
	t.Parallel()
	r := newRecordingRig(t)
	popup, app := r.recordShopFlow(t, nil)
	keepScreenshot(t, "recording-bar.png", screenshotBar(t, app))
	path, first := r.stopSaveExport(t, popup, true)
	got := r.checkShopTrail(t, path, first)

	// Export again: the same bytes, through the popup and the command.
	clickCSS(t, popup, "#export")
	WaitFor[bool](t, popup, `document.querySelector('#exported').textContent.endsWith('(unchanged)')`)
	if again, _ := os.ReadFile(path); !bytes.Equal(again, first) {
		t.Errorf("a second export changed the file:\n%s\n--- first\n%s", again, first)
	}
	hostEnv := r.hostEnv()
	outDir := TempDir(t)
	if run := RunHost(t, hostEnv, nil, "export", "--dir", outDir, "buy-two-iphone-items-with-a-discount"); run.ExitCode != 0 {
		t.Fatalf("host export exited %d: %s", run.ExitCode, run.Stderr)
	}
	exported, _ := os.ReadFile(filepath.Join(outDir, filepath.Base(path)))
	if !bytes.Equal(exported, first) {
		t.Errorf("host export wrote other bytes than the popup's export:\n%s\n--- popup\n%s", exported, first)
	}

	// Import into a fresh database gives an equal trail.
	freshDB := filepath.Join(TempDir(t), "fresh.db")
	if run := RunHost(t, hostEnv, nil, "import", "--db", freshDB, path); run.ExitCode != 0 {
		t.Fatalf("host import exited %d: %s %s", run.ExitCode, run.Stdout, run.Stderr)
	}
	shown := RunHost(t, hostEnv, nil, "trails", "show", "--db", freshDB, "buy-two-iphone-items-with-a-discount")
	if shown.ExitCode != 0 {
		t.Fatalf("host trails show exited %d: %s", shown.ExitCode, shown.Stderr)
	}
	imported, err := trail.LoadTrail("imported", shown.Stdout)
	if err != nil {
		t.Fatalf("the imported trail does not load: %v\n%s", err, shown.Stdout)
	}
	if !imported.Equal(got) {
		t.Errorf("the imported trail differs from the export:\n%s\n--- export\n%s", shown.Stdout, first)
	}

	r.checkNoPassword(t, path, filepath.Join(outDir, filepath.Base(path)))
}

// stopSaveExport presses Stop, renames the secret, names the trail, saves
// and exports it, and returns the exported file and its bytes.
func (r *recordingRig) stopSaveExport(t *testing.T, popup context.Context, screenshots bool) (string, []byte) {
	t.Helper()
	WaitFor[bool](t, popup, `document.querySelector('#state')?.dataset.state === 'connected'`)
	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	if badge := badgeText(t, popup); badge != "" {
		t.Errorf("after Stop the toolbar button's badge is %q, want none", badge)
	}
	secrets := Eval[[]string](t, popup, `[...document.querySelectorAll('#secret-list input')].map((i) => i.value)`)
	if len(secrets) != 1 || secrets[0] != "password" {
		t.Fatalf("the popup lists the secrets %q, want [password]", secrets)
	}
	fill(t, popup, "#secret-list input", "demo-password")
	fill(t, popup, "#trail-title", shopTrailTitle)
	if screenshots {
		keepScreenshot(t, "popup-review.png", screenshotPopup(t, popup))
		assertControlsNamed(t, popup, 6) // title, 4+ intents, the secret, Save, Discard
	}
	shot := ""
	if screenshots {
		shot = "selector-review.png"
	}
	pressSaveShowing(t, popup, shot)
	clickCSS(t, popup, "#export")
	path := WaitFor[string](t, popup, `(document.querySelector('#exported').textContent.match(/^Exported to (\S+)/) || [])[1]`)
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(r.project, "trails"); filepath.Dir(path) != want {
		t.Errorf("exported to %s, want a file in the project's trails dir %s", path, want)
	}
	return path, first
}

// checkShopTrail checks the exported trail is the one written by hand.
func (r *recordingRig) checkShopTrail(t *testing.T, path string, first []byte) *trail.Trail {
	t.Helper()
	got, err := trail.LoadTrail(path, first)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, first)
	}
	wantSrc, err := os.ReadFile(expectedShopTrail)
	if err != nil {
		t.Fatal(err)
	}
	want, err := trail.LoadTrail(expectedShopTrail, wantSrc)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(want) {
		t.Errorf("the recorded trail differs from %s:\n--- recorded\n%s\n--- want\n%s", expectedShopTrail, first, wantSrc)
	}
	return got
}

// hostEnv is the environment under which the host, run as a command, sees
// the browser's database and the project.
func (r *recordingRig) hostEnv() []string {
	home := filepath.Join(r.b.Dir, "home")
	return []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
	}
}

// checkNoPassword searches everything the recording wrote or sent for the
// password: the database with its WAL, the exports, the host's log and
// the native messages both ways.
func (r *recordingRig) checkNoPassword(t *testing.T, exports ...string) {
	t.Helper()
	r.checkNoSecret(t, demo.Password, exports...)
}

// checkNoSecret searches the same places for secret.
func (r *recordingRig) checkNoSecret(t *testing.T, secret string, exports ...string) {
	t.Helper()
	sources := LeakDatabase(filepath.Join(r.b.DataDir, "trailpin.db"))
	for _, f := range exports {
		sources = append(sources, LeakFile(f))
	}
	sources = append(sources, LeakFile(filepath.Join(r.b.DataDir, "host.log")), LeakFile(filepath.Join(r.wire, "host-stderr.log")))
	for _, name := range []string{"to-host.bin", "from-host.bin"} {
		wire, err := os.ReadFile(filepath.Join(r.wire, name))
		if err != nil || len(wire) == 0 {
			t.Errorf("no native messages captured in %s (%v): the scan would miss them", name, err)
		}
		sources = append(sources, LeakBytes("native messages "+name, wire))
	}
	for _, f := range []string{"trailpin.db", "host.log"} {
		if _, err := os.Stat(filepath.Join(r.b.DataDir, f)); err != nil {
			t.Errorf("the scan would miss %s: %v", f, err)
		}
	}
	CheckNoSecretLeaks(t, secret, sources...)
}
