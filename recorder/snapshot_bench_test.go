package recorder

import (
	"fmt"
	"testing"
)

// benchScreen builds a screen of about n element nodes shaped like a long
// admin table: rows of wrappers, a link, text, a checkbox, a field and a
// button, with the odd hidden row and presentational cell.
func benchScreen(n int) *Screen {
	const perRow = 10 // element nodes per row below
	var rows []*Node
	for i := range n / perRow {
		row := el("li", "listitem", "",
			el("div", "generic", "",
				el("div", "generic", "",
					with(el("a", "link", fmt.Sprintf("Order #%d: %s", i, "Kenya AA 'Gatomboya'"), txt(fmt.Sprintf("Order #%d", i))),
						func(n *Node) { n.URL = fmt.Sprintf("https://shop.example/orders/%d", i) }))),
			el("span", "generic", "", txt(fmt.Sprintf("$%d.%02d", i%90+10, i%100))),
			el("td", "none", "", txt("shipped"), el("b", "generic", "", txt("on time"))),
			with(el("input", "checkbox", fmt.Sprintf("Select order %d", i)), func(n *Node) { n.Checked = "true" }),
			with(el("input", "textbox", "Note"), func(n *Node) { n.Value = "leave at the door: back"; n.Placeholder = "Add a note" }),
			el("button", "button", "Refund", txt("Refund")),
		)
		if i%17 == 0 {
			row.Visible = false
		}
		rows = append(rows, row)
	}
	return screenOf("", el("main", "main", "", el("h1", "heading", "Orders", txt("Orders")), el("ul", "list", "", rows...)))
}

func countElements(n *Node) int {
	if n == nil || n.IsText() {
		return 0
	}
	c := 1
	for _, k := range n.Children {
		c += countElements(k)
	}
	return c
}

const benchNodes = 10_000

func BenchmarkRenderSnapshot(b *testing.B) {
	s := benchScreen(benchNodes)
	b.ReportMetric(float64(countElements(s.Root)), "elements")
	for _, o := range []SnapshotOptions{{}, {Quoted: true}, {Interactive: true}} {
		b.Run(fmt.Sprintf("%+v", o), func(b *testing.B) {
			b.ReportAllocs()
			var out string
			for b.Loop() {
				out = RenderSnapshot(s, o)
			}
			b.ReportMetric(float64(len(out)), "bytes-out")
		})
	}
}

func BenchmarkParseSnapshot(b *testing.B) {
	s := benchScreen(benchNodes)
	for _, o := range []SnapshotOptions{{}, {Quoted: true}} {
		text := RenderSnapshot(s, o)
		b.Run(fmt.Sprintf("%+v", o), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := ParseSnapshot(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestBenchScreenRoundTrips keeps the benchmark honest: its screen is as big
// as claimed and its text reads back.
func TestBenchScreenRoundTrips(t *testing.T) {
	s := benchScreen(benchNodes)
	if n := countElements(s.Root); n < benchNodes {
		t.Fatalf("bench screen has %d elements, want at least %d", n, benchNodes)
	}
	checkRoundTrip(t, s)
}
