package screendiff

import "github.com/trailpin/trailpin/recorder/screen"

// comparePair lists the content, state and style changes of one paired
// node and notes whether its box changed size.
func (d *differ) comparePair(i, j int32) {
	bn, an := d.b.nodes[i], d.a.nodes[j]
	// The field tables are only read for a node where something differs:
	// most nodes of a diff did not change.
	if !sameContent(bn, an) || d.b.ownText[i] != d.a.ownText[j] {
		if ds := d.deltas(contentFields, i, j); ds != nil {
			d.add(Change{Kind: Content, Before: nodeRef(bn), After: nodeRef(an), Deltas: ds}, i, j)
		}
	}
	if !sameState(bn, an) {
		if ds := d.deltas(stateFields, i, j); ds != nil {
			d.add(Change{Kind: State, Before: nodeRef(bn), After: nodeRef(an), Deltas: ds}, i, j)
		}
	}
	d.visibleChanged[j] = bn.Visible != an.Visible
	if ds := d.styleDeltas(i, j); ds != nil {
		d.add(Change{Kind: Style, Before: nodeRef(bn), After: nodeRef(an), Deltas: ds}, i, j)
	}
	if bn.Box != nil && an.Box != nil {
		d.rawResized[j] = abs(an.Box.Width-bn.Box.Width) >= MinResize || abs(an.Box.Height-bn.Box.Height) >= MinResize
	} else {
		// A box appearing or vanishing changes the layout around it as
		// much as a resize.
		d.rawResized[j] = (bn.Box == nil) != (an.Box == nil)
	}
}

func sameContent(a, b *screen.Node) bool {
	return a.Name == b.Name && a.Description == b.Description && a.Value == b.Value && a.Placeholder == b.Placeholder
}

func sameState(a, b *screen.Node) bool {
	return a.Checked == b.Checked && a.Pressed == b.Pressed && sameOpt(a.Expanded, b.Expanded) && sameOpt(a.Selected, b.Selected) &&
		a.Disabled == b.Disabled && a.Level == b.Level && a.Required == b.Required && a.ReadOnly == b.ReadOnly && a.Invalid == b.Invalid
}

func sameOpt(a, b *bool) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func (d *differ) styleDeltas(i, j int32) []Delta {
	bn, an := d.b.nodes[i], d.a.nodes[j]
	if bn.Visible == an.Visible && (bn.Covered == nil || an.Covered == nil || *bn.Covered == *an.Covered) {
		return nil
	}
	return d.deltas(styleFields, i, j)
}

// deltas compares fields of before node i and after node j; nil when none
// changed. An inherited field that changed exactly as the parent's did is
// the parent's change.
func (d *differ) deltas(fields []field, i, j int32) []Delta {
	var out []Delta
	for _, f := range fields {
		from, to := f.get(d.b, i), f.get(d.a, j)
		if from == to {
			continue
		}
		if f.name == "covered" && (from == "" || to == "") {
			continue
		}
		if f.inherited && d.parentChanged(f, j, from, to) {
			continue
		}
		out = append(out, Delta{Field: f.name, From: from, To: to})
	}
	return out
}

// parentChanged reports whether a paired ancestor of after node j had its
// field go from `from` to `to` as well: a fieldset disabled with its
// fields, a menu shown with its items (the labels and list items between
// them need not change at all).
func (d *differ) parentChanged(f field, j int32, from, to string) bool {
	for pa := d.a.parent[j]; pa >= 0; pa = d.a.parent[pa] {
		pb := d.pairA[pa]
		if pb >= 0 && f.get(d.b, pb) == from && f.get(d.a, pa) == to {
			return true
		}
	}
	return false
}

