package replay

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// playDrag finds the element dragged and the one dropped on, and drags
// from the one to the other with trusted input (docs/trail-format.md,
// drag). Whether the drop took effect is the step's end's to say: the
// card shows in its new list.
func (r *trailRun) playDrag(a trail.Drag) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		src, err := r.find(a.Selector, needActionable)(ctx, p)
		if err != nil {
			return done{reads: src.reads}, err
		}
		to, err := r.find(a.To, needPointable)(ctx, p)
		if err != nil {
			d := done{reads: src.reads, node: src.node, on: src.on}
			d.addReads(to.reads)
			return d, fmt.Errorf("drag: the element to drop on: %w", err)
		}
		// Finding the target may have scrolled the page: where the
		// dragged element is now.
		again, err := findRef(src.node.Ref, src.on.Document, needActionable)(ctx, p)
		if err == nil {
			src = again
		}
		p.dragStart = src.on
		d, err := drag(src, to, a.Offset)(ctx, p)
		reads := d.reads
		d.reads = src.reads
		d.addReads(to.reads)
		d.addReads(reads)
		d.node, d.on = src.node, src.on
		return d, err
	}
}

// drag presses the mouse on from's centre, moves it to to's centre (or
// the point offset gives within it) and releases it there.
func drag(from, to found, offset *trail.Offset) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		x, y := to.point.X, to.point.Y
		if offset != nil {
			x, y = to.point.Box.X+float64(offset.X), to.point.Box.Y+float64(offset.Y)
		}
		watch, stop, err := p.watchDrag(ctx, from.node.Ref)
		if err != nil {
			return d, err
		}
		defer stop()
		d.markInput(p)
		defer p.acted()
		ms := browser.Mouse{Target: p.target, Reached: &d.reached}
		p.pressing()
		native, err := ms.Drag(ctx, from.point.X, from.point.Y, x, y, watch)
		if err != nil {
			return d, err
		}
		d.summary = "dragged " + diagnose.Describe(from.node) + " to " + diagnose.Describe(to.node)
		if native {
			d.summary += " (drag and drop)"
		}
		return d, nil
	}
}

// watchDrag gets ready for a drag the page may start natively from the
// element of ref: it listens for the element's dragstart in its frame, and
// has the browser intercept the drag rather than start one (a headless
// browser has no system drag loop). stop ends the interception.
func (p *tab) watchDrag(ctx context.Context, ref string) (*browser.DragWatch, func(), error) {
	intercepted := make(chan *input.DragData, 1)
	lctx, cancel := context.WithCancel(p.ctx)
	if err := chromedp.Listen(lctx, func(ev any) {
		if ev, ok := ev.(*input.EventDragIntercepted); ok {
			select {
			case intercepted <- ev.Data:
			default:
			}
		}
	}); err != nil {
		cancel()
		return nil, nil, err
	}
	var answer struct {
		Started bool `json:"started"`
	}
	ask := func(ctx context.Context, what string) error {
		return withElement(ctx, p, ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
			return m.CallOnArgs(ctx, obj, dragWatchScript, &answer, what)
		})
	}
	if err := ask(ctx, "watch"); err != nil {
		cancel()
		return nil, nil, err
	}
	if _, err := call(ctx, p, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		cancel()
		return nil, nil, err
	}
	stop := func() {
		// The interception ends even when ctx has run out.
		if t, err := p.target(); err == nil {
			_, _ = cdp.Call(p.ctx, t, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false})
		}
		cancel()
	}
	watch := &browser.DragWatch{
		Started: func(ctx context.Context) (bool, error) {
			if err := ask(ctx, "started"); err != nil {
				return false, err
			}
			return answer.Started, nil
		},
		Intercepted: intercepted,
	}
	return watch, stop, nil
}

// leftInPlace adds to the error of an end state whose node sel, scoped by
// a within, matched nothing there the evidence that the step's drag moved
// nothing: the element sel names without its scope shows once, where it
// showed on before, the screen the drag began on (a card a drag should
// have put in Done still in To do). That is the app refusing what the step did (app-bug, expected
// vs actual), not a node gone missing. It reports whether it added it.
func leftInPlace(se *stepError, m *selector.Matcher, before *screen.Screen, sel selector.Selector) bool {
	if sel.Within == nil || before == nil || before.Document != m.Screen().Document {
		return false
	}
	bare := sel
	bare.Within, bare.Index = nil, nil
	now, err := m.Match(bare)
	if err != nil || len(now) != 1 {
		return false
	}
	mb := selector.NewMatcher(before)
	was, err := mb.Match(bare)
	if err != nil || len(was) != 1 || was[0].Ref != now[0].Ref {
		return false
	}
	where, whereBefore := holder(m, now[0].Ref), holder(mb, was[0].Ref)
	if where == nil || whereBefore == nil || where.Ref != whereBefore.Ref {
		return false
	}
	se.Expected = bare.String() + " within " + sel.Within.String()
	se.Actual = bare.String() + " in " + diagnose.Describe(where)
	se.Msg = fmt.Sprintf("the step's end state did not show %s: %s is still where it was when the step began, in %s",
		sel, diagnose.Describe(now[0]), diagnose.Describe(where))
	return true
}

// holder is the nearest element around ref with a role other than generic
// (the list a card is in), nil for none.
func holder(m *selector.Matcher, ref string) *screen.Node {
	p, ok := m.Position(ref)
	if !ok {
		return nil
	}
	for a := m.Parent(p); a >= 0; a = m.Parent(a) {
		if n := m.Nodes()[a]; n.Role != "" && n.Role != "generic" && n.Role != "listitem" {
			return n
		}
	}
	return nil
}
