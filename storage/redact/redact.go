package redact

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
)

// A Secret is a value to hide and the name its placeholder shows.
type Secret struct {
	Name  string
	Value string
}

// A Redactor replaces secret values in text. The nil Redactor, returned
// when there is nothing to hide, returns its input unchanged. A Redactor is
// safe for concurrent use.
type Redactor struct {
	// rules find the values, longest first; keep are the placeholders and
	// references already in a text, left as they are.
	rules []rule
	keep  [][]byte
	// whole are the values shorter than MinInside, anchored: the whole text.
	whole []wholeValue
}

// A rule finds one value in the text.
type rule struct {
	// re matches the value in any of its forms; for a short value, the
	// value as a whole quoted string (submatch 1) followed, for a JSON key,
	// by its colon (submatch 2).
	re     *regexp.Regexp
	quoted bool
	// anchor is the longest run of the value's ASCII letters and digits,
	// which every form holds as typed: the text is searched for it first,
	// and re runs only around it, within before and after bytes. nil when
	// the value has no letter or digit; then re runs over the whole text.
	anchor        []byte
	before, after int
	// opens and closes: the anchor starts (ends) the value, so in a
	// quoted rule a quote must come right before (after) it.
	opens, closes bool
	placeholder   string
}

type wholeValue struct {
	re          *regexp.Regexp
	maxLen      int
	placeholder string
}

// maxRuneBytes bounds how many bytes one character of a value takes in any
// form valuePattern matches (a JSON surrogate pair is 12, a four-byte
// character URL-encoded 12, a character reference after a JSON-escaped &
// at most 19).
const maxRuneBytes = 24

// quoteBytes bounds a quote around a short value (\") and colonBytes the
// colon after a JSON key with the spaces before it.
const (
	quoteBytes = 2
	colonBytes = 9
)

// New returns a Redactor hiding each secret's value behind
// placeholder(name). Empty values are ignored; values of MinInside
// characters or more are replaced wherever they show, longer ones first (so
// a value holding another is replaced whole); shorter ones only where they
// are a whole value. Placeholders, and ${secret:NAME} references to the
// secrets, are left as they are when the text holds them already, so
// redacting twice changes nothing. It returns nil when there is nothing to
// hide.
func New(secrets []Secret, placeholder func(name string) string) *Redactor {
	if disabled {
		return nil
	}
	secrets = slices.DeleteFunc(slices.Clone(secrets), func(s Secret) bool { return s.Value == "" })
	if len(secrets) == 0 {
		return nil
	}
	slices.SortStableFunc(secrets, func(a, b Secret) int {
		return cmp.Or(cmp.Compare(len(b.Value), len(a.Value)), strings.Compare(a.Value, b.Value))
	})
	r := &Redactor{}
	seen := map[string]bool{}
	for _, s := range secrets {
		for _, k := range []string{placeholder(s.Name), "${secret:" + s.Name + "}"} {
			if k != "" && !seen[k] {
				seen[k] = true
				r.keep = append(r.keep, []byte(k))
			}
		}
	}
	for _, s := range secrets {
		pat, ph := valuePattern(s.Value), placeholder(s.Name)
		ru := rule{placeholder: ph}
		ru.anchor, ru.before, ru.after = anchorOf(s.Value)
		ru.opens, ru.closes = ru.anchor != nil && ru.before == 0, ru.anchor != nil && ru.after == 0
		if long(s.Value) {
			ru.re = regexp.MustCompile(pat)
		} else {
			n := len([]rune(s.Value))
			r.whole = append(r.whole, wholeValue{re: regexp.MustCompile(`^(?:` + pat + `)$`), maxLen: n * maxRuneBytes, placeholder: ph})
			// A JSON key is followed by a colon; it names a field and is
			// kept.
			ru.re = regexp.MustCompile(quote + `(` + pat + `)` + quote + `([ \t\r\n]{0,8}:)?`)
			ru.quoted, ru.before, ru.after = true, ru.before+quoteBytes, ru.after+quoteBytes+colonBytes
		}
		// The longest form at a place: "%25" is one %, not a % and "25".
		ru.re.Longest()
		r.rules = append(r.rules, ru)
	}
	return r
}

// anchorOf returns the longest run of ASCII letters and digits in value
// and the most bytes its forms can take before and after that run.
func anchorOf(value string) (anchor []byte, before, after int) {
	runes := []rune(value)
	best, bestLen := -1, 0
	for i := 0; i < len(runes); {
		if !alnumRune(runes[i]) {
			i++
			continue
		}
		j := i
		for j < len(runes) && alnumRune(runes[j]) {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	if best < 0 {
		return nil, 0, 0
	}
	return []byte(string(runes[best : best+bestLen])), best * maxRuneBytes, (len(runes) - best - bestLen) * maxRuneBytes
}

func alnumRune(r rune) bool {
	return r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// quote is a double quote as typed or escaped inside a JSON string (a
// quoted value in a JSON-encoded message).
const quote = `(?:"|\\")`

// String returns s with every secret value replaced by its placeholder.
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	return string(r.Bytes([]byte(s)))
}

// Bytes is String for bytes. It returns b itself when nothing changed.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || len(b) == 0 {
		return b
	}
	for _, w := range r.whole {
		if len(b) <= w.maxLen && w.re.Match(b) {
			return []byte(w.placeholder)
		}
	}
	return r.replace(b)
}

