package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/headless"
	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/secrets"
)

// The tools' arguments. Names follow Playwright MCP's where the action is
// the same (docs/mcp.md).

type navigateIn struct {
	URL string `json:"url" jsonschema:"the URL to go to: a page of the project's app (a path such as /cart is on the recording's app)"`
}

type snapshotIn struct {
	Ref         string `json:"ref,omitempty" jsonschema:"only the element of this ref and what is inside it"`
	Interactive bool   `json:"interactive,omitempty" jsonschema:"only what can be acted on (controls, with the headings and rows that tell them apart)"`
}

type clickIn struct {
	Element     string   `json:"element,omitempty" jsonschema:"the element in words, as the snapshot shows it"`
	Ref         string   `json:"ref" jsonschema:"the element's ref in the last snapshot"`
	DoubleClick bool     `json:"doubleClick,omitempty" jsonschema:"double-click instead of a single click"`
	Button      string   `json:"button,omitempty" jsonschema:"the mouse button: left (the default), right or middle"`
	Modifiers   []string `json:"modifiers,omitempty" jsonschema:"keys held during the click: Alt, Control, ControlOrMeta, Meta, Shift"`
}

// click is how the client asked to click: a single left click unless it
// said otherwise.
func (in clickIn) click() (headless.Click, error) {
	c := headless.Click{Count: 1}
	if in.DoubleClick {
		c.Count = 2
	}
	switch in.Button {
	case "", string(trail.ButtonLeft):
	case string(trail.ButtonRight), string(trail.ButtonMiddle):
		c.Button = trail.MouseButton(in.Button)
	default:
		return c, toolError("button %q: give left, right or middle; nothing was done", in.Button)
	}
	for _, m := range in.Modifiers {
		if m == "ControlOrMeta" {
			// Control where the browser runs (Linux, Windows): headless
			// Chromium here.
			m = string(trail.ModifierControl)
		}
		if !slices.Contains(trail.ModifierWords, m) {
			return c, toolError("modifiers: %q is none of Alt, Control, ControlOrMeta, Meta, Shift; nothing was done", m)
		}
		if !slices.Contains(c.Modifiers, trail.Modifier(m)) {
			c.Modifiers = append(c.Modifiers, trail.Modifier(m))
		}
	}
	return c, nil
}

// plain reports whether the click is a single left click with no key held.
func (in clickIn) plain() bool {
	return !in.DoubleClick && (in.Button == "" || in.Button == string(trail.ButtonLeft)) && len(in.Modifiers) == 0
}

type hoverIn struct {
	Element string `json:"element,omitempty" jsonschema:"the element in words, as the snapshot shows it"`
	Ref     string `json:"ref" jsonschema:"the element's ref in the last snapshot"`
}

type typeIn struct {
	Element string `json:"element,omitempty" jsonschema:"the element in words, as the snapshot shows it"`
	Ref     string `json:"ref" jsonschema:"the field's ref in the last snapshot"`
	Text    string `json:"text" jsonschema:"the text the field ends with; ${secret:NAME} types the project's secret NAME, recorded by name"`
	Submit  bool   `json:"submit,omitempty" jsonschema:"press Enter after typing"`
	Slowly  bool   `json:"slowly,omitempty" jsonschema:"accepted for compatibility: text is always typed key by key"`
}

type selectIn struct {
	Element string   `json:"element,omitempty" jsonschema:"the drop-down in words, as the snapshot shows it"`
	Ref     string   `json:"ref" jsonschema:"the drop-down's ref in the last snapshot"`
	Values  []string `json:"values" jsonschema:"the labels of the options to choose"`
}

type pressIn struct {
	Key string `json:"key" jsonschema:"a character or a key name such as Enter, Tab, ArrowDown or Escape; modifiers as Control+a"`
}

type waitIn struct {
	Text     string  `json:"text,omitempty" jsonschema:"wait until this text is visible"`
	TextGone string  `json:"textGone,omitempty" jsonschema:"wait until this text is no longer visible"`
	Time     float64 `json:"time,omitempty" jsonschema:"wait this many seconds (at most 60)"`
}

type verifyElementIn struct {
	Role           string `json:"role" jsonschema:"the element's role, as the snapshot shows it: - ROLE \"name\""`
	AccessibleName string `json:"accessibleName" jsonschema:"the element's accessible name, as the snapshot shows it: - role \"NAME\""`
}

type verifyTextIn struct {
	Text string `json:"text" jsonschema:"the text that must be visible"`
}

