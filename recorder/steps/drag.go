package steps

import (
	"regexp"
	"strings"

	"math"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A drag names what was dragged as a tap names what it clicks, and where it
// was dropped by the element the screen from before the drag shows at the
// drop point: replay finds that element before it drags, so the page is
// laid out as it was then (a sortable list moves its items while the
// pointer moves). That is the innermost element there a selector names
// alone, outside what was dragged. The drop is at that element's centre,
// unless it was away from it (docs/trail-format.md, drag).
func (b *builder) drag(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	if r.Drop == nil {
		return built{}, leftOut("it says not where the element was dropped")
	}
	sel, n, err := b.selector(selector.PurposeTap, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	to, target, err := b.dropTarget(s, r.Ref, *r.Drop)
	if err != nil {
		return built{}, err
	}
	a := trail.Drag{Selector: escapeSelector(sel), To: escapeSelector(to), Offset: dropOffset(*target.Box, *r.Drop)}
	return built{action: a, phrase: "drag " + b.thing(s, n, sel) + " to " + b.thing(s, target, to)}, nil
}

// dropTarget returns the selector of the element s shows at pt, outside
// the element of ref, and that element.
func (b *builder) dropTarget(s *screen.Screen, ref string, pt Point) (selector.Selector, *screen.Node, error) {
	m := b.matcher(s)
	src, ok := m.Position(ref)
	if !ok {
		return selector.Selector{}, nil, unnamed("its element %s is not on the screen captured before it", ref)
	}
	nodes := m.Nodes()
	at := int32(-1)
	for p := int32(len(nodes)) - 1; p >= 0; p-- {
		n := nodes[p]
		if n.IsText() || !n.Visible || n.Box == nil || !boxHas(*n.Box, pt) || m.Inside(p, src) {
			continue
		}
		at = p
		break
	}
	var lastErr error
	for p := at; p >= 0; p = m.Parent(p) {
		if p == src {
			continue
		}
		n := nodes[p]
		if n.Box == nil || !boxHas(*n.Box, pt) {
			continue
		}
		sel, got, err := b.generate(selector.PurposeTap, n.Ref, s)
		if err == nil && got.Ref != ref && got.Box != nil && boxHas(*got.Box, pt) && !m.Inside(mustPosition(m, got.Ref), src) {
			return sel, got, nil
		}
		if err != nil {
			lastErr = err
		}
	}
	if lastErr != nil {
		return selector.Selector{}, nil, unnamed("no selector names the element it was dropped on alone (%v)", lastErr)
	}
	return selector.Selector{}, nil, unnamed("the screen before it shows nothing where it was dropped (%.0f, %.0f)", pt.X, pt.Y)
}

// mustPosition is the position of ref on m, -1 when it is not there.
func mustPosition(m *selector.Matcher, ref string) int32 {
	if p, ok := m.Position(ref); ok {
		return p
	}
	return -1
}

// boxHas reports whether pt lies in box.
func boxHas(box screen.Box, pt Point) bool {
	return pt.X >= box.X && pt.X < box.X+box.Width && pt.Y >= box.Y && pt.Y < box.Y+box.Height
}

// dropOffset is where pt lies in box, from its top-left corner, when that
// is away from its centre (outside its middle half either way); nil when a
// drop at the centre does the same.
func dropOffset(box screen.Box, pt Point) *trail.Offset {
	cx, cy := box.X+box.Width/2, box.Y+box.Height/2
	if math.Abs(pt.X-cx) <= box.Width/4 && math.Abs(pt.Y-cy) <= box.Height/4 {
		return nil
	}
	clamp := func(v, size float64) int {
		return int(max(0, min(math.Floor(v), math.Ceil(size)-1)))
	}
	return &trail.Offset{X: clamp(pt.X-box.X, box.Width), Y: clamp(pt.Y-box.Y, box.Height)}
}

// dragPin is what a drag step's end shows first: where the dragged element
// ended. A move shows nothing new (the card was on the page before), so
// the end pins the element within the list it was dropped in when that is
// another ({text: Write docs, within: {role: list, name: Done}}), or, moved
// within its own list, that list with the element right after the one it
// now follows (textRegex '(?m)^Three\nOne$'). The selector matches on the
// screen after the step and nothing on the screen before: a replay whose
// drop did nothing fails at the step's end.
func (b *builder) dragPin(g *group, before, after *screen.Screen) (selector.Selector, bool) {
	if before == nil || after == nil || len(g.recs) == 0 {
		return selector.Selector{}, false
	}
	r := &b.recs[g.recs[0]]
	if r.Kind != InteractDrag || r.Ref == "" {
		return selector.Selector{}, false
	}
	ma, mb := b.matcher(after), b.matcher(before)
	p, ok := ma.Position(r.Ref)
	if !ok {
		return selector.Selector{}, false
	}
	n := ma.Nodes()[p]
	text := screen.NormalizeText(n.Text)
	if text == "" || strings.Contains(text, "\n") {
		return selector.Selector{}, false
	}
	box, boxSel, ok := b.container(ma, p, after)
	if !ok {
		return selector.Selector{}, false
	}
	var pin selector.Selector
	if q, ok := mb.Position(r.Ref); ok && b.containerRef(mb, q, before) == box.Ref {
		// The same list, in another order: the element after the one
		// before it (or before the one after it, moved to the top).
		prev, next := neighbours(ma, box, p)
		var re string
		switch {
		case prev != "":
			re = "(?m)^" + regexp.QuoteMeta(prev) + "\n" + regexp.QuoteMeta(text) + "$"
		case next != "":
			re = "(?m)^" + regexp.QuoteMeta(text) + "\n" + regexp.QuoteMeta(next) + "$"
		default:
			return selector.Selector{}, false
		}
		pin = boxSel
		pin.Text, pin.TextRegex = "", re
	} else {
		pin = selector.Selector{Text: text, Within: &boxSel}
	}
	if pin.Validate() != nil {
		return selector.Selector{}, false
	}
	if got, err := ma.Match(pin); err != nil || len(got) == 0 {
		return selector.Selector{}, false
	}
	if got, err := mb.Match(pin); err == nil && len(got) > 0 {
		return selector.Selector{}, false
	}
	return escapeSelector(pin), true
}

// container returns the element around position p that holds it as a list
// holds its items (the nearest ancestor with a role other than generic),
// with the selector that names it alone on s.
func (b *builder) container(m *selector.Matcher, p int32, s *screen.Screen) (*screen.Node, selector.Selector, bool) {
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		n := m.Nodes()[a]
		if n.Role == "" || n.Role == "generic" || n.Role == "listitem" {
			continue
		}
		sel, got, err := b.generate(selector.PurposeTap, n.Ref, s)
		if err != nil || got.Ref != n.Ref {
			return nil, selector.Selector{}, false
		}
		return n, sel, true
	}
	return nil, selector.Selector{}, false
}

// containerRef is the ref of the element container finds around position
// p, "" for none.
func (b *builder) containerRef(m *selector.Matcher, p int32, s *screen.Screen) string {
	if n, _, ok := b.container(m, p, s); ok {
		return n.Ref
	}
	return ""
}

// neighbours are the one-line texts of the items of box right before and
// right after the one that holds position p ("" where there is none, or
// it reads in several lines).
func neighbours(m *selector.Matcher, box *screen.Node, p int32) (prev, next string) {
	bp, ok := m.Position(box.Ref)
	if !ok {
		return "", ""
	}
	// The item of box that p is: its ancestor whose parent is box.
	item := p
	for m.Parent(item) >= 0 && m.Parent(item) != bp {
		item = m.Parent(item)
	}
	var items []int32
	for q := bp + 1; q < m.End(bp); q = m.End(q) {
		if m.Nodes()[q].Visible {
			items = append(items, q)
		}
	}
	line := func(q int32) string {
		t := screen.NormalizeText(m.Nodes()[q].Text)
		if strings.Contains(t, "\n") {
			return ""
		}
		return t
	}
	for k, q := range items {
		if q != item {
			continue
		}
		if k > 0 {
			prev = line(items[k-1])
		}
		if k+1 < len(items) {
			next = line(items[k+1])
		}
	}
	return prev, next
}
