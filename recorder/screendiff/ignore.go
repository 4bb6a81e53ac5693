package screendiff

import (
	"errors"
	"fmt"

	"github.com/trailpin/trailpin/recorder/selector"
)

// ignoredSets marks, per position of each screen, the nodes whose changes
// are left out.
type ignoredSets struct {
	before, after []bool
}

// resolveIgnore matches every ignore selector on both screens (hidden nodes
// too, and every match of a selector that matches several) and marks the
// matched subtrees and their counterparts.
func resolveIgnore(d *differ, ignore []selector.Selector) (ignoredSets, error) {
	ig := ignoredSets{before: make([]bool, d.b.len()), after: make([]bool, d.a.len())}
	if len(ignore) == 0 {
		return ig, nil
	}
	var rootsB, rootsA []int32
	for k, sel := range ignore {
		for _, side := range []struct {
			t     *tree
			roots *[]int32
		}{{d.b, &rootsB}, {d.a, &rootsA}} {
			nodes, err := side.t.selectors().Match(sel, selector.IncludeHidden())
			var amb *selector.AmbiguousError
			var nf *selector.NotFoundError
			switch {
			case errors.As(err, &amb):
				if amb.Scope {
					return ig, fmt.Errorf("ignore %d (%s): %w", k+1, sel, err)
				}
				nodes = amb.Matches
			case errors.As(err, &nf):
				// Not on this screen: nothing to leave out here.
				continue
			case err != nil:
				return ig, fmt.Errorf("ignore %d (%s): %w", k+1, sel, err)
			}
			for _, n := range nodes {
				if p, ok := side.t.position(n.Ref); ok {
					*side.roots = append(*side.roots, p)
				}
			}
		}
	}
	// Pairing comes later; ref identity is what pairs the counterparts.
	counterpart := func(from, to *tree, p int32) (int32, bool) {
		if d.newDocument {
			return 0, false
		}
		return to.position(from.nodes[p].Ref)
	}
	for _, p := range rootsB {
		if q, ok := counterpart(d.b, d.a, p); ok {
			rootsA = append(rootsA, q)
		}
	}
	for _, p := range rootsA {
		if q, ok := counterpart(d.a, d.b, p); ok {
			rootsB = append(rootsB, q)
		}
	}
	mark(d.b, ig.before, rootsB)
	mark(d.a, ig.after, rootsA)
	return ig, nil
}

func mark(t *tree, set []bool, roots []int32) {
	for _, p := range roots {
		for q := p; q < t.end[p]; q++ {
			set[q] = true
		}
	}
}
