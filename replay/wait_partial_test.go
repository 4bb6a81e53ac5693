package replay

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// selectorPages holds the selector corpus's fixture pages and the
// selectors the corpus expects on them (recorder/selector/testdata).
const selectorPages = "../recorder/selector/testdata/selectors"

// TestPartialScreenMatchesWhole is the proof that a wait may look at a
// partial screen: over every selector of the corpus (the selector cases and
// the stability matrix, every demo and fixture trail) and every screen the
// fixture pages and the demo shop's variants show, matching on the partial
// screen the page model captures for the selector gives what matching on
// the whole screen gives — the same elements (by ref), the same ambiguity,
// the same "none", the same error in the same words, and the same states
// a wait reads of the element found.
func TestPartialScreenMatchesWhole(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	sels := corpusSelectors(t)
	sets := make([][]browser.SelectorPart, len(sels))
	for i, s := range sels {
		sets[i] = selectorParts(s)
	}
	// The screens share nothing but the browser: each is checked in a
	// subtest of its own, in parallel (as many at once as -parallel
	// allows), on one of these tabs of the shared browser.
	tabs := make(chan context.Context, partialTabs)
	for range partialTabs {
		ctx, cancel := chromedp.NewContext(browserCtx)
		t.Cleanup(cancel)
		ctx, cancelTimeout := context.WithTimeout(ctx, 15*time.Minute)
		t.Cleanup(cancelTimeout)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)); err != nil {
			t.Fatal(err)
		}
		tabs <- ctx
	}
	var (
		tallyMu sync.Mutex
		tally   partialTally
	)
	// check checks the screen at url, loaded with the extra request
	// headers headers (none when nil), in a parallel subtest named name.
	check := func(t *testing.T, name, url string, headers network.Headers) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := <-tabs
			defer func() { tabs <- ctx }()
			if headers == nil {
				headers = network.Headers{}
			}
			if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
				_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: headers})
				return chromedp.Void{}, err
			}); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
				t.Fatalf("loading %s: %v", url, err)
			}
			whole, parts := captureBoth(t, ctx, sets)
			var mine partialTally
			for i, sel := range sels {
				comparePartial(t, url, sel, whole, parts[i], &mine)
			}
			checkCaptureTop(t, ctx, url, sels, whole)
			tallyMu.Lock()
			tally.add(mine)
			tallyMu.Unlock()
		})
	}

	edges := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(edgesPage))
	}))
	t.Cleanup(edges.Close)
	t.Run("edges", func(t *testing.T) { check(t, "edges", edges.URL, nil) })

	pages := httptest.NewServer(http.FileServer(http.Dir(filepath.Join(selectorPages, "pages"))))
	t.Cleanup(pages.Close)
	t.Run("pages", func(t *testing.T) {
		for _, dir := range []string{filepath.Join(selectorPages, "pages"), "testdata"} {
			files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
			for _, f := range files {
				base := site.URL
				if dir != "testdata" {
					base = pages.URL
				}
				check(t, filepath.Base(dir)+"/"+filepath.Base(f), base+"/"+filepath.Base(f), nil)
			}
		}
	})

	t.Run("shop", func(t *testing.T) {
		shop := httptest.NewServer(demo.New(demo.Options{}))
		t.Cleanup(shop.Close)
		signIn := fmt.Sprintf(`fetch('/login', {method: 'POST', body: new URLSearchParams({username: %q, password: %q})})
	  .then(() => fetch('/cart/add', {method: 'POST', body: new URLSearchParams({id: 'iphone-17'})}))
	  .then(() => fetch('/cart/add', {method: 'POST', body: new URLSearchParams({id: 'iphone-17-case'})}))
	  .then(() => 'ok')`, demo.Username, demo.Password)
		// The tabs share the browser's cookies: signed in on one, the
		// shop's session is every tab's.
		ctx := <-tabs
		err := chromedp.Do(ctx, chromedp.Navigate(shop.URL+"/login"), chromedp.Evaluate[chromedp.Void](signIn, awaitPromise))
		tabs <- ctx
		if err != nil {
			t.Fatalf("signing in to the shop: %v", err)
		}
		paths := []string{"/", "/login", "/help", "/products", "/products/iphone-17", "/products/iphone-17-case",
			"/cart", "/checkout", "/orders", "/nowhere"}
		for _, v := range demo.Variants() {
			headers := network.Headers{}
			if v != demo.Normal {
				headers[demo.VariantHeader] = v
			}
			name := cmp.Or(v, "normal")
			for _, p := range paths {
				check(t, name+p, shop.URL+p, headers)
			}
			if v == demo.Normal {
				check(t, name+"/big", shop.URL+"/big?n=300", headers)
			}
		}
	})
	t.Logf("%d selectors over %d screens: %d found, %d ambiguous, %d none; %d nodes sent in all partial screens, %d in the whole ones (%.1f%%)",
		len(sels), tally.screens, tally.found, tally.ambiguous, tally.none, tally.partialNodes, tally.wholeNodes,
		100*float64(tally.partialNodes)/float64(max(tally.wholeNodes, 1)))
	// The proof means something only when the corpus finds, finds several
	// and finds nothing, and the partial screens are smaller.
	if tally.found == 0 || tally.ambiguous == 0 || tally.none == 0 {
		t.Errorf("the corpus must exercise every outcome: %+v", tally)
	}
	if tally.partialNodes*4 > tally.wholeNodes {
		t.Errorf("partial screens hold %d nodes against %d in the whole ones: the filter keeps too much", tally.partialNodes, tally.wholeNodes)
	}
}

