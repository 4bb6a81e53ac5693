package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Attached mode (docs/mcp.md): the tools act in the person's browser
// through the agent API of the host Chrome runs (host/PROTOCOL.md, Agent
// API). The door is only a client of that API: the extension performs each
// act with trusted input and the recorder in the page records it, exactly
// as a person's input; the door never builds an interaction itself. It
// forwards, and says the API's refusals in words that tell the agent what
// to do.

// The agent API's message types the door calls (host/PROTOCOL.md, Agent
// API).
const (
	apiTabsList       = "tabs.list"
	apiSnapshot       = "tab.snapshot"
	apiTap            = "tab.tap"
	apiHover          = "tab.hover"
	apiType           = "tab.type"
	apiSelect         = "tab.select"
	apiPress          = "tab.press"
	apiNavigate       = "tab.navigate"
	apiAssertVisible  = "tab.assertVisible"
	apiAssertValue    = "tab.assertValue"
	apiAssertChange   = "tab.assertChange"
	apiAct            = "tab.act"
	apiRecordingStart = "recording.start"
	apiRecordingStop  = "recording.stop"
	apiRecordingSave  = "recording.save"
)

// waitSnapshotLimit is the cap of the snapshots the wait and verify tools
// read to find a text or an element: the whole page, as far as is sane.
const waitSnapshotLimit = 8 << 20

// AttachedOptions are what an attached door is made of.
type AttachedOptions struct {
	// Discovery is the path of the agent API's discovery file.
	Discovery string
	// Project is the folder of the trailpin.yaml recordings go into when
	// trail_start names none ("" to let the host choose).
	Project string
	Replay  ReplayFunc
	Log     *slog.Logger
	// SnapshotLimit caps a snapshot's text, in bytes; 0 means
	// DefaultSnapshotLimit.
	SnapshotLimit int
	// ActionTimeout bounds how long the verify and wait tools poll; 0
	// means 10s.
	ActionTimeout time.Duration
	// PollInterval is the pause between the snapshots a wait or verify
	// reads; 0 means 250ms.
	PollInterval time.Duration
	// Version is this program's version, told to clients.
	Version string
}

// An Attached door serves the tools of one MCP session through the agent
// API of the host Chrome runs.
type Attached struct {
	o   AttachedOptions
	log *slog.Logger

	// conn is the connection to the host, made at the first call with the
	// MCP client's name (its hello's client name); nil before, and after
	// it broke.
	conn *agentapi.Client
	// tab is the shared tab the tools act in (0: not chosen yet); url is
	// its address as last seen.
	tab int
	url string
	// listed is the last list of shared tabs browser_tabs gave.
	listed []sharedTab
	// session is the recording under way in the tab ("" when none is
	// known), project its project's folder.
	session, project string
	// saved is the file the last trail_save wrote, and savedProject its
	// project's folder.
	saved, savedProject string
}

