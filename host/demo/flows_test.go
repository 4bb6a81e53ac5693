package demo

// This file reads the tables of FLOWS.md and drives them in headless
// Chromium for TestExampleTrailSelectorsOnTheShop. That the flows work on
// the shop, and what each variant breaks, is shown by replaying their
// trails through the host: e2e TestDemoCommand (host demo, green) and
// TestReplayVariants (each variant's class and cause).
//
// The driver here belongs to the test. It finds controls through Chromium's
// own accessibility tree (role and name) or by rendered text, and acts with
// trusted mouse and keyboard events. It is not Trailpin's replay engine: it
// writes no selectors, checks no end states and classifies nothing.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// flowStepWait is how long a step may wait for its target or its condition.
// The normal shop satisfies every step within milliseconds; the wait is
// generous for a loaded machine, and a step that can never pass (a variant
// run) costs this much once.
const flowStepWait = 10 * time.Second

// flowExpectedFailureWait is the wait of the one step a variant run expects
// to fail. Every step before it has the full wait, so a slow machine cannot
// make an earlier step fail; this step only has to show that it does not
// pass once the page has settled.
const flowExpectedFailureWait = 3 * time.Second

// flowPollInterval is how often a waiting step looks at the page again.
const flowPollInterval = 50 * time.Millisecond

// giftNoteText is the content of the upload fixture FLOWS.md describes.
const giftNoteText = "Happy birthday, Charles!"

type flowStep struct {
	N                     int
	Action, Target, Value string
	Line                  int
}

type flowDoc struct {
	Title string
	Steps []flowStep
	// Outcomes maps a variant to the first step that fails; 0 means the
	// flow passes. Empty when the flow has no variant table.
	Outcomes map[string]int
}

var (
	reFlowHeading = regexp.MustCompile(`^## Flow: (.+)$`)
	reTableRow    = regexp.MustCompile(`^\|(.*)\|$`)
)

// parseFlows reads the flows of FLOWS.md.
func parseFlows(path string) ([]*flowDoc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var flows []*flowDoc
	var cur *flowDoc
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if m := reFlowHeading.FindStringSubmatch(text); m != nil {
			cur = &flowDoc{Title: m[1], Outcomes: map[string]int{}}
			flows = append(flows, cur)
			continue
		}
		if strings.HasPrefix(text, "## ") {
			cur = nil
		}
		m := reTableRow.FindStringSubmatch(text)
		if cur == nil || m == nil {
			continue
		}
		cells := strings.Split(m[1], "|")
		for i := range cells {
			cells[i] = strings.Trim(strings.TrimSpace(cells[i]), "`")
		}
		if n, err := strconv.Atoi(cells[0]); err == nil && len(cells) == 4 {
			if n != len(cur.Steps)+1 {
				return nil, fmt.Errorf("%s:%d: step %d follows step %d", path, line, n, len(cur.Steps))
			}
			cur.Steps = append(cur.Steps, flowStep{N: n, Action: cells[1], Target: cells[2], Value: cells[3], Line: line})
			continue
		}
		if _, ok := VariantInfo(cells[0]); ok && len(cells) >= 2 {
			if cells[1] == "passes" {
				cur.Outcomes[cells[0]] = 0
			} else if n, err := strconv.Atoi(cells[1]); err == nil {
				cur.Outcomes[cells[0]] = n
			} else {
				return nil, fmt.Errorf("%s:%d: %q is neither a step number nor \"passes\"", path, line, cells[1])
			}
		}
	}
	return flows, sc.Err()
}

// A flowTarget is a parsed Target cell: kind is an ARIA role, "text",
// "label" or "dialog".
type flowTarget struct {
	Kind, Name string
	Within     *flowTarget
}

var reFlowTarget = regexp.MustCompile(`^(\w+) ("(?:[^"\\]|\\.)*")(?: in (\w+) ("(?:[^"\\]|\\.)*"))?$`)