// ErrBrokeJSON is returned by JSON when a secret's value matched part of
// the JSON syntax, so that replacing it would break the document.
var ErrBrokeJSON = errors.New("not valid JSON after redacting secrets; a secret's value probably matched part of the JSON syntax (use a longer secret)")

// JSON redacts a JSON document (a stored payload or screen, a model
// request's body) and checks it is still JSON: a document the redaction
// broke is refused with ErrBrokeJSON rather than sent or stored mangled.
// The agent calls it on every model request body before it is sent.
func (r *Redactor) JSON(b []byte) ([]byte, error) {
	out := r.Bytes(b)
	if !bytes.Equal(out, b) && !json.Valid(out) {
		return nil, ErrBrokeJSON
	}
	return out, nil
}

// A span is one place a rule (or a placeholder to keep, rule -1) matched.
type span struct {
	start, end int
	rule       int
	// key is set when a short value's quotes were a JSON key's: the
	// value names a field and is kept.
	key bool
}

func (r *Redactor) replace(b []byte) []byte {
	var spans []span
	for _, k := range r.keep {
		for off := 0; ; {
			i := bytes.Index(b[off:], k)
			if i < 0 {
				break
			}
			spans = append(spans, span{start: off + i, end: off + i + len(k), rule: -1})
			off += i + len(k)
		}
	}
	for i := range r.rules {
		spans = r.rules[i].find(b, i, spans)
	}
	if !hasValue(spans) {
		return b
	}
	// Leftmost first; at one place a placeholder already there, then the
	// longest value (rules are longest first), then the longest match.
	slices.SortFunc(spans, func(x, y span) int {
		return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.rule, y.rule), cmp.Compare(y.end, x.end))
	})
	var out bytes.Buffer
	last := 0
	for _, s := range spans {
		if s.start < last {
			continue
		}
		out.Write(b[last:s.start])
		last = s.end
		switch {
		case s.rule < 0 || s.key:
			out.Write(b[s.start:s.end])
		default:
			out.WriteString(r.rules[s.rule].placeholder)
		}
	}
	out.Write(b[last:])
	return out.Bytes()
}

func hasValue(spans []span) bool {
	return slices.ContainsFunc(spans, func(s span) bool { return s.rule >= 0 && !s.key })
}

// find appends the places rule i matches in b: around each occurrence of
// its anchor, or anywhere when it has none. When the windows around the
// occurrences would add up to more than the text, the expression runs once
// over the stretch that holds them instead, so the work stays linear in the
// text however often the anchor occurs.
func (ru *rule) find(b []byte, i int, spans []span) []span {
	add := func(m []int) {
		s := span{start: m[0], end: m[1], rule: i}
		if ru.quoted {
			// The span is the value alone: its quotes stay as they are,
			// and a closing quote may open the next quoted value.
			s.start, s.end, s.key = m[2], m[3], m[4] >= 0
		}
		spans = append(spans, s)
	}
	all := func(lo, hi int) {
		for _, m := range ru.matches(b, lo, hi) {
			add(m)
		}
	}
	if ru.anchor == nil {
		all(0, len(b))
		return spans
	}
	var at []int
	for off := 0; ; {
		j := bytes.Index(b[off:], ru.anchor)
		if j < 0 {
			break
		}
		if ru.mayBeQuoted(b, off+j) {
			at = append(at, off+j)
		}
		off += j + 1
	}
	if len(at) == 0 {
		return spans
	}
	window := ru.before + len(ru.anchor) + ru.after
	if len(at)*window > len(b) {
		all(max(0, at[0]-ru.before), min(len(b), at[len(at)-1]+len(ru.anchor)+ru.after))
		return spans
	}
	covered := -1 // the end of the last match added: later anchors inside it are done
	for _, a := range at {
		if a < covered {
			continue
		}
		lo, hi := max(0, a-ru.before), min(len(b), a+len(ru.anchor)+ru.after)
		for _, m := range ru.matches(b, lo, hi) {
			if m[0] <= a && a+len(ru.anchor) <= m[1] {
				add(m)
				covered = m[1]
				if ru.quoted {
					covered = m[3]
				}
				break
			}
		}
	}
	return spans
}

// matches returns the places ru's expression matches in b[lo:hi], as
// offsets into b. A quoted short value's matches may share a quote (in
// "x"x" both x are quoted), so the search for the next one starts at the
// end of the value, not of its closing quote: otherwise the second would be
// found only once the first was replaced, and redacting twice would differ.
func (ru *rule) matches(b []byte, lo, hi int) [][]int {
	if !ru.quoted {
		ms := ru.re.FindAllSubmatchIndex(b[lo:hi], -1)
		for _, m := range ms {
			for k := range m {
				if m[k] >= 0 {
					m[k] += lo
				}
			}
		}
		return ms
	}
	var ms [][]int
	for from := lo; from < hi; {
		m := ru.re.FindSubmatchIndex(b[from:hi])
		if m == nil {
			break
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += from
			}
		}
		ms = append(ms, m)
		from = m[3] // past the value, which is never empty
	}
	return ms
}

// mayBeQuoted is a quick test, before the regular expression, that the
// anchor at b[at:] can be part of a quoted short value: a value it starts
// or ends needs a quote right beside it (", or \" after it).
func (ru *rule) mayBeQuoted(b []byte, at int) bool {
	if !ru.quoted {
		return true
	}
	if ru.opens && (at == 0 || b[at-1] != '"') {
		return false
	}
	end := at + len(ru.anchor)
	return !ru.closes || (end < len(b) && (b[end] == '"' || b[end] == '\\'))
}
