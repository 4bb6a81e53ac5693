package agentapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// The calls the agent API serves besides hello (host/PROTOCOL.md, Agent
// API). Each one is performed in the person's browser by the extension:
// the host asks it with an api.request and reads its api.result.
const (
	TypeTabsList                = "tabs.list"
	TypeTabSnapshot             = "tab.snapshot"
	TypeTabTap                  = "tab.tap"
	TypeTabHover                = "tab.hover"
	TypeTabType                 = "tab.type"
	TypeTabSelect               = "tab.select"
	TypeTabPress                = "tab.press"
	TypeTabNavigate             = "tab.navigate"
	TypeTabAssertVisible        = "tab.assertVisible"
	TypeTabAssertNotVisibleText = "tab.assertNotVisibleWithText"
	TypeTabAssertValue          = "tab.assertValue"
	TypeTabAssertChange         = "tab.assertChange"
	TypeRecordingStart          = "recording.start"
	TypeRecordingStop           = "recording.stop"
	TypeRecordingSave           = "recording.save"
	defaultSnapshotLimit        = 40000
	defaultActionTimeout        = 10 * time.Second
	maxSnapshotLimit            = 1 << 20
)

// An ExtRequest is one api.request the host sends the extension for a
// client's call (host/PROTOCOL.md, api.request).
type ExtRequest struct {
	// Call is allow, tabs, page or record.
	Call   string `json:"call"`
	Client string `json:"client"`
	Tab    int    `json:"tab,omitempty"`
	// Op is the page op (agent.page's, and assertVisible, assertValue,
	// assertNotVisible), or the record op (start, stop, save).
	Op       string `json:"op,omitempty"`
	Document string `json:"document,omitempty"`
	Ref      string `json:"ref,omitempty"`
	Text     string `json:"text,omitempty"`
	// Secret says Text is a secret's value: the extension types it only
	// into a field the page marks as a password or the person marked
	// sensitive. SecretName is its name, for the host alone.
	Secret     bool   `json:"secret,omitempty"`
	SecretName string `json:"-"`
	Option     string `json:"option,omitempty"`
	// Options are the labels a list box of several choices ends with
	// selected (select, with more than one; Option holds one).
	Options   []string `json:"options,omitempty"`
	Key       string   `json:"key,omitempty"`
	URL       string   `json:"url,omitempty"`
	History   string   `json:"history,omitempty"`
	Value     string   `json:"value,omitempty"`
	TimeoutMs int64    `json:"timeoutMs,omitempty"`
	Origins   []string `json:"origins,omitempty"`
	Project   string   `json:"project,omitempty"`
	App       string   `json:"app,omitempty"`
	Session   string   `json:"session,omitempty"`
	Title     string   `json:"title,omitempty"`
	// AssertChange is the whole check the assertChange op records, in the
	// trail's keys; Since is the seq of the last interaction the tab
	// recorded for the act it checks: the extension records it only when
	// nothing was recorded after that.
	AssertChange *trail.ChangeJSON `json:"assertChange,omitempty"`
	Since        int64             `json:"since,omitempty"`
}

// An ExtAnswer is the extension's api.result.
type ExtAnswer struct {
	OK bool `json:"ok"`
	// Reason is refused (the person did not allow it, the tab is not
	// shared, busy, or off the app's origins), stale, gone or failed.
	Reason string          `json:"reason"`
	Error  string          `json:"error"`
	Origin string          `json:"origin"`
	Screen json.RawMessage `json:"screen"`
	Tabs   []TabInfo       `json:"tabs"`
	// Recording is the session recording the tab, "" when none.
	Recording string `json:"recording"`
	// From and Until number the interactions the act recorded in the tab
	// (0 when none).
	From  int64  `json:"from"`
	Until int64  `json:"until"`
	URL   string `json:"url"`
	// The record op's answer.
	Session string `json:"session"`
	Steps   int    `json:"steps"`
	File    string `json:"file"`
}

