package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// Replay's actions are values. An Action is a plain func that runs against
// a tab and returns what it found or did (chromedp's Action[T], over a
// replay tab): find returns the element a selector or a ref names, once it
// is ready to be used; an act takes that element and returns a done, what
// it did; a recorded action is a find and an act composed (play), and the
// step runner (runStep) applies a step's recorded actions in order and stops
// at the first error with its stop reason. Nothing passes between them but
// these values, so the agent's tools act by ref with the same acts.

// An Action is one thing replay does on a page, returning its value. The
// value is what the action found or did so far even when it returns an
// error (what a wait read before it gave up, whether input was sent).
type Action[T any] func(ctx context.Context, p *tab) (T, error)

// A found element: the node a selector or ref named on the live screen,
// where to act on it (nil when the need asks no point), and what the wait
// read on the way.
type found struct {
	node  *screen.Node
	point *browser.RefPoint
	reads []string
	// on is the screen the element was found on.
	on *screen.Screen
}

// A done is what an action did: the value every recorded action returns,
// from which the runner writes its ActionResult and the hand-off record.
type done struct {
	// summary says what was done in words ("tapped button \"Apply\"").
	summary string
	// node is the element it landed on or read; landed is its snapshot
	// line, or what it landed on when that is no node (a dialog). on is
	// the screen an action on an element found it on: the page as it was
	// just before the input.
	node   *screen.Node
	landed string
	on     *screen.Screen
	// reads lists what it read while it waited, each once, in order.
	reads []string
	// reached: input was sent, so a failure after it may have reached the
	// app (action-uncertain rather than action-failed).
	reached bool
	// mark is the tab's navigation counters just before the input, for
	// settle; marked says it was taken.
	mark   navMark
	marked bool
	// navigations counts the navigations of the tab's top frame while the
	// action ran: those it caused.
	navigations int
	// page is the tab the following actions act on, when the action
	// changed it (switchTab).
	page *tab
	// change is the evidence of an assertChange.
	change *assertchange.Evidence
}

// markInput records the tab's navigation counters just before input.
func (d *done) markInput(p *tab) {
	d.mark, d.marked = p.nav.mark(), true
}

// addReads appends what a wait read, each observation once, at most
// maxReads in all.
func (d *done) addReads(reads []string) {
	var l readLog
	for _, s := range d.reads {
		l.add(s)
	}
	for _, s := range reads {
		l.add(s)
	}
	d.reads = l.items
}

// play returns the action that plays a recorded action: for an action on
// an element, find it (waiting for it to be ready as the action needs) and
// act on it; for the actions that change the page, then wait for the
// navigation they started. Every one counts the navigations it caused.
func (r *trailRun) play(a trail.Action) Action[done] {
	return counted(r.plan(a))
}

// plan is play without the count of navigations.
func (r *trailRun) plan(a trail.Action) Action[done] {
	switch a := a.(type) {
	case trail.Navigate:
		return r.navigateTo(a.To)
	case trail.Tap:
		return settled(onElement(r.find(a.Selector, needActionable), func(f found) Action[done] { return tap(f, a) }))
	case trail.TypeText:
		return settled(onElement(r.find(a.Selector, needEditable), func(f found) Action[done] { return r.typeInto(f, a.Text, a.Append, nil) }))
	case trail.Set:
		return settled(onElement(r.find(a.Selector, needEditable), func(f found) Action[done] { return r.set(f, a) }))
	case trail.Press:
		return settled(press(a))
	case trail.SelectOption:
		return settled(onElement(r.find(a.Selector, needActionable), func(f found) Action[done] { return r.choose(f, a) }))
	case trail.Check, trail.Uncheck:
		sel, _ := trail.ActionSelector(a)
		_, want := a.(trail.Check)
		return settled(onElement(r.find(sel, needActionable), func(f found) Action[done] { return setChecked(f, want) }))
	case trail.Hover:
		return onElement(r.find(a.Selector, needPointable), hover)
	case trail.Drag:
		return settled(r.playDrag(a))
	case trail.Upload:
		return onElement(r.find(a.Selector, needAttached), func(f found) Action[done] { return r.upload(f, a.Files, a.Line) })
	case trail.Dialog:
		return r.awaitDialog(a)
	case trail.SwitchTab:
		return r.switchTab(a)
	case trail.AssertVisible:
		return r.assertVisible(a.Selector)
	case trail.AssertNotVisible:
		return r.assertNotVisible(a.Text)
	case trail.AssertValue:
		return r.assertValue(a.Selector, a.Value)
	case trail.AssertState:
		return r.assertState(a.Selector, a.State, a.Want)
	case trail.AssertURL:
		return r.assertURL(a)
	case trail.AssertChange:
		return r.assertChange(a)
	}
	return fails(fmt.Errorf("unknown action %T", a))
}

