package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/nativemsg"
)

// Tests of attached mode with no browser: a fake host serving the agent
// API's calls on loopback (agentapi.Start with handlers written to the
// calls of host/PROTOCOL.md), found through a discovery file, and an MCP
// client over in-memory transports.

// fakeHost is the host's side of the agent API: one shared tab whose page
// the test sets, refs checked against the document of each client's last
// snapshot, and every act it performed.
type fakeHost struct {
	mu sync.Mutex
	// tabs are the shared tabs: the first is the one the fake acts in.
	tabs []sharedTab
	// doc and text are the tab's page: its document token and snapshot.
	doc, text string
	// lastDoc is the document of each client's last snapshot.
	lastDoc map[string]string
	// refuse and busy make every call but tabs.list and tab.snapshot a
	// refusal (error 8).
	refuse, busy bool
	acts         []string
	clients      []string
	// requests holds each call's type and fields, in order.
	requests []map[string]any
	file     string
}

const attachedPage = `- heading "iPhone 17" [level=1] [ref=e2]
- button "Add to cart" [ref=e3]
- textbox "Search" [ref=e5]
- listitem [ref=e6]: Cart 0 items`

func newFakeHost(t *testing.T) (*fakeHost, string) {
	t.Helper()
	f := &fakeHost{
		tabs:    []sharedTab{{Tab: 12, URL: shopOrigin + "/products/iphone-17", Title: "Shop"}},
		doc:     "d1",
		text:    attachedPage,
		lastDoc: map[string]string{},
		file:    filepath.Join(t.TempDir(), "add-the-iphone.trail.yaml"),
	}
	h := func(typ string, serve func(req *agentapi.Request, in map[string]any) (any, error)) agentapi.Handler {
		return func(ctx context.Context, req *agentapi.Request) (any, error) {
			var in map[string]any
			if err := req.Decode(&in); err != nil {
				return nil, err
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			f.clients = append(f.clients, req.Client)
			in["type"] = typ
			f.requests = append(f.requests, in)
			if typ != "tabs.list" && typ != "tab.snapshot" {
				if f.busy {
					return nil, nativemsg.Errorf(8, "tab 12 is busy: the client other-agent is acting in it")
				}
				if f.refuse {
					return nil, nativemsg.Errorf(8, "the client %s is not allowed yet: the person was asked in the Trailpin extension", req.Client)
				}
			}
			if tab, ok := in["tab"]; ok && tab != float64(12) {
				return nil, nativemsg.Errorf(8, "tab %v is not shared with %s", tab, req.Client)
			}
			return serve(req, in)
		}
	}
	byRef := func(verb string) func(req *agentapi.Request, in map[string]any) (any, error) {
		return func(req *agentapi.Request, in map[string]any) (any, error) {
			ref, _ := in["ref"].(string)
			if f.lastDoc[req.Client] != f.doc || !strings.Contains(f.text, "[ref="+ref+"]") {
				return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "stale ref %s: the page changed since your last snapshot; take a new snapshot", ref)
			}
			act := verb + " " + ref
			switch verb {
			case "type":
				act += fmt.Sprintf(" %q submit=%v", in["text"], in["submit"])
			case "select":
				if in["options"] != nil {
					act += fmt.Sprintf(" options=%v", in["options"])
				} else {
					act += fmt.Sprintf(" option=%v", in["option"])
				}
			case "assertValue":
				act += fmt.Sprintf(" %q", in["value"])
			}
			f.acts = append(f.acts, act)
			return map[string]any{"did": verb + " " + ref, "url": f.tabs[0].URL}, nil
		}
	}
	handlers := map[string]agentapi.Handler{
		"tabs.list": h("tabs.list", func(req *agentapi.Request, in map[string]any) (any, error) {
			return map[string]any{"tabs": f.tabs}, nil
		}),
		"tab.snapshot": h("tab.snapshot", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.lastDoc[req.Client] = f.doc
			return map[string]any{"url": f.tabs[0].URL, "title": f.tabs[0].Title, "document": f.doc, "text": f.text, "omitted": 0, "bytes": len(f.text)}, nil
		}),
		"tab.tap":           h("tab.tap", byRef("tap")),
		"tab.type":          h("tab.type", byRef("type")),
		"tab.select":        h("tab.select", byRef("select")),
		"tab.assertVisible": h("tab.assertVisible", byRef("assertVisible")),
		"tab.assertValue":   h("tab.assertValue", byRef("assertValue")),
		"tab.press": h("tab.press", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.acts = append(f.acts, fmt.Sprintf("press %v", in["key"]))
			return map[string]any{"did": fmt.Sprintf("pressed %v", in["key"]), "url": f.tabs[0].URL}, nil
		}),
		"tab.navigate": h("tab.navigate", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.acts = append(f.acts, fmt.Sprintf("navigate %v", in["url"]))
			f.tabs[0].URL = in["url"].(string)
			f.doc += "+"
			return map[string]any{"did": fmt.Sprintf("went to %v", in["url"]), "url": in["url"]}, nil
		}),
		"tab.assertChange": h("tab.assertChange", func(req *agentapi.Request, in map[string]any) (any, error) {
			if in["changed"] == false {
				return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "the change does not hold: changed: the action changed 1 thing; nothing was recorded")
			}
			f.acts = append(f.acts, "assertChange")
			return map[string]any{"did": "recorded: an assertChange of your last act (1 checks passed)",
				"checks":  []map[string]any{{"check": "mustInclude (kind added, role \"dialog\")", "pass": true, "detail": "found"}},
				"changes": []string{`added dialog "Added to cart" [e9]`}}, nil
		}),
		"tab.act": h("tab.act", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.acts = append(f.acts, fmt.Sprintf("act %q", in["goal"]))
			return map[string]any{"verdict": "done", "message": "tapped the control that matches the goal",
				"did": []string{`tapped button "Add to cart"`}, "actions": 1, "calls": 2, "url": f.tabs[0].URL}, nil
		}),
		"recording.start": h("recording.start", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.acts = append(f.acts, "start")
			f.tabs[0].Recording = "r-1"
			return map[string]any{"session": "r-1"}, nil
		}),
		"recording.stop": h("recording.stop", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.acts = append(f.acts, fmt.Sprintf("stop %v", in["session"]))
			return map[string]any{"session": in["session"], "steps": 2}, nil
		}),
		"recording.save": h("recording.save", func(req *agentapi.Request, in map[string]any) (any, error) {
			f.acts = append(f.acts, fmt.Sprintf("save %v %q", in["session"], in["title"]))
			yaml := fmt.Sprintf("title: %s\nsteps:\n  - intent: Click the Add to cart button\n    by: agent\n    client: %s\n", in["title"], req.Client)
			if err := os.WriteFile(f.file, []byte(yaml), 0o644); err != nil {
				return nil, err
			}
			return map[string]any{"file": f.file, "steps": 2}, nil
		}),
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := agentapi.Start(ctx, agentapi.Options{Version: "9.9.9-test", Handlers: handlers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); srv.Close() })
	path := filepath.Join(t.TempDir(), "trailpin", agentapi.DiscoveryFileName)
	if err := agentapi.WriteDiscovery(path, agentapi.Discovery{Port: srv.Port(), Token: srv.Token(), PID: os.Getpid(), Version: "9.9.9-test", Protocol: 1}); err != nil {
		t.Fatal(err)
	}
	return f, path
}