func awaitPromise(p *runtime.EvaluateParams) { p.AwaitPromise = new(true) }

// edgesPage holds what the matcher reads beyond a node itself: a hidden
// container shown by what floats in it, a row that only wraps a row, an
// unlabelled field named by the text before it (and text edited in place,
// past a separator), an aria-hidden copy, hidden twins, icon glyphs in a
// name, scopes.
const edgesPage = `<!doctype html><html lang="en"><title>Edges</title>
<ul><li style="height:0" data-testid="collapsed"><span style="float:left">Floating row</span></li></ul>
<div style="clear:both" role="list" aria-label="Wrapped"><div role="listitem" style="display:contents"><button>Inside contents</button></div></div>
<div role="table"><div role="row" id="outer"><div role="row"><span role="cell">Order 7</span></div></div>
<div role="row"><span role="cell">Order 8</span></div></div>
<p><span>Nickname</span> <input></p>
<p><span>Country</span> <span hidden>ignored</span> <select><option>France</option></select></p>
<table><tr><td>firstName</td><td>:</td><td><div><span contenteditable="true">John</span></div></td></tr></table>
<button aria-hidden="true">Save</button> <button>Save</button>
<button style="display:none">Hidden twin</button><button style="display:none">Hidden twin</button>
<button><span>&#xf013;</span> Settings</button>
<div hidden><button>Only hidden</button></div>
<section aria-label="Panel"><h2>Panel</h2><button>Go</button></section>
<section aria-label="Panel 2"><button>Go</button></section>
<div style="width:0;height:0;overflow:hidden"><a href="#x">Clipped link</a></div>
</html>`

// edgeSelectors are the selectors of edgesPage's cases, besides the corpus.
var edgeSelectors = []string{
	`{testId: collapsed}`, `{role: listitem, text: Floating row}`, `{role: listitem}`,
	`{role: button, within: {role: list, name: Wrapped}}`, `{role: listitem, within: {role: list, name: Wrapped}}`,
	`{role: row, text: Order 7}`, `{role: cell, within: {role: row, text: Order 7}}`, `{text: Order 7}`,
	`{role: row, textRegex: "^Order"}`, `{label: Nickname}`, `{label: Country}`, `{role: combobox, label: Country}`,
	`{label: firstName}`, `{role: button, name: Save}`, `{text: Save}`, `{text: Hidden twin}`,
	`{role: button, name: Settings}`, `{text: Settings}`, `{text: Only hidden}`,
	`{role: button, name: Go, within: {role: region, name: Panel}}`, `{role: button, name: Go}`,
	`{role: button, name: Go, index: 1}`, `{role: textbox, index: 0}`, `{role: link, name: Clipped link}`,
	`{role: heading, name: Panel, within: {role: region}}`, `{placeholder: none here}`,
}

// partialTally counts what the proof compared.
type partialTally struct {
	screens, found, ambiguous, none int
	wholeNodes, partialNodes        int
}

// add adds the counts of o.
func (c *partialTally) add(o partialTally) {
	c.screens += o.screens
	c.found += o.found
	c.ambiguous += o.ambiguous
	c.none += o.none
	c.wholeNodes += o.wholeNodes
	c.partialNodes += o.partialNodes
}

// partialTabs is how many tabs of the shared browser
// TestPartialScreenMatchesWhole checks screens in at once (at most;
// -parallel bounds it too).
const partialTabs = 4

