package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"
)

// Trusted input for recording tests: the app tab is driven with CDP mouse
// and keyboard events, as a person would drive it, so the recorder sees
// isTrusted events; nothing here calls the page's own click() or sets values.

// clickCSS scrolls the element sel names to the middle of the viewport and
// clicks its centre with the mouse, once it is rendered (a hidden element's
// box is empty, and a click at its corner would land on something else).
func clickCSS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	js := fmt.Sprintf(`(() => {
		const e = document.querySelector(%q);
		if (!e) return null;
		e.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
		const r = e.getBoundingClientRect();
		if (!r.width || !r.height) return null;
		return {x: r.x + r.width / 2, y: r.y + r.height / 2};
	})()`, sel)
	deadline := time.Now().Add(WaitTimeout)
	for {
		ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
		p, err := chromedp.Run(ectx, chromedp.Evaluate[*struct{ X, Y float64 }](js))
		cancel()
		if err == nil && p != nil {
			mouseClick(t, ctx, p.X, p.Y)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("e2e: no %s to click: %v", sel, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func mouseClick(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	actx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	if err := chromedp.Do(actx, chromedp.MouseClickXY(x, y)); err != nil {
		t.Fatalf("clicking at %.0f,%.0f: %v", x, y, err)
	}
}

// typeKeys sends keys to the focused element, one key event per character
// (chromedp's kb: "\r" is Enter).
func typeKeys(t *testing.T, ctx context.Context, keys string) {
	t.Helper()
	// Each key has the budget, not the whole text: a long text typed key
	// by key on a loaded machine (Swagger's request body, 61 keys at load
	// 50) took longer than one budget while every key went through.
	for _, r := range keys {
		actx, cancel := context.WithTimeout(ctx, WaitTimeout)
		err := chromedp.Do(actx, chromedp.KeyEvent(string(r)))
		cancel()
		if err != nil {
			t.Fatalf("typing %q of %q: %v", r, keys, err)
		}
	}
}

// waitAcrossLoads polls the JavaScript expression js until it is true,
// through page loads (an evaluation that a navigation interrupts is tried
// again), failing the test after WaitTimeout.
func waitAcrossLoads(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	var last error
	for time.Now().Before(deadline) {
		ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("e2e: waiting for %s: %v", js, last)
}

// An axNode is a node of the browser's accessibility tree.
type axNode struct {
	role, name string
	backend    cdp.BackendNodeID
}

// axNodes reads the tab's accessibility tree, which includes closed shadow
// roots such as the recording bar's.
func axNodes(t *testing.T, ctx context.Context) []axNode {
	t.Helper()
	actx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	res, err := chromedp.Call(actx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatalf("reading the accessibility tree: %v", err)
	}
	var out []axNode
	for _, n := range res.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		out = append(out, axNode{role: axString(n.Role), name: axString(n.Name), backend: n.BackendDOMNodeID})
	}
	return out
}

func axString(v *accessibility.Value) string {
	if v == nil {
		return ""
	}
	var s string
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return strings.Trim(string(v.Value), `"`)
	}
	return s
}

// waitAX waits until the tab's accessibility tree has a node with the role
// and name, and returns it.
func waitAX(t *testing.T, ctx context.Context, role, name string) axNode {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for {
		for _, n := range axNodes(t, ctx) {
			if n.role == role && n.name == name {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s %q in the tab's accessibility tree after %v", role, name, WaitTimeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// clickAX clicks the centre of the node with the role and name in the
// accessibility tree (the recording bar's buttons live in a closed shadow
// root that selectors cannot reach).
func clickAX(t *testing.T, ctx context.Context, role, name string) {
	t.Helper()
	n := waitAX(t, ctx, role, name)
	actx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	quads, err := chromedp.Call(actx, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: n.backend})
	if err != nil || len(quads.Quads) == 0 || len(quads.Quads[0]) < 8 {
		t.Fatalf("finding where %s %q is: %v", role, name, err)
	}
	q := quads.Quads[0]
	mouseClick(t, ctx, (q[0]+q[2]+q[4]+q[6])/4, (q[1]+q[3]+q[5]+q[7])/4)
}
