package selector

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Match finds what sel names on s: the one matcher of docs/architecture.md, used by the
// generator to prove uniqueness, by the review to build its menu and by replay
// on the live screen.
//
// The rules (docs/selectors.md):
//   - Every property set must hold (a conjunction); comparisons are exact and
//     case-sensitive on the normalised strings of the screen: name is the
//     accessible name without icon-font glyphs (StripIconGlyphs), text the
//     node's normalised text without them (StripTextGlyphs), label and placeholder
//     the node's Label (for a field with no name or label of its own, the
//     label-like text right before it: AdjacentText) and Placeholder.
//     textRegex is RE2, anchored only where the pattern says (^, $), and
//     matches the text without its glyphs or with them.
//   - Only elements with a ref can match, never text runs.
//   - Only shown nodes match: a node that is visible, or that holds a visible
//     node (a container whose own box collapsed). A hidden copy of a control —
//     the mobile menu kept in the DOM — neither makes a selector ambiguous nor
//     satisfies it. This is what replay needs: it waits for a visible match,
//     and an assertion that something is not visible asks for no shown node.
//     IncludeHidden lifts the rule, for explaining failures.
//   - A node out of the accessibility tree (aria-hidden, inert, or behind an
//     open modal dialog: Node.AriaHidden) has no role, name or label for a
//     selector, as for assistive technology: a decorative copy of a control
//     never makes {role, name} ambiguous, and an action on a control behind
//     a modal dialog waits until the dialog closes. Its text, test id, id
//     and placeholder still match what a person sees.
//   - A text selector names the element the text belongs to, not the wrappers
//     around it: when a matching node holds another matching node with the
//     same text, the outer one is only a wrapper and is not counted; for a
//     textRegex, also when the outer text goes on, on a new line, after
//     the inner one's whole text (the page around a section it opens).
//   - within: the node must lie strictly inside the node that the within
//     selector resolves to, by these same rules — exactly one node, or the
//     one its own index picks. A within that matches nothing or several is an
//     error, never "inside any of them".
//   - Without index, exactly one node must match: none is a *NotFoundError,
//     several an *AmbiguousError listing them (never "take the first"). With
//     index, the node at that 0-based position among the nodes matching every
//     other property, in document order; past the end is a *NotFoundError.
//
// Match returns the matched node (one), or with an *AmbiguousError all the
// matches in document order. When it is the within scope that is missing or
// ambiguous, no node is returned and the error's Scope is true (an
// ambiguous scope lists the containers). An invalid selector gives an
// *InvalidSelectorError.
func Match(s *screen.Screen, sel Selector, opts ...MatchOption) ([]*screen.Node, error) {
	m, release := borrowMatcher(s)
	defer release()
	return m.Match(sel, opts...)
}

// A MatchOption changes how Match looks at a screen.
type MatchOption func(*matchConfig)

type matchConfig struct {
	includeHidden bool
}

// IncludeHidden makes hidden nodes match too: for saying "it is there, but
// hidden" when a selector finds nothing shown.
func IncludeHidden() MatchOption {
	return func(c *matchConfig) { c.includeHidden = true }
}

// Match is the package-level Match on m's screen.
func (m *Matcher) Match(sel Selector, opts ...MatchOption) ([]*screen.Node, error) {
	var cfg matchConfig
	for _, o := range opts {
		o(&cfg)
	}
	if err := sel.Validate(); err != nil {
		return nil, err
	}
	positions, err := m.resolve(&sel, &sel, cfg)
	var nf *NotFoundError
	if errors.As(err, &nf) && !cfg.includeHidden && nf.Part.Index == nil {
		nf.Hidden = m.countHidden(nf.Part)
	}
	return m.nodesAt(positions), err
}

// countHidden counts the hidden nodes that would have matched part: for
// "1 hidden element matches" in a failure.
func (m *Matcher) countHidden(part Selector) int {
	all, err := m.all(&part, matchConfig{includeHidden: true})
	if err != nil {
		return 0
	}
	n := 0
	for _, p := range all {
		if !m.shown[p] {
			n++
		}
	}
	return n
}