// A TabInfo is a tab the person shared.
type TabInfo struct {
	Tab       int    `json:"tab"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Recording string `json:"recording"`
}

// A Browser is the person's browser as the calls reach it.
type Browser interface {
	// Ask sends one request to the extension and waits for its answer; an
	// error means it could not be asked or did not answer.
	Ask(ctx context.Context, req ExtRequest) (ExtAnswer, error)
}

// A Recorder is the recording service as the calls need it.
type Recorder interface {
	// Origins are the only origins an act may run on in a tab showing
	// url, recorded in session ("" when not).
	Origins(ctx context.Context, session, url string) ([]string, error)
	// Performed notes that the interactions numbered from to until in the
	// session's tab are the client's.
	Performed(session string, tab int, from, until int64, client string) error
}

// A SecretKeeper is what a Recorder offers when a client may type the
// project's secrets (tab.type with ${secret:NAME}, docs/agent-api.md).
type SecretKeeper interface {
	// Secret is the value of the secret name for a tab recorded in
	// session; an error says which variable to set.
	Secret(ctx context.Context, session, name string) (string, error)
	// TypedSecret notes that the interactions from to until the tab
	// recorded typed the secret name.
	TypedSecret(session string, tab int, from, until int64, name string) error
}

// Calls serves the calls in a shared tab for the clients the person
// allowed.
type Calls struct {
	Browser  Browser
	Recorder Recorder
	// ActionTimeout is how long an act waits for its target; 0 means 10 s.
	ActionTimeout time.Duration
	// AllowTimeout is how long the person is given to answer; 0 means 10
	// minutes.
	AllowTimeout time.Duration
	// Agent sets up the built-in agent for tab.act; nil: tab.act is
	// refused.
	Agent AgentFunc

	mu sync.Mutex
	// allowed holds the clients the person allowed; asking holds those
	// being asked.
	allowed map[string]bool
	asking  map[string]bool
	// decided is closed when the person's answer about a client being
	// asked reached the host.
	decided map[string]chan struct{}
	// denied says why a client is not allowed, after the person answered.
	denied map[string]string
	// shown is the last screen each client took of each tab.
	shown map[string]map[int]*screen.Screen
	// acting is the client acting in each tab now.
	acting map[int]string
	// last is each client's last act in each tab, which tab.assertChange
	// checks; acts numbers them.
	last map[string]map[int]*lastAct
	acts int
	// typed are the secret values clients typed, with their references:
	// what the host answers a client shows the reference instead.
	typed map[string]string
}

// Handlers are the calls, for Options.Handlers.
func (c *Calls) Handlers() map[string]Handler {
	return map[string]Handler{
		TypeTabsList:                c.tabsList,
		TypeTabSnapshot:             c.snapshot,
		TypeTabTap:                  c.tap,
		TypeTabHover:                c.hover,
		TypeTabType:                 c.typeText,
		TypeTabSelect:               c.selectOptions,
		TypeTabPress:                c.press,
		TypeTabNavigate:             c.navigate,
		TypeTabAssertVisible:        c.assertVisible,
		TypeTabAssertNotVisibleText: c.assertNotVisible,
		TypeTabAssertValue:          c.assertValue,
		TypeTabAssertChange:         c.assertChange,
		TypeTabAct:                  c.tabAct,
		TypeRecordingStart:          c.recordingStart,
		TypeRecordingStop:           c.recordingStop,
		TypeRecordingSave:           c.recordingSave,
	}
}

// Hello asks the person, once, to allow a client that connected; it
// returns at once (Options.OnHello).
func (c *Calls) Hello(client string) {
	c.mu.Lock()
	if c.allowed == nil {
		c.allowed, c.asking, c.denied = map[string]bool{}, map[string]bool{}, map[string]string{}
	}
	if c.allowed[client] || c.asking[client] {
		c.mu.Unlock()
		return
	}
	c.asking[client] = true
	if c.decided == nil {
		c.decided = map[string]chan struct{}{}
	}
	decided := make(chan struct{})
	c.decided[client] = decided
	delete(c.denied, client)
	c.mu.Unlock()
	go func() {
		timeout := c.AllowTimeout
		if timeout <= 0 {
			timeout = 10 * time.Minute
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		ans, err := c.Browser.Ask(ctx, ExtRequest{Call: "allow", Client: client})
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.asking, client)
		delete(c.decided, client)
		defer close(decided)
		switch {
		case err != nil:
			c.denied[client] = "the browser could not ask the person (" + err.Error() + "): connect again to be asked again"
		case ans.OK:
			c.allowed[client] = true
		default:
			c.denied[client] = "the person denied " + client + " in the Trailpin extension: connect again to be asked again"
		}
	}()
}

// Revoke forgets that the person allowed client (the extension's Revoke).
func (c *Calls) Revoke(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.allowed, client)
	delete(c.shown, client)
	delete(c.last, client)
	if c.denied != nil {
		c.denied[client] = "the person revoked " + client + " in the Trailpin extension: connect again to ask to be allowed"
	}
}

func refused(format string, args ...any) *nativemsg.Error {
	return nativemsg.Errorf(nativemsg.CodeRefused, format, args...)
}

// answerInFlight is how long a call from a client the person is being
// asked about waits for the answer before it is refused: the popup shows
// "Allowed" as the extension sends the answer, and a client (or the person
// who told it to go on) may call before the answer has reached the host.
const answerInFlight = 2 * time.Second

// check refuses a client the person has not allowed. While the person is
// asked, it waits a moment for an answer on its way (answerInFlight).
func (c *Calls) check(client string) error {
	c.mu.Lock()
	if decided := c.decided[client]; decided != nil && !c.allowed[client] {
		c.mu.Unlock()
		select {
		case <-decided:
		case <-time.After(answerInFlight):
		}
		c.mu.Lock()
	}
	defer c.mu.Unlock()
	if c.allowed[client] {
		return nil
	}
	if why := c.denied[client]; why != "" {
		return refused("%s", why)
	}
	return refused("the person has not allowed %s yet: they are asked in the Trailpin extension's popup; call again once they allowed it", client)
}

// ask sends req and turns a refusal of the extension into its error.
func (c *Calls) ask(ctx context.Context, req ExtRequest) (ExtAnswer, error) {
	ans, err := c.Browser.Ask(ctx, req)
	if err != nil {
		return ans, nativemsg.Errorf(nativemsg.CodeBadRequest, "the browser did not answer: %v (is the Trailpin extension connected?)", err)
	}
	if ans.OK {
		return ans, nil
	}
	msg := ans.Error
	if msg == "" {
		msg = req.Call + " " + req.Op + " failed in the browser"
	}
	switch ans.Reason {
	case "refused":
		if ans.Origin != "" {
			return ans, refused("%s (off the app's origins: %s); nothing was performed", msg, ans.Origin)
		}
		return ans, refused("%s", msg)
	case "stale":
		return ans, nativemsg.Errorf(nativemsg.CodeBadRequest, "stale ref: %s; take a new tab.snapshot and use a ref from it", msg)
	}
	return ans, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s", msg)
}

// tabOf finds a tab the person shared.
func (c *Calls) tabOf(ctx context.Context, client string, tab int) (TabInfo, error) {
	ans, err := c.ask(ctx, ExtRequest{Call: "tabs", Client: client})
	if err != nil {
		return TabInfo{}, err
	}
	for _, t := range ans.Tabs {
		if t.Tab == tab {
			return t, nil
		}
	}
	return TabInfo{}, refused("tab %d is not shared with agents: the person shares a tab with \"Share this tab with agents\" in the Trailpin popup; tabs.list lists the shared ones", tab)
}

func (c *Calls) tabsList(ctx context.Context, req *Request) (any, error) {
	if err := c.check(req.Client); err != nil {
		return nil, err
	}
	ans, err := c.ask(ctx, ExtRequest{Call: "tabs", Client: req.Client})
	if err != nil {
		return nil, err
	}
	tabs := ans.Tabs
	if tabs == nil {
		tabs = []TabInfo{}
	}
	return map[string]any{"tabs": tabs}, nil
}

type tabField struct {
	Tab *int `json:"tab"`
}

func (t tabField) get(typ string) (int, error) {
	if t.Tab == nil || *t.Tab < 0 {
		return 0, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s needs \"tab\": a tab id from tabs.list", typ)
	}
	return *t.Tab, nil
}

// allowedTab is the tab a request names, once its client is allowed.
func (c *Calls) allowedTab(req *Request) (int, error) {
	var t tabField
	if err := req.Decode(&t); err != nil {
		return 0, err
	}
	tab, err := t.get(req.Type)
	if err != nil {
		return 0, err
	}
	return tab, c.check(req.Client)
}

func (c *Calls) snapshot(ctx context.Context, req *Request) (any, error) {
	var in struct {
		tabField
		Mode  string `json:"mode"`
		Ref   string `json:"ref"`
		Limit int    `json:"limit"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	tab, err := in.get(req.Type)
	if err != nil {
		return nil, err
	}
	interactive := true
	switch in.Mode {
	case "", "interactive":
	case "full":
		interactive = false
	default:
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "mode is \"interactive\" or \"full\", not %q", in.Mode)
	}
	limit := in.Limit
	if limit <= 0 {
		limit = defaultSnapshotLimit
	}
	limit = min(limit, maxSnapshotLimit)
	if err := c.check(req.Client); err != nil {
		return nil, err
	}
	// No tabs round trip first (tabOf): the extension refuses the screen of
	// a tab not shared, or driven by another client, itself
	// (background/apirelay.js, page), and a snapshot of a small page is
	// mostly these round trips (docs/mcp.md, Measured beside Playwright MCP).
	s, err := c.capture(ctx, req.Client, tab)
	if err != nil {
		return nil, err
	}
	scoped := s
	if in.Ref != "" {
		n := selector.NewMatcher(s).Node(in.Ref)
		if n == nil {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "ref %s is not on the page: take tab.snapshot without ref and use a ref from it", in.Ref)
		}
		cp := *s
		cp.Root = &screen.Node{Tag: "body", Visible: true, Children: []*screen.Node{n}}
		scoped = &cp
	}
	full := c.masked(screen.RenderSnapshot(scoped, screen.SnapshotOptions{Interactive: interactive}))
	text, omitted := capLines(full, limit)
	return map[string]any{"url": s.URL, "title": s.Title, "document": s.Document, "text": text, "omitted": omitted, "bytes": len(full)}, nil
}

