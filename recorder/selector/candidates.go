package selector

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A Dependency is what a selector relies on staying the same: when it
// changes, the selector stops matching.
type Dependency string

const (
	DependsOnTestID      Dependency = "test id"
	DependsOnID          Dependency = "id"
	DependsOnRole        Dependency = "role"
	DependsOnName        Dependency = "name"
	DependsOnLabel       Dependency = "label"
	DependsOnPlaceholder Dependency = "placeholder"
	DependsOnText        Dependency = "text"
	DependsOnStructure   Dependency = "structure"
	DependsOnIndex       Dependency = "index"
)

// A Candidate is one entry of the review menu: a selector that resolves to
// the target on every screen it was checked on.
type Candidate struct {
	Selector Selector `json:"selector"`
	// Checks says in words what the selector depends on ("role + name",
	// "text + structure"): what must stay the same for it to keep matching.
	Checks    string       `json:"checks"`
	DependsOn []Dependency `json:"dependsOn"`
	// ChecksValue is true when the selector pins the element's text (or, for
	// an element without text, its name): an assertion with it fails when
	// the value changes. Otherwise an assertion checks presence only.
	ChecksValue bool `json:"checksValue"`
	// Score is the selector's cost; lower is better (generate_score.go).
	Score int `json:"score"`
}

// A Suggestion is what `host suggest-selector --json` prints: the generated
// selector and the ranked menu.
type Suggestion struct {
	Selector Selector    `json:"selector"`
	Menu     []Candidate `json:"menu"`
}

// Suggest generates the selector for targetRef on s and lists the menu of
// alternatives on the same screen.
func Suggest(purpose Purpose, targetRef string, s *screen.Screen, sensitive []string) (Suggestion, error) {
	sel, err := Generate(purpose, targetRef, s, sensitive)
	if err != nil {
		return Suggestion{}, err
	}
	menu, err := Candidates(purpose, targetRef, []*screen.Screen{s}, sensitive)
	if err != nil {
		return Suggestion{}, err
	}
	return Suggestion{Selector: sel, Menu: menu}, nil
}

// Candidates lists every selector the generator would consider that resolves
// to the target on all the given screens — the element with ref targetRef,
// retargeted as Generate does, identified by its ref on each screen. A
// selector is left out when a shorter one in the list (a subset of its
// properties) already resolves, so the menu holds real alternatives.
//
// The menu is ranked by cost, and for an assertion the selectors that check
// the text come before those that check presence only. On a single screen
// its first entry is what Generate returns. Nothing sensitive is ever listed.
func Candidates(purpose Purpose, targetRef string, screens []*screen.Screen, sensitive []string) ([]Candidate, error) {
	if len(screens) == 0 {
		return nil, fmt.Errorf("listing selectors for %s: no screens given", targetRef)
	}
	gens := make([]*generator, len(screens))
	for i, s := range screens {
		m, release := borrowMatcher(s)
		defer release()
		g, err := newGenerator(purpose, targetRef, m, sensitive)
		if err != nil {
			return nil, fmt.Errorf("listing selectors on screen %d: %w", i+1, err)
		}
		if i > 0 && g.node.Ref != gens[0].node.Ref {
			return nil, fmt.Errorf("listing selectors for %s: it stands for %s on screen 1 but %s on screen %d", targetRef, gens[0].node.Ref, g.node.Ref, i+1)
		}
		gens[i] = g
	}

	var opts []option
	seen := map[string]bool{}
	for _, g := range gens {
		for _, o := range g.allOptions() {
			if key := o.sel.String(); !seen[key] {
				seen[key] = true
				opts = append(opts, o)
			}
		}
	}
	sortOptions(opts)

	var kept []option
	var keptParts [][]string
	for _, o := range opts {
		if !resolvesOnAll(gens, o.sel) {
			continue
		}
		parts := selectorParts(o.sel)
		if slices.ContainsFunc(keptParts, func(k []string) bool { return isSubset(k, parts) }) {
			continue
		}
		kept = append(kept, o)
		keptParts = append(keptParts, parts)
	}
	if purpose == PurposeAssert {
		sort.SliceStable(kept, func(i, j int) bool { return kept[i].pins && !kept[j].pins })
	}

	out := make([]Candidate, 0, len(kept))
	for _, o := range kept {
		if gens[0].taint.LeaksFrom(&o.sel) {
			return nil, fmt.Errorf("listing selectors for %s: %s would show a sensitive value; refusing it", targetRef, o.sel)
		}
		deps := dependenciesOf(o.sel)
		words := make([]string, len(deps))
		for i, d := range deps {
			words[i] = string(d)
		}
		out = append(out, Candidate{
			Selector:    o.sel,
			Checks:      strings.Join(words, " + "),
			DependsOn:   deps,
			ChecksValue: o.pins,
			Score:       o.cost,
		})
	}
	return out, nil
}

