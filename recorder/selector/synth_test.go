package selector

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// selSynthetic builds a shop page of at least size elements from a seeded
// random source. It has what makes naming elements hard: a hidden copy of the
// navigation, sections named by headings, product cards whose "Add to cart"
// buttons repeat (some sharing a test id, some with generated ids), prices
// and item counts, iPhone 17 beside iPhone 18, table rows with an Edit link
// each, forms with labels and a password, toasts wrapped in divs with the
// same text, icon buttons, repeated copy ("Free shipping"), hidden elements
// and a remembered sensitive value.
func selSynthetic(seed uint64, size int) (*screen.Screen, []string) {
	r := rand.New(rand.NewPCG(seed, 42))
	sensitive := []string{"carol@example.com"}
	count := 0
	el := func(role string, opts ...screentest.Opt) *screentest.Spec {
		count++
		return screentest.El(role, opts...)
	}
	leaf := func(role, text string, opts ...screentest.Opt) *screentest.Spec {
		count++
		return screentest.Leaf(role, text, opts...)
	}
	maybe := func(p float64, o screentest.Opt) screentest.Opt {
		if r.Float64() < p {
			return o
		}
		return func(*screentest.Spec) {}
	}
	navLinks := func() []*screentest.Spec {
		var out []*screentest.Spec
		for _, l := range []string{"Home", "Phones", "Laptops", "Deals", "Help"} {
			out = append(out, leaf("link", l))
		}
		return out
	}
	banner := el("banner", screentest.Kids(
		el("link", screentest.Name("Trailshop"), screentest.Kids(el("img", screentest.Name("Trailshop")))),
		el("navigation", screentest.Name("Main"), screentest.Kids(navLinks()...)),
		el("navigation", screentest.Name("Mobile"), screentest.Hidden(), screentest.Kids(navLinks()...)),
		el("button", screentest.Name("Account"), screentest.ID("ember"+fmt.Sprint(r.IntN(999))), screentest.Kids(el("img"))),
		leaf("generic", "carol@example.com"),
	))
	var sections []*screentest.Spec
	for s := 0; count < size; s++ {
		var items []*screentest.Spec
		for j := range 6 + r.IntN(6) {
			title := fmt.Sprintf("Phone %d-%d", s, j)
			if s == 0 && j < 2 {
				title = fmt.Sprintf("iPhone %d", 17+j)
			}
			n := 1 + r.IntN(5)
			items = append(items, el("listitem", screentest.Kids(
				el("generic", screentest.Kids(
					leaf("heading", title),
					leaf("paragraph", fmt.Sprintf("$%d.%02d", 100+r.IntN(900), r.IntN(100))),
					leaf("generic", fmt.Sprintf("%d items", n)),
					el("button", maybe(0.3, screentest.TestID("add-to-cart")), maybe(0.2, screentest.ID(fmt.Sprintf("btn-%x", r.Uint32()|0x10000000))),
						screentest.Kids(leaf("generic", "Add to cart"))),
					el("button", screentest.Name("Remove "+title), screentest.Kids(el("img"))),
				)),
			)))
		}
		var rows []*screentest.Spec
		for j := range 4 + r.IntN(5) {
			rows = append(rows, el("row", screentest.Inline(), screentest.Kids(
				leaf("cell", fmt.Sprintf("Order %d/%d", s, j)),
				leaf("cell", fmt.Sprintf("%d items", 1+r.IntN(9))),
				el("cell", screentest.Kids(leaf("link", "Edit"))),
			)))
		}
		sections = append(sections, el("region", screentest.Name(fmt.Sprintf("Section %d", s)), screentest.Kids(
			leaf("heading", fmt.Sprintf("Section %d", s)),
			el("list", screentest.Kids(items...)),
			el("table", screentest.Kids(rows...)),
			el("form", screentest.Name(fmt.Sprintf("Sign up %d", s)), screentest.Kids(
				el("generic", screentest.Tag("label"), screentest.Kids(screentest.Txt("Email"), el("textbox", screentest.Name("Email"), screentest.Label("Email"), maybe(0.5, screentest.ID(fmt.Sprintf(":r%d:", s)))))),
				el("textbox", screentest.Name("Password"), screentest.Label("Password"), screentest.Secret()),
				el("checkbox", screentest.Name("Remember me"), screentest.Label("Remember me")),
				leaf("button", "Sign up", maybe(0.5, screentest.TestID(fmt.Sprintf("signup-%d", s)))),
			)),
			el("generic", screentest.Kids(el("generic", screentest.Kids(leaf("generic", "Saved"))))),
			leaf("paragraph", "Free shipping"),
			leaf("paragraph", "Review sale\n"+fmt.Sprint(1+r.IntN(9))+" items"),
			leaf("paragraph", "Out of stock", screentest.Hidden()),
		)))
	}
	footer := el("contentinfo", screentest.Kids(leaf("link", "Privacy"), leaf("link", "Terms"), leaf("paragraph", "Free shipping")))
	body := append([]*screentest.Spec{banner}, el("main", screentest.Kids(sections...)), footer)
	return screentest.Page(body...), sensitive
}