// capture takes the tab's screen and keeps it as the client's last.
func (c *Calls) capture(ctx context.Context, client string, tab int) (*screen.Screen, error) {
	ans, err := c.ask(ctx, ExtRequest{Call: "page", Client: client, Tab: tab, Op: "screen"})
	if err != nil {
		return nil, err
	}
	s, err := screen.DecodeWire(ans.Screen)
	if err != nil || s.Root == nil {
		return nil, nativemsg.Errorf(nativemsg.CodeInternal, "the tab's screen could not be read: update the extension and the host together")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shown == nil {
		c.shown = map[string]map[int]*screen.Screen{}
	}
	if c.shown[client] == nil {
		c.shown[client] = map[int]*screen.Screen{}
	}
	c.shown[client][tab] = s
	return s, nil
}

// capLines keeps the whole lines of text that fit in limit bytes, and
// counts the lines left out.
func capLines(text string, limit int) (string, int) {
	if len(text) <= limit {
		return text, 0
	}
	lines := strings.Split(text, "\n")
	size, kept := 0, 0
	for kept < len(lines) && size+len(lines[kept])+1 <= limit {
		size += len(lines[kept]) + 1
		kept++
	}
	return strings.Join(lines[:kept], "\n"), len(lines) - kept
}

// node is the element of ref on the client's last screen of tab, or a
// stale-ref error.
func (c *Calls) node(client string, tab int, ref string) (*screen.Screen, *screen.Node, error) {
	if ref == "" {
		return nil, nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "\"ref\" is missing: send a ref from tab.snapshot")
	}
	c.mu.Lock()
	s := c.shown[client][tab]
	c.mu.Unlock()
	if s == nil {
		return nil, nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "stale ref %s: you took no snapshot of tab %d yet; take tab.snapshot and use a ref from it", ref, tab)
	}
	n := selector.NewMatcher(s).Node(ref)
	if n == nil {
		return nil, nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "stale ref %s: it is not on your last snapshot of tab %d; take a new tab.snapshot and use a ref from it", ref, tab)
	}
	return s, n, nil
}

