package screendiff

import (
	"math/rand/v2"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
)

// mutate changes a copy of s the ways pages change, driven by seed: drops
// subtrees, copies a subtree under new refs (a re-render), flips states and
// visibility, edits text and moves boxes.
func mutate(t *testing.T, s *screen.Screen, seed uint64) *screen.Screen {
	c := copyScreen(t, s)
	r := rand.New(rand.NewPCG(seed, 7))
	fresh := 900000
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		var kids []*screen.Node
		for _, k := range n.Children {
			switch r.IntN(40) {
			case 0:
				continue // removed
			case 1:
				dup := copyScreen(t, &screen.Screen{Root: k}).Root
				eachNode(dup, func(d *screen.Node) {
					if d.Ref != "" {
						fresh++
						d.Ref = "e" + itoa(fresh)
					}
				})
				kids = append(kids, dup)
			}
			kids = append(kids, k)
		}
		n.Children = kids
		switch r.IntN(30) {
		case 0:
			n.Visible = !n.Visible
		case 1:
			n.Disabled = !n.Disabled
		case 2:
			v := r.IntN(2) == 0
			n.Expanded = &v
		case 3:
			if n.IsText() {
				n.Text += " now"
			} else {
				n.Name += " now"
			}
		case 4:
			if n.Box != nil {
				n.Box.Y += float64(r.IntN(200))
			}
		case 5:
			if n.Box != nil {
				n.Box.Height += float64(r.IntN(200))
			}
		}
		for _, k := range n.Children {
			walk(k)
		}
	}
	walk(c.Root)
	return c
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// FuzzDiff diffs captured screens against mutations of them and checks what
// must hold of any diff: it is deterministic, every change names nodes that
// are on its screens, an added or removed node is listed once at its root
// (never also inside another added or removed subtree), no node is both
// paired and added or removed, and every change is found by a matcher of
// its kind.
func FuzzDiff(f *testing.F) {
	for i := range 8 {
		f.Add(uint64(i), uint8(i))
	}
	pages := []string{"details", "menu", "keyed-list", "layout", "soft-nav", "transition"}
	f.Fuzz(func(t *testing.T, seed uint64, page uint8) {
		before := loadScreen(t, pages[int(page)%len(pages)], "before")
		after := mutate(t, before, seed)
		r, err := Diff(before, after, Options{})
		if err != nil {
			t.Fatal(err)
		}
		again, _ := Diff(before, after, Options{})
		if r.String() != again.String() {
			t.Fatalf("Diff is not deterministic:\n%s\nthen\n%s", r, again)
		}
		bt, at := newTree(before, 0), newTree(after, 0)
		roots := map[string]Kind{}
		for _, c := range r.Changes {
			if c.Before != nil {
				if _, ok := bt.position(c.Before.Ref); !ok {
					t.Fatalf("%s names %s, which is not on the before screen", c, c.Before.Ref)
				}
			}
			if c.After != nil {
				if _, ok := at.position(c.After.Ref); !ok {
					t.Fatalf("%s names %s, which is not on the after screen", c, c.After.Ref)
				}
			}
			switch c.Kind {
			case Added, PossibleReplacement:
				roots["a"+c.After.Ref] = c.Kind
			}
			switch c.Kind {
			case Removed, PossibleReplacement:
				roots["b"+c.Before.Ref] = c.Kind
			}
		}
		// No root lies inside another root of its side.
		for key := range roots {
			side, ref := key[:1], key[1:]
			tr := at
			if side == "b" {
				tr = bt
			}
			p, _ := tr.position(ref)
			for q := tr.parent[p]; q >= 0; q = tr.parent[q] {
				if _, inner := roots[side+tr.nodes[q].Ref]; inner {
					t.Fatalf("%s is listed, and so is %s around it:\n%s", ref, tr.nodes[q].Ref, r)
				}
			}
		}
		for k, c := range r.Changes {
			res, err := r.Match(Matcher{Change: c.Kind})
			if err != nil || !containsInt(res.Changes, k) {
				t.Fatalf("Match(%s) does not find %s (%v)", c.Kind, c, err)
			}
		}
	})
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
