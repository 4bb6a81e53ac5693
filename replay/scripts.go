package replay

import (
	"github.com/trailpin/trailpin/extension"
)

// The JavaScript replay runs in a page's world, besides the page model
// itself, lives in extension/replay/ (one function expression per file,
// type-checked with the extension). Replay calls each script with its values
// as call arguments; no value is ever written into a script's source.
var (
	// aimScript scrolls a target into view and reads it twice (aim).
	aimScript = extension.ReplayScript("aim.js")
	// nextFrameScript waits two of the page's frames (aimInFrame).
	nextFrameScript = extension.ReplayScript("next-frame.js")
	// watchScript installs the change watcher (see wait.go).
	watchScript = extension.ReplayScript("watch.js")
	// watchCountScript reads the watcher's counter.
	watchCountScript = extension.ReplayScript("watch-count.js")
	// watchNextScript waits for the counter to move.
	watchNextScript = extension.ReplayScript("watch-next.js")
	// documentStateScript reads the document's URL and readyState.
	documentStateScript = extension.ReplayScript("document-state.js")
	// selectOptionsScript chooses the options of a <select>.
	selectOptionsScript = extension.ReplayScript("select-options.js")
	// dropDownPressScript keeps a drop-down's list shut through a tap on it,
	// and gives it the focus after.
	dropDownPressScript = extension.ReplayScript("drop-down-press.js")
	// setValueScript sets a native slider, number, date, time or colour input.
	setValueScript = extension.ReplayScript("set-value.js")
	// ariaValueScript reads (and focuses) an ARIA slider or spin button.
	ariaValueScript = extension.ReplayScript("aria-value.js")
	// typingTargetScript says where an action on an element lands: its
	// document's origin, and whether it has the focus (the agent's guard).
	typingTargetScript = extension.ReplayScript("typing-target.js")
	// dragWatchScript says whether the page started an HTML5 drag (drag).
	dragWatchScript = extension.ReplayScript("drag-watch.js")
)

// documentState is documentStateScript's answer.
type documentState struct {
	Href  string `json:"href"`
	Ready string `json:"ready"`
}
