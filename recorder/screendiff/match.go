package screendiff

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/selector"
)

// A Matcher names changes in a diff: the {change, selector} items of
// assertChange, with To for a directional state ("the menu button is now
// expanded: true"). Every field set must hold; the zero Matcher matches any
// change.
type Matcher struct {
	// Change is the kind; empty for any kind.
	Change Kind
	// Selector names the node, by the selector package's rules (exactly
	// one node, or the one its index picks), on the screen the kind
	// reads: the after screen for added, the before screen only for
	// removed, either for the others. Nil for any node.
	Selector *selector.Selector
	// To maps fields of State (StateFields) or Style (StyleFields) to
	// the value they must have after the change, as a Delta writes it
	// ("true", "mixed", "3").
	To map[string]string
}

// An Outcome is how a matcher fared against a diff.
type Outcome int

const (
	// NotFound: no change matches.
	NotFound Outcome = iota
	// FoundAmbiguous: the only matching changes are possible
	// replacements read as added or removed: the node may be new, or the
	// old one rendered again. Never a plain pass.
	FoundAmbiguous
	// Found: a change matches.
	Found
)

func (o Outcome) String() string {
	switch o {
	case Found:
		return "found"
	case FoundAmbiguous:
		return "found through a possible replacement: identity ambiguous"
	}
	return "not found"
}

// A MatchResult says which changes a matcher matched.
type MatchResult struct {
	Outcome Outcome
	// Changes are the positions in Result.Changes of the matching
	// changes, in order.
	Changes []int
}

// An InvalidMatcherError says what is wrong with a matcher.
type InvalidMatcherError struct {
	Matcher Matcher
	Reason  string
}

func (e *InvalidMatcherError) Error() string { return "invalid change matcher: " + e.Reason }

// Match finds the changes m names. A matcher whose selector is ambiguous
// on a screen it reads, or that is invalid, is an error: a check built on it
// must fail with the reason, never pass. Match is safe for concurrent use;
// each screen is indexed for selectors once, on first use.
func (r *Result) Match(m Matcher) (MatchResult, error) {
	if err := m.validate(); err != nil {
		return MatchResult{}, err
	}
	sel, err := r.resolve(m)
	if err != nil {
		return MatchResult{}, err
	}
	var res MatchResult
	for k, c := range r.Changes {
		o := r.matches(m, sel, c)
		if o == NotFound {
			continue
		}
		res.Changes = append(res.Changes, k)
		res.Outcome = max(res.Outcome, o)
	}
	return res, nil
}

func (m Matcher) validate() error {
	if m.Change != "" && !slices.Contains(Kinds(), m.Change) {
		return &InvalidMatcherError{m, fmt.Sprintf("change %q is not a kind: use one of %s", m.Change, kindList())}
	}
	if len(m.To) == 0 {
		return nil
	}
	var allowed []string
	switch m.Change {
	case State:
		allowed = StateFields
	case Style:
		allowed = StyleFields
	case "":
		allowed = append(slices.Clone(StateFields), StyleFields...)
	default:
		return &InvalidMatcherError{m, fmt.Sprintf("to: says what a state or style became; a %s change has none: drop to, or use change: state", m.Change)}
	}
	for f := range m.To {
		if !slices.Contains(allowed, f) {
			return &InvalidMatcherError{m, fmt.Sprintf("to: %q is not a field of a %s change: use one of %s", f, orAny(m.Change), strings.Join(allowed, ", "))}
		}
	}
	return nil
}

func orAny(k Kind) string {
	if k == "" {
		return "state or style"
	}
	return string(k)
}

