package selector

import (
	"sort"
	"sync"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A Matcher is a screen indexed once for matching many selectors: document
// order, subtree extents, parents, which nodes are shown, the strings that
// selectors compare in columns, and lookups by role, id and test id built on
// first use. Build one with NewMatcher when matching more than one selector
// on the same screen; Match, Generate and Candidates index the screen for
// the call, in memory they reuse.
//
// A Matcher reads the screen it was built from and never changes it; the
// screen must not change while the Matcher is in use. It is safe for
// concurrent use.
type Matcher struct {
	screen *screen.Screen
	// The columns, one entry per element with a ref, in document order:
	//   nodes: the elements. Only these can match; text runs and elements
	//     without a ref are skipped, though their descendants are not.
	//   refs, roles, and the lengths of names and texts: a scan over many
	//     nodes reads them in order and visits a node only when its role and
	//     the length of the string compared fit.
	//   parent: the position of the nearest indexed ancestor, -1 for none.
	//   end: one past the last position in i's subtree, so j lies inside i
	//     exactly when i < j < end[i].
	//   shown: whether a person can see something of the node: it is
	//     visible, or a node inside it is (a container whose own box
	//     collapsed around floated children still shows them).
	//   withIDs: the positions of the nodes with an id or a test id, for
	//     building byID and byTestID when a selector first needs them.
	columns

	lookupOnce sync.Once
	byID       map[string][]int32
	byTestID   map[string][]int32

	// listMu guards the position lists of the roles and text lengths that
	// selectors have asked for, each built by one scan of its column.
	listMu    sync.Mutex
	byRole    map[string][]int32
	byTextLen map[int32][]int32

	// plainNames: the names of the nodes whose name holds icon-font
	// glyphs, without them (StripIconGlyphs); nameLens has their length.
	plainNames map[int32]string
	// plainTexts: the same for texts (StripTextGlyphs); textLens has
	// their length.
	plainTexts map[int32]string
}

// NewMatcher indexes s. A nil screen, or one without a root, gives a Matcher
// on which nothing matches.
func NewMatcher(s *screen.Screen) *Matcher {
	m := &Matcher{screen: s}
	if s != nil && s.Root != nil {
		m.columns = newColumns(countIndexed(s.Root))
		m.index()
	}
	return m
}

// columns are the per-node slices of a Matcher, kept apart so that one-shot
// matchers (Match, Generate, Candidates) can reuse them through a pool.
type columns struct {
	nodes              []*screen.Node
	refs, roles        []string
	nameLens, textLens []int32
	parent, end        []int32
	shown              []bool
	withIDs            []int32
}

func newColumns(n int) columns {
	return columns{
		nodes:    make([]*screen.Node, 0, n),
		refs:     make([]string, 0, n),
		roles:    make([]string, 0, n),
		nameLens: make([]int32, 0, n),
		textLens: make([]int32, 0, n),
		parent:   make([]int32, 0, n),
		end:      make([]int32, 0, n),
		shown:    make([]bool, 0, n),
	}
}

// reset empties the columns, keeping their memory and dropping every
// reference to the screen they indexed.
func (c *columns) reset() {
	clear(c.nodes)
	clear(c.refs)
	clear(c.roles)
	c.nodes, c.refs, c.roles = c.nodes[:0], c.refs[:0], c.roles[:0]
	c.nameLens, c.textLens = c.nameLens[:0], c.textLens[:0]
	c.parent, c.end, c.shown, c.withIDs = c.parent[:0], c.end[:0], c.shown[:0], c.withIDs[:0]
}

// columnPool keeps the columns of one-shot matchers: indexing a large screen
// then allocates nothing, and the garbage collector has less to do while a
// recording or a replay captures screen after screen.
var columnPool = sync.Pool{New: func() any { return new(columns) }}

// borrowMatcher indexes s in pooled columns; release gives them back. The
// Matcher, and no node slice it returned, may be used after release: the
// results Match returns are copies.
func borrowMatcher(s *screen.Screen) (m *Matcher, release func()) {
	m = &Matcher{screen: s}
	if s == nil || s.Root == nil {
		return m, func() {}
	}
	pooled := columnPool.Get().(*columns)
	m.columns = *pooled
	m.index()
	return m, func() {
		*pooled = m.columns
		pooled.reset()
		m.columns = columns{}
		columnPool.Put(pooled)
	}
}

func (m *Matcher) index() {
	m.add(m.screen.Root, -1)
	for i := len(m.nodes) - 1; i >= 0; i-- {
		if m.shown[i] && m.parent[i] >= 0 {
			m.shown[m.parent[i]] = true
		}
	}
}

// countIndexed counts the elements with a ref under n, so that a long-lived
// Matcher's columns are allocated once at their size: growing them would
// copy them, with a write barrier per string, several times on a large
// screen.
func countIndexed(n *screen.Node) int {
	if n == nil || n.Tag == screen.TextTag {
		return 0
	}
	c := 0
	if n.Ref != "" {
		c = 1
	}
	for _, k := range n.Children {
		c += countIndexed(k)
	}
	return c
}

func (m *Matcher) add(n *screen.Node, parent int32) {
	if n == nil || n.Tag == screen.TextTag {
		return
	}
	if n.Ref != "" {
		pos := int32(len(m.nodes))
		m.nodes = append(m.nodes, n)
		m.refs = append(m.refs, n.Ref)
		m.roles = append(m.roles, n.Role)
		m.nameLens = append(m.nameLens, int32(len(m.plainName(pos, n.Name))))
		m.textLens = append(m.textLens, int32(len(m.plainText(pos, n.Text))))
		m.parent = append(m.parent, parent)
		m.end = append(m.end, 0)
		m.shown = append(m.shown, n.Visible)
		if n.ID != "" || n.TestID != "" {
			m.withIDs = append(m.withIDs, pos)
		}
		parent = pos
		for _, c := range n.Children {
			m.add(c, parent)
		}
		m.end[pos] = int32(len(m.nodes))
		return
	}
	for _, c := range n.Children {
		m.add(c, parent)
	}
}

// plainName records the name of the node at pos without its icon glyphs,
// when it has some, and returns the name it is compared by.
func (m *Matcher) plainName(pos int32, name string) string {
	if !hasIconGlyph(name) {
		return name
	}
	plain := StripIconGlyphs(name)
	if m.plainNames == nil {
		m.plainNames = map[int32]string{}
	}
	m.plainNames[pos] = plain
	return plain
}

// name is the accessible name of the node at p as selectors compare it:
// without icon-font glyphs.
func (m *Matcher) name(p int32) string {
	if m.plainNames != nil {
		if s, ok := m.plainNames[p]; ok {
			return s
		}
	}
	return m.nodes[p].Name
}

// plainText records the text of the node at pos without its icon glyphs,
// when it has some, and returns the text it is compared by.
func (m *Matcher) plainText(pos int32, text string) string {
	if !hasIconGlyph(text) {
		return text
	}
	plain := StripTextGlyphs(text)
	if m.plainTexts == nil {
		m.plainTexts = map[int32]string{}
	}
	m.plainTexts[pos] = plain
	return plain
}

// text is the normalised text of the node at p as selectors compare it:
// without icon-font glyphs.
func (m *Matcher) text(p int32) string {
	if m.plainTexts != nil {
		if s, ok := m.plainTexts[p]; ok {
			return s
		}
	}
	return m.nodes[p].Text
}

// Text is the text of the element at Position p as selectors compare and
// pin it: without icon-font glyphs (StripTextGlyphs).
func (m *Matcher) Text(p int32) string { return m.text(p) }

// rolePositions returns the positions with the given role, in document
// order. Each role asked for costs one scan of the roles column; a screen
// has dozens of roles and a search asks for a handful, so building lists for
// all of them would cost more.
func (m *Matcher) rolePositions(role string) []int32 {
	m.listMu.Lock()
	defer m.listMu.Unlock()
	if list, ok := m.byRole[role]; ok {
		return list
	}
	var list []int32
	for i, r := range m.roles {
		if r == role {
			list = append(list, int32(i))
		}
	}
	if m.byRole == nil {
		m.byRole = map[string][]int32{}
	}
	m.byRole[role] = list
	return list
}

// textLenPositions returns the positions whose text has n bytes, in
// document order: an exact text is compared only with texts of its length.
func (m *Matcher) textLenPositions(n int) []int32 {
	m.listMu.Lock()
	defer m.listMu.Unlock()
	if list, ok := m.byTextLen[int32(n)]; ok {
		return list
	}
	var list []int32
	for i, l := range m.textLens {
		if l == int32(n) {
			list = append(list, int32(i))
		}
	}
	if m.byTextLen == nil {
		m.byTextLen = map[int32][]int32{}
	}
	m.byTextLen[int32(n)] = list
	return list
}

func (m *Matcher) buildLookups() {
	m.lookupOnce.Do(func() {
		m.byID = map[string][]int32{}
		m.byTestID = map[string][]int32{}
		for _, pos := range m.withIDs {
			n := m.nodes[pos]
			if n.ID != "" {
				m.byID[n.ID] = append(m.byID[n.ID], pos)
			}
			if n.TestID != "" {
				m.byTestID[n.TestID] = append(m.byTestID[n.TestID], pos)
			}
		}
	})
}

// Screen returns the screen m indexes.
func (m *Matcher) Screen() *screen.Screen { return m.screen }

// Node returns the element with the given ref, or nil.
func (m *Matcher) Node(ref string) *screen.Node {
	if pos, ok := m.Position(ref); ok {
		return m.nodes[pos]
	}
	return nil
}

// Position finds a ref by a scan: a ref is looked up once or twice per
// screen, which costs less than building a map of every ref.
func (m *Matcher) Position(ref string) (int32, bool) {
	for i, r := range m.refs {
		if r == ref {
			return int32(i), true
		}
	}
	return 0, false
}

// Len is the number of elements with a ref on the screen.
func (m *Matcher) Len() int { return len(m.nodes) }

// Nodes are the elements with a ref in document order; a position is an
// index into it. The slice belongs to the Matcher: read it, never change it.
func (m *Matcher) Nodes() []*screen.Node { return m.nodes }

// Parent is the position of the nearest indexed ancestor of position p, -1
// for none.
func (m *Matcher) Parent(p int32) int32 { return m.parent[p] }

// End is one past the last position in p's subtree.
func (m *Matcher) End(p int32) int32 { return m.end[p] }

// Shown reports whether a person can see something of the element at
// Position p: it is visible, or an element inside it is.
func (m *Matcher) Shown(p int32) bool { return m.shown[p] }

// Inside reports whether position j lies strictly inside position i.
func (m *Matcher) Inside(j, i int32) bool { return i < j && j < m.end[i] }

// clip returns the part of a sorted position list that lies in [lo, hi).
func clip(list []int32, lo, hi int32) []int32 {
	a := sort.Search(len(list), func(k int) bool { return list[k] >= lo })
	b := sort.Search(len(list), func(k int) bool { return list[k] >= hi })
	return list[a:b]
}