func parseTarget(s string) (flowTarget, error) {
	m := reFlowTarget.FindStringSubmatch(s)
	if m == nil {
		return flowTarget{}, fmt.Errorf("target %q is not `kind \"name\"` [in `role \"name\"`]", s)
	}
	name, err := strconv.Unquote(m[2])
	if err != nil {
		return flowTarget{}, fmt.Errorf("target %q: %w", s, err)
	}
	t := flowTarget{Kind: m[1], Name: name}
	if m[3] != "" {
		within, err := strconv.Unquote(m[4])
		if err != nil {
			return flowTarget{}, fmt.Errorf("target %q: %w", s, err)
		}
		t.Within = &flowTarget{Kind: m[3], Name: within}
	}
	return t, nil
}

func (t flowTarget) String() string {
	s := fmt.Sprintf("%s %q", t.Kind, t.Name)
	if t.Within != nil {
		s += " in " + t.Within.String()
	}
	return s
}

// flowDriver runs one flow in one browser context.
type flowDriver struct {
	base  string // the shop's URL
	files string // folder holding the upload fixture
	root  context.Context
	tab   context.Context
	tabs  map[target.ID]context.Context

	// expectFail is the step a variant run expects to fail; it waits
	// flowExpectedFailureWait instead of flowStepWait.
	expectFail int
	wait       time.Duration

	mu      sync.Mutex
	armed   string   // the answer for the next dialog, set before the action that opens it
	dialogs []string // "message → answer", in order
}

func newFlowDriver(ctx context.Context, base, files string) *flowDriver {
	d := &flowDriver{base: base, files: files, root: ctx, tab: ctx, tabs: map[target.ID]context.Context{}}
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			d.mu.Lock()
			answer := d.armed
			d.armed = ""
			if answer == "" {
				answer = "dismiss (unexpected)"
			}
			d.dialogs = append(d.dialogs, ev.Message+" → "+answer)
			d.mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: answer == "accept"})
		}
	}()
	return d
}

// run runs the steps in order and returns the number of the first step that
// failed (0 when all passed) and why.
func (d *flowDriver) run(steps []flowStep) (int, error) {
	for i, st := range steps {
		if i+1 < len(steps) && steps[i+1].Action == "dialog" {
			d.mu.Lock()
			d.armed = steps[i+1].Value
			d.mu.Unlock()
		}
		d.wait = flowStepWait
		if st.N == d.expectFail {
			d.wait = flowExpectedFailureWait
		}
		if err := d.step(st); err != nil {
			return st.N, fmt.Errorf("FLOWS.md:%d: step %d (%s %s %s): %w [page: %s]",
				st.Line, st.N, st.Action, st.Target, st.Value, err, d.where())
		}
	}
	return 0, nil
}

// where describes the current page for failure messages.
func (d *flowDriver) where() string {
	v, err := evalIn[[]string](d.tab, `[location.pathname + location.search, document.title]`)
	if err != nil || len(v) != 2 {
		return "unknown"
	}
	return fmt.Sprintf("%s %q", v[0], v[1])
}