// TestGenerateRoundTripsOnSyntheticScreens is the property: every shown
// element's generated selector, for every purpose that applies, matches
// again on its screen and names exactly the (retargeted) target.
func TestGenerateRoundTripsOnSyntheticScreens(t *testing.T) {
	var r selRoundTripResult
	for seed := uint64(1); seed <= 2; seed++ {
		s, sensitive := selSynthetic(seed, 1000)
		m := NewMatcher(s)
		for i, n := range m.nodes {
			if !m.shown[i] {
				continue
			}
			purposes := []Purpose{PurposeTap, PurposeAssert}
			if n.Role == "textbox" {
				purposes = append(purposes, PurposeType)
			}
			for _, p := range purposes {
				sel, err := Generate(p, n.Ref, s, sensitive)
				if err != nil {
					t.Fatalf("seed %d: Generate(%q) error: %v", seed, p+" "+Purpose(n.Ref), err)
				}
				want, _ := Retarget(p, n.Ref, s)
				got, err := Match(s, sel)
				if err != nil || len(got) != 1 || got[0].Ref != want {
					t.Fatalf("seed %d: Generate(%q) = %q, which matches %v (%v), want [%s]", seed, p+" "+Purpose(n.Ref), sel, selRefs(got), err, want)
				}
				if Sensitive(NewSensitive(sensitive)).LeaksFrom(&sel) {
					t.Fatalf("seed %d: Generate(%q) = %q shows a sensitive value", seed, p+" "+Purpose(n.Ref), sel)
				}
				r.total++
				if p == PurposeTap && IsControlRole(n.Role) {
					r.countTap(sel)
				}
			}
		}
	}
	t.Logf("synthetic screens (rows of repeated controls on purpose): %v", r)
}

// On one screen, the menu's first entry is what Generate returns.
func TestCandidatesStartWithGenerate(t *testing.T) {
	s, sensitive := selSynthetic(7, 400)
	m := NewMatcher(s)
	checked := 0
	for i, n := range m.nodes {
		if !m.shown[i] || i%3 != 0 {
			continue
		}
		for _, p := range []Purpose{PurposeTap, PurposeAssert} {
			sel, err := Generate(p, n.Ref, s, sensitive)
			if err != nil {
				t.Fatal(err)
			}
			menu, err := Candidates(p, n.Ref, []*screen.Screen{s}, sensitive)
			if err != nil {
				t.Fatal(err)
			}
			if len(menu) == 0 || menu[0].Selector.String() != sel.String() {
				first := "nothing"
				if len(menu) > 0 {
					first = menu[0].Selector.String()
				}
				t.Errorf("Candidates(%q)[0] = %s, want Generate's %q", p+" "+Purpose(n.Ref), first, sel)
			}
			checked++
		}
	}
	t.Logf("%d menus start with the generated selector", checked)
}

// FuzzMatch matches arbitrary selectors on a fixed screen: never a panic, and
// a match is always a shown element with a ref.
func FuzzMatch(f *testing.F) {
	f.Add("button", "Delete", "", "", "listitem", 1)
	f.Add("", "", "Saved", "", "", -1)
	f.Add("", "", "", `^Review sale\n\d+ items?$`, "region", 0)
	s := selShop()
	m := NewMatcher(s)
	f.Fuzz(func(t *testing.T, role, name, text, pattern, withinRole string, index int) {
		sel := Selector{Role: role, Name: name, Text: text, TextRegex: pattern}
		if withinRole != "" {
			sel.Within = &Selector{Role: withinRole}
		}
		if index >= 0 {
			sel.Index = &index
		}
		got, err := m.Match(sel)
		if err == nil && len(got) != 1 {
			t.Fatalf("Match(%q) = %d nodes without an error", sel, len(got))
		}
		for _, n := range got {
			if n.Ref == "" || n.IsText() {
				t.Fatalf("Match(%q) returned a node without a ref", sel)
			}
		}
	})
}

// selBenchScreen is the synthetic 10k-element screen as replay and the host
// receive it: decoded from the page model's JSON, which lays the nodes out in
// memory in document order.
func selBenchScreen(b *testing.B) (*screen.Screen, []string) {
	s, sensitive := selSynthetic(1, 10000)
	data, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	var decoded screen.Screen
	if err := json.Unmarshal(data, &decoded); err != nil {
		b.Fatal(err)
	}
	return &decoded, sensitive
}

