package yamlerr

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownKey is the category of a key the format does not have (often a
// typo): errors.Is(err, ErrUnknownKey) holds for an *Error or a List with it.
var ErrUnknownKey = errors.New("unknown key")

// An Error is one problem in a YAML file: where it is, which key, what is
// wrong and what to do about it. It reads as
//
//	file:line: path: msg: fix
//
// leaving out the line when it is 0, and the path and the fix when empty.
type Error struct {
	// File is the file as the reader was given it (or "environment", for a
	// setting that came from a variable).
	File string
	// Line is 1-based; 0 when the problem concerns the whole file.
	Line int
	// Key is the key the problem is about, empty when there is none.
	Key string
	// Path, when set, says where in the file's tree the problem is, in
	// dotted form (apps.shop.baseURL); formats whose messages already name
	// the place leave it empty.
	Path string
	// Msg says what is wrong; Fix what to do about it (may be empty).
	Msg string
	Fix string
	// Err is the category, for errors.Is: ErrUnknownKey, or one the format
	// defines (trail.ErrInvalidTrail, for one).
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if e.Fix != "" {
		b.WriteString(": ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// A List is every problem found in one file, in file order: what a strict
// reader returns when a file does not load (trail.LoadTrail does).
type List []*Error

func (es List) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As look at each problem.
func (es List) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// DidYouMean returns the allowed word closest to got, or "" when none is
// close enough to be a likely typo.
func DidYouMean(got string, allowed []string) string {
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
