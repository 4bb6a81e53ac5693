package screendiff

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// A possible replacement is read strictly by side: an added matcher reads
// only the new node, a removed one only the old node, so a selector that
// names only the other side finds nothing.
func TestPossibleReplacementStrictSides(t *testing.T) {
	field := func(ref, placeholder string) *screen.Screen {
		return screentest.Page(
			screentest.El("form", screentest.Ref("e3"), screentest.Name("Search"), screentest.Kids(
				screentest.El("textbox", screentest.Ref(ref), screentest.Tag("input"), screentest.Name("Query"), screentest.Placeholder(placeholder)),
			)),
		)
	}
	before, after := field("e4", "Search the shop"), field("e9", "Find a product")
	r, err := Diff(before, after, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 1 || r.Changes[0].Kind != PossibleReplacement {
		t.Fatalf("Diff = %s, want one possible replacement", r)
	}
	for _, c := range []struct {
		kind        Kind
		placeholder string
		want        Outcome
	}{
		{Added, "Find a product", FoundAmbiguous},
		{Added, "Search the shop", NotFound}, // the old node: added never reads it
		{Removed, "Search the shop", FoundAmbiguous},
		{Removed, "Find a product", NotFound}, // the new node: removed never reads it
		{PossibleReplacement, "Search the shop", Found},
		{PossibleReplacement, "Find a product", Found},
	} {
		res, err := r.Match(Matcher{Change: c.kind, Selector: sel(selector.Selector{Placeholder: c.placeholder})})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != c.want {
			t.Errorf("Match(%s, placeholder %q) = %v, want %v", c.kind, c.placeholder, res.Outcome, c.want)
		}
	}
}

// Two roots that read differently are a removal and an addition, not a
// replacement, and so are equal roots under different parents.
func TestReplacementNeedsTheSameReadingAndPlace(t *testing.T) {
	before := screentest.Page(
		screentest.El("list", screentest.Ref("e3"), screentest.Kids(screentest.Leaf("listitem", "Tea", screentest.Ref("e4")))),
		screentest.El("list", screentest.Ref("e5")),
	)
	after := screentest.Page(
		screentest.El("list", screentest.Ref("e3"), screentest.Kids(screentest.Leaf("listitem", "Coffee", screentest.Ref("e8")))),
		screentest.El("list", screentest.Ref("e5"), screentest.Kids(screentest.Leaf("listitem", "Tea", screentest.Ref("e9")))),
	)
	r, err := Diff(before, after, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The removal is listed where it was: after the changes of the list
	// it was the first item of, before what the list holds now.
	want := "at http://fixture.test/\nremoved listitem [e4] text \"Tea\"\nadded listitem [e8] text \"Coffee\"\nadded listitem [e9] text \"Tea\"\n"
	if got := r.String(); got != want {
		t.Errorf("Diff =\n%s\nwant\n%s", got, want)
	}
}

// copyScreen is a deep copy, for changing a captured screen.
func copyScreen(t *testing.T, s *screen.Screen) *screen.Screen {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var c screen.Screen
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func eachNode(n *screen.Node, fn func(*screen.Node)) {
	fn(n)
	for _, k := range n.Children {
		eachNode(k, fn)
	}
}

// Below MinMove and MinResize a box has not moved or changed size: the
// rounding of subpixel layout is not a change.
func TestGeometryThresholds(t *testing.T) {
	before := loadScreen(t, "layout", "before")
	nudge := func(by float64, only string) *screen.Screen {
		s := copyScreen(t, before)
		eachNode(s.Root, func(n *screen.Node) {
			if n.Box != nil && (only == "" || n.Ref == only) {
				n.Box.Y += by
				n.Box.Width += by
			}
		})
		return s
	}
	toast := ""
	eachNode(before.Root, func(n *screen.Node) {
		if n.Role == "alert" {
			toast = n.Ref
		}
	})
	for _, c := range []struct {
		name  string
		after *screen.Screen
		want  string
	}{
		{"every box by less than the thresholds", nudge(MinMove*0.9, ""), ""},
		{"the toast by the thresholds", nudge(MinMove, toast), "moved,resized"},
	} {
		r, err := Diff(before, c.after, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for i, ch := range r.Changes {
			if i > 0 {
				got += ","
			}
			got += string(ch.Kind)
		}
		if got != c.want {
			t.Errorf("%s: Diff = %s, want kinds %q", c.name, r, c.want)
		}
	}
}

// A page that scrolled, and an icon whose bars turned: the root's box and
// the shapes inside an <svg> are drawn, not laid out, and neither moves nor
// resizes; the <svg> itself, and a box beside it, still do.
func TestDrawnBoxesNeitherMoveNorResize(t *testing.T) {
	box := func(x, y, w, h float64) screentest.Opt {
		return screentest.Node(func(n *screen.Node) { n.Box = &screen.Box{X: x, Y: y, Width: w, Height: h} })
	}
	page := func(scroll, bar, icon, note float64) *screen.Screen {
		s := screentest.Screen(screentest.El("document", screentest.Tag("html"), screentest.Ref("e1"), box(0, -scroll, 1280, 2000), screentest.Kids(
			screentest.El("generic", screentest.Tag("body"), screentest.Ref("e2"), box(0, -scroll, 1280, 2000), screentest.Kids(
				screentest.El("button", screentest.Ref("e3"), screentest.Name("Item 2"), box(10, 100-scroll, 200, 20), screentest.Kids(
					screentest.El("generic", screentest.Tag("svg"), screentest.Ref("e4"), box(190, 104-scroll, 13+icon, 13), screentest.Kids(
						screentest.El("generic", screentest.Tag("rect"), screentest.Ref("e5"), box(190+bar, 110-scroll-bar, 13-2*bar, 1+2*bar)),
					)),
				)),
				screentest.El("note", screentest.Ref("e6"), screentest.Name("Saved"), box(10+note, 300-scroll, 100+note, 20)),
			)),
		)))
		return s
	}
	for _, c := range []struct {
		name  string
		after *screen.Screen
		want  string
	}{
		{"the page scrolled", page(194, 0, 0, 0), ""},
		{"the icon's bar turned", page(0, 6, 0, 0), ""},
		{"both", page(194, 6, 0, 0), ""},
		{"the icon grew", page(0, 0, 5, 0), "resized generic [e4]"},
		{"a box beside it moved and grew", page(194, 6, 0, 40), "moved note \"Saved\" [e6]: (10, 300) → (50, 106); resized note \"Saved\" [e6]: 100×20 → 140×20"},
	} {
		r, err := Diff(page(0, 0, 0, 0), c.after, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range r.Changes {
			got = append(got, ch.String())
		}
		if g := strings.Join(got, "; "); !strings.HasPrefix(g, c.want) || (c.want == "") != (g == "") {
			t.Errorf("%s: Diff = %s, want %q", c.name, g, c.want)
		}
	}
}

// A <div> put around content that was there adds nothing: the content is
// compared as ever, the wrapper is no change; taken away again, neither.
// A wrapper that brings something of its own is added.
func TestWrapperAroundExistingContentIsNoChange(t *testing.T) {
	content := func(hidden bool) *screentest.Spec {
		opts := []screentest.Opt{screentest.Ref("e5"), screentest.Name("Item 2"), screentest.Kids(screentest.Leaf("paragraph", "Lorem ipsum", screentest.Ref("e6")))}
		if hidden {
			opts = append(opts, screentest.Hidden())
		}
		return screentest.El("region", opts...)
	}
	bare := screentest.Page(screentest.El("listitem", screentest.Ref("e3"), screentest.Kids(
		screentest.El("button", screentest.Ref("e4"), screentest.Name("Item 2")), content(true))))
	wrapped := func(extra ...*screentest.Spec) *screen.Screen {
		return screentest.Page(screentest.El("listitem", screentest.Ref("e3"), screentest.Kids(
			screentest.El("button", screentest.Ref("e4"), screentest.Name("Item 2")),
			screentest.El("generic", screentest.Tag("div"), screentest.Ref("e9"), screentest.Kids(append([]*screentest.Spec{content(false)}, extra...)...)))))
	}
	for _, c := range []struct {
		name          string
		before, after *screen.Screen
		want          string
	}{
		{"wrapped and shown", bare, wrapped(), `style region "Item 2" [e5]: visible false → true`},
		{"unwrapped and hidden", wrapped(), bare, `style region "Item 2" [e5]: visible true → false`},
		{"a wrapper with a new note", bare, wrapped(screentest.Leaf("note", "New", screentest.Ref("e10"))), `added generic [e9] text "Lorem ipsum"; style region "Item 2" [e5]: visible false → true`},
	} {
		r, err := Diff(c.before, c.after, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ch := range r.Changes {
			got = append(got, ch.String())
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: Diff = %s, want %s", c.name, g, c.want)
		}
	}
}
