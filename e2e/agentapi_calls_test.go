package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/trail"
)

// apiClient is the outside agent's name in the agent API tests.
const apiClient = "e2e shop agent"

// allowClient waits for the popup to list client as asking to drive the
// shared tabs, allows it, and waits for it among the allowed.
func allowClient(t *testing.T, popup context.Context, client string) {
	t.Helper()
	WaitFor[bool](t, popup, popupLists("asking", client))
	clickCSS(t, popup, "#agents-asking button")
	WaitFor[bool](t, popup, popupLists("allowed", client))
}

// shareTab ticks the popup's "Share this tab with agents" and waits for the
// background's answer: the box is enabled once the popup knows its tab, and
// shows the background's state, checked and enabled again, once the tab is
// shared.
func shareTab(t *testing.T, popup context.Context) {
	t.Helper()
	WaitFor[bool](t, popup, `!document.querySelector('#agents-share').disabled`)
	clickCSS(t, popup, "#agents-share")
	WaitFor[bool](t, popup, `(() => { const b = document.querySelector('#agents-share'); return b.checked && !b.disabled; })()`)
}

// dialAgentAPI finds the host Chrome runs by its discovery file under
// runtimeDir and connects to it as apiClient.
func dialAgentAPI(t *testing.T, runtimeDir string) *agentapi.Client {
	t.Helper()
	waitDiscovery(t, runtimeDir)
	path := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	c, err := agentapi.Dial(ctx, path, apiClient)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// apiCall makes one call, and fails the test on an error.
func apiCall[T any](t *testing.T, c *agentapi.Client, typ string, body any) T {
	t.Helper()
	var out T
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	if err := c.Call(ctx, typ, body, &out); err != nil {
		t.Fatalf("%s: %v", typ, err)
	}
	return out
}

// apiRefused makes one call that must be refused with code, its message
// starting with prefix.
func apiRefused(t *testing.T, c *agentapi.Client, typ string, body any, code nativemsg.Code, prefix string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	var e *nativemsg.Error
	if err := c.Call(ctx, typ, body, nil); !errors.As(err, &e) || e.Code != code || !strings.HasPrefix(e.Message, prefix) {
		t.Fatalf("%s: %v, want error %d starting %q", typ, err, code, prefix)
	}
}

// savedTrail is a recording saved through the API: its file, what the file
// holds and the trail it loads as.
type savedTrail struct {
	File  string
	Src   []byte
	Trail *trail.Trail
}

// apiSave saves the session through recording.save and loads the trail
// file it wrote, failing the test when either does not work.
func apiSave(t *testing.T, c *agentapi.Client, session, title string) savedTrail {
	t.Helper()
	saved := apiCall[struct{ File string }](t, c, agentapi.TypeRecordingSave, map[string]any{"session": session, "title": title})
	src, err := os.ReadFile(saved.File)
	if err != nil {
		t.Fatalf("recording.save gave %+v: %v", saved, err)
	}
	tr, err := trail.LoadTrail(saved.File, src)
	if err != nil {
		t.Fatalf("the saved trail does not load: %v\n%s", err, src)
	}
	return savedTrail{File: saved.File, Src: src, Trail: tr}
}

type apiSnapshot struct {
	URL, Title, Document, Text string
	Omitted, Bytes             int
}

// apiRefOf is the ref of the snapshot's line that holds want.
func apiRefOf(t *testing.T, s apiSnapshot, want string) string {
	t.Helper()
	for _, line := range strings.Split(s.Text, "\n") {
		if strings.Contains(line, want) {
			if _, ref, ok := strings.Cut(line, "[ref="); ok {
				ref, _, _ = strings.Cut(ref, "]")
				return ref
			}
		}
	}
	t.Fatalf("no line with a ref holds %q in the snapshot:\n%s", want, s.Text)
	return ""
}

// TestAgentAPIDrivesASharedTab: an outside client finds the host Chrome
// runs, the person allows it in the popup and shares the shop's tab; the
// client starts a recording, the person signs in by hand, the client opens
// a product and adds it to the cart by ref and asserts it is in the cart,
// the person opens the cart by hand, and the client saves. The trail holds
// the client's steps marked by: agent with its name, between the person's,
// and replays green with no model. Before that, the client was refused
// while not allowed, in a tab not shared, and with a stale ref, with
// nothing performed.
func TestAgentAPIDrivesASharedTab(t *testing.T) {
	t.Parallel()
	runtimeDir := TempDir(t)
	r := newRecordingRig(t, "XDG_RUNTIME_DIR="+runtimeDir)
	app := r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	other := r.b.OpenTab(t, r.shop.URL+"/login?other=1")
	popup := r.openPopupFor(t, r.shop.URL+"/login")

	c := dialAgentAPI(t, runtimeDir)
	// Not allowed yet: refused, and the popup asks the person.
	apiRefused(t, c, agentapi.TypeTabsList, nil, nativemsg.CodeRefused, "the person has not allowed "+apiClient)
	allowClient(t, popup, apiClient)

	// Nothing is shared yet.
	if list := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil); len(list.Tabs) != 0 {
		t.Fatalf("tabs.list lists %+v before the person shared any", list.Tabs)
	}
	shareTab(t, popup)
	list := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil)
	if len(list.Tabs) != 1 || !strings.HasPrefix(list.Tabs[0].URL, r.shop.URL+"/login") || strings.Contains(list.Tabs[0].URL, "other") {
		t.Fatalf("tabs.list: %+v, want the shared tab only", list.Tabs)
	}
	tab := list.Tabs[0].Tab
	// The other tab is not shared: refused, and it stays as it was.
	otherID, err := chromedp.Run(popup, chromedp.Evaluate[int](
		`chrome.tabs.query({}).then((ts) => ts.find((t) => (t.url || '').includes('other=1'))?.id ?? -1)`, chromedp.EvalAwaitPromise))
	if err != nil || otherID < 0 || otherID == tab {
		t.Fatalf("the other tab: %d, %v", otherID, err)
	}
	apiRefused(t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": otherID}, nativemsg.CodeRefused, "tab ")
	if n := Eval[int](t, other, `document.querySelectorAll('input').length`); n == 0 {
		t.Error("the unshared tab lost its page")
	}

	// A shared tab not recorded yet: the page model alone captures it.
	if pre := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab}); !strings.Contains(pre.Text, `button "Sign in" [ref=`) {
		t.Fatalf("snapshot of the login page before recording:\n%s", pre.Text)
	}

	started := apiCall[struct{ Session string }](t, c, agentapi.TypeRecordingStart, map[string]any{"tab": tab, "project": r.project, "app": "shop"})
	if started.Session == "" {
		t.Fatal("recording.start gave no session")
	}
	popupPhase(t, popup, "recording")

	signInByHand(t, app)

	// The client opens the iPhone 17 and adds it to the cart, by ref.
	snap := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
	if !strings.HasSuffix(snap.URL, "/products") || snap.Document == "" {
		t.Fatalf("snapshot of %s (document %q)", snap.URL, snap.Document)
	}
	link := apiRefOf(t, snap, `link "iPhone 17"`)
	did := apiCall[struct{ Did, URL string }](t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": link})
	if !strings.HasSuffix(did.URL, "/products/iphone-17") {
		t.Fatalf("tap %s: %+v", link, did)
	}
	appAt(t, app, "/products/iphone-17")
	// The ref was of the page before: stale, nothing done.
	apiRefused(t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": link}, nativemsg.CodeBadRequest, "stale ref")
	if path := Eval[string](t, app, `location.pathname`); path != "/products/iphone-17" {
		t.Errorf("a stale ref's tap moved the tab to %s", path)
	}
	snap = apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab})
	add := apiRefOf(t, snap, `button "Add to cart"`)
	did = apiCall[struct{ Did, URL string }](t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": add})
	if did.Did != `tapped button "Add to cart"` {
		t.Errorf("tap: %+v", did)
	}
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)
	appAt(t, app, "/products/iphone-17")
	snap = apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
	inCart := apiRefOf(t, snap, "In your cart: 1")
	apiCall[struct{ Did string }](t, c, agentapi.TypeTabAssertVisible, map[string]any{"tab": tab, "ref": inCart})

	// The person opens the cart by hand.
	clickCSS(t, app, `a[href="/cart"]`)
	appAt(t, app, "/cart")

	saved := apiSave(t, c, started.Session, "Add an iPhone through the agent API")
	src, tr := saved.Src, saved.Trail
	var who []string
	for _, s := range tr.Steps {
		who = append(who, s.By+"/"+s.Client)
		if s.By == trail.ByAgent && s.Client != apiClient {
			t.Errorf("step %q is the agent's without the client's name:\n%s", s.Intent, src)
		}
	}
	joined := strings.Join(who, " ")
	// The person's sign-in, the client's steps, the person's cart.
	if !strings.HasPrefix(joined, "/") || !strings.Contains(joined, "agent/"+apiClient) || !strings.HasSuffix(joined, "/") {
		t.Errorf("who performed the steps: %q, want the person's, then the client's, then the person's:\n%s", joined, src)
	}
	for _, want := range []string{`name: iPhone 17`, `testId: add-to-cart`, `In your cart: 1`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the trail does not pin %q:\n%s", want, src)
		}
	}
	if strings.Contains(string(src), demo.Password) {
		t.Errorf("the trail holds the password:\n%s", src)
	}
	r.checkNoPassword(t, saved.File)
	run := RunHost(t, append(replayEnv(t, false), "TRAILPIN_SECRET_PASSWORD="+demo.Password), nil,
		"replay", "--base-url", r.shop.URL, "--results", TempDir(t), saved.File)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}