type verifyValueIn struct {
	Type    string `json:"type,omitempty" jsonschema:"the kind of control: textbox, combobox, slider, checkbox or radio"`
	Element string `json:"element,omitempty" jsonschema:"the control in words, as the snapshot shows it"`
	Ref     string `json:"ref" jsonschema:"the control's ref in the last snapshot"`
	Value   string `json:"value" jsonschema:"the value it must have; for a checkbox or radio, true or false (checked or unchecked)"`
}

type trailStartIn struct {
	App     string `json:"app,omitempty" jsonschema:"the app of the project to record (apps.NAME in trailpin.yaml); added with url's origin when the project has no such app"`
	URL     string `json:"url,omitempty" jsonschema:"the page the trail starts on (default: the app's base URL)"`
	Project string `json:"project,omitempty" jsonschema:"the folder of the project's trailpin.yaml (default: the one host mcp runs in)"`
}

type trailSaveIn struct {
	Title string `json:"title" jsonschema:"the trail's title, one line"`
}

type trailReplayIn struct {
	Path string `json:"path,omitempty" jsonschema:"the trail file to replay (default: the one trail_save wrote last)"`
}

type tabsIn struct {
	Action string `json:"action" jsonschema:"list (the tabs you may act in), or select (with index: act in that tab from now on)"`
	Index  int    `json:"index,omitempty" jsonschema:"the tab's index in the list, for select"`
}

// A backend performs the tools of one session. The headless Door acts in a
// tab of its own and records through the recording service; Attached
// forwards each call to the agent API of the host Chrome runs, where the
// extension acts and records. Both are served by the one registration of
// newServer, so the tools' names, arguments and descriptions are the same
// in both modes.
type backend interface {
	navigate(ctx context.Context, client string, in navigateIn) (string, error)
	snapshotTool(ctx context.Context, client string, in snapshotIn) (string, error)
	click(ctx context.Context, client string, in clickIn) (string, error)
	hover(ctx context.Context, client string, in hoverIn) (string, error)
	typeText(ctx context.Context, client string, in typeIn) (string, error)
	selectOption(ctx context.Context, client string, in selectIn) (string, error)
	pressKey(ctx context.Context, client string, in pressIn) (string, error)
	waitFor(ctx context.Context, client string, in waitIn) (string, error)
	verifyElement(ctx context.Context, client string, in verifyElementIn) (string, error)
	verifyText(ctx context.Context, client string, in verifyTextIn) (string, error)
	verifyValue(ctx context.Context, client string, in verifyValueIn) (string, error)
	assertChange(ctx context.Context, client string, in assertChangeIn) (string, error)
	trailAct(ctx context.Context, client string, in trailActIn) (string, error)
	tabs(ctx context.Context, client string, in tabsIn) (string, error)
	trailStart(ctx context.Context, client string, in trailStartIn) (string, error)
	trailSave(ctx context.Context, client string, in trailSaveIn) (string, error)
	trailReplay(ctx context.Context, client string, in trailReplayIn) (string, error)
}

// newServer is the MCP server of one session: every tool, performed by b.
func newServer(b backend, version string, log *slog.Logger) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "trailpin", Title: "Trailpin", Version: version},
		&sdk.ServerOptions{Logger: log, Instructions: instructions})
	r := &registry{s: s, log: log}
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true}
	add(r, &sdk.Tool{Name: "browser_navigate", Description: "Go to a URL of the app, recorded as a step"}, b.navigate)
	add(r, &sdk.Tool{Name: "browser_snapshot", Annotations: readOnly,
		Description: "The page as text with a ref for each element to act on; capped in size (it says what it left out)"}, b.snapshotTool)
	add(r, &sdk.Tool{Name: "browser_click", Description: "Click an element by its ref, recorded as a step"}, b.click)
	add(r, &sdk.Tool{Name: "browser_hover", Description: "Rest the pointer on an element by its ref, so that what shows on hover (a menu) can be clicked; " +
		"recorded with the click or check on what it showed, else as a step of its own"}, b.hover)
	add(r, &sdk.Tool{Name: "browser_type", Description: "Type text into a field by its ref, recorded as a step"}, b.typeText)
	add(r, &sdk.Tool{Name: "browser_select_option", Description: "Choose options in a drop-down by its ref, recorded as a step"}, b.selectOption)
	add(r, &sdk.Tool{Name: "browser_press_key", Description: "Press a key where the focus is, recorded as a step"}, b.pressKey)
	add(r, &sdk.Tool{Name: "browser_wait_for", Annotations: readOnly,
		Description: "Wait for a text to appear or disappear, or for a time to pass (not recorded: replay waits by itself)"}, b.waitFor)
	add(r, &sdk.Tool{Name: "browser_verify_element_visible", Description: "Check that an element is visible, recorded as an assertion"}, b.verifyElement)
	add(r, &sdk.Tool{Name: "browser_verify_text_visible", Description: "Check that a text is visible, recorded as an assertion"}, b.verifyText)
	add(r, &sdk.Tool{Name: "browser_verify_value", Description: "Check a control's value by its ref, recorded as an assertion"}, b.verifyValue)
	add(r, &sdk.Tool{Name: "browser_assert_change", Description: "Check what your last action changed (a menu opened, nothing else changed), " +
		"recorded as an assertion right after it. Stored checks (changed, mustInclude, mustNotInclude, only, maxChanges, becameVisible, becameCovered) " +
		"read the diff of your last action; live checks (url, exists, notCovered, with settleMs, retryMs, keepBaseline) read the page now; one group per call"}, b.assertChange)
	add(r, &sdk.Tool{Name: "browser_tabs", Description: "List the tabs you may act in, or select the one to act in"}, b.tabs)
	add(r, &sdk.Tool{Name: "trail_start", Description: "Start recording a trail of an app of the project, on its start page"}, b.trailStart)
	add(r, &sdk.Tool{Name: "trail_act", Description: "Have Trailpin's built-in agent perform a goal in the tab (on the project's model), " +
		"its actions recorded as yours; answers what it did and the page after it"}, b.trailAct)
	add(r, &sdk.Tool{Name: "trail_save", Description: "Save the recording as a trail with a title, write its file into the project's trails folder, and return its path and YAML"}, b.trailSave)
	add(r, &sdk.Tool{Name: "trail_replay", Description: "Replay a trail file headless, as host replay does, and return its summary"}, b.trailReplay)
	return s
}

