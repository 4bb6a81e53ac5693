package browser

import (
	"context"
	"math"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// A drag is the mouse pressed on one point, moved to another in steps with
// the button held, and released there: a library that follows the pointer
// (a sortable list) sees pointerdown, pointermove… and pointerup. When the
// page starts a drag of its own on the way (HTML5 drag and drop: a
// draggable element whose dragstart is not prevented), a headless browser
// has no system drag loop to carry it; the browser intercepts it
// (Input.setInterceptDrags) and the rest of the drag is played as the
// protocol's drag events at the same points: dragEnter, dragOver… and a
// drop where the mouse is released (docs/trail-format.md, drag).

// DragSteps is how many moves a drag makes from its start to its end.
const DragSteps = 12

// A DragWatch tells Drag about a drag the page starts natively. Started
// reports whether the page started one since the press (a dragstart it did
// not prevent); Intercepted delivers the drag the browser intercepted
// instead of starting it, once it did. Nil when the page cannot start one.
type DragWatch struct {
	Started     func(ctx context.Context) (bool, error)
	Intercepted <-chan *input.DragData
}

// Drag presses the left button at (x0, y0), moves to (x1, y1) in
// DragSteps steps with it held, and releases it there. native says the
// page started an HTML5 drag, played as drag events.
func (ms Mouse) Drag(ctx context.Context, x0, y0, x1, y1 float64, watch *DragWatch) (native bool, err error) {
	if err := ms.Move(ctx, x0, y0, 0); err != nil {
		return false, err
	}
	mouse := func(typ input.DispatchMouseEventType, x, y float64, buttons int64) error {
		_, err := dispatch(ctx, ms.Target, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: 1,
		})
		return err
	}
	*ms.Reached = true
	if err := mouse(input.DispatchMouseEventTypeMousePressed, x0, y0, 1); err != nil {
		return false, err
	}
	var data *input.DragData
	for i := 1; i <= DragSteps; i++ {
		f := float64(i) / DragSteps
		x, y := math.Round((x0+(x1-x0)*f)*100)/100, math.Round((y0+(y1-y0)*f)*100)/100
		if data != nil {
			if err := ms.pageTurn(ctx); err != nil {
				return true, err
			}
			if _, err := dispatch(ctx, ms.Target, input.DispatchDragEvent, input.DispatchDragEventParams{
				Type: input.DispatchDragEventTypeDragOver, X: x, Y: y, Data: data,
			}); err != nil {
				return true, err
			}
			continue
		}
		if err := mouse(input.DispatchMouseEventTypeMouseMoved, x, y, 1); err != nil {
			return false, err
		}
		if watch == nil {
			continue
		}
		started, err := watch.Started(ctx)
		if err != nil {
			return false, err
		}
		if !started {
			continue
		}
		// The page started a drag at this move: the browser intercepted
		// it, and the drag goes on as drag events from here.
		select {
		case data = <-watch.Intercepted:
		case <-ctx.Done():
			return true, ctx.Err()
		}
		if _, err := dispatch(ctx, ms.Target, input.DispatchDragEvent, input.DispatchDragEventParams{
			Type: input.DispatchDragEventTypeDragEnter, X: x, Y: y, Data: data,
		}); err != nil {
			return true, err
		}
	}
	if data != nil {
		if err := ms.pageTurn(ctx); err != nil {
			return true, err
		}
		_, err := dispatch(ctx, ms.Target, input.DispatchDragEvent, input.DispatchDragEventParams{
			Type: input.DispatchDragEventTypeDrop, X: x1, Y: y1, Data: data,
		})
		return true, err
	}
	return false, mouse(input.DispatchMouseEventTypeMouseReleased, x1, y1, 0)
}

// pageTurn waits until the page has drawn a frame and run the timers due
// before it: a library that answers dragstart in a timer (SortableJS sets
// its drag up in the next task) ignores the drag events that come first,
// and on a busy machine the protocol's events can all arrive before that
// timer runs. A person's drag gives the page many frames; this gives it one
// between each two events, counted by the page, not guessed in time.
func (ms Mouse) pageTurn(ctx context.Context) error {
	r, err := dispatch(ctx, ms.Target, runtime.Evaluate, runtime.EvaluateParams{
		Expression:   `new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))`,
		AwaitPromise: new(true),
		Silent:       new(true),
	})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	return nil
}
