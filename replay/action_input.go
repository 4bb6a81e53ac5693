package replay

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// The acts: trusted input (CDP mouse and keyboard events, as a person would)
// on an element that find (or findRef) resolved, each returning what it did.
// They never look the element up again, so a recorded action and the
// agent's tool call act the same way on the same element.

// tap clicks the element at its centre. A drop-down (a <select> whose list
// is the browser's pop-up) is pressed without opening its list, and takes
// the focus as the press would have given it: the page sees the press (an
// app's menu that closes on a press outside it closes), and no pop-up of
// the browser's takes the keys and presses that follow. A trail chooses in
// a drop-down with select; a tap on one is a press that chose nothing
// (docs/recording.md, A press on a drop-down that chooses nothing).
func tap(f found, a trail.Tap) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		d.markInput(p)
		defer p.acted()
		dropDown := false
		if f.node.Tag == "select" && (a.Button == "" || a.Button == trail.ButtonLeft) {
			if err := withElement(ctx, p, f.node.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
				return m.CallOnArgs(ctx, obj, dropDownPressScript, &dropDown, "guard")
			}); err != nil {
				return d, err
			}
		}
		pt := f.point
		p.pressing()
		if err := (browser.Mouse{Target: p.target, Reached: &d.reached}).Click(ctx, pt.X, pt.Y, a.Button, a.Count, a.Modifiers); err != nil {
			return d, err
		}
		if dropDown {
			// The press is made; a drop-down the page took away on it has no
			// focus to take.
			var focused bool
			_ = withElement(ctx, p, f.node.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
				return m.CallOnArgs(ctx, obj, dropDownPressScript, &focused, "focus")
			})
		}
		verb := "tapped"
		if a.Count == 2 {
			verb = "double-tapped"
		} else if a.Count > 2 {
			verb = fmt.Sprintf("tapped %d times", a.Count)
		}
		d.summary = verb + " " + diagnose.Describe(f.node) + withModifiers(a.Modifiers)
		return d, nil
	}
}

// typeInto clicks the field, clears it as a person does (select all,
// delete) and types text. With appending (the person typed on the end of
// what the field held), a field whose value text starts with is not
// cleared: the caret goes to its end and the rest of text is typed there,
// so the page never sees the field empty, as the person's page never did
// (an autocomplete that lists every choice for an empty field opens its
// list). Secrets are filled in here, at the last moment, and never leave
// this function. ready, when not nil, runs after the click and the
// clearing, right before the keys go out: nothing is typed unless it
// passes.
func (r *trailRun) typeInto(f found, text string, appending bool, ready func(ctx context.Context, p *tab) error) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		n, pt := f.node, f.point
		value, err := r.vals.expand(text)
		if err != nil {
			return d, err
		}
		rest, onEnd := "", false
		if appending && !n.Secret && (n.Tag == "input" || n.Tag == "textarea") && n.Value != "" && strings.HasPrefix(value, n.Value) {
			rest, onEnd = value[len(n.Value):], true
		}
		d.markInput(p)
		defer p.acted()
		ms := browser.Mouse{Target: p.target, Reached: &d.reached}
		if err := ms.Click(ctx, pt.X, pt.Y, trail.ButtonLeft, 1, nil); err != nil {
			return d, err
		}
		kb := browser.Keyboard{Target: p.target, Reached: &d.reached}
		switch {
		case onEnd:
			end, _ := browser.KeyFor("End")
			if err := kb.Press(ctx, end, []trail.Modifier{trail.ModifierControl}, "moveToEndOfDocument"); err != nil {
				return d, err
			}
		case n.Value != "" || n.Secret || editableText(n):
			if err := kb.ClearField(ctx); err != nil {
				return d, err
			}
		}
		if ready != nil {
			if err := ready(ctx, p); err != nil {
				return d, err
			}
		}
		if onEnd {
			err = kb.TypeText(ctx, rest)
		} else {
			err = kb.TypeText(ctx, value)
		}
		value, rest = "", ""
		if err != nil {
			return d, err
		}
		if text == "" {
			d.summary = "cleared " + diagnose.Describe(n)
		} else {
			d.summary = fmt.Sprintf("typed %q into %s", r.vals.public(text), diagnose.Describe(n))
		}
		return d, nil
	}
}

