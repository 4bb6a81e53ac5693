package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/headless"
	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/storage"
)

// Tests of the door with no browser: a fake tab whose page the test sets,
// the real recording service on a temporary home, and an MCP client over
// in-memory transports.

const shopOrigin = "http://shop.test:8080"

// fakeTab is a page the test controls; acted lists what reached it.
type fakeTab struct {
	mu     sync.Mutex
	page   *screen.Screen
	acted  []string
	navs   []headless.Navigation
	onLoad func(url string) *screen.Screen
	// sameDocument says whether going to url stays in the page's document
	// (a fragment): no page commits, as in a browser.
	sameDocument func(url string) bool
}

func (f *fakeTab) Viewport() screen.Viewport { return screen.Viewport{Width: 1280, Height: 720} }

func (f *fakeTab) Screen(ctx context.Context) (*screen.Screen, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := *f.page
	return &c, nil
}

func (f *fakeTab) set(s *screen.Screen) {
	f.mu.Lock()
	f.page = s
	f.mu.Unlock()
}

func (f *fakeTab) act(what string, before func() error) error {
	if before != nil {
		if err := before(); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.acted = append(f.acted, what)
	f.mu.Unlock()
	return nil
}

func (f *fakeTab) Navigate(ctx context.Context, url string) error {
	if err := f.act("navigate "+url, nil); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.sameDocument != nil && f.sameDocument(url) {
		c := *f.page
		c.URL = url
		f.page = &c
		return nil
	}
	f.page = f.onLoad(url)
	f.navs = append(f.navs, headless.Navigation{URL: url})
	return nil
}

func (f *fakeTab) Tap(ctx context.Context, tg headless.Target, c headless.Click) error {
	what := "tap " + tg.Ref
	if c.Count > 1 || c.Button != "" || len(c.Modifiers) > 0 {
		what += fmt.Sprintf(" %d %s %v", c.Count, c.Button, c.Modifiers)
	}
	return f.act(what, tg.Before)
}

func (f *fakeTab) Hover(ctx context.Context, tg headless.Target) error {
	return f.act("hover "+tg.Ref, tg.Before)
}

func (f *fakeTab) Type(ctx context.Context, tg headless.Target, text string) (string, error) {
	return text, f.act("type "+tg.Ref, tg.Before)
}

func (f *fakeTab) Select(ctx context.Context, tg headless.Target, labels []string) ([]string, error) {
	return labels, f.act("select "+tg.Ref, tg.Before)
}

func (f *fakeTab) Press(ctx context.Context, key string, before func() error) error {
	return f.act("press "+key, before)
}

func (f *fakeTab) TakeNavigations() []headless.Navigation {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.navs
	f.navs = nil
	return out
}

func (f *fakeTab) performed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.acted...)
}

// shopPage is a page of the shop in document doc: a heading, an "Add to
// cart" button (e3), a link off the app (e4), and extra buttons.
func shopPage(url, doc string, extra int) *screen.Screen {
	kids := []*screen.Node{
		{Ref: "e2", Role: "heading", Tag: "h1", Name: "iPhone 17", Text: "iPhone 17", Level: 1, Visible: true},
		{Ref: "e3", Role: "button", Tag: "button", Name: "Add to cart", Text: "Add to cart", Visible: true},
		{Ref: "e4", Role: "link", Tag: "a", Name: "Pay elsewhere", Text: "Pay elsewhere", URL: "https://evil.test/pay", Visible: true},
	}
	for i := range extra {
		name := fmt.Sprintf("Row button %d", i)
		kids = append(kids, &screen.Node{Ref: fmt.Sprintf("e%d", 10+i), Role: "button", Tag: "button", Name: name, Text: name, Visible: true})
	}
	return &screen.Screen{Schema: screen.ScreenSchema, Document: doc, URL: url, Title: "Shop",
		Viewport: screen.Viewport{Width: 1280, Height: 720},
		Root: &screen.Node{Ref: "e1", Role: "document", Tag: "html", Visible: true, Children: []*screen.Node{
			{Ref: "e5", Role: "generic", Tag: "body", Visible: true, Children: kids},
		}}}
}

