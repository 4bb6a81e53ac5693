package agentapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// fakeBrowser is the extension's side of the calls: it allows the clients
// in allow (or waits for allowed to be closed), shares the tabs in shared,
// and performs acts by noting them.
type fakeBrowser struct {
	mu     sync.Mutex
	allow  map[string]bool
	gate   chan struct{} // closed: the person answered
	shared map[int]bool
	doc    string
	// page, when set, is the screen (with %s for the document) in place
	// of fakeScreen.
	page    string
	acts    []ExtRequest
	block   chan struct{} // while open, acts wait for it
	started chan struct{}
}

const fakeScreen = `{"schema":1,"document":"%s","url":"http://shop.test/","title":"Shop","viewport":{"width":1280,"height":800},"root":` +
	`["e1","document","html",1,[0,0,1280,800],"",0,0,[["e2","generic","body",1,[0,0,1280,800],"",0,0,[` +
	`["e3","button","button",1,[40,100,300,32],"Add to cart",0,0,0],` +
	`["e4","textbox","input",1,[40,200,300,32],"Quantity",0,{"value":"1"},0]]]]]}`

func (b *fakeBrowser) Ask(ctx context.Context, req ExtRequest) (ExtAnswer, error) {
	switch req.Call {
	case "allow":
		if b.gate != nil {
			select {
			case <-b.gate:
			case <-ctx.Done():
				return ExtAnswer{}, ctx.Err()
			}
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		return ExtAnswer{OK: b.allow[req.Client]}, nil
	case "tabs":
		b.mu.Lock()
		defer b.mu.Unlock()
		var tabs []TabInfo
		for t := range b.shared {
			tabs = append(tabs, TabInfo{Tab: t, URL: "http://shop.test/", Title: "Shop", Recording: "r-1"})
		}
		return ExtAnswer{OK: true, Tabs: tabs}, nil
	case "page":
		b.mu.Lock()
		doc, page, shared := b.doc, b.page, b.shared[req.Tab]
		b.mu.Unlock()
		if !shared {
			// As the extension refuses every page op of a tab not shared.
			return ExtAnswer{Reason: "refused", Error: fmt.Sprintf("tab %d is not shared with agents: the person shares it in the Trailpin popup", req.Tab)}, nil
		}
		if page == "" {
			page = fakeScreen
		}
		if req.Op == "screen" {
			return ExtAnswer{OK: true, Screen: json.RawMessage(strings.Replace(page, "%s", doc, 1))}, nil
		}
		if req.Document != "" && req.Document != doc {
			return ExtAnswer{OK: false, Reason: "stale", Error: "the page has loaded another document"}, nil
		}
		if b.started != nil {
			b.started <- struct{}{}
		}
		if b.block != nil {
			<-b.block
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		b.acts = append(b.acts, req)
		return ExtAnswer{OK: true, URL: "http://shop.test/cart", Recording: "r-1", From: 4, Until: 5}, nil
	case "record":
		return ExtAnswer{OK: true, Session: "r-1", Steps: 3, File: "/p/trails/x.yaml"}, nil
	}
	return ExtAnswer{Reason: "failed", Error: "unknown call"}, nil
}

func (b *fakeBrowser) performed() []ExtRequest {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]ExtRequest(nil), b.acts...)
}

type fakeRecorder struct {
	mu    sync.Mutex
	spans []string
}

func (r *fakeRecorder) Origins(ctx context.Context, session, url string) ([]string, error) {
	return []string{"http://shop.test"}, nil
}

func (r *fakeRecorder) Performed(session string, tab int, from, until int64, client string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = append(r.spans, session+"/"+client)
	return nil
}