// A sharedTab is one entry of tabs.list.
type sharedTab struct {
	Tab       int    `json:"tab"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Recording string `json:"recording"`
}

// NewAttached returns the attached door made of o.
func NewAttached(o AttachedOptions) *Attached {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.SnapshotLimit <= 0 {
		o.SnapshotLimit = DefaultSnapshotLimit
	}
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 10 * time.Second
	}
	if o.PollInterval <= 0 {
		o.PollInterval = 250 * time.Millisecond
	}
	return &Attached{o: o, log: log}
}

// Server is the MCP server of the door, its tools registered.
func (a *Attached) Server() *sdk.Server {
	return newServer(a, a.o.Version, a.log)
}

// Serve serves the door on t until the client closes it or ctx ends, and
// then closes the connection to the host.
func (a *Attached) Serve(ctx context.Context, t sdk.Transport) error {
	defer a.Close()
	return a.Server().Run(ctx, t)
}

// Close ends the connection to the host.
func (a *Attached) Close() {
	if a.conn != nil {
		a.conn.Close()
		a.conn = nil
	}
}

// helloName is the MCP client's name as the agent API's hello takes it
// (host/PROTOCOL.md: 1 to 64 letters, digits, spaces or ._@/+-, starting
// with a letter or digit): other characters become "-".
func helloName(client string) string {
	name := helloUnsafe.ReplaceAllString(client, "-")
	name = strings.TrimLeft(name, " ._@/+-")
	if len(name) > 64 {
		name = strings.TrimRight(name[:64], " ")
	}
	if name == "" {
		return "mcp-client"
	}
	return name
}

var helloUnsafe = regexp.MustCompile(`[^A-Za-z0-9 ._@/+-]`)

// call sends one request to the host and reads its reply into out; an
// error reply is said in the client's words.
func (a *Attached) call(ctx context.Context, client, typ string, body, out any) error {
	if a.conn == nil {
		c, err := agentapi.Dial(ctx, a.o.Discovery, helloName(client))
		if err != nil {
			var e *nativemsg.Error
			if errors.As(err, &e) {
				return a.apiError("hello", client, e)
			}
			return err
		}
		a.conn = c
		a.log.Info("connected to the host's agent API", "version", c.Hello.Version, "client", helloName(client))
	}
	err := a.conn.Call(ctx, typ, body, out)
	var e *nativemsg.Error
	if errors.As(err, &e) {
		return a.apiError(typ, client, e)
	}
	if err != nil {
		a.conn.Close()
		a.conn = nil
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return toolError("the connection to the Trailpin host broke during %s (%v): is Chrome still open with the Trailpin extension? "+
			"Take browser_snapshot to see what the page shows; the next call connects again", typ, err)
	}
	return nil
}

// apiError says an error reply of the host in the client's words: what
// happened, that nothing was done, and what to do.
func (a *Attached) apiError(typ, client string, e *nativemsg.Error) error {
	msg := strings.TrimRight(e.Message, ". ")
	switch {
	case e.Code == nativemsg.CodeRefused && strings.Contains(strings.ToLower(msg), "busy"):
		return toolError("the tab is busy: %s. Another client is acting in it; nothing was done. Wait a moment and try again", msg)
	case e.Code == nativemsg.CodeRefused:
		if strings.Contains(strings.ToLower(msg), "shared") {
			a.tab = 0 // the person may share another tab
		}
		return toolError("refused by the person's browser: %s. Nothing was done. The person decides in the Trailpin extension in Chrome: "+
			"they allow the client %q when it asks, and share each tab it may act in (browser_tabs lists them)", msg, helloName(client))
	case e.Code == nativemsg.CodeBadRequest && strings.HasPrefix(strings.ToLower(msg), "stale ref"):
		return toolError("%s. Nothing was done: call browser_snapshot and use a ref from it", msg)
	case e.Code == nativemsg.CodeUnknownType:
		return toolError("the Trailpin host Chrome runs does not serve %s (%s): update Trailpin, or run host mcp --headless for a browser of its own", typ, msg)
	}
	return toolError("the Trailpin host refused %s: %s", typ, msg)
}

// needTab is the shared tab to act in: the one chosen, else the only one
// the person shared.
func (a *Attached) needTab(ctx context.Context, client string) (int, error) {
	if a.tab != 0 {
		return a.tab, nil
	}
	tabs, err := a.listTabs(ctx, client)
	if err != nil {
		return 0, err
	}
	switch len(tabs) {
	case 0:
		return 0, toolError("no tab is shared with the client %q: ask the person to share the tab to work in, from the Trailpin extension in Chrome, then try again", helloName(client))
	case 1:
		a.choose(tabs[0])
		return a.tab, nil
	}
	return 0, toolError("%d tabs are shared: call browser_tabs with action select and the index of the one to act in\n%s", len(tabs), listText(tabs, 0))
}

func (a *Attached) choose(t sharedTab) {
	if a.tab != t.Tab {
		a.session, a.project = t.Recording, ""
	}
	a.tab, a.url = t.Tab, t.URL
	if t.Recording != "" {
		a.session = t.Recording
	}
}

func (a *Attached) listTabs(ctx context.Context, client string) ([]sharedTab, error) {
	var out struct {
		Tabs []sharedTab `json:"tabs"`
	}
	if err := a.call(ctx, client, apiTabsList, nil, &out); err != nil {
		return nil, err
	}
	a.listed = out.Tabs
	return out.Tabs, nil
}

// listText lists tabs for the client, current marking the chosen one.
func listText(tabs []sharedTab, current int) string {
	var b strings.Builder
	for i, t := range tabs {
		mark := ""
		if t.Tab == current {
			mark = "(current) "
		}
		rec := ""
		if t.Recording != "" {
			rec = " (recording)"
		}
		fmt.Fprintf(&b, "- %d: %s[%s](%s)%s\n", i, mark, t.Title, t.URL, rec)
	}
	return b.String()
}

func (a *Attached) tabs(ctx context.Context, client string, in tabsIn) (string, error) {
	switch in.Action {
	case "list", "":
		tabs, err := a.listTabs(ctx, client)
		if err != nil {
			return "", err
		}
		if len(tabs) == 0 {
			return fmt.Sprintf("No tab is shared with the client %q: ask the person to share one from the Trailpin extension in Chrome.", helloName(client)), nil
		}
		return listText(tabs, a.tab), nil
	case "select":
		tabs := a.listed
		if tabs == nil {
			var err error
			if tabs, err = a.listTabs(ctx, client); err != nil {
				return "", err
			}
		}
		if in.Index < 0 || in.Index >= len(tabs) {
			return "", toolError("index %d: the list has %d tabs; call browser_tabs with action list to see them", in.Index, len(tabs))
		}
		a.choose(tabs[in.Index])
		return listText(tabs, a.tab), nil
	}
	return "", toolError("action %q: use list or select", in.Action)
}

// A snapshotReply is tab.snapshot's reply.
type snapshotReply struct {
	URL      string `json:"url"`
	Title    string `json:"title"`
	Document string `json:"document"`
	Text     string `json:"text"`
	Omitted  int    `json:"omitted"`
	Bytes    int    `json:"bytes"`
}

// snap takes a snapshot of the tab; it is the last snapshot the host
// checks refs against.
func (a *Attached) snap(ctx context.Context, client string, tab int, ref string, interactive bool, limit int) (*snapshotReply, error) {
	mode := "full"
	if interactive {
		mode = "interactive"
	}
	body := map[string]any{"tab": tab, "mode": mode, "limit": limit}
	if ref != "" {
		body["ref"] = ref
	}
	var out snapshotReply
	if err := a.call(ctx, client, apiSnapshot, body, &out); err != nil {
		return nil, err
	}
	a.url = out.URL
	return &out, nil
}

// page writes a snapshot for the client, as the headless door does.
func (sn *snapshotReply) page() string {
	var b strings.Builder
	writePage(&b, sn.URL, sn.Title, sn.Text)
	if sn.Omitted > 0 {
		fmt.Fprintf(&b, "[Snapshot cut at the size limit: %d more lines left out (the whole is %d bytes). "+
			"Call browser_snapshot with ref set to a region's ref to see it whole, or with interactive: true for controls only.]\n",
			sn.Omitted, sn.Bytes)
	}
	return b.String()
}

func (a *Attached) snapshotTool(ctx context.Context, client string, in snapshotIn) (string, error) {
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	sn, err := a.snap(ctx, client, tab, in.Ref, in.Interactive, a.o.SnapshotLimit)
	if err != nil {
		return "", err
	}
	return sn.page(), nil
}

// An actReply is the reply of the acts: what happened, and where the tab
// is after it.
type actReply struct {
	Did string `json:"did"`
	URL string `json:"url"`
}

// act sends one act to the tab and answers what it did with the page as
// it is after it (the snapshot the next refs come from).
func (a *Attached) act(ctx context.Context, client, typ string, body map[string]any) (string, error) {
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	body["tab"] = tab
	var out actReply
	if err := a.call(ctx, client, typ, body, &out); err != nil {
		return "", err
	}
	if out.URL != "" {
		a.url = out.URL
	}
	did := sentence(out.Did)
	sn, err := a.snap(ctx, client, tab, "", false, a.o.SnapshotLimit)
	if err != nil {
		return did + "\nThe page could not be shown after it: " + err.Error(), nil
	}
	return did + "\n" + sn.page(), nil
}

// sentence makes the host's one line a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "Done."
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// needRef refuses an act without a ref before anything is sent.
func needRef(ref string) error {
	if ref == "" {
		return toolError("ref is missing: give the element's ref from the last browser_snapshot (such as e12)")
	}
	return nil
}

func (a *Attached) click(ctx context.Context, client string, in clickIn) (string, error) {
	if err := needRef(in.Ref); err != nil {
		return "", err
	}
	if !in.plain() {
		// The agent API's tab.tap clicks once with the left button.
		return "", toolError("in the person's browser browser_click clicks once with the left button, with no key held; " +
			"doubleClick, button and modifiers need host mcp --headless. Nothing was done")
	}
	body := map[string]any{"ref": in.Ref}
	if in.Element != "" {
		body["element"] = in.Element
	}
	return a.act(ctx, client, apiTap, body)
}

func (a *Attached) hover(ctx context.Context, client string, in hoverIn) (string, error) {
	if err := needRef(in.Ref); err != nil {
		return "", err
	}
	return a.act(ctx, client, apiHover, map[string]any{"ref": in.Ref})
}

func (a *Attached) typeText(ctx context.Context, client string, in typeIn) (string, error) {
	if err := needRef(in.Ref); err != nil {
		return "", err
	}
	if _, err := trail.ParseRefs(in.Text); err != nil {
		return "", toolError("text: %v", err)
	}
	// ${secret:NAME} goes to the host as it is: the host reads the value
	// and types it only into a secret field of a recorded tab, and refuses
	// any other reference (docs/agent-api.md).
	return a.act(ctx, client, apiType, map[string]any{"ref": in.Ref, "text": in.Text, "submit": in.Submit})
}

func (a *Attached) selectOption(ctx context.Context, client string, in selectIn) (string, error) {
	if len(in.Values) == 0 {
		return "", toolError("values is empty: give the labels of the options to choose")
	}
	if err := needRef(in.Ref); err != nil {
		return "", err
	}
	// One label is the API's "option"; several are "options", the whole
	// selection a list box of several choices ends with.
	args := map[string]any{"ref": in.Ref, "option": in.Values[0]}
	if len(in.Values) > 1 {
		args = map[string]any{"ref": in.Ref, "options": in.Values}
	}
	return a.act(ctx, client, apiSelect, args)
}

func (a *Attached) pressKey(ctx context.Context, client string, in pressIn) (string, error) {
	if strings.TrimSpace(in.Key) == "" {
		return "", toolError("key is missing: give a character or a key name such as Enter")
	}
	return a.act(ctx, client, apiPress, map[string]any{"key": in.Key})
}

func (a *Attached) navigate(ctx context.Context, client string, in navigateIn) (string, error) {
	target := strings.TrimSpace(in.URL)
	if target == "" {
		return "", toolError("url is missing: give the page to go to, such as https://shop.example/products or /products")
	}
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	if target, err = a.absolute(target); err != nil {
		return "", err
	}
	var out actReply
	if err := a.call(ctx, client, apiNavigate, map[string]any{"tab": tab, "url": target}, &out); err != nil {
		return "", err
	}
	sn, err := a.snap(ctx, client, tab, "", false, a.o.SnapshotLimit)
	if err != nil {
		return sentence(out.Did) + "\nThe page could not be shown after it: " + err.Error(), nil
	}
	return sn.page(), nil
}

// absolute resolves a path such as /cart against the tab's page.
func (a *Attached) absolute(target string) (string, error) {
	if strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "//") {
		base, err := url.Parse(a.url)
		if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
			return "", toolError("url %s is a path, and the tab is on no web page: give a full URL", target)
		}
		return base.Scheme + "://" + base.Host + target, nil
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", toolError("url %q is not an http or https address: give a full URL or a path of the app", screen.Clip(target, 200))
	}
	return target, nil
}

// poll reads the tab's whole snapshot until find finds what it looks for
// or the action timeout ends; it returns find's last error.
func (a *Attached) poll(ctx context.Context, client string, find func(nodes []*screen.SnapshotNode) error) error {
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(a.o.ActionTimeout)
	for {
		sn, err := a.snap(ctx, client, tab, "", false, waitSnapshotLimit)
		if err != nil {
			return err
		}
		nodes, err := screen.ParseSnapshot(sn.Text)
		if err != nil {
			return toolError("reading the page's snapshot: %v", err)
		}
		err = find(nodes)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(a.o.PollInterval):
		}
	}
}

// findNode is the first element, in document order, for which match holds,
// or that holds a text for which it holds, and has a ref: the nearest
// element with a ref around a matching text.
func findNode(nodes []*screen.SnapshotNode, match func(n *screen.SnapshotNode) bool) *screen.SnapshotNode {
	var walk func(nodes []*screen.SnapshotNode, holder *screen.SnapshotNode) *screen.SnapshotNode
	walk = func(nodes []*screen.SnapshotNode, holder *screen.SnapshotNode) *screen.SnapshotNode {
		for _, n := range nodes {
			h := holder
			if n.Ref != "" {
				h = n
			}
			if match(n) && h != nil {
				return h
			}
			if f := walk(n.Children, h); f != nil {
				return f
			}
		}
		return nil
	}
	return walk(nodes, nil)
}

// reads reports whether n shows text: its name, or its text, holds it.
func reads(n *screen.SnapshotNode, text string) bool {
	text = strings.Join(strings.Fields(text), " ")
	return text != "" && (strings.Contains(n.Name, text) || strings.Contains(n.Text, text))
}

func (a *Attached) waitFor(ctx context.Context, client string, in waitIn) (string, error) {
	switch {
	case in.Time > 0:
		return waitSeconds(ctx, in.Time)
	case in.Text != "":
		err := a.poll(ctx, client, func(nodes []*screen.SnapshotNode) error {
			if findNode(nodes, func(n *screen.SnapshotNode) bool { return reads(n, in.Text) }) == nil {
				return toolError("%q did not show within %s", in.Text, a.o.ActionTimeout)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%q is visible.", in.Text), nil
	case in.TextGone != "":
		err := a.poll(ctx, client, func(nodes []*screen.SnapshotNode) error {
			if findNode(nodes, func(n *screen.SnapshotNode) bool { return reads(n, in.TextGone) }) != nil {
				return toolError("%q was still visible after %s", in.TextGone, a.o.ActionTimeout)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%q is gone.", in.TextGone), nil
	}
	return "", toolError("give text, textGone or time")
}

// assertVisible finds, in the tab's snapshot, the element match picks and
// asks the host to record it visible.
func (a *Attached) assertVisible(ctx context.Context, client, missing string, match func(n *screen.SnapshotNode) bool) (string, error) {
	var found *screen.SnapshotNode
	err := a.poll(ctx, client, func(nodes []*screen.SnapshotNode) error {
		if found = findNode(nodes, match); found == nil {
			return toolError("%s: the check failed and nothing was recorded", missing)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	var out actReply
	if err := a.call(ctx, client, apiAssertVisible, map[string]any{"tab": a.tab, "ref": found.Ref}, &out); err != nil {
		return "", err
	}
	return sentence(out.Did), nil
}

func (a *Attached) verifyElement(ctx context.Context, client string, in verifyElementIn) (string, error) {
	if in.Role == "" {
		return "", toolError("role is missing: give the element's role as the snapshot shows it (- button \"Save\")")
	}
	return a.assertVisible(ctx, client, fmt.Sprintf("no visible %s named %q", in.Role, in.AccessibleName), func(n *screen.SnapshotNode) bool {
		return n.Ref != "" && n.Role == in.Role && n.Name == in.AccessibleName
	})
}

func (a *Attached) verifyText(ctx context.Context, client string, in verifyTextIn) (string, error) {
	if strings.TrimSpace(in.Text) == "" {
		return "", toolError("text is missing: give the text that must be visible")
	}
	return a.assertVisible(ctx, client, fmt.Sprintf("no visible element reads %q", in.Text), func(n *screen.SnapshotNode) bool {
		return reads(n, in.Text)
	})
}

func (a *Attached) verifyValue(ctx context.Context, client string, in verifyValueIn) (string, error) {
	if err := needRef(in.Ref); err != nil {
		return "", err
	}
	value := in.Value
	if in.Type == "checkbox" || in.Type == "radio" {
		value = map[string]string{"true": "true", "checked": "true", "false": "false", "unchecked": "false"}[strings.ToLower(in.Value)]
		if value == "" {
			return "", toolError("value %q: a %s's value is true or false", in.Value, in.Type)
		}
	}
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	var out actReply
	if err := a.call(ctx, client, apiAssertValue, map[string]any{"tab": tab, "ref": in.Ref, "value": value}, &out); err != nil {
		return "", err
	}
	return sentence(out.Did), nil
}

func (a *Attached) trailStart(ctx context.Context, client string, in trailStartIn) (string, error) {
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	project := in.Project
	if project == "" {
		project = a.o.Project
	}
	if project != "" {
		if project, err = filepath.Abs(project); err != nil {
			return "", err
		}
	}
	if in.URL != "" {
		// The start page is loaded first, as a person's tab is open
		// when they press Record: it is where the trail starts.
		target, err := a.absolute(strings.TrimSpace(in.URL))
		if err != nil {
			return "", err
		}
		if err := a.call(ctx, client, apiNavigate, map[string]any{"tab": tab, "url": target}, nil); err != nil {
			return "", err
		}
	}
	body := map[string]any{"tab": tab}
	if project != "" {
		body["project"] = project
	}
	if in.App != "" {
		body["app"] = in.App
	}
	var out struct {
		Session string `json:"session"`
	}
	if err := a.call(ctx, client, apiRecordingStart, body, &out); err != nil {
		return "", err
	}
	a.session, a.project = out.Session, project
	a.log.Info("recording started", "session", out.Session, "tab", tab)
	started := fmt.Sprintf("Recording a trail in the shared tab (session %s).", out.Session)
	sn, err := a.snap(ctx, client, tab, "", false, a.o.SnapshotLimit)
	if err != nil {
		return started + "\nThe page could not be shown: " + err.Error(), nil
	}
	return started + "\n" + sn.page(), nil
}

func (a *Attached) trailSave(ctx context.Context, client string, in trailSaveIn) (string, error) {
	if strings.TrimSpace(in.Title) == "" {
		return "", toolError("title is missing: give the trail a title, such as \"Add an iPhone to the cart\"")
	}
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	if a.session == "" {
		// A recording the person started in the tab is the one saved.
		tabs, err := a.listTabs(ctx, client)
		if err != nil {
			return "", err
		}
		for _, t := range tabs {
			if t.Tab == tab {
				a.session = t.Recording
			}
		}
	}
	if a.session == "" {
		return "", toolError("no trail is being recorded in the tab: call trail_start first")
	}
	var stop struct {
		Steps int `json:"steps"`
	}
	if err := a.call(ctx, client, apiRecordingStop, map[string]any{"session": a.session}, &stop); err != nil {
		return "", err
	}
	var saved struct {
		File  string `json:"file"`
		Steps int    `json:"steps"`
	}
	if err := a.call(ctx, client, apiRecordingSave, map[string]any{"session": a.session, "title": in.Title}, &saved); err != nil {
		return "", err
	}
	project := a.project
	if project == "" {
		project = a.o.Project
	}
	a.saved, a.savedProject = saved.File, project
	a.session, a.project = "", ""
	var b strings.Builder
	fmt.Fprintf(&b, "Saved the trail %q (%d steps) to %s.\n", in.Title, saved.Steps, saved.File)
	b.WriteString("The recording ended: call trail_start for another.\n")
	if content, err := os.ReadFile(saved.File); err == nil {
		fmt.Fprintf(&b, "```yaml\n%s```\n", content)
	}
	return b.String(), nil
}

func (a *Attached) trailReplay(ctx context.Context, client string, in trailReplayIn) (string, error) {
	return replayTrail(ctx, a.o.Replay, in.Path, a.o.Project, a.saved, a.savedProject)
}