// writeTrail is `host export`'s writing, plainly: the trail's latest
// version into dir.
func writeTrail(ctx context.Context, db *storage.DB, slug, dir string, _ []string) (string, bool, error) {
	v, err := db.Trail(ctx, slug)
	if err != nil {
		return "", false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	path := filepath.Join(dir, slug+".trail.yaml")
	return path, false, os.WriteFile(path, v.Content, 0o644)
}

// rig is a door on a fake tab, and a client connected to it.
type rig struct {
	door    *Door
	tab     *fakeTab
	svc     *recording.Service
	client  *sdk.ClientSession
	project string
}

func newRig(t *testing.T, limit int, extra int) *rig {
	t.Helper()
	return newRigUser(t, limit, extra, "")
}

// newRigUser is newRig with user, when not "", as the user config.
func newRigUser(t *testing.T, limit int, extra int, user string) *rig {
	t.Helper()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	if user != "" {
		file := filepath.Join(home, ".config", "trailpin", "config.yaml")
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(user), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Load(config.Options{Getenv: getenv, Getwd: func() (string, error) { return home, nil }})
	if err != nil {
		t.Fatal(err)
	}
	svc := recording.New(recording.Options{Config: cfg, Getenv: getenv, Export: writeTrail,
		AgentMaxActions: config.DefaultAgent().MaxActions, AgentMaxCalls: config.DefaultAgent().MaxCalls})
	t.Cleanup(svc.Close)
	project := filepath.Join(home, "shop")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := "apps:\n  shop:\n    baseURL: " + shopOrigin + "\ntrails:\n  dir: trails\n"
	if err := os.WriteFile(filepath.Join(project, "trailpin.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	tab := &fakeTab{page: shopPage("about:blank", "blank", 0)}
	tab.onLoad = func(url string) *screen.Screen { return shopPage(url, "d-"+url, extra) }
	door := New(Options{Service: svc, Tab: tab, Project: project, SnapshotLimit: limit, Getenv: getenv})
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := door.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &rig{door: door, tab: tab, svc: svc, client: cs, project: project}
}

// call calls a tool and returns its text and whether it is an error.
func (r *rig) call(t *testing.T, name string, args any) (string, bool) {
	t.Helper()
	res, err := r.client.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// mustCall calls a tool that must succeed.
func (r *rig) mustCall(t *testing.T, name string, args any) string {
	t.Helper()
	text, isErr := r.call(t, name, args)
	if isErr {
		t.Fatalf("%s failed: %s", name, text)
	}
	return text
}

// interactions is how many interactions the recording stored.
func (r *rig) interactions(t *testing.T) int {
	t.Helper()
	if r.door.rec == nil {
		t.Fatal("no recording under way")
	}
	out, err := r.svc.Status(context.Background(), recording.SessionIn{Session: r.door.rec.session})
	if err != nil {
		t.Fatal(err)
	}
	return out.Recording.Interactions
}

// A ref of a snapshot whose page loaded another document since, or whose
// element is gone, is refused as stale: nothing reaches the page and
// nothing is recorded.
func TestStaleRefPerformsNothing(t *testing.T) {
	r := newRig(t, 0, 0)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products/iphone-17"})
	snap := r.mustCall(t, "browser_snapshot", map[string]any{})
	if !strings.Contains(snap, `button "Add to cart" [ref=e3]`) {
		t.Fatalf("the snapshot shows no Add to cart button with its ref:\n%s", snap)
	}
	before := len(r.tab.performed())

	// The page loads another document (same URL, new refs).
	r.tab.set(shopPage(shopOrigin+"/products/iphone-17", "d-reloaded", 0))
	text, isErr := r.call(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	if !isErr || !strings.Contains(text, "stale") || !strings.Contains(text, "Nothing was done") {
		t.Errorf("a ref of another document: error %v, %q; want a stale-ref error saying nothing was done", isErr, text)
	}

	// The element is gone from the same document.
	r.mustCall(t, "browser_snapshot", map[string]any{})
	gone := shopPage(shopOrigin+"/products/iphone-17", "d-reloaded", 0)
	body := gone.Root.Children[0]
	body.Children = body.Children[:1]
	r.tab.set(gone)
	text, isErr = r.call(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	if !isErr || !strings.Contains(text, "no longer on the page") {
		t.Errorf("a ref whose element is gone: error %v, %q; want a stale-ref error", isErr, text)
	}

	// A ref no snapshot gave.
	text, isErr = r.call(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e99"})
	if !isErr || !strings.Contains(text, "not in the last snapshot") {
		t.Errorf("a ref no snapshot gave: error %v, %q", isErr, text)
	}

	if got := r.tab.performed()[before:]; len(got) > 0 {
		t.Errorf("stale refs reached the page: %q", got)
	}
	if n := r.interactions(t); n != 0 {
		t.Errorf("the recording stored %d interactions for refused clicks, want 0", n)
	}
}

// The client acts only on the recording's app: a navigation elsewhere and
// a click on a link that leads elsewhere are refused with nothing done.
func TestOffAppRefused(t *testing.T) {
	r := newRig(t, 0, 0)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products"})
	r.mustCall(t, "browser_snapshot", map[string]any{})
	before := len(r.tab.performed())

	text, isErr := r.call(t, "browser_navigate", map[string]any{"url": "https://evil.test/steal"})
	if !isErr || !strings.Contains(text, "https://evil.test") || !strings.Contains(text, "not one of the app's origins") {
		t.Errorf("navigating off the app: error %v, %q; want it refused, naming the origin", isErr, text)
	}
	text, isErr = r.call(t, "browser_click", map[string]any{"element": "Pay elsewhere", "ref": "e4"})
	if !isErr || !strings.Contains(text, "https://evil.test") {
		t.Errorf("clicking a link off the app: error %v, %q; want it refused", isErr, text)
	}
	if got := r.tab.performed()[before:]; len(got) > 0 {
		t.Errorf("off-app actions reached the page: %q", got)
	}
	if n := r.interactions(t); n != 0 {
		t.Errorf("the recording stored %d interactions for refused actions, want 0", n)
	}

	// Without a recording, a URL of no app of the project starts nothing.
	r2 := newRig(t, 0, 0)
	text, isErr = r2.call(t, "browser_navigate", map[string]any{"url": "https://evil.test/"})
	if !isErr || !strings.Contains(text, "not the origin of an app") {
		t.Errorf("navigating to no app without a recording: error %v, %q", isErr, text)
	}
	if got := r2.tab.performed(); len(got) > 0 {
		t.Errorf("the refused navigation reached the page: %q", got)
	}
}

// A snapshot larger than the limit is cut at whole lines and says how many
// lines, and elements with a ref, it left out; a scoped one shows one
// element whole.
func TestSnapshotCapped(t *testing.T) {
	const limit = 400
	r := newRig(t, limit, 200)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/big"})
	text := r.mustCall(t, "browser_snapshot", map[string]any{})
	full := screen.RenderSnapshot(shopPage(shopOrigin+"/big", "x", 200), screen.SnapshotOptions{})
	kept := text[strings.Index(text, "```yaml\n")+len("```yaml\n") : strings.Index(text, "\n```\n")]
	if len(kept) > limit {
		t.Errorf("the snapshot holds %d bytes, more than the limit %d", len(kept), limit)
	}
	if !strings.HasPrefix(full, kept) {
		t.Errorf("the capped snapshot is not the full one's first lines:\n%s", kept)
	}
	lines := strings.Count(full, "\n") + 1
	left := lines - (strings.Count(kept, "\n") + 1)
	refs := strings.Count(full[len(kept):], "[ref=")
	want := fmt.Sprintf("%d more lines left out, %d of them elements with a ref", left, refs)
	if left <= 0 || !strings.Contains(text, want) {
		t.Errorf("the capped snapshot does not say %q:\n%s", want, text)
	}
	scoped := r.mustCall(t, "browser_snapshot", map[string]any{"ref": "e3"})
	if !strings.Contains(scoped, `button "Add to cart" [ref=e3]`) || strings.Contains(scoped, "Row button") || strings.Contains(scoped, "left out") {
		t.Errorf("the snapshot scoped to e3 is not that button alone:\n%s", scoped)
	}
}

// Malformed arguments are answered with an error that names the problem,
// and the server keeps serving.
func TestMalformedArgumentsKeepServing(t *testing.T) {
	r := newRig(t, 0, 0)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products"})
	for _, args := range []any{
		map[string]any{"ref": 5},
		map[string]any{"element": "Add to cart"},
		json.RawMessage(`{"ref": ["e3"]}`),
	} {
		text, isErr := r.call(t, "browser_click", args)
		if !isErr || !strings.Contains(text, "ref") {
			t.Errorf("browser_click %v: error %v, %q; want an error naming ref", args, isErr, text)
		}
	}
	if text, isErr := r.call(t, "browser_select_option", map[string]any{"ref": "e3", "values": "one"}); !isErr {
		t.Errorf("values as a string was taken: %q", text)
	}
	if got := r.tab.performed(); len(got) != 1 {
		t.Errorf("malformed calls reached the page: %q", got)
	}
	if text := r.mustCall(t, "browser_snapshot", map[string]any{}); !strings.Contains(text, "Add to cart") {
		t.Errorf("the server does not serve after malformed calls:\n%s", text)
	}
}

// An action is recorded as the interaction the extension's recorder would
// send, marked with the client's name, and a verify as an assertion.
func TestActionsRecordedAsTheClients(t *testing.T) {
	r := newRig(t, 0, 0)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products/iphone-17"})
	r.mustCall(t, "browser_snapshot", map[string]any{})
	r.mustCall(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	r.mustCall(t, "browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "iPhone 17"})
	if n := r.interactions(t); n != 2 {
		t.Fatalf("the recording stored %d interactions, want 2 (click, assertVisible)", n)
	}
	text := r.mustCall(t, "trail_save", map[string]any{"title": "Add the iPhone 17"})
	for _, want := range []string{"by: agent", "client: test-agent", "tap: {selector: {role: button, name: Add to cart}}",
		"assertVisible: {selector: {text: iPhone 17}}"} {
		if !strings.Contains(text, want) {
			t.Errorf("the saved trail lacks %q:\n%s", want, text)
		}
	}
}

// Headless, browser_assert_change checks what the client's last action
// changed (the page captured right before it against the page now) with
// replay's own code: one that does not hold records nothing; one that
// holds is recorded right after the action, in its step, and the trail
// saved holds it. With no action right before it there is nothing to
// check.
func TestAssertChangeRecordedAfterTheAction(t *testing.T) {
	r := newRig(t, 0, 0)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products/iphone-17"})
	r.mustCall(t, "browser_snapshot", map[string]any{})
	added := map[string]any{"mustInclude": []any{map[string]any{"kind": "added", "role": "dialog", "name": "Added to cart"}}}
	if text, isErr := r.call(t, "browser_assert_change", added); !isErr || !strings.Contains(text, "there is none to check") {
		t.Errorf("before any action: %q", text)
	}
	r.mustCall(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	// The tap opened a dialog.
	page := shopPage(shopOrigin+"/products/iphone-17", "d-"+shopOrigin+"/products/iphone-17", 0)
	body := page.Root.Children[0]
	body.Children = append(body.Children, &screen.Node{Ref: "e9", Role: "dialog", Tag: "div", Name: "Added to cart", Visible: true})
	r.tab.set(page)
	if text, isErr := r.call(t, "browser_assert_change", map[string]any{"changed": false}); !isErr || !strings.Contains(text, "the change does not hold") {
		t.Errorf("a change that does not hold answers %q", text)
	}
	if n := r.interactions(t); n != 1 {
		t.Fatalf("the recording stored %d interactions, want the click only", n)
	}
	text := r.mustCall(t, "browser_assert_change", added)
	if !strings.Contains(text, "recorded as an assertion") || !strings.Contains(text, `added dialog "Added to cart"`) {
		t.Errorf("browser_assert_change answers %q", text)
	}
	// Another check in between: nothing an assertChange could follow.
	r.mustCall(t, "browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "iPhone 17"})
	if text, isErr := r.call(t, "browser_assert_change", added); !isErr || !strings.Contains(text, "there is none to check") {
		t.Errorf("after another check: %q", text)
	}
	saved := r.mustCall(t, "trail_save", map[string]any{"title": "Add the iPhone 17"})
	want := "- tap: {selector: {role: button, name: Add to cart}}\n      - assertChange:\n          mustInclude:\n            - {change: added, selector: {role: dialog, name: Added to cart}}"
	if !strings.Contains(saved, want) || !strings.Contains(saved, "client: test-agent") {
		t.Errorf("the saved trail lacks the check right after the tap:\n%s", saved)
	}
}

// Headless, trail_act runs the built-in agent on the project's model (the
// scripted server the agent's tests use) toward the client's goal: its
// acts are the door's own tools, checked against the page, and recorded
// as the client's; the answer says what it did.
func TestTrailActHeadless(t *testing.T) {
	srv := modeltest.Start(t, modeltest.WithPolicy(agenttest.Policy()))
	r := newRigUser(t, 0, 0, "model:\n  baseURL: "+srv.URL+"\n  name: scripted\n")
	if text, isErr := r.call(t, "trail_act", map[string]any{"goal": "Add to cart"}); !isErr || !strings.Contains(text, "no trail is being recorded") {
		t.Errorf("trail_act before a recording: %q", text)
	}
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products/iphone-17"})
	text := r.mustCall(t, "trail_act", map[string]any{"goal": "Add to cart"})
	if !strings.Contains(text, "The agent reached the goal") || !strings.Contains(text, `- tapped button "Add to cart"`) {
		t.Errorf("trail_act answers %q", text)
	}
	if got := r.tab.performed(); len(got) != 2 || got[1] != "tap e3" {
		t.Errorf("the tab did %q, want the start page and the agent's tap", got)
	}
	saved := r.mustCall(t, "trail_save", map[string]any{"title": "Add the iPhone 17"})
	for _, want := range []string{"by: agent", "client: test-agent", "tap: {selector: {role: button, name: Add to cart}}"} {
		if !strings.Contains(saved, want) {
			t.Errorf("the saved trail lacks %q:\n%s", want, saved)
		}
	}
}

// browser_navigate to a place in the same document (a fragment route, as
// TodoMVC's #/completed) commits no page: it is recorded all the same, as
// the navigation the client asked for, and not as where the step before it
// ended.
func TestNavigateWithinTheDocumentRecorded(t *testing.T) {
	r := newRig(t, 0, 0)
	r.tab.sameDocument = func(url string) bool { return strings.Contains(url, "#") }
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products/iphone-17"})
	r.mustCall(t, "browser_snapshot", map[string]any{})
	r.mustCall(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	r.mustCall(t, "browser_navigate", map[string]any{"url": "/products/iphone-17#reviews"})
	if n := r.interactions(t); n != 2 {
		t.Errorf("the recording stored %d interactions, want 2 (the click, the navigation)", n)
	}
	saved := r.mustCall(t, "trail_save", map[string]any{"title": "Read the reviews"})
	if !strings.Contains(saved, "navigate: /products/iphone-17#reviews") {
		t.Errorf("the saved trail does not go to the reviews:\n%s", saved)
	}
}

// browser_click takes Playwright MCP's doubleClick, button and modifiers
// (TodoMVC edits a todo on a double-click): each reaches the page as asked
// and is recorded as the tap it was; a button or key it does not know is
// refused with nothing done.
func TestClickDoubleRightAndModifiers(t *testing.T) {
	r := newRig(t, 0, 0)
	r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": shopOrigin + "/products/iphone-17"})
	r.mustCall(t, "browser_snapshot", map[string]any{})
	if text := r.mustCall(t, "browser_click", map[string]any{"element": "iPhone 17", "ref": "e2", "doubleClick": true}); !strings.Contains(text, "Double-clicked") {
		t.Errorf("a double-click answers %q", text)
	}
	r.mustCall(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3", "button": "right", "modifiers": []string{"Shift", "ControlOrMeta"}})
	for _, args := range []map[string]any{
		{"ref": "e3", "button": "back"},
		{"ref": "e3", "modifiers": []string{"Hyper"}},
	} {
		if text, isErr := r.call(t, "browser_click", args); !isErr || !strings.Contains(text, "nothing was done") {
			t.Errorf("browser_click %v answers %v %q, want a refusal", args, isErr, text)
		}
	}
	want := []string{"navigate " + shopOrigin + "/products/iphone-17", "tap e2 2  []", "tap e3 1 right [Shift Control]"}
	if got := r.tab.performed(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the page got %q, want %q", got, want)
	}
	saved := r.mustCall(t, "trail_save", map[string]any{"title": "Double-click the title"})
	for _, want := range []string{"tap: {selector: {role: heading, name: iPhone 17}, count: 2}", "button: right", "modifiers: [Shift, Control]"} {
		if !strings.Contains(saved, want) {
			t.Errorf("the saved trail lacks %q:\n%s", want, saved)
		}
	}
}
