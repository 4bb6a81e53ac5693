package screen

import (
	"fmt"
	"testing"
)

// snapshotBenchScreen builds a screen of about n element nodes shaped like a long
// admin table: rows of wrappers, a link, text, a checkbox, a field and a
// button, with the odd hidden row and presentational cell.
func snapshotBenchScreen(n int) *Screen {
	const perRow = 10 // element nodes per row below
	var rows []*Node
	for i := range n / perRow {
		row := snapEl("li", "listitem", "",
			snapEl("div", "generic", "",
				snapEl("div", "generic", "",
					snapWith(snapEl("a", "link", fmt.Sprintf("Order #%d: %s", i, "Kenya AA 'Gatomboya'"), snapText(fmt.Sprintf("Order #%d", i))),
						func(n *Node) { n.URL = fmt.Sprintf("https://shop.example/orders/%d", i) }))),
			snapEl("span", "generic", "", snapText(fmt.Sprintf("$%d.%02d", i%90+10, i%100))),
			snapEl("td", "none", "", snapText("shipped"), snapEl("b", "generic", "", snapText("on time"))),
			snapWith(snapEl("input", "checkbox", fmt.Sprintf("Select order %d", i)), func(n *Node) { n.Checked = "true" }),
			snapWith(snapEl("input", "textbox", "Note"), func(n *Node) { n.Value = "leave at the door: back"; n.Placeholder = "Add a note" }),
			snapEl("button", "button", "Refund", snapText("Refund")),
		)
		if i%17 == 0 {
			row.Visible = false
		}
		rows = append(rows, row)
	}
	return snapScreen("", snapEl("main", "main", "", snapEl("h1", "heading", "Orders", snapText("Orders")), snapEl("ul", "list", "", rows...)))
}

func countSnapshotElements(n *Node) int {
	if n == nil || n.IsText() {
		return 0
	}
	c := 1
	for _, k := range n.Children {
		c += countSnapshotElements(k)
	}
	return c
}

const snapshotBenchNodes = 10_000

func BenchmarkRenderSnapshot(b *testing.B) {
	s := snapshotBenchScreen(snapshotBenchNodes)
	b.ReportMetric(float64(countSnapshotElements(s.Root)), "elements")
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
	s := snapshotBenchScreen(snapshotBenchNodes)
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
	s := snapshotBenchScreen(snapshotBenchNodes)
	if n := countSnapshotElements(s.Root); n < snapshotBenchNodes {
		t.Fatalf("bench screen has %d elements, want at least %d", n, snapshotBenchNodes)
	}
	checkSnapshotRoundTrip(t, s)
}
