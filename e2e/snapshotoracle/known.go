package snapshotoracle

import (
	"fmt"
	"slices"
	"strings"
)

// A Difference is how one page's snapshot, in one mode, is known to differ
// from Playwright's: the lines only Trailpin writes and the lines only
// Playwright writes, each in page order as a line diff of the two texts
// gives them (indentation included, so a line names its place), and why.
// A test holds a page to its Difference exactly: a new line that differs
// fails it, and so does a listed line that no longer differs.
type Difference struct {
	Trailpin, Playwright []string
	Why                  string
	// Unwrap is a first line of Playwright's text that wraps all the rest
	// only because of the listed lines: a generic it keeps because the
	// lines it alone writes give it a second child (SB Admin 2's body,
	// kept as "- generic [active]:" for the generated content of a hidden
	// link). The lines are compared with that line taken out and what it
	// held moved one level up; Check fails when Playwright's text does not
	// start with it.
	Unwrap string
}

// unwrapped is text without its first line, which must be line, and with
// everything under that line one level up; ok is false when text does not
// start with line.
func unwrapped(text, line string) (string, bool) {
	first, rest, _ := strings.Cut(text, "\n")
	if first != line {
		return text, false
	}
	lines := strings.Split(rest, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "  ") {
			return text, false // a line not under it: it wraps not all
		}
		lines[i] = l[2:]
	}
	return strings.Join(lines, "\n"), true
}

// Diff returns the lines only Trailpin wrote and the lines only Playwright
// wrote: what remains of each text once their longest common sequence of
// lines is taken out.
func (r Result) Diff() (trailpinOnly, playwrightOnly []string) {
	a, b := strings.Split(r.Trailpin, "\n"), strings.Split(r.Playwright, "\n")
	// common[i][j] is the length of the longest common sequence of a[i:]
	// and b[j:].
	common := make([][]int32, len(a)+1)
	for i := range common {
		common[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				common[i][j] = common[i+1][j+1] + 1
			} else {
				common[i][j] = max(common[i+1][j], common[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			i, j = i+1, j+1
		case common[i+1][j] >= common[i][j+1]:
			trailpinOnly = append(trailpinOnly, a[i])
			i++
		default:
			playwrightOnly = append(playwrightOnly, b[j])
			j++
		}
	}
	trailpinOnly = append(trailpinOnly, a[i:]...)
	playwrightOnly = append(playwrightOnly, b[j:]...)
	return trailpinOnly, playwrightOnly
}

// Check reports whether r differs from Playwright's text exactly as known
// says: not at all when known is nil, else by exactly its lines. The error
// says what differs now, written as the Difference that would list it, so a
// reader sees both the change and what a list would have to say.
func Check(r Result, known *Difference) error {
	if known != nil && known.Unwrap != "" {
		text, ok := unwrapped(r.Playwright, known.Unwrap)
		if !ok {
			return fmt.Errorf("%s --mode %s: Playwright's text no longer opens with %q wrapping the rest (%s):\n%s", r.URL, r.Mode, known.Unwrap, known.Why, r)
		}
		r.Playwright = text
	}
	ours, theirs := r.Diff()
	switch {
	case known == nil && r.Equal():
		return nil
	case known == nil:
		return fmt.Errorf("%s --mode %s differs from Playwright:\n%s\n%s", r.URL, r.Mode, diffLiteral(ours, theirs), r)
	case r.Equal():
		return fmt.Errorf("%s --mode %s now matches Playwright: take it out of the known differences (%s)", r.URL, r.Mode, known.Why)
	case slices.Equal(ours, known.Trailpin) && slices.Equal(theirs, known.Playwright):
		return nil
	}
	return fmt.Errorf("%s --mode %s differs from Playwright otherwise than listed (%s); now:\n%s\n%s",
		r.URL, r.Mode, known.Why, diffLiteral(ours, theirs), r)
}

// diffLiteral writes the two line lists as Go, as a Difference holds them.
func diffLiteral(ours, theirs []string) string {
	quote := func(lines []string) string {
		q := make([]string, len(lines))
		for i, l := range lines {
			q[i] = fmt.Sprintf("%q", l)
		}
		return "{" + strings.Join(q, ", ") + "}"
	}
	return fmt.Sprintf("Trailpin: []string%s,\nPlaywright: []string%s,", quote(ours), quote(theirs))
}
