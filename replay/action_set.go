package replay

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// set gives a control a person sets by dragging or by keys the value it was
// recorded with, the way the control takes it (docs/trail-format.md, set):
//
//   - a native <input> (range, number, date, time, colour…) through its
//     value setter and the input and change events a person's setting fires.
//     Dragging its thumb to a point would land on a value that depends on the
//     control's width and the pointer's rounding, and typing into a range or
//     a colour input does nothing: the value is what was recorded, so it is
//     what is given.
//   - an ARIA slider or spin button by its arrow keys, one at a time, reading
//     aria-valuenow after each: its value lives in the page's script, which
//     only its keys (the WAI-ARIA pattern's contract) or a pointer reach.
//
// Either way the value is read back, and a control that does not end at the
// recorded value fails the action with expected and actual: a replay never
// passes with the control at another value.
func (r *trailRun) set(f found, a trail.Set) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		want, err := r.vals.expand(a.Value)
		if err != nil {
			return d, err
		}
		n := f.node
		if n.Tag != "input" && (n.Role == "slider" || n.Role == "spinbutton") {
			return r.setByKeys(ctx, p, f, want)
		}
		var answer struct {
			Value   *string `json:"value"`
			Refused string  `json:"refused"`
		}
		d.markInput(p)
		err = withElement(ctx, p, n.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
			d.reached = true
			return m.CallOnArgs(ctx, obj, setValueScript, &answer, want)
		})
		p.acted()
		switch {
		case err != nil:
			return d, err
		case answer.Refused != "":
			d.reached = false
			return d, fmt.Errorf("set works on a slider, a number, date, time or colour input, or an ARIA slider or spin button, and %s is %s; use type for a text field", diagnose.Describe(n), answer.Refused)
		case answer.Value == nil || *answer.Value != want:
			got := ""
			if answer.Value != nil {
				got = *answer.Value
			}
			return d, notSetError(n, want, got)
		}
		d.summary = fmt.Sprintf("set %s to %q", diagnose.Describe(n), r.vals.public(a.Value))
		return d, nil
	}
}

// notSetError says that a control did not take the value a set gave it.
func notSetError(n *screen.Node, want, got string) *stepError {
	return &stepError{Reason: StopActionFailed, Expected: want, Actual: got,
		Msg: fmt.Sprintf("set: %s did not take the value %q: it shows %q", diagnose.Describe(n), want, got)}
}

// maxSliderKeys bounds the arrow keys a set presses on an ARIA slider: a
// slider from 0 to 1000 in steps of 1 is the widest a person moves by keys;
// one that needs more is not reaching its value.
const maxSliderKeys = 1000

// setByKeys moves an ARIA slider or spin button to want with its arrow keys.
func (r *trailRun) setByKeys(ctx context.Context, p *tab, f found, want string) (done, error) {
	var d done
	n := f.node
	target, err := strconv.ParseFloat(want, 64)
	if err != nil {
		return d, fmt.Errorf("set: %s takes a number (its aria-valuenow), and the trail gives %q", diagnose.Describe(n), want)
	}
	up, down := "ArrowRight", "ArrowLeft"
	if n.Role == "spinbutton" {
		up, down = "ArrowUp", "ArrowDown"
	}
	d.markInput(p)
	defer p.acted()
	err = withElement(ctx, p, n.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
		read := func(focus bool) (string, bool, error) {
			var v struct {
				Now     *string `json:"now"`
				Focused bool    `json:"focused"`
			}
			err := m.CallOnArgs(ctx, obj, ariaValueScript, &v, focus)
			if err != nil || v.Now == nil {
				return "", v.Focused, err
			}
			return *v.Now, v.Focused, nil
		}
		now, focused, err := read(true)
		if err != nil {
			return err
		}
		if !focused {
			// The slider is there, as the trail names it, and its page
			// does not let it take the focus: the app's behaviour.
			return &stepError{Reason: StopActionFailed, Expected: "the focus on " + diagnose.Describe(n), Actual: "the focus elsewhere",
				Msg: fmt.Sprintf("set: %s does not take the focus, so its arrow keys cannot reach it", diagnose.Describe(n))}
		}
		kb := browser.Keyboard{Target: p.target, Reached: &d.reached}
		for range maxSliderKeys {
			cur, err := strconv.ParseFloat(now, 64)
			if err != nil {
				return notSetError(n, want, now)
			}
			if math.Abs(cur-target) < 1e-9 {
				return nil
			}
			k := up
			if target < cur {
				k = down
			}
			key, _ := browser.KeyFor(k)
			if err := kb.Press(ctx, key, nil); err != nil {
				return err
			}
			next, err := awaitAriaValue(ctx, now, read, r.opts.ActionTimeout)
			if err != nil {
				return err
			}
			moved, err := strconv.ParseFloat(next, 64)
			if err != nil || next == now || (moved-target)*(cur-target) < 0 {
				// It stopped (a limit, a refusal) or stepped over the value.
				return notSetError(n, want, next)
			}
			now = next
		}
		return notSetError(n, want, now)
	})
	if err != nil {
		return d, err
	}
	d.summary = fmt.Sprintf("set %s to %q", diagnose.Describe(n), want)
	return d, nil
}

// awaitAriaValue waits until aria-valuenow is no longer was (the page's
// script answers a key in its own time), up to timeout (the action
// timeout); it returns the value then, or was when it never moved.
func awaitAriaValue(ctx context.Context, was string, read func(bool) (string, bool, error), timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		now, _, err := read(false)
		if err != nil || now != was || time.Now().After(deadline) {
			return now, err
		}
		select {
		case <-ctx.Done():
			return now, ctx.Err()
		case <-time.After(wait):
		}
	}
}