// set makes the tab show text in a new document (or the same one).
func (f *fakeHost) set(doc, text string) {
	f.mu.Lock()
	f.doc, f.text = doc, text
	f.mu.Unlock()
}

func (f *fakeHost) performed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.acts)
}

// sent is the fields of the last request of type typ; nil when none.
func (f *fakeHost) sent(typ string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.requests) - 1; i >= 0; i-- {
		if f.requests[i]["type"] == typ {
			return f.requests[i]
		}
	}
	return nil
}

// attachedRig is an attached door on a fake host, and an MCP client named
// clientName connected to it.
func newAttachedRig(t *testing.T, clientName string) (*rig, *fakeHost) {
	t.Helper()
	f, path := newFakeHost(t)
	project := t.TempDir()
	door := NewAttached(AttachedOptions{Discovery: path, Project: project, ActionTimeout: 2 * time.Second, PollInterval: 10 * time.Millisecond})
	t.Cleanup(door.Close)
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := door.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: clientName, Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &rig{client: cs, project: project}, f
}

// In attached mode a snapshot is the host's text of the shared tab, a click
// and a typing with submit are forwarded by ref to the host, which performs
// them, and every call reaches the host under the MCP client's name.
func TestAttachedSnapshotClickType(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	snap := r.mustCall(t, "browser_snapshot", map[string]any{})
	for _, want := range []string{"- Page URL: " + shopOrigin + "/products/iphone-17", `button "Add to cart" [ref=e3]`} {
		if !strings.Contains(snap, want) {
			t.Errorf("the snapshot lacks %q:\n%s", want, snap)
		}
	}
	if got := f.sent("tab.snapshot"); got["tab"] != float64(12) || got["mode"] != "full" || got["limit"] != float64(DefaultSnapshotLimit) {
		t.Errorf("tab.snapshot was sent %v; want tab 12, mode full, the default limit", got)
	}

	text := r.mustCall(t, "browser_click", map[string]any{"element": "Add to cart button", "ref": "e3"})
	if !strings.HasPrefix(text, "Tap e3.") || !strings.Contains(text, "- Page Snapshot:") {
		t.Errorf("the click answers %q; want what the host did and the page after it", text)
	}
	if got := f.sent("tab.tap"); got["ref"] != "e3" || got["element"] != "Add to cart button" {
		t.Errorf("tab.tap was sent %v", got)
	}
	r.mustCall(t, "browser_type", map[string]any{"element": "Search", "ref": "e5", "text": "iPhone", "submit": true})
	want := []string{"tap e3", `type e5 "iPhone" submit=true`}
	if got := f.performed(); !slices.Equal(got, want) {
		t.Errorf("the host performed %q, want %q", got, want)
	}
	f.mu.Lock()
	clients := slices.Compact(slices.Clone(f.clients))
	f.mu.Unlock()
	if !slices.Equal(clients, []string{"claude-code"}) {
		t.Errorf("the host saw the clients %q, want the MCP client's name alone", clients)
	}
}