// hold makes client the one actor in tab until release.
func (c *Calls) hold(client string, tab int) (func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.acting == nil {
		c.acting = map[int]string{}
	}
	if other, ok := c.acting[tab]; ok && other != client {
		return nil, refused("busy: %s is acting in tab %d now; one agent acts in a tab at a time, call again once it is done", other, tab)
	} else if ok {
		return nil, refused("busy: your previous call in tab %d is still under way", tab)
	}
	c.acting[tab] = client
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.acting, tab)
	}, nil
}

// act performs one page op in a shared tab for the client: the person
// allowed it, the tab is shared, nobody else acts there, the ref is of the
// client's last snapshot; what the tab recorded is marked the client's.
func (c *Calls) act(ctx context.Context, client string, tab int, ext ExtRequest) (ExtAnswer, error) {
	if err := c.check(client); err != nil {
		return ExtAnswer{}, err
	}
	release, err := c.hold(client, tab)
	if err != nil {
		return ExtAnswer{}, err
	}
	defer release()
	info, err := c.tabOf(ctx, client, tab)
	if err != nil {
		return ExtAnswer{}, err
	}
	origins, err := c.Recorder.Origins(ctx, info.Recording, info.URL)
	if err != nil {
		return ExtAnswer{}, refused("%v", err)
	}
	ext.Call, ext.Client, ext.Tab, ext.Origins = "page", client, tab, origins
	ext.TimeoutMs = c.actionTimeout().Milliseconds()
	c.mu.Lock()
	from := c.shown[client][tab]
	c.mu.Unlock()
	ans, err := c.ask(ctx, ext)
	recorded := ans.From > 0 && ans.Until >= ans.From && ans.Recording != ""
	if recorded {
		if perr := c.Recorder.Performed(ans.Recording, tab, ans.From, ans.Until, client); perr != nil {
			return ans, perr
		}
		if keeper, ok := c.Recorder.(SecretKeeper); ok && ext.SecretName != "" {
			if perr := keeper.TypedSecret(ans.Recording, tab, ans.From, ans.Until, ext.SecretName); perr != nil {
				return ans, perr
			}
		}
	}
	c.noteAct(client, tab, ext.Op, from, ans, err == nil && recorded)
	return ans, err
}

// A lastAct is a client's last act in a tab that the tab's recording
// recorded: what tab.assertChange checks.
type lastAct struct {
	// before is the client's snapshot the act started from (the screen
	// its refs were of): the diff's before, and the live checks' baseline.
	before *screen.Screen
	id     string // a1, a2… in the order the host's clients acted
	// session and until: the recording, and the seq of the last
	// interaction it recorded for the act (or for an assertChange of it
	// since).
	session string
	until   int64
	// consumed: a live check consumed the baseline.
	consumed bool
	// reused: an earlier act started from the same snapshot, so the diff
	// from it would hold that act's changes too.
	reused bool
}

// noteAct keeps the client's act in tab for tab.assertChange: an act the
// recording recorded becomes the last act; an assertChange of it moves
// its end; anything else (another assertion, an act that failed or
// recorded nothing) leaves no act an assertChange could follow.
func (c *Calls) noteAct(client string, tab int, op string, from *screen.Screen, ans ExtAnswer, recorded bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = map[string]map[int]*lastAct{}
	}
	if c.last[client] == nil {
		c.last[client] = map[int]*lastAct{}
	}
	prev := c.last[client][tab]
	switch {
	case op == "assertChange" && recorded && prev != nil:
		prev.until = ans.Until
	case !strings.HasPrefix(op, "assert") && recorded && from != nil:
		c.acts++
		c.last[client][tab] = &lastAct{before: from, id: fmt.Sprintf("a%d", c.acts), session: ans.Recording, until: ans.Until,
			reused: prev != nil && prev.before == from}
	default:
		delete(c.last[client], tab)
	}
}

