package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/trail"
)

// requestLog is what a web server was asked, "METHOD /path?query" each.
type requestLog struct {
	mu   sync.Mutex
	seen []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.seen = append(l.seen, r.Method+" "+r.URL.RequestURI())
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// none fails the test when a request holding any of marks reached the
// server: the refused call made the page ask for it.
func (l *requestLog) none(t *testing.T, what string, marks ...string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.seen {
		for _, m := range marks {
			if strings.Contains(r, m) {
				t.Errorf("%s was refused, yet the app was asked %q", what, r)
			}
		}
	}
}

// has reports whether a request holding mark reached the server.
func (l *requestLog) has(mark string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.seen {
		if strings.Contains(r, mark) {
			return true
		}
	}
	return false
}

// otherSite is a site on another origin than the shop: a landing page, and
// a page whose button submits a form to it.
func otherSite() http.Handler {
	m := http.NewServeMux()
	m.HandleFunc("GET /landing", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Partner</title><h1>Partner landing</h1>`)
	})
	m.HandleFunc("GET /partner", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Partner offer</title><h1>Partner offer</h1>
<form method="post" action="/claim"><button type="submit">Claim the offer</button></form>`)
	})
	m.HandleFunc("POST /claim", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Claimed</title><p>Claimed</p>`)
	})
	return m
}

// apiCallErr makes one call and returns its error.
func apiCallErr(c *agentapi.Client, typ string, body any) error {
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	return c.Call(ctx, typ, body, nil)
}

// dialAgentAPIAs connects to the host Chrome runs as client.
func dialAgentAPIAs(t *testing.T, runtimeDir, client string) *agentapi.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	c, err := agentapi.Dial(ctx, filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName), client)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// popupAgentButton clicks the button labelled label in the popup's agent
// list list (asking or allowed) on the line naming client.
func popupAgentButton(t *testing.T, popup context.Context, list, client, label string) {
	t.Helper()
	WaitFor[bool](t, popup, fmt.Sprintf(`(() => {
		const li = [...document.querySelectorAll('#agents-%s li')].find((li) => li.textContent.includes(%q));
		const b = li && [...li.querySelectorAll('button')].find((b) => b.textContent.trim() === %q);
		if (!b) return false;
		b.click();
		return true;
	})()`, list, client, label))
}

// signInByHand signs in to the demo shop in app as the person does, with
// trusted keys and clicks, and waits for the products page.
func signInByHand(t *testing.T, app context.Context) {
	t.Helper()
	clickCSS(t, app, "#username")
	typeKeys(t, app, demo.Username)
	clickCSS(t, app, "#password")
	typeKeys(t, app, demo.Password)
	clickCSS(t, app, "form button.primary")
	appAt(t, app, "/products")
}

// popupLists reports whether the popup's agent list holds client.
func popupLists(list, client string) string {
	return fmt.Sprintf(`[...document.querySelectorAll('#agents-%s li')].some((li) => li.textContent.includes(%q))`, list, client)
}

// TestAgentAPIRefusesWithNothingPerformed: in real Chromium with the
// extension and the host Chrome starts, each call the person did not
// allow is refused with an error that says why, and nothing is performed:
// the shop's and another site's request logs hold no request the call
// would have made, the tab stays where it was, and the saved recording
// holds no step of it. Refused: a client the person revoked in the popup,
// a client the person denied, a second client in a tab another drives, a
// tab not shared, a navigation off the app's origins, a ref gone stale
// when the person moved the tab on, and (in a second recording, after the
// person disconnected the client and went to another site) a tap on a
// page of another origin.
// A malformed and an oversized message over the real websocket are
// answered with an error and the same connection goes on; the discovery
// file is the owner's alone and the API listens on loopback only.
func TestAgentAPIRefusesWithNothingPerformed(t *testing.T) {
	t.Parallel()
	const (
		second  = "e2e second agent"
		revoked = "e2e revoked agent"
		denied  = "e2e denied agent"
	)
	runtimeDir := TempDir(t)
	var shopLog, otherLog requestLog
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r.shop = httptest.NewServer(shopLog.wrap(demo.New(demo.Options{})))
	t.Cleanup(r.shop.Close)
	other := httptest.NewServer(otherLog.wrap(otherSite()))
	t.Cleanup(other.Close)
	r.b = StartBrowser(t, Options{
		HostPath: teeHost(t, r.wire),
		Env:      []string{"TZ=UTC", "LANG=en_US.UTF-8", "LANGUAGE=en_US", "XDG_RUNTIME_DIR=" + runtimeDir},
	})
	app := r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	unshared := r.b.OpenTab(t, r.shop.URL+"/login?unshared=1")
	popup := r.openPopupFor(t, r.shop.URL+"/login")

	// The discovery file is the owner's alone, in a folder of the owner's.
	waitDiscovery(t, runtimeDir)
	discovery := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)
	for path, want := range map[string]os.FileMode{discovery: 0o600, filepath.Dir(discovery): 0o700} {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: %v, %v; want mode %v", path, st, err, want)
		}
	}

	c := dialAgentAPI(t, runtimeDir)
	apiRefused(t, c, agentapi.TypeTabsList, nil, nativemsg.CodeRefused, "the person has not allowed "+apiClient)
	popupAgentButton(t, popup, "asking", apiClient, "Allow")
	WaitFor[bool](t, popup, popupLists("allowed", apiClient))
	shareTab(t, popup)
	list := apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil)
	if len(list.Tabs) != 1 {
		t.Fatalf("tabs.list: %+v, want the shared tab only", list.Tabs)
	}
	tab := list.Tabs[0].Tab
	started := apiCall[struct{ Session string }](t, c, agentapi.TypeRecordingStart, map[string]any{"tab": tab, "project": r.project, "app": "shop"})
	popupPhase(t, popup, "recording")

	signInByHand(t, app)

	// A client the person allowed, then revoked in the popup: its
	// connection ends, and once it connects again its calls are refused
	// until the person allows it again.
	rc := dialAgentAPIAs(t, runtimeDir, revoked)
	popupAgentButton(t, popup, "asking", revoked, "Allow")
	WaitFor[bool](t, popup, popupLists("allowed", revoked))
	apiCall[struct{ Tabs []agentapi.TabInfo }](t, rc, agentapi.TypeTabsList, nil)
	popupAgentButton(t, popup, "allowed", revoked, "Revoke")
	WaitFor[bool](t, popup, "!"+popupLists("allowed", revoked))
	if err := apiCallErr(rc, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": r.shop.URL + "/cart?revoked=1"}); err == nil {
		t.Error("a revoked client's call on its old connection was answered")
	}
	rc = dialAgentAPIAs(t, runtimeDir, revoked)
	apiRefused(t, rc, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": r.shop.URL + "/cart?revoked=2"}, nativemsg.CodeRefused, "the person has not allowed "+revoked)
	WaitFor[bool](t, popup, popupLists("asking", revoked))
	shopLog.none(t, "the revoked client's navigation", "revoked=")

	// A client the person denied.
	dc := dialAgentAPIAs(t, runtimeDir, denied)
	apiRefused(t, dc, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": r.shop.URL + "/cart?denied=1"}, nativemsg.CodeRefused, "the person has not allowed "+denied)
	popupAgentButton(t, popup, "asking", denied, "Deny")
	WaitFor[bool](t, popup, "!"+popupLists("asking", denied))
	deadline := time.Now().Add(WaitTimeout)
	for {
		var e *nativemsg.Error
		err := apiCallErr(dc, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": r.shop.URL + "/cart?denied=2"})
		if !errors.As(err, &e) || e.Code != nativemsg.CodeRefused {
			t.Fatalf("a denied client's navigation: %v, want refused", err)
		}
		if strings.HasPrefix(e.Message, "the person denied "+denied) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a denied client is told %q, want that the person denied it", e.Message)
		}
		time.Sleep(100 * time.Millisecond)
	}
	shopLog.none(t, "the denied client's navigation", "denied=")

	// The client opens the iPhone 17 by ref: it drives the tab now.
	snap := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"})
	apiCall[struct{ Did string }](t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": apiRefOf(t, snap, `link "iPhone 17"`)})
	appAt(t, app, "/products/iphone-17")

	// A second client, allowed, in the tab the first drives: busy.
	sc := dialAgentAPIAs(t, runtimeDir, second)
	popupAgentButton(t, popup, "asking", second, "Allow")
	WaitFor[bool](t, popup, popupLists("allowed", second))
	apiRefused(t, sc, agentapi.TypeTabSnapshot, map[string]any{"tab": tab}, nativemsg.CodeRefused, "busy: "+apiClient)
	apiRefused(t, sc, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": r.shop.URL + "/cart?busy=1"}, nativemsg.CodeRefused, "busy: "+apiClient)
	apiRefused(t, sc, agentapi.TypeTabPress, map[string]any{"tab": tab, "key": "Enter"}, nativemsg.CodeRefused, "busy: "+apiClient)
	shopLog.none(t, "the second client's navigation", "busy=")

	// A tab the person did not share.
	unsharedID, err := chromedp.Run(popup, chromedp.Evaluate[int](
		`chrome.tabs.query({}).then((ts) => ts.find((t) => (t.url || '').includes('unshared=1'))?.id ?? -1)`, chromedp.EvalAwaitPromise))
	if err != nil || unsharedID < 0 || unsharedID == tab {
		t.Fatalf("the unshared tab: %d, %v", unsharedID, err)
	}
	apiRefused(t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": unsharedID}, nativemsg.CodeRefused, "tab ")
	apiRefused(t, c, agentapi.TypeTabNavigate, map[string]any{"tab": unsharedID, "url": r.shop.URL + "/cart?unshared=2"}, nativemsg.CodeRefused, "tab ")
	apiRefused(t, c, agentapi.TypeTabPress, map[string]any{"tab": unsharedID, "key": "Enter"}, nativemsg.CodeRefused, "tab ")
	shopLog.none(t, "the navigation of a tab not shared", "unshared=2")
	if got := Eval[string](t, unshared, `location.pathname + location.search`); got != "/login?unshared=1" {
		t.Errorf("the tab not shared moved to %s", got)
	}

	// A navigation off the app's origins.
	apiRefused(t, c, agentapi.TypeTabNavigate, map[string]any{"tab": tab, "url": other.URL + "/landing?navigate=1"}, nativemsg.CodeRefused, other.URL+"/landing?navigate=1 is on "+other.URL+", which is not the app")
	otherLog.none(t, "the navigation off the app's origins", "/landing")

	// A ref of a page the person has since left: stale, nothing added.
	snap = apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab})
	add := apiRefOf(t, snap, `button "Add to cart"`)
	clickCSS(t, app, `a[href="/products"]`)
	appAt(t, app, "/products")
	apiRefused(t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": add}, nativemsg.CodeBadRequest, "stale ref")
	shopLog.none(t, "the tap of a stale ref", "POST /cart/add")
	if path := Eval[string](t, app, `location.pathname`); path != "/products" {
		t.Errorf("a stale ref's tap moved the tab to %s", path)
	}

	// Malformed and oversized messages over the real websocket: each is
	// answered with an error, and the connection goes on serving.
	rawWebsocketKeepsServing(t, discovery)
	apiCall[struct{ Tabs []agentapi.TabInfo }](t, c, agentapi.TypeTabsList, nil)

	// The trail holds the person's steps and the client's one tap, and
	// nothing of what was refused.
	saved := apiSave(t, c, started.Session, "Refused calls perform nothing")
	src, tr := saved.Src, saved.Trail
	var agentSteps []string
	for _, s := range tr.Steps {
		if s.By == trail.ByAgent {
			agentSteps = append(agentSteps, s.Client+": "+s.Intent)
		}
	}
	if len(agentSteps) != 1 || !strings.HasPrefix(agentSteps[0], apiClient+": ") {
		t.Errorf("the agents' steps: %q, want the one tap of %s:\n%s", agentSteps, apiClient, src)
	}
	for _, refusedMark := range []string{"revoked=", "denied=", "busy=", "unshared=2", "landing", "Claim", "Add to cart", second, revoked, denied} {
		if strings.Contains(string(src), refusedMark) {
			t.Errorf("the trail holds %q, of a refused call:\n%s", refusedMark, src)
		}
	}
	r.checkNoPassword(t, saved.File)
	if shopLog.has("POST /cart/add") || otherLog.has("/claim") || otherLog.has("/landing") {
		t.Error("a refused call reached an app")
	}

	// A tap on a page of another origin, in a recorded tab: the client
	// records again; the person disconnects it (while it drives the tab,
	// the extension stops any load off the app's origins, the person's
	// too) and goes to another site; the client, still allowed, connects
	// again and its tap there is refused: the form is not sent.
	again := apiCall[struct{ Session string }](t, c, agentapi.TypeRecordingStart, map[string]any{"tab": tab, "project": r.project, "app": "shop"})
	if again.Session == "" {
		t.Fatal("the second recording.start gave no session")
	}
	popupPhase(t, popup, "recording")
	popupAgentButton(t, popup, "driven", apiClient, "Disconnect")
	WaitFor[bool](t, popup, "!"+popupLists("driven", apiClient))
	navigate(t, app, chromedp.Navigate(other.URL+"/partner"))
	WaitFor[bool](t, app, `location.pathname === '/partner' && document.readyState === 'complete'`)
	c = dialAgentAPI(t, runtimeDir)
	partner := apiCall[apiSnapshot](t, c, agentapi.TypeTabSnapshot, map[string]any{"tab": tab})
	claim := apiRefOf(t, partner, `button "Claim the offer"`)
	apiRefused(t, c, agentapi.TypeTabTap, map[string]any{"tab": tab, "ref": claim}, nativemsg.CodeRefused, "the page is on "+other.URL+", which is not the app")
	otherLog.none(t, "the tap on a page of another origin", "/claim")
	if path := Eval[string](t, app, `location.pathname`); path != "/partner" {
		t.Errorf("the refused tap moved the tab to %s", path)
	}
}

// rawWebsocketKeepsServing speaks to the agent API over its websocket as
// any program would: a message that is not JSON and one larger than the
// host reads are each answered with an error, and the same connection then
// says hello and lists the tabs. The port listens on the loopback address
// only.
func rawWebsocketKeepsServing(t *testing.T, discovery string) {
	t.Helper()
	d, err := agentapi.ReadDiscovery(discovery)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(d.Port)+"/",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + d.Token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	exchange := func(what string, msg []byte, wantType, wantText string) {
		t.Helper()
		if err := conn.Write(ctx, websocket.MessageText, msg); err != nil {
			t.Fatalf("sending %s: %v", what, err)
		}
		_, got, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("the host's answer to %s: %v", what, err)
		}
		if !strings.Contains(string(got), `"type":"`+wantType+`"`) || !strings.Contains(string(got), wantText) {
			t.Fatalf("the host answered %s with %s, want a %s holding %q", what, got, wantType, wantText)
		}
	}
	exchange("a message that is not JSON", []byte("tap the Buy button {"), nativemsg.TypeError, "not a JSON object")
	exchange("a message larger than the host reads", []byte(`{"v":1,"id":"big","type":"hello","client":"`+strings.Repeat("x", 2<<20)+`"}`),
		nativemsg.TypeError, "larger than")
	exchange("hello", []byte(`{"v":1,"id":"h","type":"hello","client":"e2e raw client","protocol":1}`), nativemsg.TypeHello, `"id":"h"`)
	exchange("tabs.list", []byte(`{"v":1,"id":"l","type":"tabs.list"}`), nativemsg.TypeError, "the person has not allowed e2e raw client")

	// Loopback only: no other address of this computer answers on the port.
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.IsLoopback() || ip.IP.IsLinkLocalUnicast() {
			continue
		}
		if c, err := net.DialTimeout("tcp", net.JoinHostPort(ip.IP.String(), strconv.Itoa(d.Port)), 2*time.Second); err == nil {
			c.Close()
			t.Errorf("the agent API answers on %s, not only on the loopback address", ip.IP)
		}
	}
}
