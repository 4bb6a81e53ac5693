package diagnose

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

// ChangedValue returns the element of s that shows the text sel pins with
// other numbers, when it is clearly the element sel meant; nil otherwise.
// It must be the best of the closest nodes (ClosestNear's ranking, which
// counts how near a node is to ref, where the step last acted), read the
// same as sel.Text once numbers are set aside, and have whatever else sel
// asks for (a role, a scope, a test id). Clearly means that every other
// element that could be it (the same but numbers, what else sel asks for;
// not an element around it or inside it, such as a wrapper of the same
// text) is further from
// ref in the page's structure, or as far and with numbers at least twice
// as far from the expected ones. A text whose words changed is ChangedWords'.
func ChangedValue(s *screen.Screen, sel selector.Selector, ref string) *screen.Node {
	if s == nil || s.Root == nil || sel.Text == "" || !numberPattern.MatchString(sel.Text) {
		return nil
	}
	return inPlace(s, sel, ref, true, changedValueFactor,
		func(text string) bool { return sameButNumbers(sel.Text, text) },
		func(text string) float64 { return numberDistance(sel.Text, text) })
}

// A text reworded in its place keeps most of what it said: most of its
// words ("Your form has been received!" for "…submitted!"), or most of its
// letters ("Welcomf Back!" for "Welcome Back!", "Cardt" for "Cards"). Not
// "Total" for "Grand total", nor "Failed" for "Saved": they say too little
// alike to tell a changed text from another element.
const (
	// changedWordsShare is the least share of the words kept.
	changedWordsShare = 0.6
	// changedLettersShare is the least share of the letters kept (one
	// less edit than the length, over the length, for a short word).
	changedLettersShare = 0.7
	// changedWordsFactor is how much nearer in text the best candidate
	// must be than any other as near to where the step acted: kept words
	// and letters vary less than numbers do, so a quarter nearer is clear.
	changedWordsFactor = 0.75
)

// ChangedWords returns the element of s that shows the text sel pins
// reworded, when it is clearly the element sel meant (as ChangedValue
// decides it): a message reworded in its place is the app showing
// something else, an app-bug with expected vs actual.
func ChangedWords(s *screen.Screen, sel selector.Selector, ref string) *screen.Node {
	if s == nil || s.Root == nil || sel.Text == "" {
		return nil
	}
	lines := strings.Count(sel.Text, "\n")
	same := func(text string) bool {
		if text == sel.Text || strings.Count(text, "\n") != lines {
			return false
		}
		words, letters := rewordedShares(sel.Text, text)
		return words >= changedWordsShare || letters >= changedLettersShare
	}
	return inPlace(s, sel, ref, false, changedWordsFactor, same, func(text string) float64 {
		words, letters := rewordedShares(sel.Text, text)
		return 1 - max(words, letters)
	})
}

// rewordedShares is how much of want got keeps: the share of its words,
// and of its letters (case aside; 0 for texts too long to compare so).
func rewordedShares(want, got string) (words, letters float64) {
	words = wordShare(normalizeWords(want), normalizeWords(got))
	a, b := []rune(strings.ToLower(want)), []rune(strings.ToLower(got))
	if n := max(len(a), len(b)); n > 0 && n <= maxCompareRunes {
		letters = 1 - float64(editDistance(a, b))/float64(n)
	}
	return words, letters
}

// wordShare is the share of the longer of two texts' words that both have.
func wordShare(a, b string) float64 {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	in := map[string]int{}
	for _, w := range wa {
		in[w]++
	}
	both := 0
	for _, w := range wb {
		if in[w] > 0 {
			in[w]--
			both++
		}
	}
	return float64(both) / float64(max(len(wa), len(wb)))
}

// inPlace returns the element of s that shows, in the place of the text
// sel pins, a text that same accepts, when it is clearly the one sel meant
// (see ChangedValue, with factor for changedValueFactor); dist says how
// far a text is from the expected one. With closestFirst it must be the
// first of the closest nodes; else it is the candidate nearest to ref,
// then nearest in text.
func inPlace(s *screen.Screen, sel selector.Selector, ref string, closestFirst bool, factor float64, same func(string) bool, dist func(string) float64) *screen.Node {
	var ranked []CloseNode
	if closestFirst {
		if ranked = ClosestNear(s, sel, ref); len(ranked) == 0 {
			return nil
		}
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
		return n.Ref != "" && n.Visible && !n.IsText() && same(selector.StripTextGlyphs(n.Text)) &&
			(allowed == nil || allowed[n.Ref]) && (scope == nil || scope[n.Ref])
	}
	near := nearness(s, ref)
	if near == nil {
		near = func(*screen.Node) float64 { return 0 }
	}
	var best *screen.Node
	if closestFirst {
		best = byRef[ranked[0].Ref]
	} else {
		walkAll(s.Root, func(n *screen.Node) {
			if candidate(n) && (best == nil || near(n) > near(best) || near(n) == near(best) && dist(selector.StripTextGlyphs(n.Text)) < dist(selector.StripTextGlyphs(best.Text))) {
				best = n
			}
		})
	}
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
	bestNear, bestDist := near(best), dist(selector.StripTextGlyphs(best.Text))
	clear := true
	walkAll(s.Root, func(n *screen.Node) {
		if !clear || n == best || !candidate(n) || related(n, best) {
			return
		}
		switch nn := near(n); {
		case nn > bestNear:
			clear = false
		case nn == bestNear && bestDist > factor*dist(selector.StripTextGlyphs(n.Text)):
			clear = false
		}
	})
	if !clear {
		return nil
	}
	return best
}

// DescribeChanged names the element of a changed value in a message.
func DescribeChanged(n *screen.Node) string {
	return strings.TrimPrefix(strings.SplitN(NodeLine(n), ":", 2)[0], "- ")
}