// captureBoth captures the page whole and, in one capture, for each
// selector's parts, as the directed capture sends it
// (extension/pagemodel/directed.js). The page is captured whole again
// after, and all of it again until the two whole screens agree: the
// partial screens are then of that same page.
func captureBoth(t *testing.T, ctx context.Context, sets [][]browser.SelectorPart) (*screen.Screen, []*screen.Screen) {
	t.Helper()
	// The script answers null when the world has no page model yet.
	const script = `(function (opts) { const pm = globalThis.__trailpinPageModel; return pm ? pm.captureWire(opts) : null; })`
	call := func(opts map[string]any) string {
		text, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (string, error) {
			m, err := browser.TopFrame(ctx, tg)
			if err != nil {
				return "", err
			}
			r, err := m.CallFunction(ctx, script, false, opts)
			if err == nil && r.Type != runtime.RemoteObjectTypeString {
				// The plain capture installs the page model in the world
				// (once per document: a page's captures after it reuse it).
				if _, err := browser.CaptureTop(ctx, m, browser.CaptureOptions{NoCoverage: true}); err != nil {
					return "", err
				}
				r, err = m.CallFunction(ctx, script, false, opts)
			}
			if err != nil {
				return "", err
			}
			var text string
			return text, json.Unmarshal(r.Value, &text)
		})
		if err != nil {
			t.Fatalf("capturing: %v", err)
		}
		return text
	}
	decode := func(s string) *screen.Screen {
		sc, err := screen.DecodeWire([]byte(s))
		if err != nil {
			t.Fatalf("decoding a screen: %v", err)
		}
		return sc
	}
	for try := 0; ; try++ {
		before := call(map[string]any{"coverage": "none"})
		var texts []json.RawMessage
		if err := json.Unmarshal([]byte(call(map[string]any{"coverage": "none", "only": sets, "each": true, "fieldRoles": selector.FieldRoles()})), &texts); err != nil {
			t.Fatal(err)
		}
		after := call(map[string]any{"coverage": "none"})
		if before != after {
			if try == 5 {
				t.Fatalf("the page keeps changing")
			}
			continue
		}
		parts := make([]*screen.Screen, len(sets))
		for i := range sets {
			parts[i] = decode(string(texts[i]))
			if !parts[i].Partial {
				t.Fatalf("a directed screen is not marked partial")
			}
		}
		return decode(before), parts
	}
}

// comparePartial checks that sel matches on part as on whole, and that
// every element part sends is the whole screen's, field for field: the
// directed capture computes names, labels, values and states only for the
// elements it sends (extension/pagemodel/directed.js), and they must be
// those the whole capture computes.
func comparePartial(t *testing.T, url string, sel selector.Selector, whole, part *screen.Screen, tally *partialTally) {
	t.Helper()
	tally.screens++
	byRef := map[string]*screen.Node{}
	var index func(n *screen.Node)
	index = func(n *screen.Node) {
		if n.Ref != "" {
			byRef[n.Ref] = n
		}
		for _, c := range n.Children {
			index(c)
		}
	}
	index(whole.Root)
	var same func(n *screen.Node)
	same = func(n *screen.Node) {
		if w := byRef[n.Ref]; n.Ref != "" && w != nil {
			a, b := *w, *n
			a.Children, b.Children = nil, nil
			if wj, pj := mustJSON(t, a), mustJSON(t, b); wj != pj {
				t.Errorf("%s: %s: %s on the partial screen is\n%s\non the whole screen\n%s", url, sel, n.Ref, pj, wj)
			}
		} else if n.Ref != "" {
			t.Errorf("%s: %s: the partial screen sends %s, which the whole screen does not have", url, sel, n.Ref)
		}
		for _, c := range n.Children {
			same(c)
		}
	}
	same(part.Root)
	wm, pm := selector.NewMatcher(whole), selector.NewMatcher(part)
	tally.wholeNodes += wm.Len()
	tally.partialNodes += pm.Len()
	for _, hidden := range []bool{false, true} {
		var opts []selector.MatchOption
		if hidden {
			opts = append(opts, selector.IncludeHidden())
		}
		wn, werr := wm.Match(sel, opts...)
		pn, perr := pm.Match(sel, opts...)
		if !hidden {
			var amb *selector.AmbiguousError
			switch {
			case werr == nil:
				tally.found++
			case errors.As(werr, &amb):
				tally.ambiguous++
			default:
				tally.none++
			}
		}
		if fmt.Sprint(werr) != fmt.Sprint(perr) || fmt.Sprintf("%T", werr) != fmt.Sprintf("%T", perr) {
			t.Errorf("%s: %s (hidden %v): whole screen: %v; partial screen: %v", url, sel, hidden, werr, perr)
			continue
		}
		if got, want := nodeKeys(pn), nodeKeys(wn); !slices.Equal(got, want) {
			t.Errorf("%s: %s (hidden %v): whole screen matches %v, partial screen %v", url, sel, hidden, want, got)
			continue
		}
		for k := range wn {
			for _, need := range []readiness{needVisible, needActionable, needPointable, needAttached, needEditable} {
				if a, b := nodeState(wn[k], need), nodeState(pn[k], need); a != b {
					t.Errorf("%s: %s: %s is %q on the whole screen, %q on the partial one", url, sel, wn[k].Ref, a, b)
				}
			}
		}
	}
}

