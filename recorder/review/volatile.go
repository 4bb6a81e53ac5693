package review

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Volatile text is text that differs between runs of the same app: a price,
// a date, a time, a count, an order number, anything with digits that
// changed while the session was recorded. A selector that pins it breaks on
// the next run unless the step is about that very value.

// A VolatileKind says what kind of changing text a fragment is, in the words
// an option's description uses ("fails when the price changes").
type VolatileKind string

const (
	VolatilePrice    VolatileKind = "price"
	VolatileDate     VolatileKind = "date"
	VolatileTime     VolatileKind = "time"
	VolatileCount    VolatileKind = "count"
	VolatileNumber   VolatileKind = "number"
	VolatileChanging VolatileKind = "changing text"
	// VolatileGeneratedID is an id or test id a framework or a build made
	// up (selector.LooksGenerated): it changes between builds.
	VolatileGeneratedID VolatileKind = "generated id"
)

// A Volatile is one fragment of an element's text (or name) that is likely
// to change, and what kind it is.
type Volatile struct {
	Kind     VolatileKind `json:"kind"`
	Fragment string       `json:"fragment"`
}

// volatilePatterns find volatile fragments in a text, most specific first:
// a fragment already claimed by an earlier pattern is not claimed again.
var volatilePatterns = []struct {
	kind VolatileKind
	re   *regexp.Regexp
}{
	// Relative times read as times: "5 minutes ago", "just now".
	{VolatileTime, regexp.MustCompile(`(?i)\b(?:\d+|an?|one)\s*(?:s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|days?|w|weeks?|months?|years?)\s+ago\b|\bjust now\b|\byesterday\b|\btoday\b`)},
	{VolatileTime, regexp.MustCompile(`(?i)\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?`)},
	{VolatileDate, regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b`)},
	{VolatileDate, regexp.MustCompile(`(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(?:,?\s+\d{4})?\b`)},
	{VolatilePrice, regexp.MustCompile(`(?:[$€£¥₹]\s?-?\d[\d,.]*\d|[$€£¥₹]\s?\d)|\b\d[\d,.]*\s?(?:€|(?:kr|USD|EUR|GBP|NOK|SEK|CHF)\b)|\b(?:USD|EUR|GBP|NOK|SEK|CHF)\s?\d[\d,.]*\b`)},
	{VolatileDate, regexp.MustCompile(`\b(?:19|20)\d{2}\b`)},
	{VolatileNumber, regexp.MustCompile(`#\s?\d+\b|\b[Nn]o\.\s?\d+\b|\b\d{4,}\b`)},
	// A number before a lower-case word is a count ("2 items", "3 new
	// messages", "3 left"); a number between parentheses or after × is a
	// count too. "iPhone 17 Pro" and "Step 2 of 3" are not counts.
	{VolatileCount, regexp.MustCompile(`\(\s*\d+(?:\s+[A-Za-z]+)?\s*\)|×\s?\d+|\b\d+\s+(?:[a-z]+\s+)?(?:items?|messages?|notifications?|results?|comments?|left|more|orders?|products?|files?|people|members?|issues?|tasks?|likes?|views?|repl(?:y|ies)|reviews?|unread|selected|new|in stock|pending|open|closed|errors?|warnings?|alerts?|updates?|changes?|followers?|stars?|days? left)\b`)},
}

// findVolatile lists the volatile fragments of text in the order they
// appear. A text that is a number alone ("3" in a cart badge) is a count.
func findVolatile(text string) []Volatile {
	if t := strings.TrimSpace(text); t != "" && strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return []Volatile{{Kind: VolatileCount, Fragment: t}}
	}
	type hit struct {
		at int
		v  Volatile
	}
	var hits []hit
	taken := make([]bool, len(text))
	for _, p := range volatilePatterns {
		for _, loc := range p.re.FindAllStringIndex(text, -1) {
			if slices.Contains(taken[loc[0]:loc[1]], true) {
				continue
			}
			for i := loc[0]; i < loc[1]; i++ {
				taken[i] = true
			}
			hits = append(hits, hit{loc[0], Volatile{Kind: p.kind, Fragment: strings.TrimSpace(text[loc[0]:loc[1]])}})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.at - b.at })
	out := make([]Volatile, len(hits))
	for i, h := range hits {
		out[i] = h.v
	}
	return out
}

// changedWords lists the words of text that another screen of the session
// shows differently (the element's text there is in others), a run of
// them side by side as one: "Updated 10:42" against "Updated 10:43" gives
// 10:42, and "Status: Pending review" against "Status: Paid" gives "Pending
// review". A word without digits counts as well: the session saw it change,
// so it changes between runs too, and whether the step is about it is the
// intent's to say (it names "pending", or it does not). A word with neither
// letter nor digit (an icon glyph turning from ▸ to ▾) is not text a
// person reads. A word skip reports true for (one a pattern already found)
// ends a run and is left out.
func changedWords(text string, others []string, skip func(w string) bool) []string {
	var out []string
	add := func(run []string) {
		f := strings.Trim(strings.Join(run, " "), ".,;:!?()")
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, o := range others {
		if o == text {
			continue
		}
		theirs := strings.Fields(o)
		var run []string
		for _, w := range strings.Fields(text) {
			if !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
				continue // a glyph neither ends nor joins a run
			}
			if slices.Contains(theirs, w) || skip(w) {
				add(run)
				run = nil
				continue
			}
			run = append(run, w)
		}
		add(run)
	}
	return out
}

// volatileOf lists what is volatile in an element's text: the fragments the
// patterns find, and the words that differ between the session's screens
// (VolatileChanging), with digits or not, where no pattern covers them.
func volatileOf(text string, others []string) []Volatile {
	out := findVolatile(text)
	covered := func(w string) bool {
		w = strings.Trim(w, ".,;:!?()")
		return slices.ContainsFunc(out, func(v Volatile) bool {
			return strings.Contains(v.Fragment, w) || strings.Contains(w, v.Fragment)
		})
	}
	for _, w := range changedWords(text, others, covered) {
		out = append(out, Volatile{Kind: VolatileChanging, Fragment: w})
	}
	return out
}