func (c *Calls) actionTimeout() time.Duration {
	if c.ActionTimeout > 0 {
		return c.ActionTimeout
	}
	return defaultActionTimeout
}

// onRef acts on the element of ref.
func (c *Calls) onRef(ctx context.Context, req *Request, ref string, ext ExtRequest, verb string) (any, error) {
	tab, err := c.allowedTab(req)
	if err != nil {
		return nil, err
	}
	s, n, err := c.node(req.Client, tab, ref)
	if err != nil {
		return nil, err
	}
	ext.Ref, ext.Document = ref, s.Document
	ans, err := c.act(ctx, req.Client, tab, ext)
	if err != nil {
		return nil, err
	}
	return map[string]any{"did": verb + " " + screen.Describe(n), "url": ans.URL}, nil
}

func (c *Calls) tap(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Ref string `json:"ref"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	return c.onRef(ctx, req, in.Ref, ExtRequest{Op: "tap"}, "tapped")
}

// hover rests the pointer on the element of ref with a trusted mouse move:
// what the page shows on :hover or mouseenter (a menu) shows, and the
// recorder records the hover with the click on what it showed.
func (c *Calls) hover(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Ref string `json:"ref"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	return c.onRef(ctx, req, in.Ref, ExtRequest{Op: "hover"}, "rested the pointer on")
}

func (c *Calls) typeText(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Ref    string  `json:"ref"`
		Text   *string `json:"text"`
		Submit bool    `json:"submit"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	if in.Text == nil {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.type needs \"text\": what to type (\"\" clears the field)")
	}
	ext := ExtRequest{Op: "type", Text: *in.Text}
	if strings.Contains(*in.Text, "${") {
		var err error
		if ext, err = c.secretText(ctx, req, in.Ref, *in.Text); err != nil {
			return nil, err
		}
	}
	out, err := c.onRef(ctx, req, in.Ref, ext, fmt.Sprintf("typed %q into", screen.Clip(*in.Text, 61)))
	if err != nil || !in.Submit {
		return out, err
	}
	var t tabField
	_ = req.Decode(&t)
	ans, err := c.act(ctx, req.Client, *t.Tab, ExtRequest{Op: "press", Key: "Enter"})
	if err != nil {
		return nil, err
	}
	// Typing and its Enter are one act of the client's: an assertChange
	// after them checks both.
	c.mu.Lock()
	if l := c.last[req.Client][*t.Tab]; l != nil {
		l.reused = false
	}
	c.mu.Unlock()
	m := out.(map[string]any)
	m["did"] = m["did"].(string) + " and pressed Enter"
	m["url"] = ans.URL
	return m, nil
}

// secretText is the type op for a text that is a reference: only the
// whole text ${secret:NAME}, typed into a field the client's last snapshot
// shows as secret (a password field, or one the person marked sensitive)
// in a recorded tab; the host reads the value and the extension types it
// only into such a field. Anything else is refused, nothing typed.
func (c *Calls) secretText(ctx context.Context, req *Request, ref, text string) (ExtRequest, error) {
	refs, err := trail.ParseRefs(text)
	if err != nil {
		return ExtRequest{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.type text: %v; nothing was typed", err)
	}
	if len(refs) != 1 || refs[0].Kind != trail.RefSecret || refs[0].String() != text {
		return ExtRequest{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.type types a reference only as the whole text ${secret:NAME}, "+
			"into a password field or one the person marked sensitive (no ${user:…} or ${param:…}, nothing around it); nothing was typed")
	}
	name := refs[0].Name
	keeper, ok := c.Recorder.(SecretKeeper)
	if !ok {
		return ExtRequest{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "this host types no secret for a client: ask the person to type it; nothing was typed")
	}
	tab, err := c.allowedTab(req)
	if err != nil {
		return ExtRequest{}, err
	}
	_, n, err := c.node(req.Client, tab, ref)
	if err != nil {
		return ExtRequest{}, err
	}
	if !n.Secret {
		return ExtRequest{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s is not a password field nor one the person marked sensitive: a secret is typed only there "+
			"(anywhere else the page, and your next snapshot, would show its value); nothing was typed", screen.Describe(n))
	}
	info, err := c.tabOf(ctx, req.Client, tab)
	if err != nil {
		return ExtRequest{}, err
	}
	if info.Recording == "" {
		return ExtRequest{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab %d is not recorded: a secret is typed only in a recording, which keeps its name (recording.start first); nothing was typed", tab)
	}
	value, err := keeper.Secret(ctx, info.Recording, name)
	if err != nil {
		return ExtRequest{}, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s: %v; nothing was typed", text, err)
	}
	c.mu.Lock()
	if c.typed == nil {
		c.typed = map[string]string{}
	}
	c.typed[value] = text
	c.mu.Unlock()
	return ExtRequest{Op: "type", Text: value, Secret: true, SecretName: name}, nil
}

// masked is s with every secret value a client typed replaced by its
// reference, so that no answer shows one (a page that echoes it).
func (c *Calls) masked(s string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for value, ref := range c.typed {
		s = strings.ReplaceAll(s, value, ref)
	}
	return s
}

func (c *Calls) selectOptions(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Ref     string   `json:"ref"`
		Option  *string  `json:"option"`
		Options []string `json:"options"`
		Values  []string `json:"values"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	labels, err := selectLabels(in.Option, in.Options, in.Values)
	if err != nil {
		return nil, err
	}
	ext := ExtRequest{Op: "select", Option: labels[0]}
	if len(labels) > 1 {
		ext = ExtRequest{Op: "select", Options: labels}
	}
	if tab, err := c.allowedTab(req); err == nil {
		if _, n, err := c.node(req.Client, tab, in.Ref); err == nil && len(labels) > 1 && n.Role == "combobox" {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s holds one choice and %d options were given: give one in \"option\"; nothing was chosen", screen.Describe(n), len(labels))
		}
	}
	quoted := make([]string, len(labels))
	for i, l := range labels {
		quoted[i] = fmt.Sprintf("%q", screen.Clip(l, 61))
	}
	return c.onRef(ctx, req, in.Ref, ext, "chose "+strings.Join(quoted, ", ")+" in")
}

