package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A pageAction is one small thing replay does on a page. A recorded action
// is played as a short list of them, run in order until one fails (the
// shape of chromedp's actions: plain funcs over a target). They share what
// the recorded action found so far (its target, its result) through the
// run's current attempt.
type pageAction func(ctx context.Context, p *tab) error

// runActions runs acts in order on the run's current page (a switchTab
// changes it) and stops at the first error.
func runActions(ctx context.Context, r *trailRun, acts []pageAction) error {
	for _, a := range acts {
		if err := a(ctx, r.page); err != nil {
			return err
		}
	}
	return nil
}

// plan returns the page actions that play a recorded action.
func (r *trailRun) plan(a trail.Action) []pageAction {
	var t subject
	switch a := a.(type) {
	case trail.Navigate:
		return []pageAction{r.navigateTo(a.To)}
	case trail.Tap:
		return []pageAction{t.find(r, a.Selector, needActionable), t.click(r, a), r.settle}
	case trail.TypeText:
		return []pageAction{t.find(r, a.Selector, needActionable), t.typeInto(r, a.Text), r.settle}
	case trail.Press:
		return []pageAction{r.press(a), r.settle}
	case trail.SelectOption:
		return []pageAction{t.find(r, a.Selector, needActionable), t.choose(r, a), r.settle}
	case trail.Check:
		return []pageAction{t.find(r, a.Selector, needActionable), t.setChecked(r, true), r.settle}
	case trail.Uncheck:
		return []pageAction{t.find(r, a.Selector, needActionable), t.setChecked(r, false), r.settle}
	case trail.Hover:
		return []pageAction{t.find(r, a.Selector, needPointable), t.hover(r)}
	case trail.Upload:
		return []pageAction{t.find(r, a.Selector, needAttached), t.upload(r, a.Files, a.Line)}
	case trail.Dialog:
		return []pageAction{r.awaitDialog(a)}
	case trail.SwitchTab:
		return []pageAction{r.switchTab(a)}
	case trail.AssertVisible:
		return []pageAction{r.assertVisible(a.Selector)}
	case trail.AssertNotVisible:
		return []pageAction{r.assertNotVisible(a.Text)}
	case trail.AssertValue:
		return []pageAction{r.assertValue(a.Selector, a.Value)}
	case trail.AssertState:
		return []pageAction{r.assertState(a.Selector, a.State, a.Want)}
	case trail.AssertURL:
		return []pageAction{r.assertURL(a)}
	case trail.AssertChange:
		return []pageAction{func(context.Context, *tab) error {
			return &stepError{Reason: StopActionFailed, Class: ClassMissingTestData, Line: a.SourceLine(),
				Msg: "assertChange is not supported yet: replay will check what an action changed in a later version; remove the assertion or replace it with assertVisible or assertNotVisible"}
		}}
	}
	return []pageAction{func(context.Context, *tab) error {
		return fmt.Errorf("unknown action %T", a)
	}}
}

// subject is what the first page action of a recorded action found, for the
// ones after it.
type subject struct {
	got *resolved
}

// find waits for the element sel names to be ready as need says.
func (t *subject) find(r *trailRun, sel selector.Selector, need readiness) pageAction {
	return func(ctx context.Context, p *tab) error {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return err
		}
		got, err := p.resolve(ctx, s, need, r.cur.reads)
		if err != nil {
			return err
		}
		t.got = got
		p.lastTarget = got.node.Ref
		r.cur.res.Landed = nodeLine(got.node)
		return nil
	}
}

// click taps the target at its centre.
func (t *subject) click(r *trailRun, a trail.Tap) pageAction {
	return func(ctx context.Context, p *tab) error {
		r.cur.mark = p.nav.mark()
		defer p.acted()
		pt := t.got.point
		if err := (mouse{p: p, reached: &r.cur.reached}).click(ctx, pt.X, pt.Y, a.Button, a.Count, a.Modifiers); err != nil {
			return err
		}
		verb := "tapped"
		if a.Count == 2 {
			verb = "double-tapped"
		} else if a.Count > 2 {
			verb = fmt.Sprintf("tapped %d times", a.Count)
		}
		r.cur.res.Summary = verb + " " + describe(t.got.node) + withModifiers(a.Modifiers)
		return nil
	}
}