// allOptions lists, for one screen, the bases that name the target alone,
// and for those that do not, their scoped and indexed forms that do.
func (g *generator) allOptions() []option {
	var out []option
	for _, b := range g.bases(true) {
		all, err := g.m.all(&b.sel, matchConfig{})
		if err != nil {
			continue
		}
		at := slices.Index(all, g.pos)
		if at < 0 {
			continue
		}
		if len(all) == 1 {
			out = append(out, b)
			continue
		}
		a := ambiguousBase{option: b, at: at, matches: len(all)}
		out = append(out, a.withIndex())
		g.nestedScopes()
		for i, sc := range g.scopeList {
			o := a.within(sc, i)
			if got, ok := g.resolves(o); ok {
				out = append(out, got)
				continue
			}
			o.cost += costIndex
			o.countIndex = true
			if got, ok := g.resolves(o); ok {
				out = append(out, got)
			}
		}
	}
	return out
}

func resolvesOnAll(gens []*generator, sel Selector) bool {
	for _, g := range gens {
		got, err := g.m.resolve(&sel, &sel, matchConfig{})
		if err != nil || len(got) != 1 || got[0] != g.pos {
			return false
		}
	}
	return true
}

// selectorParts lists a selector's properties as field=value strings, the
// within scope as one part, for telling whether one selector is a shorter
// form of another.
func selectorParts(s Selector) []string {
	var parts []string
	for _, f := range []struct{ k, v string }{
		{"role", s.Role}, {"name", s.Name}, {"text", s.Text}, {"textRegex", s.TextRegex},
		{"testId", s.TestID}, {"id", s.ID}, {"label", s.Label}, {"placeholder", s.Placeholder},
	} {
		if f.v != "" {
			parts = append(parts, f.k+"="+f.v)
		}
	}
	if s.Within != nil {
		parts = append(parts, "within="+s.Within.String())
	}
	if s.Index != nil {
		parts = append(parts, "index="+strconv.Itoa(*s.Index))
	}
	return parts
}

// isSubset reports whether every part of a is in b.
func isSubset(a, b []string) bool {
	for _, p := range a {
		if !slices.Contains(b, p) {
			return false
		}
	}
	return true
}

// dependenciesOf lists what sel relies on, in a fixed order.
func dependenciesOf(s Selector) []Dependency {
	var deps []Dependency
	add := func(ok bool, d Dependency) {
		if ok {
			deps = append(deps, d)
		}
	}
	add(s.TestID != "", DependsOnTestID)
	add(s.ID != "", DependsOnID)
	add(s.Role != "", DependsOnRole)
	add(s.Name != "", DependsOnName)
	add(s.Label != "", DependsOnLabel)
	add(s.Placeholder != "", DependsOnPlaceholder)
	add(s.Text != "" || s.TextRegex != "", DependsOnText)
	add(s.Within != nil, DependsOnStructure)
	add(s.Index != nil, DependsOnIndex)
	return deps
}