// selectLabels are the option labels a tab.select names: "option" for one,
// "options" for several (the whole selection a list box ends with), or
// "values" as before; exactly one of them, with no empty or repeated label.
func selectLabels(option *string, options, values []string) ([]string, error) {
	given := 0
	var labels []string
	if option != nil {
		given++
		labels = []string{*option}
	}
	if options != nil {
		given++
		labels = options
	}
	if values != nil {
		given++
		labels = values
	}
	switch {
	case given > 1:
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.select takes \"option\" (one label) or \"options\" (several), not both; nothing was chosen")
	case len(labels) == 0:
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.select needs \"option\": the label of the option to choose, or \"options\": the labels of those a list box of several choices ends with")
	}
	seen := map[string]bool{}
	for _, l := range labels {
		if strings.TrimSpace(l) == "" {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.select was given an empty option label: give each option's label as the snapshot shows it; nothing was chosen")
		}
		if seen[l] {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.select names the option %q twice: give each once; nothing was chosen", screen.Clip(l, 61))
		}
		seen[l] = true
	}
	return labels, nil
}

func (c *Calls) press(ctx context.Context, req *Request) (any, error) {
	var in struct {
		tabField
		Key string `json:"key"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	tab, err := in.get(req.Type)
	if err != nil {
		return nil, err
	}
	if in.Key == "" {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.press needs \"key\": a key name such as Enter, Escape or Tab")
	}
	ans, err := c.act(ctx, req.Client, tab, ExtRequest{Op: "press", Key: in.Key})
	if err != nil {
		return nil, err
	}
	return map[string]any{"did": "pressed " + in.Key, "url": ans.URL}, nil
}

func (c *Calls) navigate(ctx context.Context, req *Request) (any, error) {
	var in struct {
		tabField
		URL     string `json:"url"`
		History string `json:"history"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	tab, err := in.get(req.Type)
	if err != nil {
		return nil, err
	}
	ext := ExtRequest{Op: "navigate"}
	did := ""
	switch {
	case in.History != "" && in.URL != "":
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.navigate takes \"url\" or \"history\", not both")
	case in.History == "back" || in.History == "forward" || in.History == "reload":
		ext.History, did = in.History, "went "+in.History
		if in.History == "reload" {
			did = "reloaded the page"
		}
	case in.History != "":
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "history is back, forward or reload, not %q", in.History)
	case strings.HasPrefix(in.URL, "http://") || strings.HasPrefix(in.URL, "https://"):
		ext.URL, did = in.URL, "went to "+in.URL
	default:
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.navigate needs \"url\" (absolute, http or https, on the app's origins) or \"history\"")
	}
	ans, err := c.act(ctx, req.Client, tab, ext)
	if err != nil {
		return nil, err
	}
	return map[string]any{"did": did, "url": ans.URL}, nil
}

func (c *Calls) assertVisible(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Ref string `json:"ref"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	return c.assert(ctx, req, in.Ref, ExtRequest{Op: "assertVisible"}, func(n *screen.Node) (string, error) {
		if !n.Visible {
			return "", nativemsg.Errorf(nativemsg.CodeBadRequest, "%s is not visible: nothing was recorded", screen.Describe(n))
		}
		return "recorded: " + screen.Describe(n) + " is visible", nil
	})
}

func (c *Calls) assertValue(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Ref   string  `json:"ref"`
		Value *string `json:"value"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	if in.Value == nil {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.assertValue needs \"value\": the value the field must hold")
	}
	return c.assert(ctx, req, in.Ref, ExtRequest{Op: "assertValue", Value: *in.Value}, func(n *screen.Node) (string, error) {
		if n.Secret {
			return "", nativemsg.Errorf(nativemsg.CodeBadRequest, "%s is a secret field: its value is never recorded", screen.Describe(n))
		}
		if n.Value != *in.Value {
			return "", nativemsg.Errorf(nativemsg.CodeBadRequest, "%s holds %q, not %q: nothing was recorded", screen.Describe(n), n.Value, *in.Value)
		}
		return fmt.Sprintf("recorded: %s holds %q", screen.Describe(n), *in.Value), nil
	})
}