func (d *flowDriver) step(st flowStep) error {
	var tg flowTarget
	if st.Target != "" {
		var err error
		if tg, err = parseTarget(st.Target); err != nil {
			return err
		}
	}
	switch st.Action {
	case "navigate":
		return d.navigate(st.Value)
	case "tap":
		return d.withOne(tg, func(n cdp.BackendNodeID) error { return d.click(n) })
	case "type":
		return d.withOne(tg, func(n cdp.BackendNodeID) error { return d.typeInto(n, st.Value) })
	case "press":
		return pressKey(d.tab, st.Value)
	case "check":
		return d.withOne(tg, func(n cdp.BackendNodeID) error {
			checked, err := callOn[bool](d.tab, n, `function() { return this.checked; }`)
			if err != nil || checked {
				return err
			}
			return d.click(n)
		})
	case "select":
		return d.withOne(tg, func(n cdp.BackendNodeID) error {
			ok, err := callOn[bool](d.tab, n, `function(label) {
				const option = [...this.options].find(o => o.text === label);
				if (!option) return false;
				this.value = option.value;
				this.dispatchEvent(new Event('input', {bubbles: true}));
				this.dispatchEvent(new Event('change', {bubbles: true}));
				return true;
			}`, st.Value)
			if err == nil && !ok {
				err = fmt.Errorf("no option %q", st.Value)
			}
			return err
		})
	case "upload":
		return d.withOne(tg, func(n cdp.BackendNodeID) error {
			_, err := chromedp.Call(d.tab, dom.SetFileInputFiles, dom.SetFileInputFilesParams{
				BackendNodeID: n, Files: []string{filepath.Join(d.files, st.Value)}})
			return err
		})
	case "hover":
		return d.withOne(tg, func(n cdp.BackendNodeID) error {
			x, y, err := d.center(n)
			if err != nil {
				return err
			}
			return chromedp.Do(d.tab, chromedp.MouseEvent(chromedp.MouseMoved, x, y))
		})
	case "dialog":
		return d.dialog(tg.Name, st.Value)
	case "switchTab":
		return d.switchTab(st.Value)
	case "assertUrl":
		return d.until("the URL to be "+st.Value, func() (bool, error) {
			return evalIn[bool](d.tab, fmt.Sprintf(`location.pathname + location.search === %q`, st.Value))
		})
	case "assertVisible":
		return d.until(tg.String()+" to be visible", func() (bool, error) {
			nodes, err := d.find(tg)
			return len(nodes) > 0, err
		})
	case "assertNotVisible":
		return d.until("no visible node named or reading "+strconv.Quote(tg.Name), func() (bool, error) {
			byText, err := d.find(tg)
			if err != nil {
				return false, err
			}
			byName, err := d.find(flowTarget{Kind: "", Name: tg.Name})
			return len(byText)+len(byName) == 0, err
		})
	case "assertValue":
		return d.withOne(tg, func(n cdp.BackendNodeID) error {
			return d.until("the value to be "+strconv.Quote(st.Value), func() (bool, error) {
				return callOn[bool](d.tab, n, `function(v) { return this.value === v; }`, st.Value)
			})
		})
	case "assertState":
		return d.withOne(tg, func(n cdp.BackendNodeID) error {
			return d.until("the state "+st.Value, func() (bool, error) {
				return callOn[bool](d.tab, n, `function(state) {
					switch (state) {
					case 'expanded': return this.getAttribute('aria-expanded') === 'true' ||
						(this.tagName === 'SUMMARY' && this.parentElement.open);
					case 'checked': return this.checked === true;
					case 'disabled': return this.disabled === true;
					}
					throw new Error('unknown state ' + state);
				}`, st.Value)
			})
		})
	}
	return fmt.Errorf("unknown action %q", st.Action)
}

// until polls cond until it holds or the step's wait is over.
func (d *flowDriver) until(what string, cond func() (bool, error)) error {
	deadline := time.Now().Add(d.wait)
	tick := time.NewTicker(flowPollInterval)
	defer tick.Stop()
	var last error
	for {
		ok, err := cond()
		if err == nil && ok {
			return nil
		}
		last = err
		if time.Now().After(deadline) {
			if last != nil {
				return fmt.Errorf("waited %v for %s; last error: %w", d.wait, what, last)
			}
			return fmt.Errorf("waited %v for %s", d.wait, what)
		}
		select {
		case <-d.tab.Done():
			return d.tab.Err()
		case <-tick.C:
		}
	}
}

// errAmbiguous and errNoMatch tell why a target did not resolve to one
// element.
var (
	errAmbiguous = errors.New("elements match")
	errNoMatch   = errors.New("no visible element matches")
)

// withOne waits until the target resolves to exactly one visible element,
// then acts on it. Several matches are never narrowed to the first.
func (d *flowDriver) withOne(tg flowTarget, act func(cdp.BackendNodeID) error) error {
	var nodes []cdp.BackendNodeID
	err := d.until(tg.String()+" to match one element", func() (bool, error) {
		var err error
		nodes, err = d.find(tg)
		return len(nodes) == 1, err
	})
	switch {
	case err == nil:
		return act(nodes[0])
	case len(nodes) > 1:
		return fmt.Errorf("%d %w %s: %v", len(nodes), errAmbiguous, tg, err)
	case len(nodes) == 0:
		return fmt.Errorf("%w %s: %v", errNoMatch, tg, err)
	}
	return err
}

