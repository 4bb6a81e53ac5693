package screendiff

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// benchSections and benchItems size the generated shop: 100 sections of 20
// items of 5 elements, about 10,300 elements with their text runs.
const (
	benchSections = 100
	benchItems    = 20
)

// shopScreen generates a shop page the way the page model would capture it
// (refs in document order, boxes laid out top to bottom, names, states and
// text runs). With changed, it is the same page after an action touched it
// the way a busy page does: in every tenth section an item removed, one
// added, one re-rendered under a new ref, a checkbox ticked and a price
// changed; section 50 moved (a sticky header) with everything in it; a
// hidden panel shown. Added and replaced elements get refs no capture of
// the first page gave out.
func shopScreen(changed bool) *screen.Screen {
	ref := 0
	next := func() string { ref++; return "e" + strconv.Itoa(ref) }
	fresh := 100000
	newRef := func() string { fresh++; return "e" + strconv.Itoa(fresh) }
	box := func(x, y, w, h float64) *screen.Box { return &screen.Box{X: x, Y: y, Width: w, Height: h} }
	text := func(s string) *screen.Node { return &screen.Node{Tag: screen.TextTag, Text: s, Visible: true} }
	f := false

	body := &screen.Node{Ref: next(), Role: "generic", Tag: "body", Visible: true}
	root := &screen.Node{Ref: next(), Role: "document", Tag: "html", Visible: true, Children: []*screen.Node{body}}
	root.Ref, body.Ref = body.Ref, root.Ref // html is e1
	panel := &screen.Node{Ref: next(), Role: "dialog", Tag: "div", Name: "Cart", Visible: changed}
	for k := range 10 {
		panel.Children = append(panel.Children, &screen.Node{Ref: next(), Role: "paragraph", Tag: "p", Visible: changed, Text: fmt.Sprintf("Line %d", k),
			Children: []*screen.Node{text(fmt.Sprintf("Line %d", k))}})
	}
	body.Children = append(body.Children, panel)
	y := 0.0
	for s := range benchSections {
		sec := &screen.Node{Ref: next(), Role: "region", Tag: "section", Name: fmt.Sprintf("Aisle %d", s), Visible: true}
		head := &screen.Node{Ref: next(), Role: "heading", Tag: "h2", Name: sec.Name, Level: 2, Visible: true, Children: []*screen.Node{text(sec.Name)}}
		list := &screen.Node{Ref: next(), Role: "list", Tag: "ul", Visible: true}
		sec.Children = []*screen.Node{head, list}
		shift := 0.0
		if changed && s == 50 {
			shift = 120
		}
		top := y
		itemY := y + 40
		touched := changed && s%10 == 0
		for i := range benchItems {
			name := fmt.Sprintf("Product %d-%d", s, i)
			liRef, nameRef, priceRef, btnRef, boxRef := next(), next(), next(), next(), next()
			if touched && i == 3 {
				continue // removed
			}
			if touched && i == 7 {
				liRef, nameRef, priceRef, btnRef, boxRef = newRef(), newRef(), newRef(), newRef(), newRef() // re-rendered
			}
			price := fmt.Sprintf("%d.99", i+s)
			checked := "false"
			if touched && i == 9 {
				price = "0.99"
			}
			if touched && i == 11 {
				checked = "true"
			}
			li := &screen.Node{Ref: liRef, Role: "listitem", Tag: "li", Visible: true, Box: box(0, itemY+shift, 800, 48), Text: name + "\n" + price + "\nAdd"}
			li.Children = []*screen.Node{
				{Ref: nameRef, Role: "generic", Tag: "span", Visible: true, Box: box(0, itemY+shift, 300, 20), Text: name, Children: []*screen.Node{text(name)}},
				{Ref: priceRef, Role: "generic", Tag: "span", Visible: true, Box: box(320, itemY+shift, 80, 20), Text: price, Children: []*screen.Node{text(price)}},
				{Ref: btnRef, Role: "button", Tag: "button", Name: "Add", Visible: true, Covered: &f, Box: box(420, itemY+shift, 60, 24), Text: "Add", Children: []*screen.Node{text("Add")}},
				{Ref: boxRef, Role: "checkbox", Tag: "input", Name: "Compare " + name, Checked: checked, Visible: true, Covered: &f, Box: box(500, itemY+shift, 16, 16)},
			}
			list.Children = append(list.Children, li)
			itemY += 48
			if touched && i == 15 {
				added := &screen.Node{Ref: newRef(), Role: "listitem", Tag: "li", Visible: true, Box: box(0, itemY+shift, 800, 48), Text: "New arrival"}
				added.Children = []*screen.Node{{Ref: newRef(), Role: "generic", Tag: "span", Visible: true, Box: box(0, itemY+shift, 300, 20), Text: "New arrival", Children: []*screen.Node{text("New arrival")}}}
				list.Children = append(list.Children, added)
				itemY += 48
			}
		}
		list.Box = box(0, top+40+shift, 800, itemY-top-40)
		head.Box = box(0, top+shift, 800, 32)
		sec.Box = box(0, top+shift, 800, itemY-top)
		body.Children = append(body.Children, sec)
		y = itemY + 20
	}
	body.Box = box(0, 0, 1280, y)
	root.Box = box(0, 0, 1280, y)
	return &screen.Screen{Schema: screen.ScreenSchema, Document: "bench", URL: "https://shop.example/", Viewport: screen.Viewport{Width: 1280, Height: 720}, Root: root}
}

func countRefs(n *screen.Node) int {
	c := 0
	if n.Ref != "" {
		c = 1
	}
	for _, k := range n.Children {
		c += countRefs(k)
	}
	return c
}

// The generated screens hold what the benchmark claims, and their diff
// lists what was done to the page: a benchmark of a diff that found
// nothing would measure nothing.
func TestBenchScreens(t *testing.T) {
	before, after := shopScreen(false), shopScreen(true)
	if n := countRefs(before.Root); n < 10000 {
		t.Fatalf("the before screen has %d elements, want at least 10000", n)
	}
	if n := countRefs(after.Root); n < 10000 {
		t.Fatalf("the after screen has %d elements, want at least 10000", n)
	}
	r, err := Diff(before, after, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[Kind]int{}
	for _, c := range r.Changes {
		got[c.Kind]++
	}
	touched := benchSections / 10
	want := map[Kind]int{Removed: touched, Added: touched, PossibleReplacement: touched, Content: touched, State: touched, Style: 1, Moved: 1}
	for _, k := range Kinds() {
		if got[k] != want[k] {
			t.Errorf("Diff(shop) lists %d %s changes, want %d", got[k], k, want[k])
		}
	}
}

// BenchmarkDiff diffs two screens of 10k elements (target: 10 ms):
// go test -run XXX -bench Diff ./recorder/screendiff. It reports the CPU
// time per diff beside the wall time, which on a shared machine mostly
// measures waiting for a core.
func BenchmarkDiff(b *testing.B) {
	before, after := shopScreen(false), shopScreen(true)
	b.ReportAllocs()
	start := screentest.CPUTime()
	for b.Loop() {
		if _, err := Diff(before, after, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	screentest.ReportCPU(b, start)
}