// startCalls serves the calls over a real server, and dials it as client.
func startCalls(t *testing.T, b *fakeBrowser) (*Calls, *Server, *fakeRecorder, func(name string) *Client) {
	t.Helper()
	rec := &fakeRecorder{}
	calls := &Calls{Browser: b, Recorder: rec}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Start(ctx, Options{Version: "1.2.3", Handlers: calls.Handlers(), OnHello: calls.Hello})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Close() })
	path := filepath.Join(t.TempDir(), "trailpin", DiscoveryFileName)
	if err := WriteDiscovery(path, Discovery{Port: s.Port(), Token: s.Token(), PID: os.Getpid(), Version: "1.2.3", Protocol: 1}); err != nil {
		t.Fatal(err)
	}
	return calls, s, rec, func(name string) *Client {
		c, err := Dial(context.Background(), path, name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
}

func wantCode(t *testing.T, err error, code nativemsg.Code, prefix string) {
	t.Helper()
	var e *nativemsg.Error
	if !errors.As(err, &e) || e.Code != code || !strings.HasPrefix(e.Message, prefix) {
		t.Fatalf("got %v, want error %d starting %q", err, code, prefix)
	}
}

// allowed waits until the person's answer reached the host.
func allowed(t *testing.T, calls *Calls, client string) {
	t.Helper()
	for range 200 {
		if calls.check(client) == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s was never allowed", client)
}

// Until the person allows a client, every call but hello is refused
// (error 8) with nothing performed; once allowed, it lists only the
// shared tabs, snapshots with refs, taps by ref, and what the tap recorded
// is marked the client's.
func TestCallsOnlyOnceAllowedAndShared(t *testing.T) {
	b := &fakeBrowser{allow: map[string]bool{"shop-bot": true}, gate: make(chan struct{}), shared: map[int]bool{12: true}, doc: "d1"}
	calls, s, rec, dial := startCalls(t, b)
	c := dial("shop-bot")
	ctx := context.Background()
	if !strings.Contains(strings.Join(c.Hello.Types, ","), TypeTabSnapshot) {
		t.Errorf("hello lists %q, want the calls", c.Hello.Types)
	}
	wantCode(t, c.Call(ctx, TypeTabsList, nil, nil), nativemsg.CodeRefused, "the person has not allowed shop-bot yet")
	wantCode(t, c.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e3"}, nil), nativemsg.CodeRefused, "the person has not allowed")
	close(b.gate)
	allowed(t, calls, "shop-bot")

	var list struct{ Tabs []TabInfo }
	if err := c.Call(ctx, TypeTabsList, nil, &list); err != nil || len(list.Tabs) != 1 || list.Tabs[0].Tab != 12 {
		t.Fatalf("tabs.list: %+v, %v", list, err)
	}
	// An unshared tab is refused.
	wantCode(t, c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 13}, nil), nativemsg.CodeRefused, "tab 13 is not shared")
	// A ref before any snapshot is stale.
	wantCode(t, c.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e3"}, nil), nativemsg.CodeBadRequest, "stale ref")

	var snap struct {
		Document, Text, URL string
		Omitted, Bytes      int
	}
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, &snap); err != nil {
		t.Fatal(err)
	}
	if snap.Document != "d1" || !strings.Contains(snap.Text, `button "Add to cart" [ref=e3]`) || snap.Omitted != 0 || snap.Bytes != len(snap.Text) {
		t.Fatalf("snapshot: %+v", snap)
	}
	var small struct {
		Text           string
		Omitted, Bytes int
	}
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12, "limit": 10}, &small); err != nil || small.Omitted == 0 || small.Bytes != snap.Bytes || len(small.Text) > 10 {
		t.Fatalf("capped snapshot: %+v, %v", small, err)
	}
	var did struct{ Did, URL string }
	if err := c.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e3"}, &did); err != nil {
		t.Fatal(err)
	}
	if did.Did != `tapped button "Add to cart"` || did.URL != "http://shop.test/cart" {
		t.Errorf("tap: %+v", did)
	}
	acts := b.performed()
	if len(acts) != 1 || acts[0].Op != "tap" || acts[0].Ref != "e3" || acts[0].Document != "d1" || acts[0].Client != "shop-bot" || len(acts[0].Origins) != 1 {
		t.Fatalf("performed %+v", acts)
	}
	if len(rec.spans) != 1 || rec.spans[0] != "r-1/shop-bot" {
		t.Errorf("marked %q, want the tap's interactions the client's", rec.spans)
	}

	// A hover is the extension's trusted mouse move onto the ref's element.
	if err := c.Call(ctx, TypeTabHover, map[string]any{"tab": 12, "ref": "e3"}, &did); err != nil {
		t.Fatal(err)
	}
	if did.Did != `rested the pointer on button "Add to cart"` {
		t.Errorf("hover: %+v", did)
	}
	if acts := b.performed(); len(acts) != 2 || acts[1].Op != "hover" || acts[1].Ref != "e3" || acts[1].Document != "d1" {
		t.Fatalf("performed %+v", acts)
	}
	wantCode(t, c.Call(ctx, TypeTabHover, map[string]any{"tab": 12, "ref": "e99"}, nil), nativemsg.CodeBadRequest, "stale ref")

	// The page loaded another document: the ref is stale, nothing done.
	b.mu.Lock()
	b.doc = "d2"
	b.mu.Unlock()
	wantCode(t, c.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e3"}, nil), nativemsg.CodeBadRequest, "stale ref")
	// A ref not on the last snapshot is stale too.
	wantCode(t, c.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e99"}, nil), nativemsg.CodeBadRequest, "stale ref")
	if n := len(b.performed()); n != 2 {
		t.Errorf("%d acts performed, want the one tap and the one hover only", n)
	}

	// Revoked: refused again, and the connection is closed.
	calls.Revoke("shop-bot")
	s.Disconnect("shop-bot")
	if err := c.Call(ctx, TypeTabsList, nil, nil); err == nil {
		t.Error("a revoked client's connection should be closed")
	}
	wantCode(t, calls.check("shop-bot"), nativemsg.CodeRefused, "the person revoked shop-bot")
}

// A client the person denies stays refused.
func TestDeniedClientIsRefused(t *testing.T) {
	b := &fakeBrowser{allow: map[string]bool{}, shared: map[int]bool{12: true}, doc: "d1"}
	calls, _, _, dial := startCalls(t, b)
	c := dial("stranger")
	for range 200 {
		if err := calls.check("stranger"); err != nil && strings.Contains(err.Error(), "denied") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	wantCode(t, c.Call(context.Background(), TypeTabsList, nil, nil), nativemsg.CodeRefused, "the person denied stranger")
}

// One actor per tab: while one client's act runs, another client's act in
// that tab is refused as busy, and not performed.
func TestBusyTabRefusesAnotherClient(t *testing.T) {
	b := &fakeBrowser{allow: map[string]bool{"a": true, "b": true}, shared: map[int]bool{12: true}, doc: "d1",
		block: make(chan struct{}), started: make(chan struct{}, 1)}
	calls, _, _, dial := startCalls(t, b)
	ca, cb := dial("a"), dial("b")
	allowed(t, calls, "a")
	allowed(t, calls, "b")
	ctx := context.Background()
	for _, c := range []*Client{ca, cb} {
		if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- ca.Call(ctx, TypeTabPress, map[string]any{"tab": 12, "key": "Enter"}, nil) }()
	<-b.started
	wantCode(t, cb.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e3"}, nil), nativemsg.CodeRefused, "busy: a is acting in tab 12")
	close(b.block)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if acts := b.performed(); len(acts) != 1 || acts[0].Client != "a" {
		t.Errorf("performed %+v, want a's press only", acts)
	}
}

// Assertions are checked on a fresh screen first: one that does not hold
// is answered with an error and nothing is recorded.
func TestAssertValueRecordsOnlyWhatHolds(t *testing.T) {
	b := &fakeBrowser{allow: map[string]bool{"a": true}, shared: map[int]bool{12: true}, doc: "d1"}
	calls, _, _, dial := startCalls(t, b)
	c := dial("a")
	allowed(t, calls, "a")
	ctx := context.Background()
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.Call(ctx, TypeTabAssertValue, map[string]any{"tab": 12, "ref": "e4", "value": "2"}, nil), nativemsg.CodeBadRequest, `textbox "Quantity" holds "1"`)
	var did struct{ Did string }
	if err := c.Call(ctx, TypeTabAssertValue, map[string]any{"tab": 12, "ref": "e4", "value": "1"}, &did); err != nil {
		t.Fatal(err)
	}
	acts := b.performed()
	if len(acts) != 1 || acts[0].Op != "assertValue" || acts[0].Value != "1" {
		t.Fatalf("performed %+v, want the assertion that holds only", acts)
	}
	var saved struct {
		File  string
		Steps int
	}
	if err := c.Call(ctx, TypeRecordingSave, map[string]any{"session": "r-1", "title": "Buy"}, &saved); err != nil || saved.File == "" {
		t.Fatalf("save: %+v, %v", saved, err)
	}
}

// fakeScreenAdded is fakeScreen after the tap: a dialog was added.
const fakeScreenAdded = `{"schema":1,"document":"%s","url":"http://shop.test/","title":"Shop","viewport":{"width":1280,"height":800},"root":` +
	`["e1","document","html",1,[0,0,1280,800],"",0,0,[["e2","generic","body",1,[0,0,1280,800],"",0,0,[` +
	`["e3","button","button",1,[40,100,300,32],"Add to cart",0,0,0],` +
	`["e4","textbox","input",1,[40,200,300,32],"Quantity",0,{"value":"1"},0],` +
	`["e9","dialog","div",1,[400,100,300,200],"Added to cart",0,0,0]]]]]}`

// tab.assertChange checks what the client's last act changed, on a fresh
// capture against the snapshot the act started from: one that does not
// hold is an error and records nothing; one that holds is recorded whole,
// in the trail's keys, right after the act (since its last interaction).
// With no act right before it (none yet, or another assertion since)
// there is nothing to check, and an expectation in other words is
// refused.
func TestAssertChangeChecksTheLastActAndRecordsWhatHolds(t *testing.T) {
	b := &fakeBrowser{allow: map[string]bool{"a": true}, shared: map[int]bool{12: true}, doc: "d1"}
	calls, _, _, dial := startCalls(t, b)
	c := dial("a")
	allowed(t, calls, "a")
	ctx := context.Background()
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
		t.Fatal(err)
	}
	added := map[string]any{"tab": 12, "mustInclude": []any{map[string]any{"kind": "added", "role": "dialog", "name": "Added to cart"}}}
	wantCode(t, c.Call(ctx, TypeTabAssertChange, added, nil), nativemsg.CodeBadRequest, "tab.assertChange checks what your last act in tab 12 changed")
	if err := c.Call(ctx, TypeTabTap, map[string]any{"tab": 12, "ref": "e3"}, nil); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	b.page = fakeScreenAdded
	b.mu.Unlock()
	wantCode(t, c.Call(ctx, TypeTabAssertChange, map[string]any{"tab": 12, "changed": false}, nil), nativemsg.CodeBadRequest, "the change does not hold")
	wantCode(t, c.Call(ctx, TypeTabAssertChange, map[string]any{"tab": 12, "Changed": true}, nil), nativemsg.CodeBadRequest, `tab.assertChange has no field "Changed"`)
	wantCode(t, c.Call(ctx, TypeTabAssertChange, map[string]any{"tab": 12, "changed": true, "url": "/"}, nil), nativemsg.CodeBadRequest, "the expectation cannot be checked")
	if n := len(b.performed()); n != 1 {
		t.Fatalf("%d acts performed, want the tap only: a check that does not hold records nothing", n)
	}
	var did struct {
		Did     string
		Changes []string
	}
	if err := c.Call(ctx, TypeTabAssertChange, added, &did); err != nil {
		t.Fatal(err)
	}
	acts := b.performed()
	if len(acts) != 2 || acts[1].Op != "assertChange" || acts[1].Since != 5 || acts[1].AssertChange == nil {
		t.Fatalf("performed %+v, want the assertChange recorded after the tap", acts)
	}
	rec, _ := json.Marshal(acts[1].AssertChange)
	if string(rec) != `{"mustInclude":[{"change":"added","selector":{"role":"dialog","name":"Added to cart"}}]}` {
		t.Errorf("recorded %s", rec)
	}
	if !strings.Contains(strings.Join(did.Changes, "\n"), "Added to cart") {
		t.Errorf("the reply says what changed: %+v", did)
	}
	// Another assertion in between: nothing an assertChange could follow.
	if err := c.Call(ctx, TypeTabAssertValue, map[string]any{"tab": 12, "ref": "e4", "value": "1"}, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, c.Call(ctx, TypeTabAssertChange, added, nil), nativemsg.CodeBadRequest, "tab.assertChange checks what your last act")
}

// The popup shows a client allowed as the extension sends the answer: a
// call that comes right after, before the answer reached the host, waits
// for it rather than being refused.
func TestCallRightAfterTheAnswerWaitsForIt(t *testing.T) {
	gate := make(chan struct{})
	b := &fakeBrowser{allow: map[string]bool{"quick-bot": true}, gate: gate, shared: map[int]bool{12: true}, doc: "d1"}
	calls := &Calls{Browser: b}
	calls.Hello("quick-bot")
	go func() {
		time.Sleep(200 * time.Millisecond) // the answer on its way
		close(gate)
	}()
	if err := calls.check("quick-bot"); err != nil {
		t.Fatalf("a call while the person's Allow is on its way: %v", err)
	}
	// Nobody answers: the call is refused after the moment it waits.
	never := make(chan struct{})
	t.Cleanup(func() { close(never) })
	slow := &Calls{Browser: &fakeBrowser{allow: map[string]bool{}, gate: never}}
	slow.Hello("slow-bot")
	start := time.Now()
	wantCode(t, slow.check("slow-bot"), nativemsg.CodeRefused, "the person has not allowed slow-bot yet")
	if waited := time.Since(start); waited < answerInFlight {
		t.Errorf("refused after %v, before the answer could arrive (%v)", waited, answerInFlight)
	}
}

// tab.select takes one label in "option" (or "values", as before) and the
// several a list box of several choices ends with in "options", and asks
// the extension for exactly those; a request that names none, both, an
// empty or a repeated label, or several options for a drop-down of one
// choice, is refused with nothing performed.
func TestSelectOneOrSeveralOptions(t *testing.T) {
	lists := strings.Replace(fakeScreen, `["e4","textbox","input",1,[40,200,300,32],"Quantity",0,{"value":"1"},0]`,
		`["e4","textbox","input",1,[40,200,300,32],"Quantity",0,{"value":"1"},0],`+
			`["e5","combobox","select",1,[40,300,300,32],"Size",0,0,0],`+
			`["e6","listbox","select",1,[40,400,300,80],"Toppings",0,0,0]`, 1)
	b := &fakeBrowser{allow: map[string]bool{"shop-bot": true}, shared: map[int]bool{12: true}, doc: "d1", page: lists}
	calls, _, _, dial := startCalls(t, b)
	c := dial("shop-bot")
	allowed(t, calls, "shop-bot")
	ctx := context.Background()
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
		t.Fatal(err)
	}
	var did struct{ Did string }
	if err := c.Call(ctx, TypeTabSelect, map[string]any{"tab": 12, "ref": "e6", "options": []string{"Cheese", "Olives"}}, &did); err != nil {
		t.Fatal(err)
	}
	if did.Did != `chose "Cheese", "Olives" in listbox "Toppings"` {
		t.Errorf("did: %q", did.Did)
	}
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, TypeTabSelect, map[string]any{"tab": 12, "ref": "e5", "option": "Large"}, &did); err != nil || did.Did != `chose "Large" in combobox "Size"` {
		t.Fatalf("option: %q, %v", did.Did, err)
	}
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, TypeTabSelect, map[string]any{"tab": 12, "ref": "e5", "values": []string{"Small"}}, &did); err != nil {
		t.Fatalf("values with one label: %v", err)
	}
	acts := b.performed()
	if len(acts) != 3 || acts[0].Op != "select" || strings.Join(acts[0].Options, "|") != "Cheese|Olives" || acts[0].Option != "" ||
		acts[1].Option != "Large" || acts[1].Options != nil || acts[2].Option != "Small" || acts[2].Options != nil {
		t.Fatalf("the extension was asked %+v", acts)
	}
	for _, bad := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"tab": 12, "ref": "e6"}, `tab.select needs "option"`},
		{map[string]any{"tab": 12, "ref": "e6", "options": []string{}}, `tab.select needs "option"`},
		{map[string]any{"tab": 12, "ref": "e6", "option": "Cheese", "options": []string{"Olives"}}, `tab.select takes "option" (one label) or "options" (several), not both`},
		{map[string]any{"tab": 12, "ref": "e6", "options": []string{"Cheese", "Cheese"}}, `tab.select names the option "Cheese" twice`},
		{map[string]any{"tab": 12, "ref": "e6", "options": []string{"Cheese", " "}}, `tab.select was given an empty option label`},
		{map[string]any{"tab": 12, "ref": "e5", "options": []string{"Small", "Large"}}, `combobox "Size" holds one choice and 2 options were given`},
	} {
		wantCode(t, c.Call(ctx, TypeTabSelect, bad.body, nil), nativemsg.CodeBadRequest, bad.want)
	}
	if n := len(b.performed()); n != 3 {
		t.Errorf("a refused tab.select performed something: %d acts", n)
	}
}

