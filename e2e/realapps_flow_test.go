package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A flow is what a person does in a real app, written once as data: the
// recording drives it with trusted CDP input through the extension, and
// Playwright drives the same flow (testdata/realapps/flow.mjs) to show that
// the churned copy of the app looks and behaves as the unchanged one.
type flowAct struct {
	// Do is the action: click, dblclick, rightclick, hover, type, press,
	// one of the recording bar's checks: assertVisible, assertValue,
	// assertURL, assertChange, or its markSensitive (the next typing there
	// is a secret).
	Do string `json:"do"`
	// CSS names the element acted on, as written for the unchanged app
	// (the churned copy's flow renames its class selectors).
	CSS string `json:"css,omitempty"`
	// Text is what type types.
	Text string `json:"text,omitempty"`
	// Key is what press presses (a key name: Enter, Escape, ArrowRight, a).
	Key string `json:"key,omitempty"`
	// Mods are the modifiers held during a click or press (Control, Shift).
	Mods []string `json:"mods,omitempty"`
	// Wait is a JavaScript expression that is true once the action took
	// effect.
	Wait string `json:"wait,omitempty"`
	// Load says the action loads another page.
	Load bool `json:"load,omitempty"`
	// Ticks are the changes an assertChange ticks in the recording bar's
	// list, each by the start of its words; Only ticks "Nothing else
	// changes".
	Ticks []string `json:"ticks,omitempty"`
	Only  bool     `json:"only,omitempty"`
}

func click(css string, wait string) flowAct { return flowAct{Do: "click", CSS: css, Wait: wait} }
func typeText(text, wait string) flowAct    { return flowAct{Do: "type", Text: text, Wait: wait} }
func press(key string, wait string, mods ...string) flowAct {
	return flowAct{Do: "press", Key: key, Mods: mods, Wait: wait}
}
func assertVisible(css string) flowAct { return flowAct{Do: "assertVisible", CSS: css} }
func assertValue(css string) flowAct   { return flowAct{Do: "assertValue", CSS: css} }
func hover(css string) flowAct         { return flowAct{Do: "hover", CSS: css} }

// flowKeys are the key names a flow presses, as chromedp's kb writes them.
var flowKeys = map[string]string{
	"Enter": kb.Enter, "Escape": kb.Escape, "Tab": kb.Tab, "Backspace": kb.Backspace,
	"ArrowDown": kb.ArrowDown, "ArrowUp": kb.ArrowUp, "ArrowLeft": kb.ArrowLeft, "ArrowRight": kb.ArrowRight,
	"Home": kb.Home, "End": kb.End, "PageDown": kb.PageDown, "PageUp": kb.PageUp,
}

// modifierKeys are the raw key events of the modifiers a flow holds, and
// their bits in CDP's modifiers field.
var modifierKeys = map[string]struct {
	key input.DispatchKeyEventParams
	bit int64
}{
	"Alt":     {input.DispatchKeyEventParams{Key: "Alt", Code: "AltLeft", WindowsVirtualKeyCode: 18, NativeVirtualKeyCode: 18}, 1},
	"Control": {controlKey, 2},
	"Meta":    {input.DispatchKeyEventParams{Key: "Meta", Code: "MetaLeft", WindowsVirtualKeyCode: 91, NativeVirtualKeyCode: 91}, 4},
	"Shift":   {input.DispatchKeyEventParams{Key: "Shift", Code: "ShiftLeft", WindowsVirtualKeyCode: 16, NativeVirtualKeyCode: 16}, 8},
}

// holding runs fn with mods held down, each pressed as a person presses it
// (its own keydown first), and returns the modifier bits.
func holding(t *testing.T, ctx context.Context, mods []string, fn func(bits int64)) {
	t.Helper()
	var bits int64
	for _, m := range mods {
		k, ok := modifierKeys[m]
		if !ok {
			t.Fatalf("flow: unknown modifier %q", m)
		}
		bits |= k.bit
		keyDownUp(t, ctx, input.DispatchKeyEventTypeRawKeyDown, k.key, bits)
	}
	fn(bits)
	for i := len(mods) - 1; i >= 0; i-- {
		k := modifierKeys[mods[i]]
		bits &^= k.bit
		keyDownUp(t, ctx, input.DispatchKeyEventTypeKeyUp, k.key, bits)
	}
}