func kindList() string {
	var s []string
	for _, k := range Kinds() {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// resolved is a matcher's selector resolved on both screens: a position,
// or -1 where it names nothing (or the side is not read).
type resolved struct {
	any       bool // no selector
	before    int32
	after     int32
	readsB    bool
	readsA    bool
	selString string
}

func (r *Result) resolve(m Matcher) (resolved, error) {
	if m.Selector == nil {
		return resolved{any: true}, nil
	}
	res := resolved{before: -1, after: -1, readsB: m.Change != Added, readsA: m.Change != Removed, selString: m.Selector.String()}
	side := func(t *tree, name string) (int32, error) {
		nodes, err := t.selectors().Match(*m.Selector)
		var nf *selector.NotFoundError
		if errors.As(err, &nf) {
			return -1, nil
		}
		if err != nil {
			return -1, fmt.Errorf("change matcher %s on the %s screen: %w", res.selString, name, err)
		}
		p, _ := t.position(nodes[0].Ref)
		return p, nil
	}
	var err error
	if res.readsB {
		if res.before, err = side(r.before, "before"); err != nil {
			return res, err
		}
	}
	if res.readsA {
		if res.after, err = side(r.after, "after"); err != nil {
			return res, err
		}
	}
	return res, nil
}

// matches is how change c fares against m with its selector resolved.
func (r *Result) matches(m Matcher, sel resolved, c Change) Outcome {
	kindOK := m.Change == "" || m.Change == c.Kind
	ambiguous := false
	if c.Kind == PossibleReplacement && (m.Change == Added || m.Change == Removed) {
		kindOK, ambiguous = true, true
	}
	if !kindOK || !m.toHolds(c) {
		return NotFound
	}
	if !sel.any && !r.nodeMatches(m, sel, c) {
		return NotFound
	}
	if ambiguous {
		return FoundAmbiguous
	}
	return Found
}

func (m Matcher) toHolds(c Change) bool {
	for f, want := range m.To {
		d, ok := c.Delta(f)
		if !ok || d.To != want {
			return false
		}
	}
	return true
}

// nodeMatches reports whether the selector's node is the change's node in
// the way the change's kind takes it in:
//   - added, removed, possible-replacement and moved take in their root's
//     subtree (what was added, or carried along): the node is the root or
//     inside it;
//   - content: the node is the changed one or holds it (its text changed);
//   - state and style: the node itself, or a node inside it whose
//     inherited field (disabled, visible) changed the same way and was
//     folded into it;
//   - resized: the node itself.
//
// An added matcher reads only the after side of a possible replacement, a
// removed one only the before side.
func (r *Result) nodeMatches(m Matcher, sel resolved, c Change) bool {
	readB := c.Before != nil && sel.before >= 0 && (c.Kind != PossibleReplacement || m.Change != Added)
	readA := c.After != nil && sel.after >= 0 && (c.Kind != PossibleReplacement || m.Change != Removed)
	return readB && r.relates(m, r.before, c, c.Before.Ref, sel.before) ||
		readA && r.relates(m, r.after, c, c.After.Ref, sel.after)
}

func (r *Result) relates(m Matcher, t *tree, c Change, changeRef string, p int32) bool {
	q, ok := t.position(changeRef)
	if !ok {
		return false
	}
	switch c.Kind {
	case Added, Removed, PossibleReplacement, Moved:
		return t.inside(p, q)
	case Content:
		return t.inside(q, p)
	case State, Style:
		return p == q || t.inside(p, q) && r.folded(m, c, t.nodes[p].Ref)
	}
	return p == q
}

// folded reports whether the node with ref, inside change c's node, had an
// inherited field of c change the same way (and so was folded into c), and
// m asks only about such fields.
func (r *Result) folded(m Matcher, c Change, ref string) bool {
	i, okB := r.before.position(ref)
	j, okA := r.after.position(ref)
	if !okB || !okA || r.NewDocument {
		return false
	}
	for k := range m.To {
		if _, ok := inherited[k]; !ok {
			return false
		}
	}
	for _, d := range c.Deltas {
		f, ok := inherited[d.Field]
		if ok && f.get(r.before, i) == d.From && f.get(r.after, j) == d.To {
			return true
		}
	}
	return false
}

// inherited are the fields that follow a change of the parent, by name.
var inherited = func() map[string]field {
	out := map[string]field{}
	for _, f := range append(slices.Clone(stateFields), styleFields...) {
		if f.inherited {
			out[f.name] = f
		}
	}
	return out
}()

// Unmatched lists the positions in Changes of the changes none of ms
// matches, in order: what `only` forbids. A change matched only through a
// possible replacement counts as matched here; Match says which were.
func (r *Result) Unmatched(ms []Matcher) ([]int, error) {
	matched := make([]bool, len(r.Changes))
	for _, m := range ms {
		res, err := r.Match(m)
		if err != nil {
			return nil, err
		}
		for _, k := range res.Changes {
			matched[k] = true
		}
	}
	var out []int
	for k, ok := range matched {
		if !ok {
			out = append(out, k)
		}
	}
	return out, nil
}
