package recorder

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// selSynthetic builds a shop page of at least size elements from a seeded
// random source. It has what makes naming elements hard: a hidden copy of the
// navigation, sections named by headings, product cards whose "Add to cart"
// buttons repeat (some sharing a test id, some with generated ids), prices
// and item counts, iPhone 17 beside iPhone 18, table rows with an Edit link
// each, forms with labels and a password, toasts wrapped in divs with the
// same text, icon buttons, repeated copy ("Free shipping"), hidden elements
// and a remembered sensitive value.
func selSynthetic(seed uint64, size int) (*Screen, []string) {
	r := rand.New(rand.NewPCG(seed, 42))
	sensitive := []string{"carol@example.com"}
	count := 0
	el := func(role string, opts ...selOpt) *selSpec { count++; return selEl(role, opts...) }
	leaf := func(role, text string, opts ...selOpt) *selSpec { count++; return selLeaf(role, text, opts...) }
	maybe := func(p float64, o selOpt) selOpt {
		if r.Float64() < p {
			return o
		}
		return func(*selSpec) {}
	}
	navLinks := func() []*selSpec {
		var out []*selSpec
		for _, l := range []string{"Home", "Phones", "Laptops", "Deals", "Help"} {
			out = append(out, leaf("link", l))
		}
		return out
	}
	banner := el("banner", selKids(
		el("link", selName("Trailshop"), selKids(el("img", selName("Trailshop")))),
		el("navigation", selName("Main"), selKids(navLinks()...)),
		el("navigation", selName("Mobile"), selHidden(), selKids(navLinks()...)),
		el("button", selName("Account"), selID("ember"+fmt.Sprint(r.IntN(999))), selKids(el("img"))),
		leaf("generic", "carol@example.com"),
	))
	var sections []*selSpec
	for s := 0; count < size; s++ {
		var items []*selSpec
		for j := range 6 + r.IntN(6) {
			title := fmt.Sprintf("Phone %d-%d", s, j)
			if s == 0 && j < 2 {
				title = fmt.Sprintf("iPhone %d", 17+j)
			}
			n := 1 + r.IntN(5)
			items = append(items, el("listitem", selKids(
				el("generic", selKids(
					leaf("heading", title),
					leaf("paragraph", fmt.Sprintf("$%d.%02d", 100+r.IntN(900), r.IntN(100))),
					leaf("generic", fmt.Sprintf("%d items", n)),
					el("button", maybe(0.3, selTestID("add-to-cart")), maybe(0.2, selID(fmt.Sprintf("btn-%x", r.Uint32()|0x10000000))),
						selKids(leaf("generic", "Add to cart"))),
					el("button", selName("Remove "+title), selKids(el("img"))),
				)),
			)))
		}
		var rows []*selSpec
		for j := range 4 + r.IntN(5) {
			rows = append(rows, el("row", selInline(), selKids(
				leaf("cell", fmt.Sprintf("Order %d/%d", s, j)),
				leaf("cell", fmt.Sprintf("%d items", 1+r.IntN(9))),
				el("cell", selKids(leaf("link", "Edit"))),
			)))
		}
		sections = append(sections, el("region", selName(fmt.Sprintf("Section %d", s)), selKids(
			leaf("heading", fmt.Sprintf("Section %d", s)),
			el("list", selKids(items...)),
			el("table", selKids(rows...)),
			el("form", selName(fmt.Sprintf("Sign up %d", s)), selKids(
				el("generic", selTag("label"), selKids(selTxt("Email"), el("textbox", selName("Email"), selLabel("Email"), maybe(0.5, selID(fmt.Sprintf(":r%d:", s)))))),
				el("textbox", selName("Password"), selLabel("Password"), selSecret()),
				el("checkbox", selName("Remember me"), selLabel("Remember me")),
				leaf("button", "Sign up", maybe(0.5, selTestID(fmt.Sprintf("signup-%d", s)))),
			)),
			el("generic", selKids(el("generic", selKids(leaf("generic", "Saved"))))),
			leaf("paragraph", "Free shipping"),
			leaf("paragraph", "Review sale\n"+fmt.Sprint(1+r.IntN(9))+" items"),
			leaf("paragraph", "Out of stock", selHidden()),
		)))
	}
	footer := el("contentinfo", selKids(leaf("link", "Privacy"), leaf("link", "Terms"), leaf("paragraph", "Free shipping")))
	body := append([]*selSpec{banner}, el("main", selKids(sections...)), footer)
	return selPage(body...), sensitive
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
				if sensitiveSet(newSensitiveSet(sensitive)).leaksFrom(&sel) {
					t.Fatalf("seed %d: Generate(%q) = %q shows a sensitive value", seed, p+" "+Purpose(n.Ref), sel)
				}
				r.total++
				if p == PurposeTap && controlRoles[n.Role] {
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
			menu, err := Candidates(p, n.Ref, []*Screen{s}, sensitive)
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
func selBenchScreen(b *testing.B) (*Screen, []string) {
	s, sensitive := selSynthetic(1, 10000)
	data, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	var decoded Screen
	if err := json.Unmarshal(data, &decoded); err != nil {
		b.Fatal(err)
	}
	return &decoded, sensitive
}

func BenchmarkNewMatcher10k(b *testing.B) {
	s, _ := selBenchScreen(b)
	b.ReportMetric(float64(NewMatcher(s).Len()), "nodes")
	start := selCPUTime()
	for b.Loop() {
		NewMatcher(s)
	}
	selReportCPU(b, start)
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
	start := selCPUTime()
	for b.Loop() {
		m.Match(sels[i%len(sels)])
		i++
	}
	selReportCPU(b, start)
}

// BenchmarkMatchOneShot10k is the package-level Match: the screen is indexed
// on every call.
func BenchmarkMatchOneShot10k(b *testing.B) {
	s, _ := selBenchScreen(b)
	sels := selBenchSelectors()
	i := 0
	start := selCPUTime()
	for b.Loop() {
		Match(s, sels[i%len(sels)])
		i++
	}
	selReportCPU(b, start)
}

func selBenchSelectors() []Selector {
	return []Selector{
		{Role: "link", Name: "Deals", Within: &Selector{Role: "navigation", Name: "Main"}},
		{Text: "Phone 60-3"},
		{Role: "button", Name: "Add to cart", Within: &Selector{Role: "listitem", TextRegex: `^Phone 60-3\n`}},
		{Role: "paragraph", TextRegex: `^Review sale\n\d+ items?$`, Within: &Selector{Role: "region", Name: "Section 60"}},
		{Role: "button", Name: "Add to cart", Index: selIntp(300)},
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
	start := selCPUTime()
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
	selReportCPU(b, start)
}

type selBenchTarget struct {
	p   Purpose
	ref string
}

func selBenchTargets(b *testing.B, m *Matcher) []selBenchTarget {
	var targets []selBenchTarget
	for _, sel := range []Selector{
		{Role: "button", Name: "Add to cart", Index: selIntp(300)},
		{Role: "paragraph", TextRegex: `^\$`, Index: selIntp(250)},
		{Role: "link", Name: "Edit", Index: selIntp(200)},
		{Role: "textbox", Name: "Email", Index: selIntp(40)},
		{Text: "Saved", Index: selIntp(50)},
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
	start := selCPUTime()
	for b.Loop() {
		t := targets[i%len(targets)]
		if _, err := Generate(t.p, t.ref, s, sensitive); err != nil {
			b.Fatal(err)
		}
		i++
	}
	selReportCPU(b, start)
}