// editableText reports whether n is text edited in place (contenteditable:
// no input or text area) that holds text: type replaces it, as the
// select-all and typing a person does in a tree editor's value.
func editableText(n *screen.Node) bool {
	return n.Tag != "input" && n.Tag != "textarea" && strings.TrimSpace(n.Text) != ""
}

// press presses a key on the focused element.
func press(a trail.Press) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		d.markInput(p)
		defer p.acted()
		kb := browser.Keyboard{Target: p.target, Reached: &d.reached}
		k, ok := browser.KeyFor(a.Key)
		if ok {
			if err := kb.Press(ctx, k, a.Modifiers); err != nil {
				return d, err
			}
		} else if err := kb.TypeText(ctx, a.Key); err != nil {
			return d, err
		}
		d.summary = "pressed " + a.Key + withModifiers(a.Modifiers)
		return d, nil
	}
}

// choose selects options of a <select> through the page model's element,
// firing input and change as a person's choice does, or taps the options of
// an ARIA listbox (found within a.Selector).
func (r *trailRun) choose(f found, a trail.SelectOption) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		n := f.node
		labels := make([]string, len(a.Options))
		for i, o := range a.Options {
			v, err := r.vals.expand(o)
			if err != nil {
				return d, err
			}
			labels[i] = v
		}
		if n.Tag != "select" {
			if n.Role != "listbox" {
				return d, fmt.Errorf("select works on a drop-down (<select>) or a listbox, and %s is neither", diagnose.Describe(n))
			}
			return r.tapOptions(f, a.Selector, labels)(ctx, p)
		}
		var answer struct {
			Missing  string   `json:"missing"`
			Single   bool     `json:"single"`
			Options  []string `json:"options"`
			Chosen   []string `json:"chosen"`
			Selected []string `json:"selected"`
		}
		d.markInput(p)
		err := withElement(ctx, p, n.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
			d.reached = true
			return m.CallOnArgs(ctx, obj, selectOptionsScript, &answer, labels)
		})
		p.acted()
		switch {
		case err != nil:
			return d, err
		case answer.Single:
			return d, fmt.Errorf("%s takes one option, and the trail chooses %d", diagnose.Describe(n), len(labels))
		case answer.Missing != "":
			d.reached = false
			return d, &stepError{Reason: StopActionFailed, Expected: fmt.Sprintf("an option %q", answer.Missing),
				Actual: "options " + quoteList(answer.Options),
				Msg:    fmt.Sprintf("select: %s has no option %q (it has %s)", diagnose.Describe(n), answer.Missing, quoteList(answer.Options))}
		case !sameChoice(answer.Chosen, answer.Selected):
			return d, notChosenError(n, answer.Chosen, answer.Selected)
		}
		d.summary = fmt.Sprintf("chose %s in %s", quoteList(labels), diagnose.Describe(n))
		return d, nil
	}
}

// sameChoice reports whether two lists of option labels hold the same
// labels, in any order.
func sameChoice(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// notChosenError says that a list did not end with the options a select
// chose: a replay never passes with another selection than the recorded one.
func notChosenError(n *screen.Node, want, got []string) *stepError {
	shown := "no option"
	if len(got) > 0 {
		shown = quoteList(got)
	}
	return &stepError{Reason: StopActionFailed, Expected: quoteList(want), Actual: shown,
		Msg: fmt.Sprintf("select: %s did not end with %s selected: it has %s", diagnose.Describe(n), quoteList(want), shown)}
}

// tapOptions chooses options of an ARIA listbox by tapping them, holding
// Control for each after the first, and waits until the listbox shows
// exactly those options selected. The options are found within listbox,
// the selector that found the listbox f.
func (r *trailRun) tapOptions(f found, listbox selector.Selector, labels []string) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		for i, label := range labels {
			within := listbox
			opt, err := r.find(selector.Selector{Role: "option", Name: label, Within: &within}, needActionable)(ctx, p)
			d.addReads(opt.reads)
			if err != nil {
				return d, err
			}
			var mods []trail.Modifier
			if i > 0 {
				mods = []trail.Modifier{trail.ModifierControl}
			}
			d.markInput(p)
			err = (browser.Mouse{Target: p.target, Reached: &d.reached}).Click(ctx, opt.point.X, opt.point.Y, trail.ButtonLeft, 1, mods)
			p.acted()
			if err != nil {
				return d, err
			}
		}
		var selected []string
		err := p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
			selected = selectedOptions(m, f.node.Ref)
			return sameChoice(labels, selected), nil
		})
		if err != nil && ctx.Err() == nil {
			return d, notChosenError(f.node, labels, selected)
		} else if err != nil {
			return d, err
		}
		d.summary = fmt.Sprintf("chose %s in %s", quoteList(labels), diagnose.Describe(f.node))
		return d, nil
	}
}

