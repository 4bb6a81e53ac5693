package replay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// After a step, each control its end lists must show the value or state
// it ended the recorded step with (docs/trail-format.md, End values): an
// action that reached its value and a page that put another one back a
// moment later, or a step that checked one box too few, is no pass.

// The end values must hold before a step passes: a page's own script that
// undoes a setting does it on its next render or from a timer its handler
// set (a controlled input put back, a validation that resets the field),
// and a look that came before it would pass a step that did not stick. So
// once the values show, holdValues waits for the timers the step's actions
// set (the page's wrapper of setTimeout follows those of at most a second,
// and those they set in turn, wait_timers.go) to run, up to endValueHoldMax,
// then for two of the page's frames, and the values are read again. Where
// the wrapper could not follow them (a frame, a document loaded before
// replay prepared the tab), it waits endValueHold instead.

// endValueHold is the hold where the step's timers are not followed.
const endValueHold = 100 * time.Millisecond

// endValueHoldMax bounds the wait for the step's timers: a page that keeps
// setting timers from them (a poll the action started) is read once it
// has passed.
const endValueHoldMax = time.Second

// holdValues waits, once a step's end values show, for what could still
// put one back (above).
func (p *tab) holdValues(ctx context.Context) error {
	if !p.timersFollowed || p.actionTimers(ctx, "idle", endValueHoldMax) < 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(endValueHold):
		}
		return nil
	}
	if err := p.callInWorld(ctx, nextFrameScript, true, nil); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// expandEndValues fills in the references of an end's values.
func expandEndValues(values []trail.EndValue, vals *values) ([]trail.EndValue, error) {
	out := make([]trail.EndValue, len(values))
	for i, v := range values {
		sel, err := expandSelector(v.Selector, vals)
		if err != nil {
			return nil, err
		}
		v.Selector = sel
		if v.Property == trail.EndPropertyValue {
			if v.Want, err = vals.expand(v.Want); err != nil {
				return nil, err
			}
		}
		out[i] = v
	}
	return out, nil
}

// endValueMismatch checks values on m's screen: nil when each control
// shows what it ended with, else why not (with expected and actual when the
// control is there and shows something else, with the selector when it is
// not there).
func endValueMismatch(m *selector.Matcher, values []trail.EndValue) *stepError {
	for i := range values {
		v := &values[i]
		got, err := m.Match(v.Selector)
		if err != nil {
			var amb *selector.AmbiguousError
			if errors.As(err, &amb) {
				return &stepError{Reason: StopEndMismatch, Msg: "the step's end state: " + err.Error()}
			}
			return &stepError{Reason: StopEndMismatch, Selector: &v.Selector, Msg: "the step's end state did not show: " + err.Error()}
		}
		n := got[0]
		if shown := endValueOf(n, v.Property); shown != v.Want {
			return &stepError{Reason: StopEndMismatch, Expected: v.Want, Actual: shown,
				Msg: fmt.Sprintf("the step's end state: %s ended the recorded step with %s %q, and shows %q", diagnose.Describe(n), v.Property, v.Want, shown)}
		}
	}
	return nil
}

// endValueOf reads the property of n an end value checks.
func endValueOf(n *screen.Node, property string) string {
	switch property {
	case trail.StateChecked:
		return checkedState(n)
	case trail.StateSelected:
		return fmt.Sprint(n.Selected != nil && *n.Selected)
	}
	return n.Value
}