func (m *Matcher) nodesAt(positions []int32) []*screen.Node {
	if positions == nil {
		return nil
	}
	out := make([]*screen.Node, len(positions))
	for i, p := range positions {
		out[i] = m.nodes[p]
	}
	return out
}

// resolve applies sel's uniqueness or index rule to its matches. whole is the
// selector the caller passed, for error messages about a within scope.
func (m *Matcher) resolve(sel, whole *Selector, cfg matchConfig) ([]int32, error) {
	all, err := m.allFor(sel, whole, cfg)
	if err != nil {
		return nil, err
	}
	scope := sel != whole
	if sel.Index != nil {
		if *sel.Index < len(all) {
			return all[*sel.Index : *sel.Index+1], nil
		}
		return nil, &NotFoundError{Selector: *whole, Part: *sel, Scope: scope, Matched: len(all), hidden: cfg.includeHidden}
	}
	switch len(all) {
	case 1:
		return all, nil
	case 0:
		return nil, &NotFoundError{Selector: *whole, Part: *sel, Scope: scope, hidden: cfg.includeHidden}
	}
	return all, &AmbiguousError{Selector: *whole, Part: *sel, Scope: scope, Matches: m.nodesAt(all), hidden: cfg.includeHidden}
}

// all returns every node matching sel apart from its index, in document order.
func (m *Matcher) all(sel *Selector, cfg matchConfig) ([]int32, error) {
	return m.allFor(sel, sel, cfg)
}

func (m *Matcher) allFor(sel, whole *Selector, cfg matchConfig) ([]int32, error) {
	if sel.Within == nil {
		return m.allIn(sel, 0, int32(len(m.nodes)), cfg)
	}
	scope, err := m.resolve(sel.Within, whole, cfg)
	if err != nil {
		return nil, err
	}
	at := m.wholeRow(scope[0])
	return m.allIn(sel, at+1, m.end[at], cfg)
}

// wholeRow is the scope a within selector that resolved to p stands for:
// p, or, for a row that an outer row of the same role only wraps (their
// text is the same: a tree editor's row holds a table of its own for the
// key and the value, and its drag and actions buttons beside it), the
// outermost such row. Text names the innermost element carrying it, so the
// row's title finds the inner row; the person means the whole row.
func (m *Matcher) wholeRow(p int32) int32 {
	role := m.nodes[p].Role
	if !IsRowRole(role) {
		return p
	}
	text := m.text(p)
	out := p
	for a := m.parent[p]; a >= 0 && m.text(a) == text; a = m.parent[a] {
		if m.nodes[a].Role == role {
			out = a
		}
	}
	return out
}

// allIn returns the nodes in positions [lo, hi) that match sel's own
// properties (not its within or index), without wrappers, in document order.
func (m *Matcher) allIn(sel *Selector, lo, hi int32, cfg matchConfig) ([]int32, error) {
	var re *regexp.Regexp
	minLen := 0 // a regex with a literal prefix needs a text at least as long
	if sel.TextRegex != "" {
		var err error
		if re, err = compileSelectorRegex(sel.TextRegex); err != nil {
			return nil, &InvalidSelectorError{Field: "textRegex", Reason: err.Error()}
		}
		prefix, _ := re.LiteralPrefix()
		minLen = len(prefix)
	}
	name := StripIconGlyphs(sel.Name)
	text := StripTextGlyphs(sel.Text)
	var out []int32
	test := func(p int32) {
		if !cfg.includeHidden && !m.shown[p] {
			return
		}
		if (sel.Role != "" && m.roles[p] != sel.Role) ||
			(name != "" && int(m.nameLens[p]) != len(name)) ||
			(text != "" && int(m.textLens[p]) != len(text)) ||
			(re != nil && int(m.textLens[p]) < minLen) {
			return
		}
		n := m.nodes[p]
		if n.AriaHidden && !cfg.includeHidden && (sel.Role != "" || sel.Name != "" || sel.Label != "") {
			return // out of the accessibility tree: it has no role, name or label
		}
		if (name != "" && m.name(p) != name) ||
			(text != "" && m.text(p) != text) ||
			(sel.TestID != "" && n.TestID != sel.TestID) ||
			(sel.ID != "" && n.ID != sel.ID) ||
			(sel.Label != "" && !m.labelled(p, sel.Label)) ||
			(sel.Placeholder != "" && n.Placeholder != sel.Placeholder) ||
			(re != nil && !re.MatchString(m.text(p)) && !re.MatchString(n.Text)) {
			return
		}
		out = append(out, p)
	}
	if seed, ok := m.seed(sel); ok {
		for _, p := range clip(seed, lo, hi) {
			test(p)
		}
	} else {
		for p := lo; p < hi; p++ {
			test(p)
		}
	}
	if sel.Text != "" || sel.TextRegex != "" {
		out = m.dropWrappers(out, sel.TextRegex != "")
	}
	return out, nil
}

