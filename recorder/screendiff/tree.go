package screendiff

import (
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A tree is one screen flattened for diffing: its elements with a ref in
// document order. Text runs and elements without a ref are not entries:
// their text is the own text of the nearest element above them, and their
// children belong to it.
type tree struct {
	screen *screen.Screen
	nodes  []*screen.Node
	// parent is the position of the nearest indexed ancestor, -1 for none.
	parent []int32
	// end is one past the last position in a node's subtree.
	end []int32
	// ownText is the text of the node's text runs, a line each.
	ownText []string
	byRef   map[string]int32
}

func newTree(s *screen.Screen) *tree {
	t := &tree{screen: s}
	if s == nil || s.Root == nil {
		return t
	}
	n := countElements(s.Root)
	t.nodes = make([]*screen.Node, 0, n)
	t.parent = make([]int32, 0, n)
	t.end = make([]int32, 0, n)
	t.ownText = make([]string, 0, n)
	t.byRef = make(map[string]int32, n)
	t.add(s.Root, -1)
	return t
}

func countElements(n *screen.Node) int {
	c := 0
	if n.Ref != "" && !n.IsText() {
		c = 1
	}
	for _, k := range n.Children {
		c += countElements(k)
	}
	return c
}

func (t *tree) add(n *screen.Node, parent int32) {
	if n.IsText() {
		if parent >= 0 && n.Text != "" {
			if t.ownText[parent] == "" {
				t.ownText[parent] = n.Text
			} else {
				t.ownText[parent] = strings.Join([]string{t.ownText[parent], n.Text}, "\n")
			}
		}
		return
	}
	if n.Ref == "" {
		for _, k := range n.Children {
			t.add(k, parent)
		}
		return
	}
	p := int32(len(t.nodes))
	t.nodes = append(t.nodes, n)
	t.parent = append(t.parent, parent)
	t.end = append(t.end, 0)
	t.ownText = append(t.ownText, "")
	if _, dup := t.byRef[n.Ref]; !dup {
		t.byRef[n.Ref] = p
	}
	for _, k := range n.Children {
		t.add(k, p)
	}
	t.end[p] = int32(len(t.nodes))
}

func (t *tree) len() int32 { return int32(len(t.nodes)) }

// inside reports whether j lies in i's subtree, i itself included.
func (t *tree) inside(j, i int32) bool { return i <= j && j < t.end[i] }

func (t *tree) position(ref string) (int32, bool) {
	p, ok := t.byRef[ref]
	return p, ok
}
