package diagnose

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// The nodes closest to a selector that matched nothing: what a person
// reads first on a failed trail to tell a renamed button from a removed
// one. Each visible element is scored by how much of the selector it
// satisfies: the role, and how similar its name, text, test id, id, label
// and placeholder are to the ones asked for (0..1 each), weighted below and
// averaged over the properties the selector sets.

// Weights of the properties in a node's score: the words a person reads
// (name, text) and the ids a developer sets count most; the role decides
// the kind of control; labels and placeholders are weaker evidence.
const (
	weightRole        = 1.0
	weightName        = 2.0
	weightText        = 2.0
	weightTestID      = 2.0
	weightID          = 1.5
	weightLabel       = 1.5
	weightPlaceholder = 1.0
)

const (
	// closestCount is how many nodes a failure lists.
	closestCount = 5
	// closestMinScore leaves out nodes that share little more than a role
	// with the selector: below it, a list only adds noise.
	closestMinScore = 0.3
	// relatedRoleScore is the role score of a role a person could take for
	// the one asked for (a link styled as a button).
	relatedRoleScore = 0.5
	// outsideScopeFactor lowers the score of a node outside the within
	// scope the selector asked for.
	outsideScopeFactor = 0.8
	// maxCompareRunes bounds the strings compared letter by letter; longer
	// ones (the text of a whole section) are compared by words only.
	maxCompareRunes = 200
	// sameShapeBase is the least similarity of two texts that differ only
	// in their numbers: the same words, so more alike than most other
	// texts; sameShapeGap keeps the nearest numbers below an exact match.
	sameShapeBase = 0.6
	sameShapeGap  = 0.02
	// nearWeight is the share of a node's score that comes from being near
	// the element the trail last acted on: a control that went missing is
	// most often looked for beside the field filled in just before it.
	nearWeight = 0.3
)

// relatedRoles are roles that stand in for each other on real pages.
var relatedRoles = [][]string{
	{"button", "link", "menuitem", "tab"},
	{"textbox", "searchbox", "combobox", "spinbutton"},
	{"checkbox", "switch", "radio", "menuitemcheckbox"},
	{"heading", "paragraph", "generic", "status", "alert"},
}

// A CloseNode is a node that nearly matched a selector.
type CloseNode struct {
	Ref   string
	Line  string  // its snapshot line
	Score float64 // 0..1, higher is closer
	Why   string  // what differs ("name is \"Apply code\", not \"Apply\"")
}

// Closest returns up to closestCount visible elements of s most like what
// sel asks for, best first, each with a score and what differs. An element
// that matches sel but is hidden comes first, with score 1.
func Closest(s *screen.Screen, sel selector.Selector) []CloseNode {
	return ClosestNear(s, sel, "")
}

// ClosestNear is Closest, with part of each score from how near the node
// is to the element of ref (the one the trail last acted on), when the
// screen has it.
func ClosestNear(s *screen.Screen, sel selector.Selector, ref string) []CloseNode {
	if s == nil || s.Root == nil {
		return nil
	}
	near := nearness(s, ref)
	m := selector.NewMatcher(s)
	var out []CloseNode
	hidden := map[string]bool{}
	if nodes, err := m.Match(sel, selector.IncludeHidden()); err == nil || len(nodes) > 0 {
		for _, n := range nodes {
			if !n.Visible {
				hidden[n.Ref] = true
				out = append(out, CloseNode{Ref: n.Ref, Line: NodeLine(n), Score: 1, Why: "matches, but is hidden"})
			}
		}
	}
	var scope map[string]bool
	if sel.Within != nil {
		if nodes, err := m.Match(*sel.Within); err == nil {
			scope = map[string]bool{}
			walkAll(nodes[0], func(n *screen.Node) { scope[n.Ref] = true })
			delete(scope, nodes[0].Ref)
		}
	}
	var re *regexp.Regexp
	if sel.TextRegex != "" {
		re, _ = regexp.Compile(sel.TextRegex)
	}
	order := 0
	type scored struct {
		CloseNode
		order int
	}
	var cands []scored
	walkAll(s.Root, func(n *screen.Node) {
		order++
		if n.Ref == "" || n.IsText() || !n.Visible || hidden[n.Ref] {
			return
		}
		score, why := closeness(n, sel, re)
		if near != nil {
			closeBy := near(n)
			score = (1-nearWeight)*score + nearWeight*closeBy
			if closeBy >= 0.5 {
				why = append(why, "next to where the step last acted")
			}
		}
		if scope != nil && !scope[n.Ref] {
			score *= outsideScopeFactor
			why = append(why, "outside "+sel.Within.String())
		}
		if score >= closestMinScore {
			cands = append(cands, scored{CloseNode{Ref: n.Ref, Line: NodeLine(n), Score: round2(score), Why: strings.Join(why, "; ")}, order})
		}
	})
	slices.SortStableFunc(cands, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.order, b.order))
	})
	for _, c := range cands {
		if len(out) == closestCount {
			break
		}
		out = append(out, c.CloseNode)
	}
	return out
}

