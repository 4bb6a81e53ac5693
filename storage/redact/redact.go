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
	// inside finds every value of at least MinInside characters in any of
	// its forms, each in a group of its own, and the whole quoted strings
	// of the shorter values; placeholders already written are matched
	// first and kept.
	inside *regexp.Regexp
	groups []group
	// whole are the shorter values, anchored: the whole text.
	whole []wholeValue
}

type groupKind int

const (
	keepGroup   groupKind = iota // a placeholder already in the text
	valueGroup                   // a value anywhere
	quotedGroup                  // a short value as a whole quoted string: its opening quote
	partGroup                    // the value, closing quote and colon after a quotedGroup
)

type group struct {
	kind        groupKind
	placeholder string
}

type wholeValue struct {
	re          *regexp.Regexp
	placeholder string
}

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
	var alts []string
	keep := map[string]bool{}
	for _, s := range secrets {
		for _, k := range []string{placeholder(s.Name), "${secret:" + s.Name + "}"} {
			if k != "" && !keep[k] {
				keep[k] = true
				alts = append(alts, "("+regexp.QuoteMeta(k)+")")
				r.groups = append(r.groups, group{kind: keepGroup})
			}
		}
	}
	for _, s := range secrets {
		pat, ph := valuePattern(s.Value), placeholder(s.Name)
		if long(s.Value) {
			alts = append(alts, "("+pat+")")
			r.groups = append(r.groups, group{kind: valueGroup, placeholder: ph})
			continue
		}
		r.whole = append(r.whole, wholeValue{re: regexp.MustCompile(`^(?:` + pat + `)$`), placeholder: ph})
		// A JSON key is followed by a colon; it names a field and is
		// kept.
		alts = append(alts, `(`+quote+`)(`+pat+`)(`+quote+`)(\s*:)?`)
		r.groups = append(r.groups, group{kind: quotedGroup, placeholder: ph},
			group{kind: partGroup}, group{kind: partGroup}, group{kind: partGroup})
	}
	r.inside = regexp.MustCompile(strings.Join(alts, "|"))
	return r
}

// quote is a double quote as typed or escaped inside a JSON string (a
// quoted value in a JSON-encoded message).
const quote = `(?:"|\\")`

// String returns s with every secret value replaced by its placeholder.
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	for _, w := range r.whole {
		if w.re.MatchString(s) {
			return w.placeholder
		}
	}
	return string(r.replace([]byte(s)))
}

// Bytes is String for bytes. It returns b itself when nothing changed.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || len(b) == 0 {
		return b
	}
	for _, w := range r.whole {
		if w.re.Match(b) {
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

func (r *Redactor) replace(b []byte) []byte {
	matches := r.inside.FindAllSubmatchIndex(b, -1)
	if len(matches) == 0 {
		return b
	}
	var out bytes.Buffer
	last := 0
	for _, m := range matches {
		g := r.matched(m)
		if g < 0 || r.groups[g].kind == keepGroup {
			continue
		}
		out.Write(b[last:m[0]])
		last = m[1]
		switch r.groups[g].kind {
		case valueGroup:
			out.WriteString(r.groups[g].placeholder)
		case quotedGroup:
			// Submatch g+1 is the opening quote, then the value, the
			// closing quote and the colon of a JSON key, which is kept.
			value, colon := 2*(g+2), 2*(g+4)
			if m[colon] >= 0 {
				out.Write(b[m[0]:m[1]])
				continue
			}
			out.Write(b[m[0]:m[value]])
			out.WriteString(r.groups[g].placeholder)
			out.Write(b[m[value+1]:m[1]])
		}
	}
	out.Write(b[last:])
	return out.Bytes()
}

// matched returns the index in r.groups of the group a match is for.
func (r *Redactor) matched(m []int) int {
	for g := range r.groups {
		if r.groups[g].kind == partGroup {
			continue
		}
		if m[2*(g+1)] >= 0 {
			return g
		}
	}
	return -1
}