// markLayout adds up, for every paired node, how much the siblings before
// it grew: the layout it was pushed by (see reflowed).
//   - pushB[i], in the before screen: minus the size of the removed
//     subtrees among the siblings before i;
//   - pushA[j], in the after screen: the size change of the paired
//     siblings before j (a box that appeared counts whole), plus the size
//     of the added ones.
//
// textChanged notes the nodes whose own text changed: text runs have no
// box, so they push by an amount no screen says.
func (d *differ) markLayout() {
	d.textChanged = make([]bool, d.a.len())
	nb, na := d.b.len(), d.a.len()
	d.pushB = make([]size, nb)
	d.pushA = make([]size, na)
	run := make([]size, max(nb, na)) // the running sum per parent
	removed := make([]bool, nb)
	for _, i := range d.removedRoots {
		removed[i] = true
	}
	for i := int32(0); i < nb; i++ {
		p := d.b.parent[i]
		if p < 0 {
			continue
		}
		if removed[i] {
			run[p] = run[p].minus(boxSize(d.b.nodes[i].Box))
		} else if d.pairB[i] >= 0 {
			d.pushB[i] = run[p]
		}
	}
	clear(run)
	for j := int32(0); j < na; j++ {
		p := d.a.parent[j]
		i := d.pairA[j]
		if i >= 0 && d.a.ownText[j] != d.b.ownText[i] {
			d.textChanged[j] = true
		}
		if p < 0 {
			continue
		}
		d.pushA[j] = run[p]
		grew := boxSize(d.a.nodes[j].Box) // an added subtree, whole
		if i >= 0 {
			grew = grew.minus(boxSize(d.b.nodes[i].Box))
		}
		run[p] = run[p].plus(grew)
	}
}

// A size is a width and a height, or a change of them.
type size struct{ w, h float64 }

func boxSize(b *screen.Box) size {
	if b == nil {
		return size{}
	}
	return size{b.Width, b.Height}
}

func (s size) plus(t size) size  { return size{s.w + t.w, s.h + t.h} }
func (s size) minus(t size) size { return size{s.w - t.w, s.h - t.h} }

// reflowed reports whether a move of after node j (before node i) by
// (dx, dy) is the flow pushing it: its parent's own text changed, or the
// siblings before it grew (or shrank) the way it moved — along each axis it
// moved, in the same direction, and by no more than twice the growth (the
// growth and the margins that come with it). A box placed on its own (a
// toast, a dragged row) moves further than that, or with nothing before it
// changing, and is listed.
func (d *differ) reflowed(i, j int32, dx, dy float64) bool {
	p := d.a.parent[j]
	if p < 0 {
		return false
	}
	if d.textChanged[p] {
		return true
	}
	push := d.pushA[j]
	if bp := d.b.parent[i]; bp >= 0 && d.pairB[bp] == p {
		push = push.plus(d.pushB[i])
	}
	return pushes(dx, push.w) && pushes(dy, push.h)
}

// pushes reports whether a growth before a box explains its move along one
// axis.
func pushes(move, growth float64) bool {
	if abs(move) < MinMove {
		return true
	}
	return abs(growth) >= MinMove && (move > 0) == (growth > 0) && abs(move) <= 2*abs(growth)+MinMove
}

// anchors finds, for every after node, the nearest paired ancestor with a
// box on both screens: the box a move is measured against.
func (d *differ) anchors() {
	for j := int32(0); j < d.a.len(); j++ {
		p := d.a.parent[j]
		switch {
		case p < 0:
			d.boxAnchor[j] = -1
		case d.pairA[p] >= 0 && d.a.nodes[p].Box != nil && d.b.nodes[d.pairA[p]].Box != nil:
			d.boxAnchor[j] = p
		default:
			d.boxAnchor[j] = d.boxAnchor[p]
		}
	}
}

// graphics marks the after nodes inside an <svg>.
func (d *differ) graphics() {
	d.inGraphic = make([]bool, d.a.len())
	for j := int32(0); j < d.a.len(); j++ {
		if p := d.a.parent[j]; p >= 0 {
			d.inGraphic[j] = d.inGraphic[p] || d.a.nodes[p].Tag == "svg"
		}
	}
}

// drawn reports whether after node j's box is no part of the page's
// layout, so that its moving or changing size is no change of its own:
//   - the root: its box moves only when the page scrolls;
//   - a shape inside an <svg>: its box is how the picture is drawn. An
//     icon whose bars turn from + to − (UIkit's accordion) moves and
//     resizes each bar; the picture's own box is what the page lays out.
func (d *differ) drawn(j int32) bool {
	return d.a.parent[j] < 0 || d.inGraphic[j]
}

// shift is how far a paired node's box moved.
func (d *differ) shift(i, j int32) (dx, dy float64, ok bool) {
	bb, ab := d.b.nodes[i].Box, d.a.nodes[j].Box
	if bb == nil || ab == nil {
		return 0, 0, false
	}
	return ab.X - bb.X, ab.Y - bb.Y, true
}

