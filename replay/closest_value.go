package replay

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// A changed value: a selector that pins a text with a number in it (a
// price, a count, a total) matched nothing, and the page shows the same
// text with other numbers in the place where the step was looking. That is
// the app showing another value — an app-bug with expected vs actual — not
// the page changing under the trail.

// numberPattern matches a number as pages write it: digits with thousands
// separators and decimals (1,099.00; 1.099,00; 1 099,00 with a no-break
// space). A plain space is no separator: "iPhone 17 2 items" holds two.
var numberPattern = regexp.MustCompile(`\d+(?:[.,\x{00a0}\x{202f}]\d+)*`)

// withoutNumbers is a text's words with each number set aside as #.
func withoutNumbers(s string) string {
	return normalizeWords(numberPattern.ReplaceAllString(s, "#"))
}

// sameButNumbers reports whether want (which has a number) and got read
// the same once their numbers are set aside, and differ in them.
func sameButNumbers(want, got string) bool {
	if !numberPattern.MatchString(want) || normalizeWords(want) == normalizeWords(got) {
		return false
	}
	return withoutNumbers(want) == withoutNumbers(got)
}

// numberDistance is how far apart the numbers of two texts of the same
// shape are, from 0 (the same) to 1: for the pair of numbers furthest
// apart, their difference over the larger of the two. Separators are left
// out, so 1,099.00 and 799.00 compare as 109900 and 79900.
func numberDistance(a, b string) float64 {
	na, nb := numberPattern.FindAllString(a, -1), numberPattern.FindAllString(b, -1)
	if len(na) != len(nb) {
		return 1
	}
	worst := 0.0
	for i := range na {
		x, y := digitsValue(na[i]), digitsValue(nb[i])
		if x == y {
			continue
		}
		worst = max(worst, math.Abs(x-y)/max(x, y))
	}
	return worst
}

func digitsValue(s string) float64 {
	v, err := strconv.ParseFloat(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s), 64)
	if err != nil {
		return 0
	}
	return v
}

// changedValueFactor is how much nearer in value the best candidate must
// be than any other candidate as near to where the step last acted, for it
// to be clearly the one: its numbers at most half as far from the expected
// ones.
const changedValueFactor = 0.5

// changedValue returns the element of s that shows the text sel pins with
// other numbers, when it is clearly the element sel meant; nil otherwise.
// It must be the best of the closest nodes (closestNear's ranking, which
// counts how near a node is to ref, where the step last acted), read the
// same as sel.Text once numbers are set aside, and have whatever else sel
// asks for (a role, a scope, a test id). Clearly means that every other
// element that could be it (the same but numbers, what else sel asks for;
// not an element around it or inside it, such as a wrapper of the same
// text) is further from
// ref in the page's structure, or as far and with numbers at least twice
// as far from the expected ones. A text whose words changed is no changed
// value: the page changed under the trail (selector-drift).
func changedValue(s *screen.Screen, sel selector.Selector, ref string) *screen.Node {
	if s == nil || s.Root == nil || sel.Text == "" || !numberPattern.MatchString(sel.Text) {
		return nil
	}
	ranked := closestNear(s, sel, ref)
	if len(ranked) == 0 {
		return nil
	}
	parent := map[*screen.Node]*screen.Node{}
	byRef := map[string]*screen.Node{}
	var index func(n *screen.Node)
	index = func(n *screen.Node) {
		if n.Ref != "" {
			byRef[n.Ref] = n
		}
		for _, c := range n.Children {
			parent[c] = n
			index(c)
		}
	}
	index(s.Root)

	// The rest of what sel asks for, which a candidate must have.
	m := selector.NewMatcher(s)
	var allowed, scope map[string]bool
	own := sel
	own.Text, own.TextRegex, own.Index, own.Within = "", "", nil, nil
	if own != (selector.Selector{}) {
		allowed = map[string]bool{}
		nodes, _ := m.Match(own) // all of them, also when ambiguous
		for _, n := range nodes {
			allowed[n.Ref] = true
		}
	}
	if sel.Within != nil {
		scope = map[string]bool{}
		if nodes, err := m.Match(*sel.Within); err == nil {
			walkAll(nodes[0], func(n *screen.Node) { scope[n.Ref] = true })
		}
	}
	candidate := func(n *screen.Node) bool {
		return n.Ref != "" && n.Visible && !n.IsText() && sameButNumbers(sel.Text, n.Text) &&
			(allowed == nil || allowed[n.Ref]) && (scope == nil || scope[n.Ref])
	}
	best := byRef[ranked[0].Ref]
	if best == nil || !candidate(best) {
		return nil
	}
	related := func(a, b *screen.Node) bool { // one holds the other
		for n := a; n != nil; n = parent[n] {
			if n == b {
				return true
			}
		}
		for n := b; n != nil; n = parent[n] {
			if n == a {
				return true
			}
		}
		return false
	}
	near := nearness(s, ref)
	if near == nil {
		near = func(*screen.Node) float64 { return 0 }
	}
	bestNear, bestDist := near(best), numberDistance(sel.Text, best.Text)
	clear := true
	walkAll(s.Root, func(n *screen.Node) {
		if !clear || n == best || !candidate(n) || related(n, best) {
			return
		}
		switch nn := near(n); {
		case nn > bestNear:
			clear = false
		case nn == bestNear && bestDist > changedValueFactor*numberDistance(sel.Text, n.Text):
			clear = false
		}
	})
	if !clear {
		return nil
	}
	return best
}

// describeChanged names the element of a changed value in a message.
func describeChanged(n *screen.Node) string {
	return strings.TrimPrefix(strings.SplitN(nodeLine(n), ":", 2)[0], "- ")
}