// fails is an action that does nothing and fails with err.
func fails(err error) Action[done] {
	return func(context.Context, *tab) (done, error) { return done{}, err }
}

// onElement runs find, then act on what it found: the element the act
// lands on and what the wait read are part of its done, also when the act
// fails.
func onElement(find Action[found], act func(found) Action[done]) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		f, err := find(ctx, p)
		if err != nil {
			return done{reads: f.reads}, err
		}
		got, err := act(f)(ctx, p)
		reads := got.reads
		got.reads = f.reads
		got.addReads(reads)
		if got.node == nil {
			got.node = f.node
		}
		got.on = f.on
		return got, err
	}
}

// settled runs act, then waits for the navigation its input started (if
// any) to reach a ready document, up to the navigation timeout. A load
// that takes longer is stopped and noted among the reads, and the next
// action's wait decides whether it matters.
func settled(act Action[done]) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		d, err := act(ctx, p)
		if err != nil || !d.marked {
			return d, err
		}
		expired, err := p.settle(ctx, d.mark)
		if expired {
			d.addReads([]string{(&loadTimeoutError{limit: p.r.opts.NavigationTimeout}).Error() + "; the load was stopped"})
		}
		return d, err
	}
}

// counted runs a and counts the navigations of the tab's top frame while
// it ran.
func counted(a Action[done]) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		before := p.nav.mark()
		d, err := a(ctx, p)
		d.navigations = p.nav.mark().committed - before.committed
		return d, err
	}
}

// find waits until sel (its references filled in) names exactly one
// element that is ready as need says, up to the action timeout.
func (r *trailRun) find(sel selector.Selector, need readiness) Action[found] {
	return func(ctx context.Context, p *tab) (found, error) {
		s, err := expandSelector(sel, r.vals)
		if err != nil {
			return found{}, err
		}
		return p.resolve(ctx, s, need)
	}
}

// findRef waits until the element of ref, a ref of a screen of document
// (its Screen.Document), is ready as need says, up to the action timeout:
// how the agent's tools find what they act on. A ref the page no longer
// shows, or after the page loaded another document, fails at once with a
// *browser.RefError (errors.Is browser.ErrStaleRef): refs are numbered per document, and a
// ref is never taken for another element.
func findRef(ref, document string, need readiness) Action[found] {
	return func(ctx context.Context, p *tab) (found, error) {
		return p.resolveRef(ctx, ref, document, need)
	}
}

// withElement runs fn with a handle on the element of ref, in its frame's
// page-model world.
func withElement(ctx context.Context, p *tab, ref string, fn func(m *browser.Frame, obj runtime.RemoteObjectID) error) error {
	t, err := p.target()
	if err != nil {
		return err
	}
	ctx, cancel := p.in(ctx)
	defer cancel()
	return browser.WithElement(ctx, t, ref, fn)
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
	if a, ok := a.(trail.Drag); ok {
		return "drag " + a.Selector.String() + " to " + a.To.String()
	}
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