// closeness scores n against sel's own properties and says what differs.
func closeness(n *screen.Node, sel selector.Selector, re *regexp.Regexp) (float64, []string) {
	var sum, weights float64
	var why []string
	add := func(w, score float64, differs string) {
		sum += w * score
		weights += w
		if score < 1 && differs != "" {
			why = append(why, differs)
		}
	}
	prop := func(w float64, name, want, got string) {
		if want == "" {
			return
		}
		if got == "" {
			add(w, 0, "has no "+name)
			return
		}
		differs := fmt.Sprintf("%s is %q, not %q", name, screen.Clip(got, 80), want)
		if sameButNumbers(want, got) {
			differs += " (only its numbers differ)"
		}
		add(w, similarity(want, got), differs)
	}
	if sel.Role != "" {
		add(weightRole, roleScore(sel.Role, n.Role), fmt.Sprintf("role is %s, not %s", orGeneric(n.Role), sel.Role))
	}
	prop(weightName, "name", sel.Name, n.Name)
	switch {
	case sel.Text != "":
		// Texts are compared as the matcher compares them: without
		// icon-font glyphs.
		if text := selector.StripTextGlyphs(n.Text); len(text) > 4*len(sel.Text)+40 {
			add(weightText, 0, "") // a container of much more text is not a near miss
		} else {
			prop(weightText, "text", sel.Text, text)
		}
	case re != nil:
		score := 0.0
		if re.MatchString(n.Text) {
			score = 1
		}
		add(weightText, score, fmt.Sprintf("text %q does not match /%s/", screen.Clip(n.Text, 80), sel.TextRegex))
	}
	prop(weightTestID, "testId", sel.TestID, n.TestID)
	prop(weightID, "id", sel.ID, n.ID)
	prop(weightLabel, "label", sel.Label, n.Label)
	prop(weightPlaceholder, "placeholder", sel.Placeholder, n.Placeholder)
	if weights == 0 {
		return 0, nil
	}
	return sum / weights, why
}

// nearness returns, for the element of ref on s, how near another node is
// to it: 1 for the element itself, 1/(1+k) when their closest common
// ancestor is k levels above it. Nil when s has no element ref.
func nearness(s *screen.Screen, ref string) func(*screen.Node) float64 {
	if ref == "" {
		return nil
	}
	parent := map[*screen.Node]*screen.Node{}
	var target *screen.Node
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		if n.Ref == ref {
			target = n
		}
		for _, c := range n.Children {
			parent[c] = n
			walk(c)
		}
	}
	walk(s.Root)
	if target == nil {
		return nil
	}
	up := map[*screen.Node]int{} // ancestors of the target, by levels above it
	for n, k := target, 0; n != nil; n, k = parent[n], k+1 {
		up[n] = k
	}
	return func(n *screen.Node) float64 {
		for a := n; a != nil; a = parent[a] {
			if k, ok := up[a]; ok {
				return 1 / float64(1+k)
			}
		}
		return 0
	}
}

func roleScore(want, got string) float64 {
	if want == got {
		return 1
	}
	for _, group := range relatedRoles {
		if slices.Contains(group, want) && slices.Contains(group, got) {
			return relatedRoleScore
		}
	}
	return 0
}

func orGeneric(role string) string {
	if role == "" {
		return "generic"
	}
	return role
}

// similarity says how alike two strings read, from 0 to 1, ignoring case
// and spacing: the best of their letter-by-letter likeness (edit
// distance), their shared words, and one containing the other. Two texts
// that differ only in their numbers ("$829.00" for "$799.00") score by how
// near the numbers are, not by their digits: $999.00 shares more digits
// with $799.00 than $829.00 does, but is further from it.
func similarity(a, b string) float64 {
	if sameButNumbers(a, b) {
		return sameShapeBase + (1-sameShapeBase-sameShapeGap)*(1-numberDistance(a, b))
	}
	a, b = normalizeWords(a), normalizeWords(b)
	if a == b {
		return 1
	}
	if a == "" || b == "" {
		return 0
	}
	best := wordOverlap(a, b)
	ra, rb := []rune(a), []rune(b)
	if len(ra) <= maxCompareRunes && len(rb) <= maxCompareRunes {
		best = max(best, 1-float64(editDistance(ra, rb))/float64(max(len(ra), len(rb))))
	}
	if strings.Contains(a, b) || strings.Contains(b, a) {
		short, long := min(len(ra), len(rb)), max(len(ra), len(rb))
		best = max(best, 0.5+0.4*float64(short)/float64(long))
	}
	return best
}

func normalizeWords(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return unicode.IsSpace(r) || (unicode.IsPunct(r) && r != '$' && r != '.' && r != ',')
	}), " ")
}

// wordOverlap is the Jaccard index of the two strings' words.
func wordOverlap(a, b string) float64 {
	wa, wb := strings.Fields(a), strings.Fields(b)
	set := map[string]int{}
	for _, w := range wa {
		set[w] |= 1
	}
	for _, w := range wb {
		set[w] |= 2
	}
	both := 0
	for _, v := range set {
		if v == 3 {
			both++
		}
	}
	return float64(both) / float64(len(set))
}

// editDistance is the Levenshtein distance of two rune strings.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

// walkAll calls fn for every node below and including n, parents first.
func walkAll(n *screen.Node, fn func(*screen.Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Children {
		walkAll(c, fn)
	}
}