// move lists a paired node as moved when its box moved by MinMove or more,
// not with its anchor (the parent's move carries it) and not as a reflow.
func (d *differ) move(i, j int32) {
	dx, dy, ok := d.shift(i, j)
	if !ok || abs(dx) < MinMove && abs(dy) < MinMove || d.drawn(j) {
		return
	}
	if k := d.boxAnchor[j]; k >= 0 {
		px, py, _ := d.shift(d.pairA[k], k)
		if abs(dx-px) < MinMove && abs(dy-py) < MinMove {
			return
		}
		dx, dy = dx-px, dy-py
	}
	if d.reflowed(i, j, dx, dy) {
		return
	}
	d.add(Change{Kind: Moved, Before: nodeRef(d.b.nodes[i]), After: nodeRef(d.a.nodes[j])}, i, j)
}

// resizes lists the paired nodes whose box changed size by MinResize or
// more, except where the resize is a consequence:
//   - around a cause inside it: something inside was added, removed,
//     replaced, shown or hidden, or changed its content (a list grows
//     around a new item, the page around the list);
//   - around one child that changed size by as much: that child's resize
//     is the one listed (a card grows with the text area inside it);
//   - with its parent, when the parent changed size by as much as two or
//     more of its children: the parent was resized and they stretch with
//     it (a sidebar widened, its sections with it).
func (d *differ) resizes() {
	n := d.a.len()
	// causes[j]: a cause at j; under[j]: removed roots right under j.
	// Both become prefix sums, so a subtree's count is two lookups.
	causes := make([]int32, n+1)
	under := make([]int32, n+1)
	for _, c := range d.changes {
		if !isCause(c.Change) {
			continue
		}
		switch {
		case c.pos >= 0:
			causes[c.pos]++
		case c.posB >= 0:
			if p := d.b.parent[c.posB]; p >= 0 && d.pairB[p] >= 0 {
				under[d.pairB[p]]++
			}
		}
	}
	for j := int32(0); j < n; j++ {
		if d.visibleChanged[j] {
			causes[j]++ // shown or hidden with its parent: folded, still a cause
		}
	}
	var sc, su int32
	for j := int32(0); j <= n; j++ {
		sc, causes[j] = sc+causes[j], sc
		su, under[j] = su+under[j], su
	}
	// sameKids[j]: children of j resized by as much as j.
	sameKids := make([]int32, n)
	for j := int32(0); j < n; j++ {
		if p := d.a.parent[j]; p >= 0 && d.sameResize(j, p) {
			sameKids[p]++
		}
	}
	for j := int32(0); j < n; j++ {
		i := d.pairA[j]
		if i < 0 || !d.rawResized[j] || !hasBoxes(d.b.nodes[i], d.a.nodes[j]) || d.drawn(j) {
			continue
		}
		e := d.a.end[j]
		if causes[e]-causes[j+1]+under[e]-under[j] > 0 || sameKids[j] == 1 {
			continue
		}
		if p := d.a.parent[j]; p >= 0 && d.sameResize(j, p) && sameKids[p] >= 2 {
			continue
		}
		d.add(Change{Kind: Resized, Before: nodeRef(d.b.nodes[i]), After: nodeRef(d.a.nodes[j])}, i, j)
	}
}

// isCause reports whether c is a change that resizes what holds it.
func isCause(c Change) bool {
	switch c.Kind {
	case Added, Removed, PossibleReplacement, Content:
		return true
	}
	return false
}

// sizeDelta is how much a paired node's box changed size.
func (d *differ) sizeDelta(j int32) (dw, dh float64, ok bool) {
	i := d.pairA[j]
	if i < 0 || !d.rawResized[j] {
		return 0, 0, false
	}
	bb, ab := d.b.nodes[i].Box, d.a.nodes[j].Box
	if bb == nil || ab == nil {
		return 0, 0, false
	}
	return ab.Width - bb.Width, ab.Height - bb.Height, true
}

// sameResize reports whether after nodes j and k both changed size, by the
// same amount.
func (d *differ) sameResize(j, k int32) bool {
	w1, h1, ok1 := d.sizeDelta(j)
	w2, h2, ok2 := d.sizeDelta(k)
	return ok1 && ok2 && abs(w1-w2) < MinResize && abs(h1-h2) < MinResize
}

func hasBoxes(a, b *screen.Node) bool { return a.Box != nil && b.Box != nil }
