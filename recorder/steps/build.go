package steps

import (
	"errors"
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// An unnamedError says that no selector names the element an action is
// aimed at on its screen: the step becomes a goal for the agent (act).
type unnamedError struct {
	reason string
}

func (e *unnamedError) Error() string { return e.reason }

// A leftOutError says that an interaction cannot be written into a trail
// (a secret's value, a key replay cannot press): it is left out, with a note.
type leftOutError struct {
	reason string
}

func (e *leftOutError) Error() string { return e.reason }

func unnamed(format string, args ...any) error {
	return &unnamedError{reason: fmt.Sprintf(format, args...)}
}

func leftOut(format string, args ...any) error {
	return &leftOutError{reason: fmt.Sprintf(format, args...)}
}

// A built action is one interaction converted: the action (nil when it adds
// none, like a navigation its step's action caused), the hover that must
// come before it (over the row whose hover shows the control it acts on),
// and the words the step's intent says it with.
type built struct {
	action trail.Action
	hover  *trail.Hover
	phrase string
}

// steps converts the groups into steps, in order.
func (b *builder) steps(groups []*group) ([]trail.Step, error) {
	var steps []trail.Step
	for _, g := range groups {
		b.building = len(steps)
		step, ok, err := b.step(g, len(steps)+1)
		if err != nil {
			return nil, err
		}
		if !ok || len(step.Actions) == 0 {
			// No action of it is written: no check goes after one.
			unplace(g.checks, b.building)
		}
		if ok {
			steps = append(steps, step)
		}
	}
	return b.loadable(b.writeChecks(steps, groups)), nil
}

// loadable returns the steps that MarshalTrail can write (so LoadTrail
// reads them back equal). Recorded values a trail cannot hold (a role the
// format does not know, text that is not UTF-8) are rare: the whole trail
// is checked once, and only when it fails each step on its own; a step that
// would not load is left out with a note, never written half right.
func (b *builder) loadable(steps []trail.Step) []trail.Step {
	check := func(steps ...trail.Step) error {
		_, err := trail.MarshalTrail(&trail.Trail{Title: "steps", App: "app", Start: b.startPath, Steps: steps})
		return err
	}
	if len(steps) == 0 || check(steps...) == nil {
		return steps
	}
	var kept []trail.Step
	for _, step := range steps {
		if err := check(step); err != nil {
			b.note(fmt.Sprintf("The step %q was left out: it cannot be written as a trail step (%v).", step.Intent, err),
				"A step was left out: it cannot be written as a trail step.")
			continue
		}
		kept = append(kept, step)
	}
	return kept
}

// step builds the step of one group; ok is false when nothing of it can be
// written down (said in a note).
func (b *builder) step(g *group, number int) (trail.Step, bool, error) {
	var phrases []string
	var keys []string  // the keys of the presses that end the phrases
	var pressed string // the phrase of the first of them
	var actions []trail.Action
	var unnamedWhy []string
	for k, i := range g.recs {
		if b.is(i, InteractHover) && k+1 < len(g.recs) && !b.is(g.recs[k+1], InteractAssertChange) && !b.hoverRevealed(i, g.recs[k+1]) {
			continue // the pointer passed by: the click's element showed without it
		}
		out, err := b.convert(k, i)
		var un *unnamedError
		var lo *leftOutError
		switch {
		case errors.As(err, &un):
			out = built{phrase: b.unnamedPhrase(i)}
			if out.phrase == "" {
				// Neither a selector nor words for it: the rest of the step
				// (a dialog it opened, the keys pressed in it) means nothing
				// on its own.
				r := &b.recs[i]
				b.note(fmt.Sprintf("Interaction %d (%s) was left out with the rest of its step: %s, and it cannot be said in words either.", r.Seq, r.Kind, un.reason),
					fmt.Sprintf("Interaction %d (%s) was left out with the rest of its step: its element could not be named.", r.Seq, r.Kind))
				return trail.Step{}, false, nil
			}
			unnamedWhy = append(unnamedWhy, un.reason)
		case errors.As(err, &lo):
			r := &b.recs[i]
			b.note(fmt.Sprintf("Interaction %d (%s) was left out: %s.", r.Seq, r.Kind, lo.reason),
				fmt.Sprintf("Interaction %d (%s) was left out: it would write down a value marked sensitive.", r.Seq, r.Kind))
			continue
		case err != nil:
			return trail.Step{}, false, err
		}
		switch p, isPress := out.action.(trail.Press); {
		case isPress && len(keys) > 0:
			// "press ArrowDown, ArrowDown and Enter"
			keys = append(keys, keyChord(p))
			phrases[len(phrases)-1] = strings.Replace(pressed, "press "+keys[0], "press "+andList(keys), 1)
		case isPress:
			keys, pressed = []string{keyChord(p)}, out.phrase
			phrases = append(phrases, out.phrase)
		case out.phrase != "":
			keys = nil
			phrases = append(phrases, out.phrase)
		}
		if out.hover != nil {
			actions = append(actions, *out.hover)
		}
		if out.action != nil {
			actions = append(actions, out.action)
			b.placeChecks(g, i, len(actions))
		}
	}
	intent := intentFrom(phrases)
	if g.goal != "" {
		intent = g.goal
	}
	by, client := b.performer(g)
	if len(unnamedWhy) > 0 {
		step, ok, err := b.goalStep(number, intent, unnamedWhy[0])
		step.By, step.Client = by, client
		return step, ok, err
	}
	if len(actions) == 0 {
		return trail.Step{}, false, nil
	}
	step := trail.Step{Intent: intent, By: by, Client: client, Actions: actions}
	if g.kind != groupAssert {
		end, err := b.endOf(g, number)
		if err != nil {
			return trail.Step{}, false, err
		}
		step.End = end
	}
	return b.checked(step, number)
}

// performer is who performed a group's step: the built-in agent (g.by), an
// outside agent (its client's name, on the group's interactions: docs/mcp.md),
// or a person ("", "").
func (b *builder) performer(g *group) (by, client string) {
	if g.by != "" {
		return g.by, ""
	}
	for _, i := range g.recs {
		if c := b.recs[i].Client; c != "" {
			return trail.ByAgent, c
		}
	}
	return "", ""
}

// goalStep is a step whose action no selector names: its intent becomes a
// goal (act) the agent performs at replay.
func (b *builder) goalStep(number int, intent, why string) (trail.Step, bool, error) {
	b.note(fmt.Sprintf("Step %d (%s) is a goal for the agent to perform (act), not a recording: %s.", number, intent, why),
		fmt.Sprintf("Step %d is a goal for the agent to perform (act), not a recording: its element could not be named.", number))
	return b.checked(trail.Step{Intent: intent, Act: intent}, number)
}

// checked makes sure a step holds nothing sensitive; a step that would is
// left out with a note.
func (b *builder) checked(step trail.Step, number int) (trail.Step, bool, error) {
	if step.End != nil && (b.taint.Leaks(step.End.URL) || b.leaksURL(step.End.URL)) {
		step.End.URL = ""
		if len(step.End.Shows) == 0 && len(step.End.Values) == 0 {
			step.End = nil
		}
		b.note(fmt.Sprintf("Step %d (%s): its end URL would show a value marked sensitive and was left out.", number, step.Intent), "")
	}
	leak := false
	trail.ForEachText(&trail.Trail{Steps: []trail.Step{step}}, func(_, text string) {
		leak = leak || b.taint.Leaks(text) || b.leaksURL(text)
	})
	if leak {
		b.note(fmt.Sprintf("Step %d was left out: it would write down a value marked sensitive.", number), "")
		return trail.Step{}, false, nil
	}
	return step, true, nil
}

// convert turns interaction i, the k-th of its group, into its action.
func (b *builder) convert(k, i int) (built, error) {
	r := &b.recs[i]
	switch r.Kind {
	case InteractClick:
		return b.click(i)
	case InteractType:
		return b.typeInto(i)
	case InteractSelect:
		return b.selectIn(i)
	case InteractSet:
		return b.setValue(i)
	case InteractCheck, InteractUncheck:
		if b.clickEffects[i] {
			return built{}, nil // the click before it is the action; the end shows the box
		}
		return b.checkBox(i, r.Kind == InteractCheck)
	case InteractHover:
		return b.hover(i)
	case InteractDrag:
		return b.drag(i)
	case InteractUpload:
		return b.upload(i)
	case InteractPress:
		return b.press(i, k == 0)
	case InteractNavigate:
		if k > 0 {
			return built{}, nil // caused by the step's action; its end URL shows it
		}
		return b.navigate(i)
	case InteractDialog:
		return b.dialog(i)
	case InteractSwitchTab:
		return b.switchTab(i)
	case InteractAssertVisible:
		return b.assertVisible(i)
	case InteractAssertNotVisible:
		return b.assertNotVisible(i)
	case InteractAssertURL:
		return b.assertURL(i)
	case InteractAssertValue:
		return b.assertValue(i)
	case InteractAssertState:
		return b.assertState(i)
	case InteractAssertChange:
		return b.assertChange(i)
	}
	return built{}, leftOut("the host does not know this kind of interaction")
}

// unnamedPhrase says in words what interaction i did when no selector names
// its element: the words become the goal the agent performs. "" when the
// element is not known either.
func (b *builder) unnamedPhrase(i int) string {
	r := &b.recs[i]
	if r.Before == nil || r.Ref == "" {
		return ""
	}
	m := b.matcher(r.Before)
	p, ok := m.Position(r.Ref)
	if !ok {
		return ""
	}
	// What a click lands in is the control around it, shown or not.
	if r.Kind != InteractAssertVisible && !selector.IsControlRole(m.Nodes()[p].Role) {
		for a := m.Parent(p); a >= 0; a = m.Parent(a) {
			if selector.IsControlRole(m.Nodes()[a].Role) {
				p = a
				break
			}
		}
	}
	n := m.Nodes()[p]
	switch r.Kind {
	case InteractClick:
		return b.clickPhrase(r.Before, n, selector.Selector{}, trail.Tap{Count: r.Count})
	case InteractHover:
		return "hover over " + b.thing(r.Before, n, selector.Selector{})
	case InteractType:
		if r.Secret != "" || n.Secret {
			return enterSecretPhrase(n, b.fieldTitle(n))
		}
		if b.sensitiveTyped(r.Value) {
			return ""
		}
		return typePhrase(r.Value, b.namedField(r.Before, n))
	case InteractSelect:
		return selectPhrase(r.Options, b.namedField(r.Before, n))
	case InteractSet:
		return setPhrase(r.Value, b.namedField(r.Before, n))
	case InteractCheck, InteractUncheck:
		return b.togglePhrase(r.Before, n, r.Kind == InteractCheck)
	case InteractUpload:
		return uploadPhrase(r.Files, b.fieldTitle(n))
	case InteractAssertVisible:
		return b.shownPhrase(r.Before, n, selector.Selector{})
	}
	return ""
}
