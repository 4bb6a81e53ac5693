package recorder

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownKey is the category of a key the format does not have (often a
// typo): errors.Is(err, ErrUnknownKey) on an *Error or a List.
var ErrUnknownKey = errors.New("unknown key")

// A TrailError is one problem in a trail file: where it is, which key, what
// is wrong and what to do about it.
type TrailError struct {
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line int
	// Key is the key the problem is about, empty when there is none.
	Key string
	// Msg says what is wrong; Fix what to do about it (may be empty).
	Msg string
	Fix string
	// Err is the category: ErrUnknownKey, ErrLegacyText or ErrInvalidTrail.
	Err error
}

func (e *TrailError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Fix != "" {
		b.WriteString(": ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

func (e *TrailError) Unwrap() error { return e.Err }

// TrailErrors is every problem found in one trail file, in file order. It
// is what LoadTrail returns when a file does not load.
type TrailErrors []*TrailError

func (es TrailErrors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As look at each problem.
func (es TrailErrors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// didYouMean returns the allowed word closest to got, or "" when none is
// close enough to be a likely typo.
func didYouMean(got string, allowed []string) string {
	best, bestDist := "", -1
	for _, a := range allowed {
		if strings.EqualFold(a, got) {
			return a
		}
		d := editDistance(strings.ToLower(got), strings.ToLower(a))
		if bestDist < 0 || d < bestDist {
			best, bestDist = a, d
		}
	}
	// A typo changes a couple of letters; a third of a longer word still
	// reads as the same word.
	limit := max(2, len(got)/3)
	if bestDist >= 0 && bestDist <= limit {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