// assert checks the client's assertion on a fresh screen of the tab, then
// has the recorder in the page record it as the recording bar's are.
func (c *Calls) assert(ctx context.Context, req *Request, ref string, ext ExtRequest, holds func(*screen.Node) (string, error)) (any, error) {
	tab, err := c.allowedTab(req)
	if err != nil {
		return nil, err
	}
	shown, _, err := c.node(req.Client, tab, ref)
	if err != nil {
		return nil, err
	}
	if _, err := c.tabOf(ctx, req.Client, tab); err != nil {
		return nil, err
	}
	now, err := c.capture(ctx, req.Client, tab)
	if err != nil {
		return nil, err
	}
	if now.Document != shown.Document {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "stale ref %s: the page has loaded another document since your snapshot; take a new tab.snapshot and use a ref from it", ref)
	}
	n := selector.NewMatcher(now).Node(ref)
	if n == nil {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "stale ref %s: it is not on the page any more; take a new tab.snapshot", ref)
	}
	did, err := holds(n)
	if err != nil {
		return nil, err
	}
	ext.Ref, ext.Document = ref, now.Document
	if _, err := c.act(ctx, req.Client, tab, ext); err != nil {
		return nil, err
	}
	return map[string]any{"did": did}, nil
}

func (c *Calls) assertNotVisible(ctx context.Context, req *Request) (any, error) {
	var in struct {
		tabField
		Text string `json:"text"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	tab, err := in.get(req.Type)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Text) == "" {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.assertNotVisibleWithText needs \"text\": the text that must not be shown")
	}
	if err := c.check(req.Client); err != nil {
		return nil, err
	}
	// No tabs round trip first (tabOf): the extension refuses the screen of
	// a tab not shared, or driven by another client, itself
	// (background/apirelay.js, page), and a snapshot of a small page is
	// mostly these round trips (docs/mcp.md, Measured beside Playwright MCP).
	s, err := c.capture(ctx, req.Client, tab)
	if err != nil {
		return nil, err
	}
	m := selector.NewMatcher(s)
	for _, sel := range []selector.Selector{{Text: in.Text}, {Name: in.Text}} {
		nodes, err := m.Match(sel)
		var amb *selector.AmbiguousError
		if (err == nil || errors.As(err, &amb)) && len(nodes) > 0 {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "%s reads %q and is visible: nothing was recorded", screen.Describe(nodes[0]), in.Text)
		}
	}
	if _, err := c.act(ctx, req.Client, tab, ExtRequest{Op: "assertNotVisible", Text: in.Text}); err != nil {
		return nil, err
	}
	return map[string]any{"did": fmt.Sprintf("recorded: nothing visible reads %q", in.Text)}, nil
}

func (c *Calls) record(ctx context.Context, client string, ext ExtRequest) (ExtAnswer, error) {
	if err := c.check(client); err != nil {
		return ExtAnswer{}, err
	}
	ext.Call, ext.Client = "record", client
	return c.ask(ctx, ext)
}

func (c *Calls) recordingStart(ctx context.Context, req *Request) (any, error) {
	var in struct {
		tabField
		Project string `json:"project"`
		App     string `json:"app"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	tab, err := in.get(req.Type)
	if err != nil {
		return nil, err
	}
	if err := c.check(req.Client); err != nil {
		return nil, err
	}
	if _, err := c.tabOf(ctx, req.Client, tab); err != nil {
		return nil, err
	}
	ans, err := c.record(ctx, req.Client, ExtRequest{Op: "start", Tab: tab, Project: in.Project, App: in.App})
	if err != nil {
		return nil, err
	}
	return map[string]any{"session": ans.Session}, nil
}

func (c *Calls) recordingStop(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Session string `json:"session"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	if in.Session == "" {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "recording.stop needs \"session\": the one recording.start gave")
	}
	ans, err := c.record(ctx, req.Client, ExtRequest{Op: "stop", Session: in.Session})
	if err != nil {
		return nil, err
	}
	return map[string]any{"session": ans.Session, "steps": ans.Steps}, nil
}

func (c *Calls) recordingSave(ctx context.Context, req *Request) (any, error) {
	var in struct {
		Session string `json:"session"`
		Title   string `json:"title"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	if in.Session == "" || strings.TrimSpace(in.Title) == "" {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "recording.save needs \"session\" and \"title\" (the trail's title, one line)")
	}
	ans, err := c.record(ctx, req.Client, ExtRequest{Op: "save", Session: in.Session, Title: in.Title})
	if err != nil {
		return nil, err
	}
	return map[string]any{"file": ans.File, "steps": ans.Steps}, nil
}

