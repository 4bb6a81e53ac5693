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
	t.eachRefText(false, false, func(s *string) {
		refs, _ := ParseRefs(*s)
		for _, r := range refs {
			seen[r] = true
		}
	})
	out := make([]Ref, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b Ref) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// RenameRefs rewrites each ${kind:OLD} in t as ${kind:NEW}, for the OLD
// names in names, in every place a reference can sit: where references are
// expanded (References) and in each step's intent and act, the goal that
// replay offers the agent the references it names (docs/agent.md). An
// escaped literal ($${…}) and a malformed reference stay as they are. What
// t shares with other trails (selectors, ends) is copied, not changed.
func RenameRefs(t *Trail, kind RefKind, names map[string]string) {
	t.eachRefText(true, true, func(s *string) { *s = renameRefs(*s, kind, names) })
}

// renameRefs renames the references of kind in s by names.
func renameRefs(s string, kind RefKind, names map[string]string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	open := "${" + string(kind) + ":"
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			b.WriteString("$${")
			i += 3
		case strings.HasPrefix(s[i:], open):
			end := strings.IndexByte(s[i+len(open):], '}')
			if end < 0 {
				b.WriteString(s[i:])
				return b.String()
			}
			name := s[i+len(open) : i+len(open)+end]
			if to, ok := names[name]; ok {
				name = to
			}
			b.WriteString(open + name + "}")
			i += len(open) + end + 1
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// eachRefText calls visit with each text of t a reference can sit in: the
// one scanner of them (docs/trail-format.md, References). goals adds each
// step's intent and act. write keeps what visit changed, in copies of the
// actions and ends; otherwise t is left as it was.
func (t *Trail) eachRefText(goals, write bool, visit func(*string)) {
	visit(&t.Start)
	for i := range t.Steps {
		s := &t.Steps[i]
		if goals {
			visit(&s.Intent)
			visit(&s.Act)
		}
		for j, a := range s.Actions {
			if a := eachActionText(a, visit); write {
				s.Actions[j] = a
			}
		}
		if s.End == nil {
			continue
		}
		e := *s.End
		e.Shows, e.Values = slices.Clone(e.Shows), slices.Clone(e.Values)
		visit(&e.URL)
		for k := range e.Values {
			visit(&e.Values[k].Want)
			eachSelectorText(&e.Values[k].Selector, visit)
		}
		for k := range e.Shows {
			eachSelectorText(&e.Shows[k], visit)
		}
		if write {
			s.End = &e
		}
	}
}

// expandedTexts are the values of an action in which references are
// expanded (docs/trail-format.md, "References").
func expandedTexts(a Action) []string {
	var out []string
	eachActionText(a, func(s *string) { out = append(out, *s) })
	return out
}

// eachActionText calls visit with each value of a copy of a in which
// references are expanded, and returns the copy.
func eachActionText(a Action, visit func(*string)) Action {
	switch a := a.(type) {
	case Navigate:
		visit(&a.To)
		return a
	case Tap:
		eachSelectorText(&a.Selector, visit)
		return a
	case TypeText:
		eachSelectorText(&a.Selector, visit)
		visit(&a.Text)
		return a
	case Set:
		eachSelectorText(&a.Selector, visit)
		visit(&a.Value)
		return a
	case SelectOption:
		eachSelectorText(&a.Selector, visit)
		a.Options = slices.Clone(a.Options)
		for i := range a.Options {
			visit(&a.Options[i])
		}
		return a
	case Check:
		eachSelectorText(&a.Selector, visit)
		return a
	case Uncheck:
		eachSelectorText(&a.Selector, visit)
		return a
	case Hover:
		eachSelectorText(&a.Selector, visit)
		return a
	case Drag:
		eachSelectorText(&a.Selector, visit)
		eachSelectorText(&a.To, visit)
		return a
	case Upload:
		eachSelectorText(&a.Selector, visit)
		return a
	case Dialog:
		visit(&a.PromptText)
		return a
	case SwitchTab:
		visit(&a.URL)
		visit(&a.Title)
		return a
	case AssertVisible:
		eachSelectorText(&a.Selector, visit)
		return a
	case AssertNotVisible:
		visit(&a.Text)
		return a
	case AssertValue:
		eachSelectorText(&a.Selector, visit)
		visit(&a.Value)
		return a
	case AssertState:
		eachSelectorText(&a.Selector, visit)
		return a
	case AssertURL:
		visit(&a.URL)
		return a
	case AssertChange:
		visit(&a.URL)
		for _, list := range []*[]selector.Selector{&a.BecameVisible, &a.BecameCovered, &a.Exists, &a.NotCovered, &a.Ignore} {
			*list = slices.Clone(*list)
			for i := range *list {
				eachSelectorText(&(*list)[i], visit)
			}
		}
		for _, list := range []*[]ChangeMatch{&a.MustInclude, &a.MustNotInclude, &a.Only} {
			*list = slices.Clone(*list)
			for i, m := range *list {
				if m.Selector != nil {
					sel := *m.Selector
					eachSelectorText(&sel, visit)
					(*list)[i].Selector = &sel
				}
			}
		}
		return a
	}
	return a
}

// eachSelectorText calls visit with each value of s in which references
// are expanded; s.Within is copied first.
func eachSelectorText(s *selector.Selector, visit func(*string)) {
	for _, p := range []*string{&s.Name, &s.Text, &s.TestID, &s.ID, &s.Label, &s.Placeholder} {
		visit(p)
	}
	if s.Within != nil {
		w := *s.Within
		eachSelectorText(&w, visit)
		s.Within = &w
	}
}
