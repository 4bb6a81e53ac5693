package steps

import (
	"slices"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A step's end values (docs/trail-format.md, End values) are the controls
// whose value or state the step changed, with what each ended with, so that
// replay never passes with a control in another state than the recorded
// one: the slider a set moved, the field a type filled, the drop-down or
// list box a select chose in, the boxes a click checked (also boxes the
// step checked without touching them, as a "select all" does).
//
// A control keeps its ref within one document, so the screens before and
// after the step are compared by ref, for the controls shown on both; across
// a navigation there is nothing to compare. A value (text, a slider's number) is pinned only for the
// controls the step's own interactions acted on: another field whose value
// changed is the app's data (a computed total, a time), which a replay on
// another day shows otherwise. Checked states are pinned for every box, and for the options of the ARIA list boxes the step chose
// in. Secret fields, values marked sensitive and the controls
// the assertions right after the step check are left out.

// endValues returns the end values of the step built from group g.
func (b *builder) endValues(g *group, before, after *screen.Screen) []trail.EndValue {
	if before == nil || documentOf(before) != documentOf(after) {
		return nil
	}
	mb, ma := b.matcher(before), b.matcher(after)
	old := b.refPositions(mb)
	acted := map[string]bool{}
	for _, i := range g.recs {
		for _, purpose := range []selector.Purpose{selector.PurposeType, selector.PurposeSelect, selector.PurposeTap} {
			if t, ok := b.targetOf(i, purpose); ok && t.doc == documentOf(after) {
				acted[t.ref] = true
			}
		}
	}
	asserted := b.assertedAfter(g)
	var out []trail.EndValue
	for p, n := range ma.Nodes() {
		if len(out) == trail.MaxEndValues {
			break
		}
		q, ok := old[n.Ref]
		if !ok || !mb.Shown(q) || n.Secret || !ma.Shown(int32(p)) || slices.Contains(asserted, n.Ref) {
			continue // a control that appeared is shown by the step, not set by it
		}
		prop, want, purpose, ok := endProperty(mb.Nodes()[q], n, acted[n.Ref])
		if !ok || b.taint.Leaks(want) || prop == trail.StateSelected && !inChosenListbox(ma, int32(p), acted) {
			continue
		}
		sel, named, err := b.generate(purpose, n.Ref, after)
		if err != nil || named != n || b.taint.LeaksFrom(&sel) {
			continue
		}
		if prop == trail.EndPropertyValue {
			want = trail.EscapeRefs(want)
		}
		out = append(out, trail.EndValue{Selector: escapeSelector(sel), Property: prop, Want: want})
	}
	return out
}

// valueRoles are the controls whose value an end pins.
var valueRoles = map[string]bool{
	"textbox": true, "searchbox": true, "slider": true, "spinbutton": true, "combobox": true, "listbox": true,
}

// checkRoles are the controls whose checked state an end pins.
var checkRoles = map[string]bool{
	"checkbox": true, "radio": true, "switch": true, "menuitemcheckbox": true, "menuitemradio": true,
}

// endProperty says what of n changed since was, as an end value pins it,
// and the purpose its selector is generated for; acted says the step acted
// on n.
func endProperty(was, n *screen.Node, acted bool) (prop, want string, purpose selector.Purpose, ok bool) {
	switch {
	case checkRoles[n.Role] && n.Checked != "" && was.Checked != n.Checked:
		return trail.StateChecked, n.Checked, selector.PurposeTap, true
	case n.Role == "option" && n.Selected != nil && !sameBool(was.Selected, n.Selected):
		if *n.Selected {
			return trail.StateSelected, "true", selector.PurposeTap, true
		}
		return trail.StateSelected, "false", selector.PurposeTap, true
	case acted && valueRoles[n.Role] && was.Value != n.Value:
		purpose = selector.PurposeType
		if n.Role == "combobox" || n.Role == "listbox" {
			purpose = selector.PurposeSelect
		}
		return trail.EndPropertyValue, n.Value, purpose, true
	}
	return "", "", "", false
}

// inChosenListbox reports whether the option at p lies in an ARIA listbox
// the step chose in. A <select>'s choice is its own value; and an option
// of another list (a combobox's suggestions) is selected where the pointer
// or the arrow keys rest, which is no state the step set.
func inChosenListbox(m *selector.Matcher, p int32, acted map[string]bool) bool {
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		n := m.Nodes()[a]
		switch {
		case n.Tag == "select" || n.Role == "combobox":
			return false
		case n.Role == "listbox":
			return acted[n.Ref]
		}
	}
	return false
}

func sameBool(a, b *bool) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