// selectedOptions lists the names of the selected options of the listbox
// of ref on m's screen (the options it holds, not those of a listbox inside
// it).
func selectedOptions(m *selector.Matcher, ref string) []string {
	var out []string
	p, ok := m.Position(ref)
	if !ok {
		return nil
	}
	for q := p + 1; q < m.End(p); q++ {
		n := m.Nodes()[q]
		if n.Role == "option" && n.Selected != nil && *n.Selected && owningListbox(m, q) == p {
			out = append(out, n.Name)
		}
	}
	return out
}

// owningListbox is the position of the nearest listbox around q, -1 for none.
func owningListbox(m *selector.Matcher, q int32) int32 {
	for a := m.Parent(q); a >= 0; a = m.Parent(a) {
		if m.Nodes()[a].Role == "listbox" {
			return a
		}
	}
	return -1
}

// setChecked taps a checkbox, radio or switch unless it is already as
// wanted, then waits for the page to show the new state.
func setChecked(f found, want bool) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		n, pt := f.node, f.point
		wantState, verb := "true", "checked"
		if !want {
			wantState, verb = "false", "unchecked"
		}
		if checkedState(n) == wantState {
			d.summary = diagnose.Describe(n) + " was already " + verb
			return d, nil
		}
		d.markInput(p)
		p.pressing()
		err := (browser.Mouse{Target: p.target, Reached: &d.reached}).Click(ctx, pt.X, pt.Y, trail.ButtonLeft, 1, nil)
		p.acted()
		if err != nil {
			return d, err
		}
		var now string
		err = p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
			now = "gone"
			if got := m.Node(n.Ref); got != nil {
				now = checkedState(got)
			}
			// A box the app takes away once it is ticked (a to-do checked
			// in a list of the active ones) shows no state to read: the
			// tap reached it, and the step's end says whether it took
			// effect, as it did when the person ticked it.
			return now == wantState || now == "gone" && d.reached, nil
		})
		if err == nil && now == "gone" {
			d.summary = fmt.Sprintf("tapped %s to make it %s; the page then took it away", diagnose.Describe(n), verb)
			return d, nil
		}
		if err != nil || now != wantState {
			return d, &stepError{Reason: StopActionUncertain, Expected: verb, Actual: "checked=" + now,
				Msg: fmt.Sprintf("tapped %s, but it did not become %s (checked=%s)", diagnose.Describe(n), verb, now)}
		}
		d.summary = verb + " " + diagnose.Describe(n)
		return d, nil
	}
}

// checkedState is a node's checked state as assertions name it.
func checkedState(n *screen.Node) string {
	if n.Checked == "" {
		return "false"
	}
	return n.Checked
}

// hover moves the mouse over the element's centre.
func hover(f found) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		d := done{reached: true}
		pt := f.point
		defer p.acted()
		p.pressing()
		if err := (browser.Mouse{Target: p.target, Reached: &d.reached}).Move(ctx, pt.X, pt.Y, 0); err != nil {
			return d, err
		}
		d.summary = "hovered over " + diagnose.Describe(f.node)
		return d, nil
	}
}

// upload sets the files of a file input through the protocol, which fires
// its input and change events. Paths are relative to the trail's folder,
// and read through it (uploadFiles); line is the action's in the trail file.
func (r *trailRun) upload(f found, files []string, line int) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		n := f.node
		if n.Tag != "input" {
			return d, fmt.Errorf("upload works on a file input, and %s is a <%s>", diagnose.Describe(n), n.Tag)
		}
		paths, err := r.uploadFiles(files, line)
		if err != nil {
			return d, err
		}
		err = withElement(ctx, p, n.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
			d.reached = true
			_, err := cdp.Call(ctx, m.Session(), dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: obj})
			return err
		})
		p.acted()
		if err != nil {
			return d, err
		}
		d.summary = fmt.Sprintf("attached %s to %s", quoteList(files), diagnose.Describe(n))
		return d, nil
	}
}