// visibleCentre waits until the element css names is shown and returns its
// centre, scrolled into view; when something else covers the centre, the
// middle of a line of its text (where a person clicks on what they see).
func visibleCentre(t *testing.T, ctx context.Context, css string) (float64, float64) {
	t.Helper()
	return pointOn(t, ctx, css, false)
}

// pickPoint is a point where the element css names is itself the topmost
// element, as the recording bar's pick needs: its centre, else the first
// such point of a grid over it.
func pickPoint(t *testing.T, ctx context.Context, css string) (float64, float64) {
	t.Helper()
	return pointOn(t, ctx, css, true)
}

func pointOn(t *testing.T, ctx context.Context, css string, exact bool) (float64, float64) {
	t.Helper()
	// The element must also hold still, as a script's click waits for it
	// to (Playwright's "stable"): a menu that grows in, a dialog that slides
	// in or a group that unfolds moves what it holds, and a click at a
	// point measured a moment before lands beside it. Still is: no finite
	// animation or transition of it or of what holds it runs, and its box
	// is the same one frame later.
	js := fmt.Sprintf(`(async (exact) => {
		const e = document.querySelector(%q);
		if (!e) return null;
		const moving = () => {
			for (let n = e; n; n = n.parentElement)
				if (n.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.getComputedTiming().endTime !== Infinity))
					return true;
			return false;
		};
		if (moving()) return {x: 0, y: 0, on: false, at: 'nothing: it is moving'};
		e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
		const box = () => { const q = e.getBoundingClientRect(); return [q.x, q.y, q.width, q.height].join(' '); };
		const before = box();
		await Promise.race([new Promise((r) => requestAnimationFrame(() => r())), new Promise((r) => setTimeout(r, 1000))]);
		if (box() !== before || moving()) return {x: 0, y: 0, on: false, at: 'nothing: it is moving'};
		const r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0) return null;
		const range = document.createRange();
		range.selectNodeContents(e);
		const points = [[r.x + r.width / 2, r.y + r.height / 2],
			...[...range.getClientRects()].map((q) => [q.x + q.width / 2, q.y + q.height / 2])];
		if (exact)
			for (let y = r.y + 2; y < r.bottom - 1; y += 4)
				for (let x = r.x + 2; x < r.right - 1; x += 4) points.push([x, y]);
		let at = null;
		for (const [x, y] of points) {
			at = document.elementFromPoint(x, y);
			// An option of a list box is under the pointer as its select.
			const hit = at && (exact ? at === e : e.contains(at)) || at && e.localName === 'option' && at === e.closest('select');
			if (hit) return {x, y, on: true, at: ''};
		}
		return {x: 0, y: 0, on: false, at: at ? at.outerHTML.slice(0, 120) : ''};
	})(%t)`, css, exact)
	deadline := time.Now().Add(WaitTimeout)
	for {
		ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
		p, err := chromedp.Run(ectx, chromedp.Evaluate[*struct {
			X, Y float64
			On   bool
			At   string
		}](js, chromedp.EvalAwaitPromise))
		cancel()
		if err == nil && p != nil && p.On {
			return p.X, p.Y
		}
		if time.Now().After(deadline) {
			if p != nil {
				t.Fatalf("flow: %s is covered everywhere a person could click it (by %s)", css, p.At)
			}
			t.Fatalf("flow: no visible %s: %v", css, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mouse sends one trusted mouse event.
func mouse(t *testing.T, ctx context.Context, typ input.DispatchMouseEventType, x, y float64, button input.MouseButton, clicks, mods int64) {
	t.Helper()
	p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Modifiers: mods}
	if typ != input.DispatchMouseEventTypeMouseMoved {
		p.Button, p.ClickCount = button, clicks
		if typ == input.DispatchMouseEventTypeMousePressed {
			p.Buttons = map[input.MouseButton]int64{input.MouseButtonLeft: 1, input.MouseButtonRight: 2, input.MouseButtonMiddle: 4}[button]
		}
	}
	actx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	if _, err := chromedp.Call(actx, input.DispatchMouseEvent, p); err != nil {
		t.Fatalf("flow: mouse %s at %.0f,%.0f: %v", typ, x, y, err)
	}
}

// clickAt moves the mouse to x,y and presses button clicks times.
func clickAt(t *testing.T, ctx context.Context, x, y float64, button input.MouseButton, clicks int, mods int64) {
	t.Helper()
	mouse(t, ctx, input.DispatchMouseEventTypeMouseMoved, x, y, "", 0, mods)
	for n := 1; n <= clicks; n++ {
		mouse(t, ctx, input.DispatchMouseEventTypeMousePressed, x, y, button, int64(n), mods)
		mouse(t, ctx, input.DispatchMouseEventTypeMouseReleased, x, y, button, int64(n), mods)
	}
}

// A pace is how fast a flow is driven.
type pace int

const (
	// personPace waits after each action until it took effect, as a person
	// looks before acting again.
	personPace pace = iota
	// machinePace goes on at once, as a script or an agent drives a
	// browser: the next action waits only for its element to be there and
	// hold still (as a script's click waits for what it clicks) and for a
	// page being loaded; a check waits for what it checks (the effect of
	// the action before it), as a script's assertion retries until the
	// page shows it; the last action is waited for. Text goes into a
	// field as a script's fill and the agent's type put it
	// (Input.insertText: no key goes down), and Enter and Tab in it are
	// keys.
	machinePace
)

// driveFlow performs the flow in the recorded tab with trusted input and
// the recording bar, waiting after each action until it took effect.
func driveFlow(t *testing.T, app context.Context, flow []flowAct) {
	t.Helper()
	driveFlowAt(t, app, flow, personPace)
}

// driveFlowAt is driveFlow at a person's or a machine's pace.
func driveFlowAt(t *testing.T, app context.Context, flow []flowAct, at pace) {
	t.Helper()
	// Which action a failure stopped at is said once, after the error.
	stopped := 0
	defer func() {
		if t.Failed() && stopped < len(flow) {
			a := flow[stopped]
			t.Logf("the flow stopped at action %d of %d: %s %s%s%s", stopped+1, len(flow), a.Do, a.CSS, a.Text, a.Key)
		}
	}()
	for i, a := range flow {
		stopped = i
		if a.Load {
			// The document the action leaves: the wait below is for another.
			Eval[bool](t, app, `window.__flowLeaving = true`)
		}
		switch a.Do {
		case "click", "dblclick", "rightclick":
			x, y := visibleCentre(t, app, a.CSS)
			holding(t, app, a.Mods, func(bits int64) {
				switch a.Do {
				case "click":
					clickAt(t, app, x, y, input.MouseButtonLeft, 1, bits)
				case "dblclick":
					clickAt(t, app, x, y, input.MouseButtonLeft, 2, bits)
				case "rightclick":
					clickAt(t, app, x, y, input.MouseButtonRight, 1, bits)
				}
			})
		case "hover":
			x, y := visibleCentre(t, app, a.CSS)
			mouse(t, app, input.DispatchMouseEventTypeMouseMoved, x, y, "", 0, 0)
		case "type":
			if at == machinePace {
				insertTyping(t, app, a.Text)
			} else {
				typeKeys(t, app, a.Text)
			}
		case "press":
			key := a.Key
			if k, ok := flowKeys[key]; ok {
				key = k
			}
			holding(t, app, a.Mods, func(bits int64) {
				actx, cancel := context.WithTimeout(app, WaitTimeout)
				defer cancel()
				if err := chromedp.Do(actx, chromedp.KeyEvent(key, chromedp.KeyModifiers(kb.Modifier(bits)))); err != nil {
					t.Fatalf("flow: pressing %s: %v", a.Key, err)
				}
			})
		case "assertVisible":
			clickAX(t, app, "button", "Assert visible")
			waitAX(t, app, "StaticText", "Click the element that must be visible.")
			x, y := pickPoint(t, app, a.CSS)
			clickAt(t, app, x, y, input.MouseButtonLeft, 1, 0)
			waitAX(t, app, "StaticText", "Added: the element must be visible.")
		case "assertValue":
			clickAX(t, app, "button", "Assert value")
			waitAX(t, app, "StaticText", "Click the field whose value must stay.")
			x, y := pickPoint(t, app, a.CSS)
			clickAt(t, app, x, y, input.MouseButtonLeft, 1, 0)
			waitAX(t, app, "StaticText", "Added: the field's value must stay.")
		case "markSensitive":
			clickAX(t, app, "button", "Mark sensitive")
			waitAX(t, app, "StaticText", "Click the element whose value must never be written down.")
			x, y := pickPoint(t, app, a.CSS)
			clickAt(t, app, x, y, input.MouseButtonLeft, 1, 0)
			waitAX(t, app, "StaticText", "Marked: what it shows stays out of the trail.")
		case "assertURL":
			clickAX(t, app, "button", "Assert URL")
			waitAXPrefix(t, app, "StaticText", "Added: the URL is ")
		case "assertChange":
			clickAX(t, app, "button", "Assert change")
			waitAX(t, app, "StaticText", "Tick what must change, then Add assertion.")
			for _, prefix := range a.Ticks {
				clickAXPrefix(t, app, "checkbox", prefix)
			}
			if a.Only {
				clickAXPrefix(t, app, "checkbox", "Nothing else changes")
			}
			clickAX(t, app, "button", "Add assertion")
			waitAXPrefix(t, app, "StaticText", "Added: ")
		default:
			t.Fatalf("flow: unknown action %q", a.Do)
		}
		if a.Load {
			waitAcrossLoads(t, app, `!window.__flowLeaving && document.readyState === 'complete'`)
			waitAX(t, app, "toolbar", "Trailpin recording")
		}
		if a.Wait != "" && (at == personPace || i == len(flow)-1 || isCheck(flow[i+1])) {
			waitAcrossLoads(t, app, a.Wait)
		}
	}
	stopped = len(flow)
}

// isCheck says whether the action is one of the recording bar's checks.
func isCheck(a flowAct) bool { return strings.HasPrefix(a.Do, "assert") }

// insertTyping types text as a script does: each run of characters is
// inserted at once, and Enter ("\r") and Tab ("\t") are pressed as keys.
func insertTyping(t *testing.T, app context.Context, text string) {
	t.Helper()
	for text != "" {
		if i := strings.IndexAny(text, "\r\t"); i != 0 {
			if i < 0 {
				i = len(text)
			}
			insertText(t, app, text[:i])
			text = text[i:]
			continue
		}
		typeKeys(t, app, text[:1])
		text = text[1:]
	}
}

// countedActions is the number of actions a person takes in the flow.
func countedActions(flow []flowAct) int { return len(flow) }

// flowQuote quotes s for a JavaScript expression.
func flowQuote(s string) string { return fmt.Sprintf("%q", s) }

// textIs is a wait: the element css names reads text (whitespace collapsed).
func textIs(css, text string) string {
	return fmt.Sprintf(`(document.querySelector(%s)?.textContent || '').replace(/\s+/g, ' ').trim() === %s`, flowQuote(css), flowQuote(text))
}

// countIs is a wait: css matches n elements.
func countIs(css string, n int) string {
	return fmt.Sprintf(`document.querySelectorAll(%s).length === %d`, flowQuote(css), n)
}

// valueIs is a wait: the field css names holds value.
func valueIs(css, value string) string {
	return fmt.Sprintf(`document.querySelector(%s)?.value === %s`, flowQuote(css), flowQuote(value))
}

// all joins waits.
func all(waits ...string) string { return "(" + strings.Join(waits, ") && (") + ")" }

// waitAXPrefix waits until the tab's accessibility tree has a node with the
// role whose name starts with prefix, and returns its name.
func waitAXPrefix(t *testing.T, ctx context.Context, role, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for {
		for _, n := range axNodes(t, ctx) {
			if n.role == role && strings.HasPrefix(n.name, prefix) {
				return n.name
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s starting %q in the tab's accessibility tree after %v", role, prefix, WaitTimeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
