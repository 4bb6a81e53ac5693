package screendiff

import (
	"errors"
	"sort"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// Options change what Diff reports.
type Options struct {
	// Ignore names subtrees whose changes are left out: a toolbar the
	// trail does not own, a clock. Each selector ignores every node it
	// matches on either screen, hidden ones too (a toolbar that only shows
	// after the action), with everything inside it and its counterpart on
	// the other screen.
	Ignore []selector.Selector
}

// ErrNoScreen is returned when Diff is given a nil screen or one without a
// root: there is nothing to compare, which must not read as "no change".
var ErrNoScreen = errors.New("screendiff: a screen to compare is missing: capture the page before and after the action")

// Diff lists what changed from before to after (see the package doc for how
// nodes are paired and which changes are folded into others). The only
// errors are a missing screen (ErrNoScreen) and an invalid ignore selector
// (*selector.InvalidSelectorError).
func Diff(before, after *screen.Screen, opts Options) (*Result, error) {
	if before == nil || before.Root == nil || after == nil || after.Root == nil {
		return nil, ErrNoScreen
	}
	d := &differ{b: newTree(before, countElements(before.Root))}
	d.a = newTree(after, len(d.b.nodes)+len(d.b.nodes)/8) // most screens after an action are alike
	d.newDocument = before.Document != "" && after.Document != "" && before.Document != after.Document
	ignored, err := resolveIgnore(d, opts.Ignore)
	if err != nil {
		return nil, err
	}
	d.run()
	r := &Result{
		BeforeURL:   before.URL,
		AfterURL:    after.URL,
		Navigated:   before.URL != after.URL,
		NewDocument: d.newDocument,
		before:      d.b,
		after:       d.a,
	}
	r.Changes = d.result(ignored)
	return r, nil
}

// A differ holds the work of one Diff.
type differ struct {
	b, a        *tree
	newDocument bool
	// pairB[i] is the after position of before node i, -1 when it has
	// none; pairA the other way. Possible replacements are not pairs.
	pairB, pairA []int32
	// replacedB[i] is the after root that replaced before root i, -1 for
	// none; replacedA[j] the before root j replaced.
	replacedB, replacedA []int32
	removedRoots         []int32
	addedRoots           []int32
	// Per after position:
	rawResized []bool
	// visibleChanged is set where the visibility changed at all, folded
	// or not: a box around it changes size because of it.
	visibleChanged []bool
	// pushB, pushA and textChanged: see markLayout.
	pushB, pushA []size
	textChanged  []bool
	// boxAnchor is the nearest paired ancestor with a box on both
	// screens, -1 for none: what carries a node when it moves.
	boxAnchor []int32
	// inGraphic is set inside an <svg>: a shape of a picture, whose box
	// is how the picture is drawn (see drawn).
	inGraphic []bool
	changes   []keyed
}

// A keyed change carries its place in the order of Result.Changes.
type keyed struct {
	Change
	at     int32 // after position, or the paired node a removal follows
	after  bool  // a removal, listed after the changes at `at`
	before int32 // before position, for removals
	pos    int32 // the after position the change is at (-1 for removals)
	posB   int32 // the before position the change is at (-1 for additions)
}

func (d *differ) run() {
	d.pair()
	d.roots()
	d.replacements()
	n := d.a.len()
	d.rawResized = make([]bool, n)
	d.visibleChanged = make([]bool, n)
	d.boxAnchor = make([]int32, n)
	for j := int32(0); j < n; j++ {
		if i := d.pairA[j]; i >= 0 {
			d.comparePair(i, j)
		}
	}
	d.markLayout()
	d.anchors()
	d.graphics()
	for j := int32(0); j < n; j++ {
		if i := d.pairA[j]; i >= 0 {
			d.move(i, j)
		}
	}
	d.resizes()
}

func (d *differ) pair() {
	d.pairB = filled(d.b.len(), -1)
	d.pairA = filled(d.a.len(), -1)
	if d.newDocument {
		return
	}
	for j, n := range d.a.nodes {
		if i, ok := d.b.position(n.Ref); ok && d.pairB[i] < 0 {
			d.pairA[j] = i
			d.pairB[i] = int32(j)
		}
	}
}

func filled(n int32, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// roots finds the unpaired nodes whose parent is paired (or that have no
// parent): the roots of the added and removed subtrees. A wrapper is
// neither (see wrapper).
func (d *differ) roots() {
	for i := int32(0); i < d.b.len(); i++ {
		if p := d.b.parent[i]; d.pairB[i] < 0 && (p < 0 || d.pairB[p] >= 0) && !wrapper(d.b, d.pairB, i) {
			d.removedRoots = append(d.removedRoots, i)
		}
	}
	for j := int32(0); j < d.a.len(); j++ {
		if p := d.a.parent[j]; d.pairA[j] < 0 && (p < 0 || d.pairA[p] >= 0) && !wrapper(d.a, d.pairA, j) {
			d.addedRoots = append(d.addedRoots, j)
		}
	}
}

// wrapper reports whether node p of t, which has no counterpart, only
// wraps nodes that are on the other screen too: an element with no role of
// its own, no name and no text of its own, all of whose children are
// paired. A widget that puts a <div> around content to animate its height
// (UIkit's accordion) added nothing a person sees; the content it holds
// is compared as ever. The same holds for a wrapper taken away.
func wrapper(t *tree, pair []int32, p int32) bool {
	n := t.nodes[p]
	if n.Role != "generic" && n.Role != "" || n.Name != "" || t.ownText[p] != "" || t.parent[p] < 0 {
		return false
	}
	kids := 0
	for k := p + 1; k < t.end[p]; k = t.end[k] {
		if pair[k] < 0 {
			return false
		}
		kids++
	}
	return kids > 0
}

// result drops the ignored changes and sorts the rest into document order.
func (d *differ) result(ig ignoredSets) []Change {
	kept := d.changes[:0]
	for _, c := range d.changes {
		if c.pos >= 0 && ig.after[c.pos] || c.posB >= 0 && ig.before[c.posB] {
			continue
		}
		kept = append(kept, c)
	}
	sort.SliceStable(kept, func(x, y int) bool {
		a, b := kept[x], kept[y]
		if a.at != b.at {
			return a.at < b.at
		}
		if a.after != b.after {
			return !a.after
		}
		if a.before != b.before {
			return a.before < b.before
		}
		return kindRank(a.Kind) < kindRank(b.Kind)
	})
	out := make([]Change, len(kept))
	for i, c := range kept {
		out[i] = c.Change
	}
	return out
}

func (d *differ) add(c Change, posB, pos int32) {
	k := keyed{Change: c, pos: pos, posB: posB, before: -1, at: pos}
	d.changes = append(d.changes, k)
}