// find returns the visible elements that the target names.
func (d *flowDriver) find(tg flowTarget) ([]cdp.BackendNodeID, error) {
	var scope cdp.BackendNodeID
	if tg.Within != nil {
		outer, err := d.find(*tg.Within)
		if err != nil || len(outer) != 1 {
			return nil, err
		}
		scope = outer[0]
	}
	var nodes []cdp.BackendNodeID
	var err error
	switch tg.Kind {
	case "text":
		nodes, err = d.elements(`(text) => {
			const norm = (s) => s.split('\n').map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim()).filter(Boolean).join('\n');
			const first = text.split('\n')[0];
			const hits = [...document.body.querySelectorAll('*')].filter((el) =>
				el.textContent.includes(first) && norm(el.innerText ?? '') === text);
			return hits.filter((el) => !hits.some((other) => other !== el && el.contains(other)));
		}`, tg.Name)
	case "label":
		nodes, err = d.elements(`(text) => [...document.querySelectorAll('label')]
			.filter((l) => l.innerText.trim() === text && l.control).map((l) => l.control)`, tg.Name)
	default: // a role, or "" for any role
		nodes, err = d.byRole(tg.Kind, tg.Name, scope)
	}
	if err != nil {
		return nil, err
	}
	var visible []cdp.BackendNodeID
	for _, n := range nodes {
		if scope != 0 && (tg.Kind == "text" || tg.Kind == "label") {
			inside, err := callOn[bool](d.tab, scope, `function(el) { return this.contains(el); }`, n)
			if err != nil || !inside {
				continue
			}
		}
		// A file input is hidden behind its button in some browsers; it is
		// the one control acted on through the protocol, so it counts.
		ok, err := callOn[bool](d.tab, n, `function() {
			if (!(this instanceof Element)) return false;
			if (this.type === 'file') return true;
			const r = this.getBoundingClientRect();
			return r.width > 0 && r.height > 0 && this.checkVisibility({visibilityProperty: true});
		}`)
		if err == nil && ok {
			visible = append(visible, n)
		}
	}
	return visible, nil
}

// byRole asks Chromium's accessibility tree for the nodes with the role (any
// role when empty) and exactly the name, under scope (the document when 0).
func (d *flowDriver) byRole(role, name string, scope cdp.BackendNodeID) ([]cdp.BackendNodeID, error) {
	p := accessibility.QueryAXTreeParams{BackendNodeID: scope, AccessibleName: name, Role: role}
	if scope == 0 {
		doc, err := chromedp.Call(d.tab, runtime.Evaluate, runtime.EvaluateParams{Expression: "document", ObjectGroup: "flow"})
		if err != nil {
			return nil, err
		}
		defer chromedp.Call(d.tab, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: "flow"})
		p.ObjectID = doc.Result.ObjectID
	}
	res, err := chromedp.Call(d.tab, accessibility.QueryAXTree, p)
	if err != nil {
		return nil, err
	}
	var out []cdp.BackendNodeID
	for _, n := range res.Nodes {
		if !n.Ignored && n.BackendDOMNodeID != 0 {
			out = append(out, n.BackendDOMNodeID)
		}
	}
	return out, nil
}

