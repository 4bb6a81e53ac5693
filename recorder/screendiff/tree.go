package screendiff

import (
	"strings"
	"sync"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
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
	// byNum finds a top-document ref e<N> by its number (most refs), byRef
	// the others: frame refs, and numbers far past the screen's size.
	byNum []int32
	byRef map[string]int32

	// matcher indexes the screen for selectors, once, on the first
	// Result.Match that needs it.
	matcherOnce sync.Once
	matcher     *selector.Matcher
}

func (t *tree) selectors() *selector.Matcher {
	t.matcherOnce.Do(func() { t.matcher = selector.NewMatcher(t.screen) })
	return t.matcher
}

// newTree flattens s; capacity is how many elements to expect, 0 for
// unknown.
func newTree(s *screen.Screen, capacity int) *tree {
	t := &tree{screen: s}
	if s == nil || s.Root == nil {
		return t
	}
	if capacity > 0 {
		t.nodes = make([]*screen.Node, 0, capacity)
		t.parent = make([]int32, 0, capacity)
		t.end = make([]int32, 0, capacity)
		t.ownText = make([]string, 0, capacity)
	}
	t.add(s.Root, -1)
	t.index()
	return t
}

// countElements counts the elements with a ref under n, n included.
func countElements(n *screen.Node) int {
	c := 0
	if n.Ref != "" && n.Tag != screen.TextTag {
		c = 1
	}
	for _, k := range n.Children {
		c += countElements(k)
	}
	return c
}

// index builds the ref lookups.
func (t *tree) index() {
	limit := 4*len(t.nodes) + 1024
	t.byNum = make([]int32, 0, len(t.nodes)+1)
	for p, n := range t.nodes {
		num, ok := refNumber(n.Ref)
		if !ok || num >= limit {
			if t.byRef == nil {
				t.byRef = map[string]int32{}
			}
			if _, dup := t.byRef[n.Ref]; !dup {
				t.byRef[n.Ref] = int32(p)
			}
			continue
		}
		for len(t.byNum) <= num {
			t.byNum = append(t.byNum, -1)
		}
		if t.byNum[num] < 0 {
			t.byNum[num] = int32(p)
		}
	}
}

// refNumber is N of a ref e<N>.
func refNumber(ref string) (int, bool) {
	if len(ref) < 2 || len(ref) > 10 || ref[0] != 'e' {
		return 0, false
	}
	n := 0
	for i := 1; i < len(ref); i++ {
		c := ref[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func (t *tree) add(n *screen.Node, parent int32) {
	if n.Tag == screen.TextTag {
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
	for _, k := range n.Children {
		t.add(k, p)
	}
	t.end[p] = int32(len(t.nodes))
}

func (t *tree) len() int32 { return int32(len(t.nodes)) }

// inside reports whether j lies in i's subtree, i itself included.
func (t *tree) inside(j, i int32) bool { return i <= j && j < t.end[i] }

func (t *tree) position(ref string) (int32, bool) {
	if num, ok := refNumber(ref); ok && num < len(t.byNum) {
		if p := t.byNum[num]; p >= 0 {
			return p, true
		}
	}
	p, ok := t.byRef[ref]
	return p, ok
}