// A registry is the server tools are added to.
type registry struct {
	s   *sdk.Server
	log *slog.Logger
	// mu makes the tools run one at a time: one actor per tab.
	mu sync.Mutex
}

// add registers a tool whose handler runs alone (one actor at a time) and
// answers text.
func add[In any](r *registry, t *sdk.Tool, h func(ctx context.Context, client string, in In) (string, error)) {
	sdk.AddTool(r.s, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (*sdk.CallToolResult, any, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		text, err := h(ctx, clientName(req), in)
		if err != nil {
			r.log.Info("tool refused", "tool", t.Name, "err", err)
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
	})
}

// needRecording refuses an action before a recording started.
func (d *Door) needRecording() error {
	if d.rec == nil {
		return toolError("no trail is being recorded: call trail_start (or browser_navigate to a page of the project's app) first")
	}
	return nil
}

// look captures the page and remembers it as the snapshot shown, and
// renders it for the client.
func (d *Door) look(ctx context.Context) (string, error) {
	s, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	d.shown = s
	sn, err := renderSnapshot(s, "", false, d.o.SnapshotLimit)
	if err != nil {
		return "", err
	}
	return sn.page(s), nil
}

func (d *Door) snapshotTool(ctx context.Context, client string, in snapshotIn) (string, error) {
	s, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	if in.Ref != "" && (d.shown == nil || s.Document != d.shown.Document) {
		return "", toolError("ref %s is stale: the page loaded another document since the last snapshot; call browser_snapshot without ref", in.Ref)
	}
	sn, err := renderSnapshot(s, in.Ref, in.Interactive, d.o.SnapshotLimit)
	if err != nil {
		return "", err
	}
	d.shown = s
	return sn.page(s), nil
}

// A target is an element the client named by ref, found on the page as it
// is now.
type target struct {
	node *screen.Node
	now  *screen.Screen
}

// findRef checks a ref against the snapshot shown and the page now: a ref
// the snapshot did not give, a page that loaded another document since, or
// an element that is gone is stale, and nothing is done. The page must be
// on the app's origins.
func (d *Door) findRef(ctx context.Context, ref string) (*target, error) {
	if err := d.needRecording(); err != nil {
		return nil, err
	}
	if ref == "" {
		return nil, toolError("ref is missing: give the element's ref from the last browser_snapshot (such as e12)")
	}
	if d.shown == nil {
		return nil, toolError("no snapshot was taken yet: call browser_snapshot and use a ref from it")
	}
	if selector.NewMatcher(d.shown).Node(ref) == nil {
		return nil, toolError("ref %s is not in the last snapshot: call browser_snapshot and use a ref from it; nothing was done", ref)
	}
	now, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return nil, err
	}
	if now.Document != d.shown.Document {
		return nil, toolError("ref %s is stale: the page loaded another document since the last snapshot; call browser_snapshot again. Nothing was done", ref)
	}
	n := selector.NewMatcher(now).Node(ref)
	if n == nil {
		return nil, toolError("ref %s is stale: its element is no longer on the page; call browser_snapshot again. Nothing was done", ref)
	}
	if !d.rec.onApp(now.URL) {
		return nil, toolError("the page is on %s, which is not one of the app's origins (%s): nothing was done", originOrURL(now.URL), strings.Join(d.rec.origins, ", "))
	}
	return &target{node: n, now: now}, nil
}

