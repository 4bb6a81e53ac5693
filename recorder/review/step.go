package review

import (
	"fmt"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A Step is what the review knows of one recorded step: what it is for,
// what it does, the selector the recorder chose, and the session's screens
// where its element appears.
type Step struct {
	// Intent is the step's goal in words.
	Intent string
	// Action is the kind of the action the selector belongs to (tap, type,
	// select, assertVisible, assertValue, …).
	Action trail.ActionKind
	// Recorded is the recorder's choice: the selector the step holds now.
	Recorded selector.Selector
	// Target is the ref of the element on the screens (refs stay with their
	// element for the whole document, docs/screen-schema.md).
	Target string
	// Screens are the session's captured screens; the first is the one the
	// step was recorded on. Screens where the element is not shown are
	// passed over.
	Screens []*screen.Screen
	// Sensitive are the values the session marked sensitive: no option
	// ever names them.
	Sensitive []string
}

// A Purpose is what the step is, as the engine reads it from its action.
type Purpose string

const (
	// PurposeAction: the step acts on a control (tap, type, select, …).
	PurposeAction Purpose = "action"
	// PurposeAssertVisible: the step checks what the element shows; whether
	// the value or only the element's presence is the claim is the intent's
	// to say.
	PurposeAssertVisible Purpose = "assertVisible"
	// PurposeAssertValue: the step checks a control's value or state, which
	// the step holds apart from its selector: the selector names the
	// control.
	PurposeAssertValue Purpose = "assertValue"
)

// purposeOf says what kind of step an action kind makes, and the purpose the
// generator names its element for.
func purposeOf(kind trail.ActionKind, target *screen.Node) (Purpose, selector.Purpose, error) {
	switch kind {
	case trail.ActionTap, trail.ActionCheck, trail.ActionUncheck, trail.ActionHover, trail.ActionDrag, trail.ActionUpload:
		return PurposeAction, selector.PurposeTap, nil
	case trail.ActionType, trail.ActionSet, trail.ActionPress:
		return PurposeAction, selector.PurposeType, nil
	case trail.ActionSelect:
		return PurposeAction, selector.PurposeSelect, nil
	case trail.ActionAssertVisible:
		return PurposeAssertVisible, selector.PurposeAssert, nil
	case trail.ActionAssertValue, trail.ActionAssertState:
		// As the recorder names it (recorder/steps, assertValue): a
		// drop-down by what a choice names it by.
		if target != nil && (target.Role == "combobox" || target.Role == "listbox") {
			return PurposeAssertValue, selector.PurposeSelect, nil
		}
		return PurposeAssertValue, selector.PurposeAssert, nil
	}
	return "", "", fmt.Errorf("reviewing a %q step: only steps that name an element by a selector are reviewed (tap, type, set, press, select, check, uncheck, hover, drag, upload, assertVisible, assertValue, assertState)", kind)
}
