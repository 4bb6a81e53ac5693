package replay

import (
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

// endValueHold is how long the end values must hold before a step passes:
// a page's own script that undoes a setting (a controlled input put back on
// its next render, a handler's timer) does it within a few frames, and a
// look that came before it would pass a step that did not stick.
const endValueHold = 100 * time.Millisecond

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