// typeInto clicks the field, clears it as a person does (select all,
// delete) and types text. Secrets are filled in here, at the last moment,
// and never leave this function.
func (t *subject) typeInto(r *trailRun, text string) pageAction {
	return func(ctx context.Context, p *tab) error {
		n, pt := t.got.node, t.got.point
		r.cur.mark = p.nav.mark()
		defer p.acted()
		ms := mouse{p: p, reached: &r.cur.reached}
		if err := ms.click(ctx, pt.X, pt.Y, trail.ButtonLeft, 1, nil); err != nil {
			return err
		}
		kb := keyboard{p: p, reached: &r.cur.reached}
		if n.Value != "" || n.Secret {
			if err := kb.clearField(ctx); err != nil {
				return err
			}
		}
		value, err := r.vals.expand(text)
		if err != nil {
			return err
		}
		err = kb.typeText(ctx, value)
		value = ""
		if err != nil {
			return err
		}
		if text == "" {
			r.cur.res.Summary = "cleared " + describe(n)
		} else {
			r.cur.res.Summary = fmt.Sprintf("typed %q into %s", r.vals.public(text), describe(n))
		}
		return nil
	}
}

// press presses a key on the focused element.
func (r *trailRun) press(a trail.Press) pageAction {
	return func(ctx context.Context, p *tab) error {
		r.cur.mark = p.nav.mark()
		defer p.acted()
		kb := keyboard{p: p, reached: &r.cur.reached}
		k, ok := keyFor(a.Key)
		if ok {
			if err := kb.press(ctx, k, a.Modifiers); err != nil {
				return err
			}
		} else if err := kb.typeText(ctx, a.Key); err != nil {
			return err
		}
		r.cur.res.Summary = "pressed " + a.Key + withModifiers(a.Modifiers)
		return nil
	}
}

// settle waits for the navigation the action started, if any.
func (r *trailRun) settle(ctx context.Context, p *tab) error {
	return p.settle(ctx, r.cur.mark)
}

// choose selects options of a <select> through the page model's element,
// firing input and change as a person's choice does, or taps the options of
// an ARIA listbox.
func (t *subject) choose(r *trailRun, a trail.SelectOption) pageAction {
	return func(ctx context.Context, p *tab) error {
		n := t.got.node
		labels := make([]string, len(a.Options))
		for i, o := range a.Options {
			v, err := r.vals.expand(o)
			if err != nil {
				return err
			}
			labels[i] = v
		}
		if n.Tag != "select" {
			if n.Role != "listbox" {
				return fmt.Errorf("select works on a drop-down (<select>) or a listbox, and %s is neither", describe(n))
			}
			return t.tapOptions(ctx, r, p, a.Selector, labels)
		}
		var answer struct {
			Missing string   `json:"missing"`
			Single  bool     `json:"single"`
			Options []string `json:"options"`
		}
		r.cur.mark = p.nav.mark()
		err := withElement(ctx, p, n.Ref, func(m *frameModel, obj runtime.RemoteObjectID) error {
			r.cur.reached = true
			return m.callOnArgs(ctx, obj, selectOptionsScript, &answer, labels)
		})
		p.acted()
		switch {
		case err != nil:
			return err
		case answer.Single:
			return fmt.Errorf("%s takes one option, and the trail chooses %d", describe(n), len(labels))
		case answer.Missing != "":
			r.cur.reached = false
			return &stepError{Reason: StopActionFailed, Expected: fmt.Sprintf("an option %q", answer.Missing),
				Actual: "options " + quoteList(answer.Options),
				Msg:    fmt.Sprintf("select: %s has no option %q (it has %s)", describe(n), answer.Missing, quoteList(answer.Options))}
		}
		r.cur.res.Summary = fmt.Sprintf("chose %s in %s", quoteList(labels), describe(n))
		return nil
	}
}