// checkCaptureTop checks the way replay takes a partial screen: CaptureTop
// with Only, for the first selectors that find something on the page.
func checkCaptureTop(t *testing.T, ctx context.Context, url string, sels []selector.Selector, whole *screen.Screen) {
	t.Helper()
	wm := selector.NewMatcher(whole)
	checked := 0
	for _, sel := range sels {
		if checked == 2 {
			return
		}
		want, werr := wm.Match(sel)
		if werr != nil {
			continue
		}
		checked++
		s, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (*screen.Screen, error) {
			m, err := browser.TopFrame(ctx, tg)
			if err != nil {
				return nil, err
			}
			return browser.CaptureTop(ctx, m, browser.CaptureOptions{NoCoverage: true, Only: selectorParts(sel), FieldRoles: selector.FieldRoles()})
		})
		if err != nil {
			t.Fatalf("%s: CaptureTop for %s: %v", url, sel, err)
		}
		if !s.Partial {
			t.Errorf("%s: CaptureTop for %s gave a screen not marked partial", url, sel)
		}
		got, err := selector.NewMatcher(s).Match(sel)
		if err != nil || !slices.Equal(nodeKeys(got), nodeKeys(want)) {
			t.Errorf("%s: %s: CaptureTop's partial screen matches %v (%v), the whole one %v", url, sel, nodeKeys(got), err, nodeKeys(want))
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// nodeKeys identifies nodes by ref: refs are the page model's, the same
// element has the same ref in every capture of its document.
func nodeKeys(nodes []*screen.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Ref)
	}
	return out
}

// corpusSelectors reads every selector of the corpus: the selector cases
// and the stability matrix of recorder/selector, and every selector of the
// trails of the demo shop, replay's fixtures and e2e.
func corpusSelectors(t *testing.T) []selector.Selector {
	t.Helper()
	seen := map[string]bool{}
	var out []selector.Selector
	add := func(s selector.Selector) {
		if s.Validate() != nil || strings.Contains(s.String(), "{{") {
			return
		}
		if key := s.String(); !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	for _, f := range []string{"cases.yaml", "matrix.yaml"} {
		src, err := os.ReadFile(filepath.Join(selectorPages, f))
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(src, &doc); err != nil {
			t.Fatal(err)
		}
		for _, n := range selectorNodes(&doc) {
			b, err := yaml.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			s, err := trail.ParseSelector(b)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			add(s)
		}
	}
	var files []string
	for _, g := range []string{"testdata/trails/*.trail.yaml", "../host/demo/trails/*.trail.yaml", "../e2e/testdata/*/*.trail.yaml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := trail.LoadTrail(f, src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, st := range tr.Steps {
			for _, a := range st.Actions {
				if s, ok := trail.ActionSelector(a); ok {
					add(s)
				}
			}
			if st.End != nil {
				for _, s := range st.End.Shows {
					add(s)
				}
			}
		}
	}
	for _, src := range edgeSelectors {
		s, err := trail.ParseSelector([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		add(s)
	}
	if len(out) < 100 {
		t.Fatalf("the corpus has %d selectors; expected the cases, the matrix and the trails", len(out))
	}
	return out
}

// selectorNodes finds the selectors in a corpus file: the values of its
// expect maps (one per purpose) and of its selector keys.
func selectorNodes(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case k == "selector" && v.Kind == yaml.MappingNode:
				out = append(out, v)
				continue
			case k == "expect" && v.Kind == yaml.MappingNode:
				for j := 0; j+1 < len(v.Content); j += 2 {
					if v.Content[j+1].Kind == yaml.MappingNode {
						out = append(out, v.Content[j+1])
					}
				}
				continue
			}
			out = append(out, selectorNodes(v)...)
		}
		return out
	}
	for _, c := range n.Content {
		out = append(out, selectorNodes(c)...)
	}
	return out
}
