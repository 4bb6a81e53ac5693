package trail

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// RefKind is the kind of a ${kind:name} reference in a trail.
type RefKind string

const (
	// RefSecret is ${secret:NAME}: a value from TRAILPIN_SECRET_NAME or the
	// project config, never written into a trail.
	RefSecret RefKind = "secret"
	// RefParam is ${param:name}: a value declared under params:.
	RefParam RefKind = "param"
	// RefUser is ${user:NAME.username} or ${user:NAME.password}: a
	// credential from the project config.
	RefUser RefKind = "user"
)

var refKinds = []string{string(RefSecret), string(RefParam), string(RefUser)}

// UserFields are the fields a ${user:NAME.FIELD} reference can name.
var UserFields = []string{"username", "password"}

// A Ref is one ${kind:name} reference. For RefUser, Name is "NAME.FIELD".
type Ref struct {
	Kind RefKind
	Name string
}

func (r Ref) String() string { return "${" + string(r.Kind) + ":" + r.Name + "}" }

// IsSecret reports whether the reference stands for a secret value: a
// ${secret:…} or a user's password. Secret references may only be typed.
func (r Ref) IsSecret() bool {
	return r.Kind == RefSecret || (r.Kind == RefUser && strings.HasSuffix(r.Name, ".password"))
}

// refNamePattern is what may stand between "kind:" and "}": names as people
// write them in config keys and environment variables.
var refNamePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// A RefError is a malformed reference in a string.
type RefError struct {
	// Ref is the text of the reference as written.
	Ref string
	Msg string
}

func (e *RefError) Error() string { return fmt.Sprintf("reference %q: %s", e.Ref, e.Msg) }

// ParseRefs returns the references in s, in order. "$${" stands for a
// literal "${" and is not a reference; a "$" not followed by "{" is plain
// text. A "${" that does not form a valid reference is an error.
func ParseRefs(s string) ([]Ref, error) {
	var refs []Ref
	_, err := expandRefs(s, func(r Ref) (string, error) {
		refs = append(refs, r)
		return "", nil
	})
	return refs, err
}

// ExpandRefs returns s with each reference replaced by what lookup returns
// for it and each "$${" by "${". Replay calls it at the last moment, so
// secret values live only in memory.
func ExpandRefs(s string, lookup func(Ref) (string, error)) (string, error) {
	return expandRefs(s, lookup)
}

// EscapeRefs returns s with every "${" written as "$${", so text a person
// typed that happens to contain "${" stays literal in a trail.
func EscapeRefs(s string) string {
	return strings.ReplaceAll(s, "${", "$${")
}

func expandRefs(s string, lookup func(Ref) (string, error)) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			b.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return "", &RefError{Ref: s[i:], Msg: `has no closing "}"; write "$${" for a literal "${"`}
			}
			raw := s[i : i+end+1]
			r, err := parseRef(raw)
			if err != nil {
				return "", err
			}
			v, err := lookup(r)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i += end + 1
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), nil
}

// parseRef parses "${kind:name}".
func parseRef(raw string) (Ref, error) {
	inner := raw[2 : len(raw)-1]
	kind, name, ok := strings.Cut(inner, ":")
	if !ok {
		return Ref{}, &RefError{Ref: raw, Msg: `is not ${secret:NAME}, ${param:name} or ${user:NAME.password}; write "$${" for a literal "${"`}
	}
	switch RefKind(kind) {
	case RefSecret, RefParam:
	case RefUser:
		user, field, ok := strings.Cut(name, ".")
		if !ok || !refNamePattern.MatchString(user) || !isOneOf(field, UserFields) {
			return Ref{}, &RefError{Ref: raw, Msg: "a user reference is ${user:NAME.username} or ${user:NAME.password}"}
		}
		return Ref{Kind: RefUser, Name: name}, nil
	default:
		msg := fmt.Sprintf("unknown kind %q (allowed: %s)", kind, quoteList(refKinds))
		if s := yamlerr.DidYouMean(kind, refKinds); s != "" {
			msg = fmt.Sprintf("unknown kind %q: did you mean %q?", kind, s)
		}
		return Ref{}, &RefError{Ref: raw, Msg: msg}
	}
	if !refNamePattern.MatchString(name) {
		return Ref{}, &RefError{Ref: raw, Msg: "a name is letters, digits, '_', '-' and '.', starting with a letter, digit or '_'"}
	}
	return Ref{Kind: RefKind(kind), Name: name}, nil
}

func isOneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

// References returns the distinct references a trail uses where they are
// expanded, sorted by kind and name: what replay must be able to fill in
// before it starts (a missing secret is missing test data), and what the
// popup lists as the secrets a recording needs. Malformed references are
// skipped; LoadTrail refuses them.
func (t *Trail) References() []Ref {
	seen := map[Ref]bool{}
	add := func(texts ...string) {
		for _, s := range texts {
			refs, _ := ParseRefs(s)
			for _, r := range refs {
				seen[r] = true
			}
		}
	}
	add(t.Start)
	for _, s := range t.Steps {
		for _, a := range s.Actions {
			add(expandedTexts(a)...)
		}
		if s.End != nil {
			add(s.End.URL)
			for _, v := range s.End.Values {
				add(v.Want)
				add(selectorTexts(v.Selector)...)
			}
			for _, sel := range s.End.Shows {
				add(selectorTexts(sel)...)
			}
		}
	}
	out := make([]Ref, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Ref) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// expandedTexts are the values of an action in which references are
// expanded (docs/trail-format.md, "References").
func expandedTexts(a Action) []string {
	var out []string
	if sel, ok := ActionSelector(a); ok {
		out = selectorTexts(sel)
	}
	switch a := a.(type) {
	case Navigate:
		out = append(out, a.To)
	case TypeText:
		out = append(out, a.Text)
	case Set:
		out = append(out, a.Value)
	case SelectOption:
		out = append(out, a.Options...)
	case Dialog:
		out = append(out, a.PromptText)
	case SwitchTab:
		out = append(out, a.URL, a.Title)
	case AssertNotVisible:
		out = append(out, a.Text)
	case AssertValue:
		out = append(out, a.Value)
	case AssertURL:
		out = append(out, a.URL)
	case AssertChange:
		out = append(out, a.URL)
		for _, list := range [][]selector.Selector{a.BecameVisible, a.BecameCovered, a.Exists, a.NotCovered, a.Ignore} {
			for _, sel := range list {
				out = append(out, selectorTexts(sel)...)
			}
		}
		for _, list := range [][]ChangeMatch{a.MustInclude, a.MustNotInclude, a.Only} {
			for _, m := range list {
				if m.Selector != nil {
					out = append(out, selectorTexts(*m.Selector)...)
				}
			}
		}
	}
	return out
}

// selectorTexts are a selector's values in which references are expanded.
func selectorTexts(s selector.Selector) []string {
	out := []string{s.Name, s.Text, s.TestID, s.ID, s.Label, s.Placeholder}
	if s.Within != nil {
		out = append(out, selectorTexts(*s.Within)...)
	}
	return out
}