// tapOptions chooses options of an ARIA listbox by tapping them, holding
// Control for each after the first.
func (t *subject) tapOptions(ctx context.Context, r *trailRun, p *tab, listbox selector.Selector, labels []string) error {
	for i, label := range labels {
		within := listbox
		opt := selector.Selector{Role: "option", Name: label, Within: &within}
		s, err := expandSelector(opt, r.vals)
		if err != nil {
			return err
		}
		got, err := p.resolve(ctx, s, needActionable, r.cur.reads)
		if err != nil {
			return err
		}
		var mods []trail.Modifier
		if i > 0 {
			mods = []trail.Modifier{trail.ModifierControl}
		}
		r.cur.mark = p.nav.mark()
		err = (mouse{p: p, reached: &r.cur.reached}).click(ctx, got.point.X, got.point.Y, trail.ButtonLeft, 1, mods)
		p.acted()
		if err != nil {
			return err
		}
	}
	r.cur.res.Summary = fmt.Sprintf("chose %s in %s", quoteList(labels), describe(t.got.node))
	return nil
}

// setChecked taps a checkbox, radio or switch unless it is already as
// wanted, then waits for the page to show the new state.
func (t *subject) setChecked(r *trailRun, want bool) pageAction {
	return func(ctx context.Context, p *tab) error {
		n, pt := t.got.node, t.got.point
		wantState, verb := "true", "checked"
		if !want {
			wantState, verb = "false", "unchecked"
		}
		if checkedState(n) == wantState {
			r.cur.res.Summary = describe(n) + " was already " + verb
			return nil
		}
		r.cur.mark = p.nav.mark()
		err := (mouse{p: p, reached: &r.cur.reached}).click(ctx, pt.X, pt.Y, trail.ButtonLeft, 1, nil)
		p.acted()
		if err != nil {
			return err
		}
		var now string
		err = p.poll(ctx, true, func(s *screen.Screen, m *selector.Matcher) (bool, error) {
			now = "gone"
			if got := m.Node(n.Ref); got != nil {
				now = checkedState(got)
			}
			return now == wantState, nil
		})
		if err != nil || now != wantState {
			return &stepError{Reason: StopActionUncertain, Expected: verb, Actual: "checked=" + now,
				Msg: fmt.Sprintf("tapped %s, but it did not become %s (checked=%s)", describe(n), verb, now)}
		}
		r.cur.res.Summary = verb + " " + describe(n)
		return nil
	}
}

// checkedState is a node's checked state as assertions name it.
func checkedState(n *screen.Node) string {
	if n.Checked == "" {
		return "false"
	}
	return n.Checked
}

// hover moves the mouse over the target's centre.
func (t *subject) hover(r *trailRun) pageAction {
	return func(ctx context.Context, p *tab) error {
		pt := t.got.point
		r.cur.reached = true
		defer p.acted()
		if err := (mouse{p: p, reached: &r.cur.reached}).move(ctx, pt.X, pt.Y, 0); err != nil {
			return err
		}
		r.cur.res.Summary = "hovered over " + describe(t.got.node)
		return nil
	}
}

// upload sets the files of a file input through the protocol, which fires
// its input and change events. Paths are relative to the trail's folder,
// and read through it (uploadFiles); line is the action's in the trail file.
func (t *subject) upload(r *trailRun, files []string, line int) pageAction {
	return func(ctx context.Context, p *tab) error {
		n := t.got.node
		if n.Tag != "input" {
			return fmt.Errorf("upload works on a file input, and %s is a <%s>", describe(n), n.Tag)
		}
		paths, err := r.uploadFiles(files, line)
		if err != nil {
			return err
		}
		err = withElement(ctx, p, n.Ref, func(m *frameModel, obj runtime.RemoteObjectID) error {
			r.cur.reached = true
			_, err := cdp.Call(ctx, m.session, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: paths, ObjectID: obj})
			return err
		})
		p.acted()
		if err != nil {
			return err
		}
		r.cur.res.Summary = fmt.Sprintf("attached %s to %s", quoteList(files), describe(n))
		return nil
	}
}