// elements runs a JavaScript function that returns an array of elements and
// gives back their backend node ids.
func (d *flowDriver) elements(fn string, args ...any) ([]cdp.BackendNodeID, error) {
	a, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	res, err := chromedp.Call(d.tab, runtime.Evaluate, runtime.EvaluateParams{
		Expression: fmt.Sprintf("(%s)(...%s)", fn, a), ObjectGroup: "flow"})
	if err != nil {
		return nil, err
	}
	defer chromedp.Call(d.tab, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: "flow"})
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("page script: %s", res.ExceptionDetails.Text)
	}
	props, err := chromedp.Call(d.tab, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID, OwnProperties: new(true)})
	if err != nil {
		return nil, err
	}
	var out []cdp.BackendNodeID
	for _, p := range props.Result {
		if p.Value == nil || p.Value.Subtype != runtime.RemoteObjectSubtypeNode {
			continue
		}
		node, err := chromedp.Call(d.tab, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: p.Value.ObjectID})
		if err != nil {
			return nil, err
		}
		out = append(out, node.Node.BackendNodeID)
	}
	return out, nil
}

// center scrolls the element into view and returns its centre.
func (d *flowDriver) center(n cdp.BackendNodeID) (x, y float64, err error) {
	p, err := callOn[[]float64](d.tab, n, `function() {
		this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
		const r = this.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	}`)
	if err != nil {
		return 0, 0, err
	}
	return p[0], p[1], nil
}

// click moves the mouse onto the element and clicks it, as a person would.
func (d *flowDriver) click(n cdp.BackendNodeID) error {
	x, y, err := d.center(n)
	if err != nil {
		return err
	}
	return chromedp.Do(d.tab, chromedp.MouseEvent(chromedp.MouseMoved, x, y), chromedp.MouseClickXY(x, y))
}

// typeInto clicks the field, selects what it holds and types the value over
// it, key by key.
func (d *flowDriver) typeInto(n cdp.BackendNodeID, value string) error {
	if value == "${secret:demo-password}" {
		value = Password
	}
	if err := d.click(n); err != nil {
		return err
	}
	return chromedp.Do(d.tab,
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(value))
}

// pressKey presses one key on the focused element the way a keyboard does:
// a keyDown that carries the key's text, then a keyUp.
func pressKey(ctx context.Context, key string) error {
	keys := map[string]struct {
		code string
		vk   int64
		text string
	}{
		"/":      {"Slash", 191, "/"},
		"Enter":  {"Enter", 13, "\r"},
		"Escape": {"Escape", 27, ""},
	}
	k, ok := keys[key]
	if !ok {
		return fmt.Errorf("no key %q in the test driver", key)
	}
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		p := input.DispatchKeyEventParams{Type: typ, Key: key, Code: k.code, WindowsVirtualKeyCode: k.vk, NativeVirtualKeyCode: k.vk}
		if typ == input.DispatchKeyEventTypeKeyDown {
			p.Text = k.text
		}
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, p); err != nil {
			return err
		}
	}
	return nil
}

func (d *flowDriver) navigate(to string) error {
	delta := map[string]int{"back": -1, "forward": +1}[to]
	if delta == 0 {
		return chromedp.Do(d.tab, chromedp.Navigate(d.base+to))
	}
	h, err := chromedp.Call(d.tab, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return err
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		return fmt.Errorf("no history entry to go %s to", to)
	}
	if _, err := chromedp.Call(d.tab, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
		return err
	}
	// No load event to wait for: the page may come from the back/forward
	// cache. Wait for its URL and a complete document.
	return d.until("the page of "+h.Entries[i].URL, func() (bool, error) {
		return evalIn[bool](d.tab, fmt.Sprintf(`location.href === %q && document.readyState === 'complete'`, h.Entries[i].URL))
	})
}

// dialog checks that the previous action opened a JavaScript dialog with the
// message, answered as armed.
func (d *flowDriver) dialog(message, answer string) error {
	want := message + " → " + answer
	return d.until("the dialog "+strconv.Quote(message), func() (bool, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		if len(d.dialogs) == 0 {
			return false, nil
		}
		got := d.dialogs[0]
		d.dialogs = d.dialogs[1:]
		if got != want {
			return false, fmt.Errorf("dialog was %q, want %q", got, want)
		}
		return true, nil
	})
}