func BenchmarkNewMatcher10k(b *testing.B) {
	s, _ := selBenchScreen(b)
	b.ReportMetric(float64(NewMatcher(s).Len()), "nodes")
	start := screentest.CPUTime()
	for b.Loop() {
		NewMatcher(s)
	}
	screentest.ReportCPU(b, start)
}

// BenchmarkMatch10k matches one selector per iteration on a prepared
// Matcher, cycling through the kinds replay meets.
func BenchmarkMatch10k(b *testing.B) {
	s, _ := selBenchScreen(b)
	m := NewMatcher(s)
	sels := selBenchSelectors()
	for _, sel := range sels {
		if _, err := m.Match(sel); err != nil {
			b.Fatalf("Match(%q): %v", sel, err)
		}
	}
	i := 0
	start := screentest.CPUTime()
	for b.Loop() {
		m.Match(sels[i%len(sels)])
		i++
	}
	screentest.ReportCPU(b, start)
}

// BenchmarkMatchOneShot10k is the package-level Match: the screen is indexed
// on every call.
func BenchmarkMatchOneShot10k(b *testing.B) {
	s, _ := selBenchScreen(b)
	sels := selBenchSelectors()
	i := 0
	start := screentest.CPUTime()
	for b.Loop() {
		Match(s, sels[i%len(sels)])
		i++
	}
	screentest.ReportCPU(b, start)
}

func selBenchSelectors() []Selector {
	return []Selector{
		{Role: "link", Name: "Deals", Within: &Selector{Role: "navigation", Name: "Main"}},
		{Text: "Phone 60-3"},
		{Role: "button", Name: "Add to cart", Within: &Selector{Role: "listitem", TextRegex: `^Phone 60-3\n`}},
		{Role: "paragraph", TextRegex: `^Review sale\n\d+ items?$`, Within: &Selector{Role: "region", Name: "Section 60"}},
		{Role: "button", Name: "Add to cart", Index: screentest.Intp(300)},
		{Role: "textbox", Name: "Email", Within: &Selector{Role: "form", Name: "Sign up 60"}},
		{TestID: "signup-60"},
		{Role: "link", Name: "Privacy"},
	}
}

// BenchmarkGenerateSearch10k is Generate without indexing the screen: the
// search for the cheapest unique selector and its verification, on a screen
// indexed once (what Candidates and a review pay per target).
func BenchmarkGenerateSearch10k(b *testing.B) {
	s, sensitive := selBenchScreen(b)
	m := NewMatcher(s)
	refs := selBenchTargets(b, m)
	i := 0
	start := screentest.CPUTime()
	for b.Loop() {
		t := refs[i%len(refs)]
		g, err := newGenerator(t.p, t.ref, m, sensitive)
		if err != nil {
			b.Fatal(err)
		}
		best, ok := g.best()
		if !ok {
			b.Fatal("no selector")
		}
		if err := g.verify(best.sel); err != nil {
			b.Fatal(err)
		}
		i++
	}
	screentest.ReportCPU(b, start)
}

type selBenchTarget struct {
	p   Purpose
	ref string
}

func selBenchTargets(b *testing.B, m *Matcher) []selBenchTarget {
	var targets []selBenchTarget
	for _, sel := range []Selector{
		{Role: "button", Name: "Add to cart", Index: screentest.Intp(300)},
		{Role: "paragraph", TextRegex: `^\$`, Index: screentest.Intp(250)},
		{Role: "link", Name: "Edit", Index: screentest.Intp(200)},
		{Role: "textbox", Name: "Email", Index: screentest.Intp(40)},
		{Text: "Saved", Index: screentest.Intp(50)},
		{Role: "link", Name: "Privacy"},
	} {
		got, err := m.Match(sel)
		if err != nil {
			b.Fatalf("Match(%q): %v", sel, err)
		}
		targets = append(targets, selBenchTarget{PurposeTap, got[0].Ref}, selBenchTarget{PurposeAssert, got[0].Ref})
	}
	return targets
}

// BenchmarkGenerate10k generates selectors for targets of every kind on a
// 10k-element screen, indexing the screen on each call as Generate does.
func BenchmarkGenerate10k(b *testing.B) {
	s, sensitive := selBenchScreen(b)
	targets := selBenchTargets(b, NewMatcher(s))
	i := 0
	start := screentest.CPUTime()
	for b.Loop() {
		t := targets[i%len(targets)]
		if _, err := Generate(t.p, t.ref, s, sensitive); err != nil {
			b.Fatal(err)
		}
		i++
	}
	screentest.ReportCPU(b, start)
}