// originOrURL is the origin of u, or u when it has none.
func originOrURL(u string) string {
	if o, err := config.OriginOf(u); err == nil {
		return o
	}
	return u
}

// staleAct says a ref that went stale between the check and the act.
func staleAct(ref string, err error) error {
	if errors.Is(err, headless.ErrStale) {
		return toolError("ref %s is stale: %v; call browser_snapshot again. Nothing was done", ref, err)
	}
	return err
}

// after records the pages an action committed and answers what it did
// with the page as it is now.
func (d *Door) after(ctx context.Context, client, did string) (string, error) {
	if _, err := d.recordNavigations(ctx, client, "link"); err != nil {
		return "", err
	}
	page, err := d.look(ctx)
	if err != nil {
		return "", err
	}
	note := ""
	if d.rec != nil && d.shown != nil && !d.rec.onApp(d.shown.URL) {
		note = fmt.Sprintf("\nThe page left the app: it is on %s now. Go back with browser_navigate to a page of the app.", originOrURL(d.shown.URL))
	}
	return did + note + "\n" + page, nil
}

func (d *Door) navigate(ctx context.Context, client string, in navigateIn) (string, error) {
	target := strings.TrimSpace(in.URL)
	if target == "" {
		return "", toolError("url is missing: give the page to go to, such as https://shop.example/products or /products")
	}
	if d.rec == nil {
		if strings.HasPrefix(target, "/") {
			return "", toolError("url %s is a path, and no trail is being recorded: give a full URL, or call trail_start first", target)
		}
		if _, err := d.start(ctx, trailStartIn{URL: target}); err != nil {
			return "", err
		}
		return d.look(ctx)
	}
	if strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "//") {
		target = d.rec.origins[0] + target
	}
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", toolError("url %q is not an http or https address: give a full URL or a path of the app", screen.Clip(in.URL, 200))
	}
	if !d.rec.onApp(target) {
		return "", toolError("%s is not one of the app's origins (%s): the trail records one app; nothing was done. "+
			"Add it to apps.%s.origins in trailpin.yaml if the app really goes there", originOrURL(target), strings.Join(d.rec.origins, ", "), d.rec.app)
	}
	// Pages the app went to by itself since the last call are its own.
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	if err := d.o.Tab.Navigate(ctx, target); err != nil {
		return "", err
	}
	urls, err := d.recordNavigations(ctx, client, "typed")
	if err != nil {
		return "", err
	}
	if len(urls) == 0 {
		// No page committed: a place in the same document (a fragment
		// route such as #/completed). The tab is there all the same, and
		// the trail must go there too.
		now, err := d.o.Tab.Screen(ctx)
		if err != nil {
			return "", err
		}
		if sameAddress(now.URL, target) {
			if err := d.emit(ctx, client, steps.Interaction{Kind: steps.InteractNavigate, URL: now.URL, Transition: "typed"}, nil); err != nil {
				return "", err
			}
		}
	}
	// A page typed into the address bar has no screen before it to diff.
	d.last = nil
	return d.look(ctx)
}