// changeKeys are the fields tab.assertChange takes besides tab: the
// expectation in the words of the built-in agent's assertChange tool
// (docs/agent.md, The agent's assertChange).
var changeKeys = []string{"changed", "mustInclude", "mustNotInclude", "only", "maxChanges", "becameVisible", "becameCovered",
	"url", "exists", "notCovered", "settleMs", "retryMs", "keepBaseline"}

// assertChange checks what the client's last act in the tab changed, as
// the built-in agent's assertChange does and with the code replay checks
// a trail's with: its stored checks on the diff from the snapshot the act
// started from to the page now, its live checks on the page now against
// that snapshot. One that holds is recorded by the recorder in the page
// right after the act (the whole check, in the trail's keys); one that
// does not is an error, and nothing is recorded.
func (c *Calls) assertChange(ctx context.Context, req *Request) (any, error) {
	var raw map[string]json.RawMessage
	if err := req.Decode(&raw); err != nil {
		return nil, err
	}
	for k := range raw {
		if k != "v" && k != "id" && k != "type" && k != "tab" && !slices.Contains(changeKeys, k) {
			return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.assertChange has no field %q: it takes tab and %s (docs/agent-api.md); nothing was recorded",
				screen.Clip(k, 40), strings.Join(changeKeys, ", "))
		}
	}
	var args agent.ChangeArgs
	if err := req.Decode(&args); err != nil {
		return nil, err
	}
	tab, err := c.allowedTab(req)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	last := c.last[req.Client][tab]
	var l lastAct
	if last != nil {
		l = *last
	}
	c.mu.Unlock()
	switch {
	case last == nil:
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.assertChange checks what your last act in tab %d changed, and there is none to check: "+
			"act in the recorded tab (tab.tap, tab.type…) and call it right after, with no other assertion in between; nothing was recorded", tab)
	case l.reused:
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "your last act in tab %d started from the same snapshot as the act before it, so its change cannot be told apart: "+
			"take tab.snapshot right before the act you want to check; nothing was recorded", tab)
	}
	live := args.URL != nil || args.Exists != nil || args.NotCovered != nil || args.SettleMs != nil || args.RetryMs != nil || args.KeepBaseline != nil
	if live && l.consumed {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "a live tab.assertChange before this one consumed the baseline of your last act (give that one keepBaseline true); nothing was recorded")
	}
	info, err := c.tabOf(ctx, req.Client, tab)
	if err != nil {
		return nil, err
	}
	if info.Recording == "" || info.Recording != l.session {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab %d is not recorded in the session your last act was: an assertion is recorded, so act again in the recording and check right after", tab)
	}
	now, err := c.capture(ctx, req.Client, tab)
	if err != nil {
		return nil, err
	}
	spec, problem := agent.ChangeSpec(args, l.before, now, now, nil, nil)
	if problem != "" {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "the expectation cannot be checked: %s; nothing was recorded", problem)
	}
	origin := originOf(l.before.URL)
	path := func(u string) string {
		if rel, err := trail.AppPath(u, origin); err == nil {
			return rel
		}
		return u
	}
	look := func(ctx context.Context) (*screen.Screen, error) { return c.capture(ctx, req.Client, tab) }
	ev, err := assertchange.Check(ctx, spec, l.id, l.before, now, look, path)
	if err != nil {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "the tab could not be read to check the change: %v; nothing was recorded", err)
	}
	changes := ev.Lines
	if changes == nil {
		changes = []string{}
	}
	for i := range changes {
		changes[i] = c.masked(changes[i])
	}
	if ev.Error != nil {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "the change could not be checked (%s: %s); nothing was recorded", ev.Error.Code, ev.Error.Message)
	}
	if !ev.Pass {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "the change does not hold: %s; what changed: %s; nothing was recorded",
			c.masked(strings.Join(ev.Failed(), "; ")), clipLines(changes, 20))
	}
	check := trail.ChangeJSONOf(spec)
	if _, err := c.act(ctx, req.Client, tab, ExtRequest{Op: "assertChange", AssertChange: &check, Since: l.until}); err != nil {
		return nil, err
	}
	if live && (spec.KeepBaseline == nil || !*spec.KeepBaseline) {
		c.mu.Lock()
		if cur := c.last[req.Client][tab]; cur != nil {
			cur.consumed = true
		}
		c.mu.Unlock()
	}
	return map[string]any{"did": fmt.Sprintf("recorded: an assertChange of your last act (%d checks passed)", len(ev.Checks)),
		"checks": ev.Checks, "changes": changes}, nil
}

// originOf is the scheme and host of u ("" when it has none).
func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// clipLines joins the first n lines, and counts the rest.
func clipLines(lines []string, n int) string {
	if len(lines) == 0 {
		return "nothing"
	}
	if len(lines) <= n {
		return strings.Join(lines, "; ")
	}
	return strings.Join(lines[:n], "; ") + fmt.Sprintf("; and %d more", len(lines)-n)
}