// A ref the host says is stale is a tool error that says to take a new
// snapshot; nothing is performed.
func TestAttachedStaleRef(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	r.mustCall(t, "browser_snapshot", map[string]any{})
	f.set("d2", attachedPage) // the page loaded another document
	text, isErr := r.call(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	if !isErr || !strings.Contains(text, "stale ref e3") || !strings.Contains(text, "Nothing was done") || !strings.Contains(text, "call browser_snapshot") {
		t.Errorf("a stale ref: error %v, %q; want a stale-ref error saying nothing was done and to take a snapshot", isErr, text)
	}
	if got := f.performed(); len(got) > 0 {
		t.Errorf("a stale ref reached the page: %q", got)
	}
	// After a new snapshot the same ref acts.
	r.mustCall(t, "browser_snapshot", map[string]any{})
	r.mustCall(t, "browser_click", map[string]any{"ref": "e3"})
	if got := f.performed(); !slices.Equal(got, []string{"tap e3"}) {
		t.Errorf("after a new snapshot the host performed %q", got)
	}
}

// What the person did not allow (error 8) is a tool error that says so,
// that nothing was done and what the person does in the extension; a busy
// tab says to wait.
func TestAttachedRefused(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	r.mustCall(t, "browser_snapshot", map[string]any{})
	f.mu.Lock()
	f.refuse = true
	f.mu.Unlock()
	text, isErr := r.call(t, "browser_click", map[string]any{"ref": "e3"})
	for _, want := range []string{"refused by the person's browser", "claude-code is not allowed yet", "Nothing was done", "Trailpin extension"} {
		if !isErr || !strings.Contains(text, want) {
			t.Errorf("a refusal: error %v, %q; want it to say %q", isErr, text, want)
		}
	}
	f.mu.Lock()
	f.refuse, f.busy = false, true
	f.mu.Unlock()
	text, isErr = r.call(t, "browser_type", map[string]any{"ref": "e5", "text": "x"})
	if !isErr || !strings.Contains(text, "busy") || !strings.Contains(text, "try again") {
		t.Errorf("a busy tab: error %v, %q; want it to say the tab is busy and to try again", isErr, text)
	}
	if got := f.performed(); len(got) > 0 {
		t.Errorf("refused calls were performed: %q", got)
	}
}

// trail_start loads the start page and starts a recording of the tab in
// the project host mcp runs in; the verify tools find the element in the
// tab's snapshot and ask the host to record it; trail_save stops and
// saves, and answers the file the host wrote.
func TestAttachedTrail(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	text := r.mustCall(t, "trail_start", map[string]any{"app": "shop", "url": "/products"})
	if !strings.Contains(text, "session r-1") || !strings.Contains(text, "- Page Snapshot:") {
		t.Errorf("trail_start answers %q", text)
	}
	if got := f.sent("recording.start"); got["tab"] != float64(12) || got["project"] != r.project || got["app"] != "shop" {
		t.Errorf("recording.start was sent %v; want tab 12, project %s, app shop", got, r.project)
	}
	r.mustCall(t, "browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "iPhone 17"})
	r.mustCall(t, "browser_verify_text_visible", map[string]any{"text": "Cart 0"})
	r.mustCall(t, "browser_verify_value", map[string]any{"ref": "e5", "value": "iPhone"})
	text, isErr := r.call(t, "browser_verify_text_visible", map[string]any{"text": "Checkout"})
	if !isErr || !strings.Contains(text, "nothing was recorded") {
		t.Errorf("a text the page does not show: error %v, %q", isErr, text)
	}
	text = r.mustCall(t, "trail_save", map[string]any{"title": "Add the iPhone"})
	if !strings.Contains(text, f.file) || !strings.Contains(text, "client: claude-code") {
		t.Errorf("trail_save answers %q; want the file and its YAML", text)
	}
	want := []string{"navigate " + shopOrigin + "/products", "start", "assertVisible e2", "assertVisible e6", `assertValue e5 "iPhone"`,
		"stop r-1", `save r-1 "Add the iPhone"`}
	if got := f.performed(); !slices.Equal(got, want) {
		t.Errorf("the host performed %q, want %q", got, want)
	}
}

// With several tabs shared the client is told to pick one; browser_tabs
// lists and selects.
func TestAttachedPicksATab(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	f.mu.Lock()
	f.tabs = append(f.tabs, sharedTab{Tab: 40, URL: shopOrigin + "/cart", Title: "Cart"})
	f.mu.Unlock()
	text, isErr := r.call(t, "browser_snapshot", map[string]any{})
	if !isErr || !strings.Contains(text, "browser_tabs") {
		t.Errorf("two shared tabs: error %v, %q; want to be told to select one with browser_tabs", isErr, text)
	}
	list := r.mustCall(t, "browser_tabs", map[string]any{"action": "list"})
	if !strings.Contains(list, "- 1: [Cart]("+shopOrigin+"/cart)") {
		t.Errorf("browser_tabs list: %q", list)
	}
	r.mustCall(t, "browser_tabs", map[string]any{"action": "select", "index": 0})
	r.mustCall(t, "browser_snapshot", map[string]any{})
	if got := f.sent("tab.snapshot"); got["tab"] != float64(12) {
		t.Errorf("the snapshot went to tab %v, want the one selected (12)", got["tab"])
	}
}

// No host running is a tool error saying to open Chrome with the extension.
func TestAttachedNoHost(t *testing.T) {
	door := NewAttached(AttachedOptions{Discovery: filepath.Join(t.TempDir(), "none.json")})
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := door.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "x", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text, isErr := (&rig{client: cs}).call(t, "browser_snapshot", map[string]any{})
	if !isErr || !strings.Contains(text, "open Chrome with the Trailpin extension") {
		t.Errorf("no host: error %v, %q", isErr, text)
	}
}

// The MCP client's name becomes a name the API's hello takes.
func TestHelloName(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._@/+-]{0,63}$`)
	for in, want := range map[string]string{
		"claude-code":           "claude-code",
		"Claude Code (v2)":      "Claude Code -v2-",
		"":                      "mcp-client",
		"…":                     "mcp-client",
		"-x":                    "x",
		strings.Repeat("a", 80): strings.Repeat("a", 64),
	} {
		got := helloName(in)
		if got != want || !valid.MatchString(got) {
			t.Errorf("helloName(%q) = %q, want %q (valid for hello)", in, got, want)
		}
	}
}

// Both modes list the same tools, with the same descriptions and argument
// schemas: an agent's configuration works in either.
func TestBothModesServeTheSameTools(t *testing.T) {
	headless := newRig(t, 0, 0)
	attached, _ := newAttachedRig(t, "claude-code")
	list := func(cs *sdk.ClientSession) string {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res.Tools)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	h, a := list(headless.client), list(attached.client)
	if h != a {
		t.Errorf("the modes serve different tools:\nheadless: %s\nattached: %s", h, a)
	}
	for _, name := range []string{"browser_snapshot", "browser_click", "browser_type", "browser_select_option", "browser_press_key",
		"browser_navigate", "browser_wait_for", "browser_verify_element_visible", "browser_verify_text_visible", "browser_verify_value",
		"browser_tabs", "trail_start", "trail_save", "trail_replay", "browser_assert_change", "trail_act"} {
		if !strings.Contains(a, `"name":"`+name+`"`) {
			t.Errorf("attached mode does not serve %s", name)
		}
	}
}

// browser_assert_change is forwarded to the host's tab.assertChange with
// the expectation in the built-in agent's words and the tab; the host's
// refusal (a change that does not hold) is the tool's error, and nothing
// else is performed.
func TestAttachedAssertChange(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	r.mustCall(t, "browser_snapshot", map[string]any{})
	r.mustCall(t, "browser_click", map[string]any{"element": "Add to cart", "ref": "e3"})
	text, isErr := r.call(t, "browser_assert_change", map[string]any{"changed": false})
	if !isErr || !strings.Contains(text, "the change does not hold") {
		t.Errorf("a change that does not hold answers %q, want the host's refusal", text)
	}
	text = r.mustCall(t, "browser_assert_change", map[string]any{"mustInclude": []any{map[string]any{"kind": "added", "role": "dialog", "name": "Added to cart"}}})
	if !strings.HasPrefix(text, "Recorded: an assertChange") || !strings.Contains(text, `added dialog "Added to cart"`) {
		t.Errorf("browser_assert_change answers %q", text)
	}
	got := f.sent("tab.assertChange")
	delete(got, "v")
	delete(got, "id")
	want := `{"mustInclude":[{"kind":"added","name":"Added to cart","role":"dialog"}],"tab":12,"type":"tab.assertChange"}`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Errorf("tab.assertChange was sent %s, want %s", b, want)
	}
	if acts := f.performed(); !slices.Equal(acts, []string{"tap e3", "assertChange"}) {
		t.Errorf("the host performed %q", acts)
	}
}

// Attached, trail_act is the host's tab.act in the shared tab: the host
// runs the agent; the tool says what it did and shows the page after it.
func TestAttachedTrailAct(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	text := r.mustCall(t, "trail_act", map[string]any{"goal": "Add the iPhone to the cart"})
	if !strings.Contains(text, "The agent reached the goal") || !strings.Contains(text, `- tapped button "Add to cart"`) || !strings.Contains(text, "- Page Snapshot:") {
		t.Errorf("trail_act answers %q", text)
	}
	if got := f.sent("tab.act"); got["tab"] != float64(12) || got["goal"] != "Add the iPhone to the cart" {
		t.Errorf("tab.act was sent %v", got)
	}
	if text, isErr := r.call(t, "trail_act", map[string]any{"goal": " "}); !isErr || !strings.Contains(text, "goal is missing") {
		t.Errorf("an empty goal: %q", text)
	}
}

// browser_select_option's values go to the host's tab.select: one label as
// "option", several as "options" (a list box of several choices ends with
// exactly those selected), and the answer is the page after it.
func TestAttachedSelectOneOrSeveralOptions(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	r.mustCall(t, "browser_snapshot", map[string]any{})
	text := r.mustCall(t, "browser_select_option", map[string]any{"element": "Toppings", "ref": "e3", "values": []string{"Cheese", "Olives"}})
	if !strings.Contains(text, "- Page Snapshot:") {
		t.Errorf("the select answers %q; want the page after it", text)
	}
	r.mustCall(t, "browser_select_option", map[string]any{"element": "Size", "ref": "e3", "values": []string{"Large"}})
	want := []string{"select e3 options=[Cheese Olives]", "select e3 option=Large"}
	if got := f.performed(); !slices.Equal(got, want) {
		t.Errorf("the host performed %q, want %q", got, want)
	}
	if text, isErr := r.call(t, "browser_select_option", map[string]any{"ref": "e3", "values": []string{}}); !isErr || !strings.Contains(text, "values is empty") {
		t.Errorf("no values: %q", text)
	}
}

// browser_type's ${secret:NAME} goes to the host as the reference: the host
// reads the value and types it only into a secret field (docs/agent-api.md);
// the door never holds the value.
func TestAttachedTypeForwardsTheSecretReference(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	r.mustCall(t, "browser_snapshot", map[string]any{})
	r.mustCall(t, "browser_type", map[string]any{"element": "Password", "ref": "e5", "text": "${secret:demo-password}"})
	if got := f.sent("tab.type"); got["text"] != "${secret:demo-password}" {
		t.Errorf("tab.type was sent %v, want the reference as it is", got)
	}
}

// In the person's browser the agent API taps once with the left button: a
// browser_click asking for a double-click, another button or keys held is
// refused with nothing done, rather than performed as a single click.
func TestAttachedClickOnlyPlain(t *testing.T) {
	r, f := newAttachedRig(t, "claude-code")
	r.mustCall(t, "browser_snapshot", map[string]any{})
	for _, args := range []map[string]any{
		{"ref": "e3", "doubleClick": true},
		{"ref": "e3", "button": "right"},
		{"ref": "e3", "modifiers": []string{"Shift"}},
	} {
		if text, isErr := r.call(t, "browser_click", args); !isErr || !strings.Contains(text, "Nothing was done") || !strings.Contains(text, "--headless") {
			t.Errorf("browser_click %v answers %v %q, want a refusal", args, isErr, text)
		}
	}
	if got := f.performed(); len(got) > 0 {
		t.Errorf("the host performed %q", got)
	}
}