func (d *Door) click(ctx context.Context, client string, in clickIn) (string, error) {
	how, err := in.click()
	if err != nil {
		return "", err
	}
	tg, err := d.findRef(ctx, in.Ref)
	if err != nil {
		return "", err
	}
	if tg.node.URL != "" && !d.rec.onApp(tg.node.URL) && isWeb(tg.node.URL) {
		return "", toolError("%s leads to %s, which is not one of the app's origins: nothing was done", screen.Describe(tg.node), originOrURL(tg.node.URL))
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	it := steps.Interaction{Kind: steps.InteractClick, Ref: in.Ref, Count: how.Count, Button: "left", Modifiers: trail.ModifierStrings(how.Modifiers)}
	if how.Button != "" {
		it.Button = string(how.Button)
	}
	err = d.o.Tab.Tap(ctx, headless.Target{Ref: in.Ref, Document: tg.now.Document, Before: func() error {
		return d.emit(ctx, client, it, tg.now)
	}}, how)
	if err != nil {
		return "", staleAct(in.Ref, err)
	}
	d.acted(tg.now)
	verb := "Clicked"
	if in.DoubleClick {
		verb = "Double-clicked"
	}
	return d.after(ctx, client, verb+" "+screen.Describe(tg.node)+".")
}

// hover rests the pointer on the element with a trusted mouse move. The
// hover is recorded on the page as it was before it, so that the step
// builder keeps it with the click or check that follows when that click's
// or check's element did not show without it (as it does a person's
// pointer), and as a step of its own when nothing after it needed it.
func (d *Door) hover(ctx context.Context, client string, in hoverIn) (string, error) {
	tg, err := d.findRef(ctx, in.Ref)
	if err != nil {
		return "", err
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	err = d.o.Tab.Hover(ctx, headless.Target{Ref: in.Ref, Document: tg.now.Document, Before: func() error {
		return d.emit(ctx, client, steps.Interaction{Kind: steps.InteractHover, Ref: in.Ref}, tg.now)
	}})
	if err != nil {
		return "", staleAct(in.Ref, err)
	}
	d.acted(tg.now)
	return d.after(ctx, client, "Rested the pointer on "+screen.Describe(tg.node)+".")
}

// isWeb reports whether u is an http or https address.
func isWeb(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}

func (d *Door) typeText(ctx context.Context, client string, in typeIn) (string, error) {
	tg, err := d.findRef(ctx, in.Ref)
	if err != nil {
		return "", err
	}
	it := steps.Interaction{Kind: steps.InteractType, Ref: in.Ref, Value: in.Text}
	value := in.Text
	refs, err := trail.ParseRefs(in.Text)
	if err != nil {
		return "", toolError("text: %v", err)
	}
	switch {
	case len(refs) == 1 && refs[0].Kind == trail.RefSecret && refs[0].String() == in.Text:
		// The project's secret, typed by name: its value is filled in
		// here and never recorded.
		if value, err = d.secretValue(refs[0].Name); err != nil {
			return "", err
		}
		it.Value, it.Secret = "", refs[0].Name
	case len(refs) > 0:
		return "", toolError("text holds %s: only a whole ${secret:NAME} is filled in; write the text itself", refs[0])
	case tg.node.Secret:
		return "", toolError("%s is a secret field: type ${secret:NAME} (a secret of trailpin.yaml, its value in TRAILPIN_SECRET_NAME) so that its value is never written down; nothing was typed", screen.Describe(tg.node))
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	_, err = d.o.Tab.Type(ctx, headless.Target{Ref: in.Ref, Document: tg.now.Document, Before: func() error {
		return d.emit(ctx, client, it, tg.now)
	}}, value)
	if err != nil {
		return "", staleAct(in.Ref, err)
	}
	did := fmt.Sprintf("Typed into %s.", screen.Describe(tg.node))
	if in.Submit {
		now, err := d.o.Tab.Screen(ctx)
		if err != nil {
			return "", err
		}
		err = d.o.Tab.Press(ctx, "Enter", func() error {
			return d.emit(ctx, client, steps.Interaction{Kind: steps.InteractPress, Key: "Enter"}, now)
		})
		if err != nil {
			return "", err
		}
		did += " Pressed Enter."
	}
	// Typing and its Enter are one action of the client's.
	d.acted(tg.now)
	return d.after(ctx, client, did)
}

// secretValue is the value of the project's secret name.
func (d *Door) secretValue(name string) (string, error) {
	p, err := config.LoadProject(d.rec.project)
	if err != nil {
		return "", toolError("reading the project for secret %s: %v", name, err)
	}
	if _, ok := p.Secrets.Secrets[name]; !ok {
		return "", toolError("the project has no secret %s: add secrets: {%s: null} to trailpin.yaml and set TRAILPIN_SECRET_%s", name, name, envName(name))
	}
	v, err := secretsLookup(p, d.o.Getenv, name)
	if err != nil || v == "" {
		return "", toolError("secret %s has no value: set TRAILPIN_SECRET_%s where host mcp runs", name, envName(name))
	}
	return v, nil
}

// envName is a secret's name as its variable spells it.
func envName(name string) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(strings.ToUpper(name))
}

func (d *Door) selectOption(ctx context.Context, client string, in selectIn) (string, error) {
	if len(in.Values) == 0 {
		return "", toolError("values is empty: give the labels of the options to choose")
	}
	tg, err := d.findRef(ctx, in.Ref)
	if err != nil {
		return "", err
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	chosen, err := d.o.Tab.Select(ctx, headless.Target{Ref: in.Ref, Document: tg.now.Document, Before: func() error {
		return d.emit(ctx, client, steps.Interaction{Kind: steps.InteractSelect, Ref: in.Ref, Options: in.Values}, tg.now)
	}}, in.Values)
	if err != nil {
		return "", staleAct(in.Ref, err)
	}
	d.acted(tg.now)
	return d.after(ctx, client, fmt.Sprintf("Chose %s in %s.", strings.Join(chosen, ", "), screen.Describe(tg.node)))
}

func (d *Door) pressKey(ctx context.Context, client string, in pressIn) (string, error) {
	if err := d.needRecording(); err != nil {
		return "", err
	}
	key, mods := headless.ParseKey(in.Key)
	if key == "" {
		return "", toolError("key is missing: give a character or a key name such as Enter")
	}
	var words []string
	for _, m := range mods {
		if !slices.Contains(trail.ModifierWords, string(m)) {
			return "", toolError("key %q: %s is not a modifier (use %s)", in.Key, m, strings.Join(trail.ModifierWords, ", "))
		}
		words = append(words, string(m))
	}
	now, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	if !d.rec.onApp(now.URL) {
		return "", toolError("the page is on %s, which is not one of the app's origins: nothing was done", originOrURL(now.URL))
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	err = d.o.Tab.Press(ctx, in.Key, func() error {
		return d.emit(ctx, client, steps.Interaction{Kind: steps.InteractPress, Key: key, Modifiers: words}, now)
	})
	if err != nil {
		return "", err
	}
	d.acted(now)
	return d.after(ctx, client, "Pressed "+in.Key+".")
}

// poll captures the page until check passes or the action timeout ends;
// it returns check's last error.
func (d *Door) poll(ctx context.Context, check func(s *screen.Screen, m *selector.Matcher) error) (*screen.Screen, error) {
	deadline := time.Now().Add(d.o.ActionTimeout)
	for {
		s, err := d.o.Tab.Screen(ctx)
		if err != nil {
			return nil, err
		}
		err = check(s, selector.NewMatcher(s))
		if err == nil || time.Now().After(deadline) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// visibleMatch is the first visible node sel matches.
func visibleMatch(m *selector.Matcher, sel selector.Selector) *screen.Node {
	nodes, err := m.Match(sel)
	var amb *selector.AmbiguousError
	if err != nil && !errors.As(err, &amb) {
		return nil
	}
	for _, n := range nodes {
		if n.Visible {
			return n
		}
	}
	return nil
}

// waitSeconds is browser_wait_for's wait of a fixed time, in both modes.
func waitSeconds(ctx context.Context, seconds float64) (string, error) {
	if seconds > 60 {
		return "", toolError("time %.0f: wait at most 60 seconds", seconds)
	}
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(time.Duration(seconds * float64(time.Second))):
	}
	return fmt.Sprintf("Waited %.1f seconds.", seconds), nil
}

func (d *Door) waitFor(ctx context.Context, client string, in waitIn) (string, error) {
	switch {
	case in.Time > 0:
		return waitSeconds(ctx, in.Time)
	case in.Text != "":
		_, err := d.poll(ctx, func(_ *screen.Screen, m *selector.Matcher) error {
			if visibleMatch(m, selector.Selector{Text: in.Text}) == nil && visibleMatch(m, selector.Selector{Name: in.Text}) == nil {
				return toolError("%q did not show within %s", in.Text, d.o.ActionTimeout)
			}
			return nil
		})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%q is visible.", in.Text), nil
	case in.TextGone != "":
		_, err := d.poll(ctx, func(_ *screen.Screen, m *selector.Matcher) error {
			if visibleMatch(m, selector.Selector{Text: in.TextGone}) != nil || visibleMatch(m, selector.Selector{Name: in.TextGone}) != nil {
				return toolError("%q was still visible after %s", in.TextGone, d.o.ActionTimeout)
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

// assertOn records an assertion on node n of screen s.
func (d *Door) assertOn(ctx context.Context, client string, it steps.Interaction, s *screen.Screen) error {
	if !d.rec.onApp(s.URL) {
		return toolError("the page is on %s, which is not one of the app's origins: nothing was recorded", originOrURL(s.URL))
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return err
	}
	return d.emit(ctx, client, it, s)
}

func (d *Door) verifyElement(ctx context.Context, client string, in verifyElementIn) (string, error) {
	if err := d.needRecording(); err != nil {
		return "", err
	}
	if in.Role == "" {
		return "", toolError("role is missing: give the element's role as the snapshot shows it (- button \"Save\")")
	}
	var found *screen.Node
	s, err := d.poll(ctx, func(_ *screen.Screen, m *selector.Matcher) error {
		found = visibleMatch(m, selector.Selector{Role: in.Role, Name: in.AccessibleName})
		if found == nil {
			return toolError("no visible %s named %q: the check failed and nothing was recorded", in.Role, in.AccessibleName)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if err := d.assertOn(ctx, client, steps.Interaction{Kind: steps.InteractAssertVisible, Ref: found.Ref}, s); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s is visible; recorded as an assertion.", screen.Describe(found)), nil
}

func (d *Door) verifyText(ctx context.Context, client string, in verifyTextIn) (string, error) {
	if err := d.needRecording(); err != nil {
		return "", err
	}
	if strings.TrimSpace(in.Text) == "" {
		return "", toolError("text is missing: give the text that must be visible")
	}
	var found *screen.Node
	s, err := d.poll(ctx, func(_ *screen.Screen, m *selector.Matcher) error {
		found = visibleMatch(m, selector.Selector{Text: in.Text})
		if found == nil {
			return toolError("no visible element reads %q: the check failed and nothing was recorded", in.Text)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if err := d.assertOn(ctx, client, steps.Interaction{Kind: steps.InteractAssertVisible, Ref: found.Ref}, s); err != nil {
		return "", err
	}
	return fmt.Sprintf("%q is visible; recorded as an assertion.", in.Text), nil
}

func (d *Door) verifyValue(ctx context.Context, client string, in verifyValueIn) (string, error) {
	tg, err := d.findRef(ctx, in.Ref)
	if err != nil {
		return "", err
	}
	n := tg.node
	if n.Secret {
		return "", toolError("%s is a secret field: its value is never read nor written down", screen.Describe(n))
	}
	var it steps.Interaction
	switch in.Type {
	case "checkbox", "radio":
		want := map[string]string{"true": "true", "checked": "true", "false": "false", "unchecked": "false"}[strings.ToLower(in.Value)]
		if want == "" {
			return "", toolError("value %q: a %s's value is true or false", in.Value, in.Type)
		}
		if n.Checked != want {
			return "", toolError("%s is checked=%s, not %s: the check failed and nothing was recorded", screen.Describe(n), orNone(n.Checked), want)
		}
		it = steps.Interaction{Kind: steps.InteractAssertState, Ref: in.Ref, State: "checked", Want: want}
	default:
		if n.Value != in.Value {
			return "", toolError("%s has the value %q, not %q: the check failed and nothing was recorded", screen.Describe(n), n.Value, in.Value)
		}
		it = steps.Interaction{Kind: steps.InteractAssertValue, Ref: in.Ref, Value: in.Value}
	}
	if err := d.assertOn(ctx, client, it, tg.now); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s has the value %q; recorded as an assertion.", screen.Describe(n), in.Value), nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func (d *Door) trailStart(ctx context.Context, client string, in trailStartIn) (string, error) {
	started, err := d.start(ctx, in)
	if err != nil {
		return "", err
	}
	page, err := d.look(ctx)
	if err != nil {
		return "", err
	}
	return started + "\n" + page, nil
}

// start starts a recording of the project's app on its start page: the
// page is loaded first, as a person's tab is open when they press Record.
func (d *Door) start(ctx context.Context, in trailStartIn) (string, error) {
	dir := in.Project
	if dir == "" {
		dir = d.o.Project
	}
	if dir == "" {
		return "", toolError("no project: give project (the folder of a trailpin.yaml), or run host mcp in a project's folder")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	p, err := config.LoadProject(abs)
	if err != nil {
		return "", toolError("project: %v", err)
	}
	start := in.URL
	if start == "" && in.App != "" {
		start = p.Apps[in.App]
	}
	if start == "" {
		return "", toolError("give url (the page the trail starts on) or app (one of %s)", strings.Join(p.AppNames(), ", "))
	}
	origin, err := config.OriginOf(start)
	if err != nil {
		return "", toolError("url: %v: give a full http or https URL", err)
	}
	app, ok := p.AppForOrigin(origin)
	switch {
	case in.App != "" && ok && app != in.App:
		return "", toolError("%s is the origin of the app %s, not of %s: give the app's own URL", origin, app, in.App)
	case in.App != "" && !ok:
		if _, has := p.Apps[in.App]; has {
			return "", toolError("%s is not one of the origins of the app %s (%s): give a URL of the app", origin, in.App, p.Apps[in.App])
		}
		if _, err := d.o.Service.ProjectAddApp(ctx, recording.AddAppIn{Origin: origin, Name: in.App, Project: abs}); err != nil {
			return "", serviceError("adding the app", err)
		}
		if p, err = config.LoadProject(abs); err != nil {
			return "", toolError("project: %v", err)
		}
		app = in.App
	case !ok:
		return "", toolError("%s is not the origin of an app of %s: call trail_start with app (a name for it) and url to add it", origin, p.File)
	}
	if err := d.o.Tab.Navigate(ctx, start); err != nil {
		return "", err
	}
	d.o.Tab.TakeNavigations() // the start page is where the trail starts, not a step
	s, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	origins := appOrigins(p, app)
	if o, _ := config.OriginOf(s.URL); !slices.Contains(origins, o) {
		return "", toolError("%s went to %s, which is not one of the app's origins: nothing is recorded", start, originOrURL(s.URL))
	}
	tab := 1
	vp := d.o.Tab.Viewport()
	out, err := d.o.Service.Start(ctx, recording.StartIn{Tab: &tab, URL: s.URL, Title: s.Title, Viewport: &vp, Project: abs})
	if err != nil {
		return "", serviceError("starting the recording", err)
	}
	if out.App == nil {
		return "", toolError("the recording of %s found no app of the project for %s", abs, origin)
	}
	d.rec = &recordingState{session: out.Session, project: abs, app: out.App.Name, origins: origins,
		ids: map[*screen.Screen]string{}, sent: map[string]bool{}}
	d.shown, d.last = nil, nil
	d.log.Info("recording started", "session", out.Session, "app", out.App.Name)
	return fmt.Sprintf("Recording a trail of the app %s (%s), starting at %s.", out.App.Name, strings.Join(origins, ", "), s.URL), nil
}

func (d *Door) trailSave(ctx context.Context, client string, in trailSaveIn) (string, error) {
	if err := d.needRecording(); err != nil {
		return "", err
	}
	if strings.TrimSpace(in.Title) == "" {
		return "", toolError("title is missing: give the trail a title, such as \"Add an iPhone to the cart\"")
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	final, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	wire, err := screen.EncodeWire(final)
	if err != nil {
		return "", err
	}
	r := d.rec
	stop, err := d.o.Service.Stop(ctx, recording.StopIn{Session: r.session, Screen: wire})
	if err != nil {
		return "", serviceError("stopping the recording", err)
	}
	saved, err := d.o.Service.Save(ctx, recording.SaveIn{Session: r.session, Title: in.Title})
	if err != nil {
		return "", serviceError("saving the trail", err)
	}
	exported, err := d.o.Service.Export(ctx, recording.ExportIn{Trail: saved.Trail, Project: r.project})
	if err != nil {
		return "", serviceError("writing the trail file", err)
	}
	content, err := os.ReadFile(exported.Path)
	if err != nil {
		return "", err
	}
	d.saved, d.savedProject = exported.Path, r.project
	d.rec, d.last = nil, nil
	var b strings.Builder
	fmt.Fprintf(&b, "Saved the trail %q (%s, version %d) to %s.\n", saved.Title, saved.Slug, saved.Version, exported.Path)
	for _, n := range stop.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	if len(saved.Secrets) > 0 {
		fmt.Fprintf(&b, "Replay reads the secrets %s (TRAILPIN_SECRET_<NAME>).\n", strings.Join(saved.Secrets, ", "))
	}
	fmt.Fprintf(&b, "The recording ended: call trail_start for another.\n```yaml\n%s```\n", content)
	return b.String(), nil
}

func (d *Door) trailReplay(ctx context.Context, client string, in trailReplayIn) (string, error) {
	return replayTrail(ctx, d.o.Replay, in.Path, d.o.Project, d.saved, d.savedProject)
}

// replayTrail is trail_replay in both modes: path with the project's
// trailpin.yaml, or the file trail_save wrote last (saved, of the project
// savedProject) when path is "".
func replayTrail(ctx context.Context, replay ReplayFunc, path, project, saved, savedProject string) (string, error) {
	if path == "" {
		path, project = saved, savedProject
	}
	if path == "" {
		return "", toolError("path is missing: give a trail file, or call trail_save first")
	}
	if replay == nil {
		return "", toolError("this host cannot replay trails")
	}
	res, err := replay(ctx, path, project)
	if err != nil {
		return "", err
	}
	verdict := "passed"
	if res.ExitCode != 0 {
		verdict = fmt.Sprintf("failed (exit code %d)", res.ExitCode)
	}
	return fmt.Sprintf("Replay of %s %s.\n%s", path, verdict, res.Summary), nil
}

// secretsLookup reads the value of the project's secret name
// (TRAILPIN_SECRET_<NAME> first, then trailpin.yaml).
func secretsLookup(p *config.Project, getenv func(string) string, name string) (string, error) {
	return secrets.NewResolver(p.Secrets, getenv).Secret(name)
}

// tabs is browser_tabs in headless mode: the door's own tab is the only
// one.
func (d *Door) tabs(ctx context.Context, client string, in tabsIn) (string, error) {
	switch in.Action {
	case "list", "":
	case "select":
		if in.Index != 0 {
			return "", toolError("index %d: this browser has one tab, index 0", in.Index)
		}
	default:
		return "", toolError("action %q: use list or select", in.Action)
	}
	s, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("- 0: (current) [%s](%s)\n", s.Title, s.URL), nil
}

// sameAddress reports whether two URLs name the same place, as a browser
// writes them ("http://a.test" and "http://a.test/" alike).
func sameAddress(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	for _, u := range []*url.URL{ua, ub} {
		if u.Path == "" {
			u.Path = "/"
		}
	}
	return ua.String() == ub.String()
}