// withElement runs fn with a handle on the element of ref, in its frame's
// page-model world.
func withElement(ctx context.Context, p *tab, ref string, fn func(m *frameModel, obj runtime.RemoteObjectID) error) error {
	t, err := p.target()
	if err != nil {
		return err
	}
	ctx, cancel := p.in(ctx)
	defer cancel()
	loc, err := locate(ctx, t, ref, nil)
	if err != nil {
		return err
	}
	defer loc.close()
	obj, err := loc.model.element(ctx, "elementForRef", loc.local)
	if err != nil {
		return err
	}
	defer loc.model.release(ctx, obj)
	return fn(loc.model, obj)
}

// poll calls check until it reports done or the action timeout passes,
// looking at the page between tries (with a fresh screen when capture is
// set) and waiting for it to change.
func (p *tab) poll(ctx context.Context, capture bool, check func(s *screen.Screen, m *selector.Matcher) (bool, error)) error {
	return p.pollFor(ctx, p.r.opts.ActionTimeout, errors.New("timed out"), capture, check)
}

// pollLoad calls check until it reports done or the navigation timeout
// passes: a wait for a page to load, which fails with a *loadTimeoutError.
func (p *tab) pollLoad(ctx context.Context, check func() (bool, error)) error {
	limit := p.r.opts.NavigationTimeout
	return p.pollFor(ctx, limit, &loadTimeoutError{limit: limit}, false, func(*screen.Screen, *selector.Matcher) (bool, error) {
		return check()
	})
}

// pollFor is poll up to limit; expired is the error when the time ran out
// and check reported no error of its own.
func (p *tab) pollFor(ctx context.Context, limit time.Duration, expired error, capture bool,
	check func(s *screen.Screen, m *selector.Matcher) (bool, error)) error {
	deadline := time.Now().Add(limit)
	for attempt := 0; ; attempt++ {
		var s *screen.Screen
		var m *selector.Matcher
		var err error
		seq := int64(-1)
		if capture {
			s, m, err = p.look(ctx)
			seq = p.seq
		} else {
			seq, err = p.changeSeq(ctx)
		}
		if err == nil {
			var done bool
			if done, err = check(s, m); done && err == nil {
				return nil
			}
		}
		if gone := p.nav.gone(); gone != nil {
			return gone
		}
		if broken := p.brokenDocument(); broken != nil {
			return broken
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = expired
			}
			return err
		}
		p.waitChange(ctx, seq, min(backoff(attempt), time.Until(deadline)+time.Millisecond))
	}
}

// callOnArgs calls fn (a JavaScript function source) with this = obj and
// JSON arguments in the world, and decodes its JSON result into out.
func (m *frameModel) callOnArgs(ctx context.Context, obj runtime.RemoteObjectID, fn string, out any, args ...any) error {
	callArgs := make([]*runtime.CallArgument, len(args))
	for i, a := range args {
		v, err := json.Marshal(a)
		if err != nil {
			return err
		}
		callArgs[i] = &runtime.CallArgument{Value: v}
	}
	r, err := cdp.Call(ctx, m.session, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj, Arguments: callArgs, ReturnByValue: new(true), Silent: new(true),
	})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	if r.Result == nil || out == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

func withModifiers(mods []trail.Modifier) string {
	if len(mods) == 0 {
		return ""
	}
	parts := make([]string, len(mods))
	for i, m := range mods {
		parts[i] = string(m)
	}
	return " with " + strings.Join(parts, "+")
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// describeAction names an action for messages, secrets left as references.
func describeAction(a trail.Action, v *values) string {
	if sel, ok := trail.ActionSelector(a); ok {
		return string(a.Kind()) + " " + sel.String()
	}
	switch a := a.(type) {
	case trail.Navigate:
		return "navigate " + v.public(a.To)
	case trail.Press:
		return "press " + a.Key + withModifiers(a.Modifiers)
	case trail.SwitchTab:
		if a.URL != "" {
			return "switchTab " + v.public(a.URL)
		}
		return fmt.Sprintf("switchTab %q", v.public(a.Title))
	}
	return string(a.Kind())
}