// labelled reports whether the node at p has the label l: its own label
// (<label>, aria-labelledby, aria-label), or, for a field with no name or
// label of its own, the short text right before it that a person reads as
// its label (AdjacentText: <span>Country</span> <input>).
func (m *Matcher) labelled(p int32, l string) bool {
	n := m.nodes[p]
	if n.Label != "" || n.Name != "" || !IsField(n) {
		return n.Label == l
	}
	return AdjacentText(m, p) == l
}

// seed picks the shortest indexed list that every match must be in, so a
// selector with a test id, an id, a role or an exact text looks at a few
// nodes. Others scan the columns, which are read in order and cost little.
func (m *Matcher) seed(sel *Selector) ([]int32, bool) {
	var best []int32
	found := false
	consider := func(list []int32) {
		if !found || len(list) < len(best) {
			best, found = list, true
		}
	}
	if sel.TestID != "" || sel.ID != "" {
		m.buildLookups()
	}
	if sel.TestID != "" {
		consider(m.byTestID[sel.TestID])
	}
	if sel.ID != "" {
		consider(m.byID[sel.ID])
	}
	if sel.Role != "" {
		consider(m.rolePositions(sel.Role))
	}
	if sel.Text != "" {
		consider(m.textLenPositions(len(StripTextGlyphs(sel.Text))))
	}
	return best, found
}

// dropWrappers removes each match that holds another match with the same
// text: the outer node only wraps the one the text belongs to. For a
// pattern (prefix true), an outer match whose text goes on after the inner
// one's whole text, on a line of its own, wraps it too: the section that
// opens with the form reads "^Shipping\n" only because the form does.
// Matches are in document order, so the nearest enclosing match is on top
// of the stack.
func (m *Matcher) dropWrappers(matches []int32, prefix bool) []int32 {
	if len(matches) < 2 {
		return matches
	}
	wrapper := make([]bool, len(matches))
	stack := make([]int, 0, 8)
	for k, p := range matches {
		for len(stack) > 0 && !m.Inside(p, matches[stack[len(stack)-1]]) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			outer, inner := m.text(matches[top]), m.text(p)
			if outer == inner || prefix && len(outer) > len(inner) && outer[len(inner)] == '\n' && strings.HasPrefix(outer, inner) {
				wrapper[top] = true
			}
		}
		stack = append(stack, k)
	}
	out := matches[:0:0]
	for k, p := range matches {
		if !wrapper[k] {
			out = append(out, p)
		}
	}
	return out
}

// describeNode writes a node the way the ambiguity and not-found messages
// list candidates: ref, role, name and a short text.
func describeNode(n *screen.Node) string {
	s := n.Ref + " " + n.Role
	if n.Name != "" {
		s += fmt.Sprintf(" %q", screen.Clip(n.Name, 40))
	}
	if n.Text != "" && n.Text != n.Name {
		s += fmt.Sprintf(" text %q", screen.Clip(n.Text, 40))
	}
	return s
}
