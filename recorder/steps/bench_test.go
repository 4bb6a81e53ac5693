package steps

import (
	"fmt"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// benchScreenElements is the size of the screens BuildSteps is measured on:
// a long catalogue page, the large end of what people record on.
const benchScreenElements = 10_000

// bigShop is a catalogue page of about benchScreenElements elements in a
// few states (the cart count and the status line change between them).
// Each capture is its own *Screen, as the host loads them, over one of the
// states' node trees, so every capture costs BuildSteps an index of its
// own without the benchmark holding a hundred 10k-node trees in memory.
type bigShop struct {
	roots []*screen.Node
	cards int
}

func newBigShop(elements, states int) *bigShop {
	const perCard = 4 // article, heading, price, button
	shop := &bigShop{cards: (elements - 20) / perCard}
	for st := range states {
		var cards []*screentest.Spec
		for i := range shop.cards {
			name := fmt.Sprintf("Product %d", i)
			cards = append(cards, el(fmt.Sprintf("card-%d", i), "article", screentest.Name(name), screentest.Kids(
				leaf(fmt.Sprintf("h-%d", i), "heading", name, level(2)),
				leaf(fmt.Sprintf("price-%d", i), "generic", fmt.Sprintf("$%d.00", 10+i%90)),
				leaf(fmt.Sprintf("add-%d", i), "button", "Add to cart"),
			)))
		}
		status := el("status", "status", screentest.Hidden())
		if st > 0 {
			status = leaf("status", "status", fmt.Sprintf("Added Product %d to your cart.", st))
		}
		s := shopPage("/products", "big", "Products", el("search", "search", screentest.Kids(el("q", "searchbox", labelled("Search products")))),
			el("cart", "link", screentest.Kids(leaf("cart-label", "generic", "Cart"), leaf("cart-count", "generic", items(st)))),
			leaf("h1", "heading", "Products", level(1)),
			status,
			el("grid", "list", screentest.Name("Products"), screentest.Kids(cards...)),
		)
		shop.roots = append(shop.roots, s.Root)
	}
	return shop
}

// capture is a new capture of the page in state st.
func (b *bigShop) capture(st int) *screen.Screen {
	return &screen.Screen{Schema: screen.ScreenSchema, URL: shopOrigin + "/products", Document: "big", Title: "Products",
		Viewport: screen.Viewport{Width: 1280, Height: 800}, Root: b.roots[st%len(b.roots)]}
}

// benchRecording is 100 interactions on the big page: add a product to the
// cart, check the status, type a search and press Enter, 25 times.
func benchRecording(shop *bigShop) (*session, *screen.Screen) {
	s := newSession()
	before := shop.capture(0) // nothing added yet: the status is empty
	for r := range 25 {
		s.click(before, fmt.Sprintf("add-%d", (r*397)%shop.cards))
		after := shop.capture(1 + r%(len(shop.roots)-1))
		before = after
		s.assertVisible(after, "status").typ(after, "q", fmt.Sprintf("product %d", r)).press(after, "Enter")
	}
	return s, before
}

func BenchmarkBuildSteps100On10k(b *testing.B) {
	shop := newBigShop(benchScreenElements, 4)
	s, final := benchRecording(shop)
	b.ReportMetric(float64(selector.NewMatcher(final).Len()), "elements/screen")
	b.ReportMetric(float64(len(s.recs)), "interactions")
	o := BuildOptions{BaseURL: shopOrigin}
	var steps int
	start := screentest.CPUTime()
	for b.Loop() {
		bt, err := BuildSteps(s.recs, final, o)
		if err != nil {
			b.Fatal(err)
		}
		steps = len(bt.Steps)
	}
	screentest.ReportCPU(b, start)
	b.ReportMetric(float64(steps), "steps")
}

// TestBenchRecordingBuilds keeps the benchmark's recording honest: it
// builds the steps a person would expect on the big page.
func TestBenchRecordingBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10k-element screens")
	}
	shop := newBigShop(benchScreenElements, 4)
	s, final := benchRecording(shop)
	if n := selector.NewMatcher(final).Len(); n < benchScreenElements*9/10 || n > benchScreenElements*11/10 {
		t.Fatalf("the big page has %d elements, want about %d", n, benchScreenElements)
	}
	o := BuildOptions{BaseURL: shopOrigin}
	bt, err := BuildSteps(s.recs, final, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(bt.Steps) != 75 || len(bt.Notes) != 0 {
		t.Fatalf("BuildSteps(100 interactions) = %d steps, notes %q; want 75 steps (click, assert, type and Enter) and no note", len(bt.Steps), bt.Notes)
	}
	want := []string{
		"Click the Add to cart button in Product 0 :: tap => /products",
		`Check that "Added Product 1 to your cart." is shown :: assertVisible`,
		"Type product 0 into Search products and press Enter :: type, press => /products",
	}
	if got := stepLines(bt.Steps[:3]); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("BuildSteps() first steps =\n  %q\nwant\n  %q", got, want)
	}
	checkBuilt(t, s.recs, final, o, bt, nil)
}