// secretRecorder is fakeRecorder that keeps the project's secrets.
type secretRecorder struct {
	fakeRecorder
	typed []string
}

const fakeSecretValue = "Hunter2-very-secret"

func (r *secretRecorder) Secret(ctx context.Context, session, name string) (string, error) {
	if name != "demo-password" {
		return "", errors.New("TRAILPIN_SECRET_" + strings.ToUpper(name) + " is not set")
	}
	return fakeSecretValue, nil
}

func (r *secretRecorder) TypedSecret(session string, tab int, from, until int64, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.typed = append(r.typed, session+"/"+name)
	return nil
}

// tab.type with the whole text ${secret:NAME} types the project's secret
// into a field the client's snapshot shows as secret, in a recorded tab:
// the extension is sent the value with secret set (it types it only into
// such a field), the host notes which secret the act typed, and neither
// the reply nor the next snapshot shows the value, even when the page
// echoes it. A secret for a field that is not secret, a reference that is
// not the whole text or not a secret, and a secret without a value are
// refused, with nothing performed.
func TestTypeSecretOnlyIntoASecretField(t *testing.T) {
	page := strings.Replace(fakeScreen, `["e4","textbox","input",1,[40,200,300,32],"Quantity",0,{"value":"1"},0]`,
		`["e4","textbox","input",1,[40,200,300,32],"Quantity",0,{"value":"1"},0],`+
			`["e6","textbox","input",9,[40,300,300,32],"Password",0,0,0]`, 1)
	b := &fakeBrowser{allow: map[string]bool{"shop-bot": true}, shared: map[int]bool{12: true}, doc: "d1", page: page}
	calls, _, _, dial := startCalls(t, b)
	rec := &secretRecorder{}
	calls.Recorder = rec
	c := dial("shop-bot")
	allowed(t, calls, "shop-bot")
	ctx := context.Background()
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12}, nil); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"tab": 12, "ref": "e4", "text": "${secret:demo-password}"}, `textbox "Quantity" is not a password field nor one the person marked sensitive`},
		{map[string]any{"tab": 12, "ref": "e6", "text": "${user:ada.password}"}, `tab.type types a reference only as the whole text ${secret:NAME}`},
		{map[string]any{"tab": 12, "ref": "e6", "text": "x${secret:demo-password}"}, `tab.type types a reference only as the whole text ${secret:NAME}`},
		{map[string]any{"tab": 12, "ref": "e6", "text": "${secret:other}"}, `${secret:other}: TRAILPIN_SECRET_OTHER is not set`},
	} {
		wantCode(t, c.Call(ctx, TypeTabType, bad.body, nil), nativemsg.CodeBadRequest, bad.want)
	}
	if acts := b.performed(); len(acts) != 0 {
		t.Fatalf("a refused secret performed %+v", acts)
	}

	var raw json.RawMessage
	if err := c.Call(ctx, TypeTabType, map[string]any{"tab": 12, "ref": "e6", "text": "${secret:demo-password}", "submit": true}, &raw); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), fakeSecretValue) || !strings.Contains(string(raw), `typed \"${secret:demo-password}\" into textbox \"Password\"`) {
		t.Errorf("the reply: %s", raw)
	}
	acts := b.performed()
	if len(acts) != 2 || acts[0].Op != "type" || acts[0].Text != fakeSecretValue || !acts[0].Secret || acts[1].Key != "Enter" || acts[1].Secret {
		t.Fatalf("the extension was asked %+v", acts)
	}
	if strings.Join(rec.typed, ",") != "r-1/demo-password" {
		t.Errorf("the host noted the secrets typed as %q", rec.typed)
	}
	// The page echoes the value: the client's snapshot shows the reference.
	b.mu.Lock()
	b.page = strings.Replace(page, `"Quantity",0,`, `"Quantity `+fakeSecretValue+`",0,`, 1)
	b.mu.Unlock()
	var snap struct{ Text string }
	if err := c.Call(ctx, TypeTabSnapshot, map[string]any{"tab": 12, "mode": "full"}, &snap); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(snap.Text, fakeSecretValue) || !strings.Contains(snap.Text, "${secret:demo-password}") {
		t.Errorf("the snapshot after the secret:\n%s", snap.Text)
	}
}