// switchTab makes the tab showing the path (and query) the current one.
func (d *flowDriver) switchTab(path string) error {
	var id target.ID
	err := d.until("a tab at "+path, func() (bool, error) {
		infos, err := chromedp.Targets(d.root)
		if err != nil {
			return false, err
		}
		for _, info := range infos {
			if info.Type == "page" && info.URL == d.base+path {
				id = info.TargetID
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		return err
	}
	ctx, ok := d.tabs[id]
	switch {
	case id == chromedp.FromContext(d.root).Target.TargetID:
		ctx = d.root
	case !ok:
		ctx, _ = chromedp.NewContext(d.root, chromedp.WithTargetID(id)) // ends with the root tab
		d.tabs[id] = ctx
	}
	d.tab = ctx
	// Bring the tab to the front, as a person switching to it does. A
	// background tab in headless Chromium gets no frames, and a command
	// that needs a fresh layout (Accessibility.queryAXTree) never answers.
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		return err
	}
	return d.until("the tab to load", func() (bool, error) {
		return evalIn[bool](ctx, `document.readyState === 'complete'`)
	})
}

// evalIn evaluates a JavaScript expression and decodes its value.
func evalIn[T any](ctx context.Context, expr string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// callOn calls a JavaScript function with the element as this; arguments
// that are backend node ids are passed as those elements.
func callOn[T any](ctx context.Context, n cdp.BackendNodeID, fn string, args ...any) (T, error) {
	var zero T
	obj, err := chromedp.Call(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: n, ObjectGroup: "flow-call"})
	if err != nil {
		return zero, err
	}
	defer chromedp.Call(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: "flow-call"})
	var callArgs []*runtime.CallArgument
	for _, a := range args {
		if el, ok := a.(cdp.BackendNodeID); ok {
			o, err := chromedp.Call(ctx, dom.ResolveNode, dom.ResolveNodeParams{BackendNodeID: el, ObjectGroup: "flow-call"})
			if err != nil {
				return zero, err
			}
			callArgs = append(callArgs, &runtime.CallArgument{ObjectID: o.Object.ObjectID})
			continue
		}
		v, err := json.Marshal(a)
		if err != nil {
			return zero, err
		}
		callArgs = append(callArgs, &runtime.CallArgument{Value: v})
	}
	res, err := chromedp.Call(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj.Object.ObjectID, Arguments: callArgs, ReturnByValue: new(true)})
	if err != nil {
		return zero, err
	}
	if res.ExceptionDetails != nil {
		return zero, fmt.Errorf("page script: %s", res.ExceptionDetails.Text)
	}
	var v T
	if err := json.Unmarshal(res.Result.Value, &v); err != nil {
		return zero, fmt.Errorf("decoding %s: %w", res.Result.Value, err)
	}
	return v, nil
}

// loadFlows parses FLOWS.md and writes the upload fixture beside nothing
// else: into a temporary folder it returns.
func loadFlows(t *testing.T) ([]*flowDoc, string) {
	t.Helper()
	flows, err := parseFlows("FLOWS.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gift-note.txt"), []byte(giftNoteText), 0o600); err != nil {
		t.Fatal(err)
	}
	return flows, dir
}

func TestFlowsDocument(t *testing.T) {
	flows, err := parseFlows("FLOWS.md")
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, f := range flows {
		titles = append(titles, f.Title)
		for _, st := range f.Steps {
			if st.Target != "" {
				if _, err := parseTarget(st.Target); err != nil {
					t.Errorf("FLOWS.md:%d: %v", st.Line, err)
				}
			}
		}
		if len(f.Outcomes) > 0 && len(f.Outcomes) != len(Variants()) {
			t.Errorf("flow %q has outcomes for %d variants, want all %d", f.Title, len(f.Outcomes), len(Variants()))
		}
	}
	want := []string{"Sign in", "Wrong password shows an error", "Buy two iPhone items with a discount", "Full shopping journey", "Big page"}
	if fmt.Sprint(titles) != fmt.Sprint(want) {
		t.Fatalf("FLOWS.md has flows %q, want %q", titles, want)
	}
	if n := len(flows[3].Steps); n < 40 {
		t.Errorf("the benchmark flow has %d steps, want at least 40", n)
	}
}
