package steps

import (
	"fmt"
	"slices"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The assertions of a recording. Each is a step of its own; what the
// assertion claims is pinned in its selector (Generate with purpose
// assert), and a claim about a secret or sensitive value is never written.

func (b *builder) assertVisible(i int) (built, error) {
	r := &b.recs[i]
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	sel, n, err := b.selector(selector.PurposeAssert, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	// What shows only under the pointer is checked where the person saw it.
	hover, err := b.revealingHover(s, n, sel)
	if err != nil {
		return built{}, err
	}
	return built{action: trail.AssertVisible{Selector: escapeSelector(sel)}, hover: hover, phrase: b.shownPhrase(s, n, sel)}, nil
}

func (b *builder) assertNotVisible(i int) (built, error) {
	r := &b.recs[i]
	text := r.Text
	if screen.CollapseSpace(text) == "" {
		return built{}, leftOut("it names no text")
	}
	if b.taint.Leaks(text) {
		return built{}, leftOut("its text is a value marked sensitive")
	}
	return built{action: trail.AssertNotVisible{Text: trail.EscapeRefs(text)}, phrase: fmt.Sprintf("check that %s is not shown", quote(text))}, nil
}

func (b *builder) assertURL(i int) (built, error) {
	r := &b.recs[i]
	raw := r.URL
	if raw == "" {
		raw = screenURL(r.Before)
	}
	if raw == "" {
		return built{}, leftOut("it names no URL")
	}
	p, err := b.appPath(raw)
	if err != nil {
		return built{}, fmt.Errorf("building steps: interaction %d (assertUrl): %w", r.Seq, err)
	}
	return built{action: trail.AssertURL{URL: trail.EscapeRefs(p)}, phrase: "check that the URL is " + p}, nil
}

func (b *builder) assertValue(i int) (built, error) {
	r := &b.recs[i]
	s, n, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	if n.Secret || r.Secret != "" {
		return built{}, leftOut("a secret field's value is never written into a trail; check what the page shows instead")
	}
	if b.sensitiveTyped(r.Value) {
		return built{}, leftOut("the value is marked sensitive")
	}
	// The claim is the value, not what the field shows: a selector that
	// pinned a drop-down's choice would stop matching when the value
	// changes, before the check could say what it expected and found.
	sel, n, err := b.selector(valuePurpose(n), r.Ref, s)
	if err != nil {
		return built{}, err
	}
	return built{action: trail.AssertValue{Selector: escapeSelector(sel), Value: trail.EscapeRefs(r.Value)}, phrase: valuePhrase(b.fieldTitle(n), r.Value)}, nil
}

// valuePurpose is the purpose an assertValue's selector is generated for:
// a drop-down or list box is named as the step that chooses in it names it
// (its text is its choice); anything else as an assertion names it (a text
// field's value is not its text).
func valuePurpose(n *screen.Node) selector.Purpose {
	if n.Role == "combobox" || n.Role == "listbox" {
		return selector.PurposeSelect
	}
	return selector.PurposeAssert
}

func (b *builder) assertState(i int) (built, error) {
	r := &b.recs[i]
	if !slices.Contains([]string{trail.StateChecked, trail.StateDisabled, trail.StateExpanded, trail.StateSelected}, r.State) {
		return built{}, leftOut("its state %q is none of checked, disabled, expanded, selected", r.State)
	}
	if r.Want != "true" && r.Want != "false" && (r.Want != "mixed" || r.State != trail.StateChecked) {
		return built{}, leftOut("its expected value %q is not true or false (or mixed, for checked)", r.Want)
	}
	s, _, err := b.on(i)
	if err != nil {
		return built{}, err
	}
	sel, n, err := b.selector(selector.PurposeAssert, r.Ref, s)
	if err != nil {
		return built{}, err
	}
	a := trail.AssertState{Selector: escapeSelector(sel), State: r.State, Want: r.Want}
	return built{action: a, phrase: b.statePhrase(s, n, sel, a)}, nil
}
