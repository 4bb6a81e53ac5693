package trail

import (
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// TrailVersion is the version of the trail file format this package reads
// and writes. A file with any other version is refused, not guessed at.
const TrailVersion = 1

// MaxEndShows is how many selectors a step's end may list: enough to tell
// that the step took effect, few enough that the end stays about this step
// rather than a copy of the page (docs/trail-format.md).
const MaxEndShows = 3

// MaxEndValues is how many control values a step's end may list: the
// controls a step sets are few; a step that changes more (a "select all")
// is told by a few of them as well as by all.
const MaxEndValues = 6

// A Trail is one recorded test: a title, the app it runs against, where it
// starts, and ordered steps (docs/trail-format.md). Its YAML form is documented in
// docs/trail-format.md; LoadTrail reads it and MarshalTrail writes it.
type Trail struct {
	// File names where the trail was loaded from, for messages and trace
	// pages; it is not part of the file.
	File string
	// Version is TrailVersion for a loaded trail; MarshalTrail writes
	// TrailVersion and accepts 0 for a trail built in memory.
	Version int
	// Title is the trail's name in words (key `trail`); its slug names the file.
	Title string
	// App names the app in the project config (apps.<app>.baseURL) that
	// gives the origin every path in the trail is relative to.
	App string
	// Viewport, Locale and TimeZone are what the trail was recorded with;
	// replay applies them. Zero values mean "not recorded".
	Viewport screen.Viewport
	Locale   string
	TimeZone string
	// Start is the path (with query and fragment) the trail begins at.
	Start string
	// Params are the trail's named values and their defaults, used as
	// ${param:name} and overridden with --param name=value.
	Params map[string]string
	Steps  []Step
}

// A Step is one goal in words and, usually, the recording that reaches it.
type Step struct {
	// Line is where the step starts in its trail file (0 when built in memory).
	Line int
	// Intent is the goal in words: the agent's instruction, or written for a
	// person's action.
	Intent string
	// By says who performed the recording: ByAgent for a goal the agent
	// performed while a person recorded ("Ask the agent"), "" for a
	// person's own actions.
	By string
	// Client is the outside agent that performed the step, by the name its
	// MCP client gave (docs/mcp.md), with By ByAgent; "" for the built-in
	// agent's and a person's steps. Its recording belongs to no agent
	// configuration of the host's (it has no Key).
	Client string
	// Act is a goal for the agent to perform when the step has no recording
	// yet, or when its recording no longer replays.
	Act string
	// Actions are the recorded actions, in order.
	Actions []Action
	// End is the recorded end state: enough of the screen to tell that the
	// step took effect. Nil when the step has none.
	End *End
	// Key is what the recording belongs to when the agent made it: the
	// agent configuration and the goal it was made for (StepKey, key.go).
	// Empty for a person's recording, which belongs to any.
	Key string
}

// ByAgent is the value of a step's by: key when the agent performed the
// step's recording for its intent while a person recorded.
const ByAgent = "agent"

// End is what the screen shows once a step has taken effect.
type End struct {
	Line int
	// URL is the path (and query) the page is on; empty when not recorded.
	URL string
	// Shows lists up to MaxEndShows selectors of nodes that appeared or
	// changed because of the step; each must match a visible node.
	Shows []selector.Selector
	// Values lists up to MaxEndValues controls the step changed and the
	// value or state each ended with; replay checks each after the step.
	Values []EndValue
}

// The value an EndValue checks, beside the states StateChecked and
// StateSelected.
const EndPropertyValue = "value"

// An EndValue is the value or state a control ended a step with: a
// slider's value, a field's text, a drop-down's choice, a box checked, an
// option selected.
type EndValue struct {
	Selector selector.Selector
	// Property is EndPropertyValue, StateChecked or StateSelected.
	Property string
	// Want is the value for EndPropertyValue, else "true" or "false" (or
	// "mixed" for StateChecked), as AssertState's Want.
	Want string
}

// Origin is where an action was read from: its 1-based line in the trail
// file, 0 when the action was built in memory. Replay's trace page names
// the trail file and this line.
type Origin struct {
	Line int
}

// SourceLine returns the line the action came from.
func (o Origin) SourceLine() int { return o.Line }

// An Action is one thing a step does or checks. It is one of the types
// below (Navigate, Tap, TypeText, …); switch on the concrete type.
type Action interface {
	// Kind is the action's key in a trail file.
	Kind() ActionKind
	// SourceLine is the line the action was read from, 0 if built in memory.
	SourceLine() int
	isAction()
}

// ActionKind is an action's key in a trail file.
type ActionKind string

// The action kinds of docs/trail-format.md, in the order the format documents them.
const (
	ActionNavigate         ActionKind = "navigate"
	ActionTap              ActionKind = "tap"
	ActionType             ActionKind = "type"
	ActionSet              ActionKind = "set"
	ActionPress            ActionKind = "press"
	ActionSelect           ActionKind = "select"
	ActionCheck            ActionKind = "check"
	ActionUncheck          ActionKind = "uncheck"
	ActionHover            ActionKind = "hover"
	ActionDrag             ActionKind = "drag"
	ActionUpload           ActionKind = "upload"
	ActionDialog           ActionKind = "dialog"
	ActionSwitchTab        ActionKind = "switchTab"
	ActionAssertVisible    ActionKind = "assertVisible"
	ActionAssertNotVisible ActionKind = "assertNotVisible"
	ActionAssertValue      ActionKind = "assertValue"
	ActionAssertState      ActionKind = "assertState"
	ActionAssertURL        ActionKind = "assertUrl"
	ActionAssertChange     ActionKind = "assertChange"
)

// ActionKinds lists every action kind in documentation order.
var ActionKinds = []ActionKind{
	ActionNavigate, ActionTap, ActionType, ActionSet, ActionPress, ActionSelect,
	ActionCheck, ActionUncheck, ActionHover, ActionDrag, ActionUpload, ActionDialog,
	ActionSwitchTab, ActionAssertVisible, ActionAssertNotVisible,
	ActionAssertValue, ActionAssertState, ActionAssertURL, ActionAssertChange,
}

// IsAssertion reports whether the kind checks the screen rather than acting
// on it. Assertions wait for visibility only; actions wait for full
// actionability (docs/trail-format.md).
func (k ActionKind) IsAssertion() bool {
	switch k {
	case ActionAssertVisible, ActionAssertNotVisible, ActionAssertValue,
		ActionAssertState, ActionAssertURL, ActionAssertChange:
		return true
	}
	return false
}

// The history moves a Navigate can make instead of going to a path.
const (
	NavigateBack    = "back"
	NavigateForward = "forward"
	NavigateReload  = "reload"
)

// Navigate goes to a path of the app, or moves in history.
type Navigate struct {
	Origin
	// To is a path (with query and fragment, no origin) or one of
	// NavigateBack, NavigateForward, NavigateReload.
	To string
}

// Modifier is a key held during a tap or a key press.
type Modifier string

// The modifiers, named as KeyboardEvent.key names them.
const (
	ModifierAlt     Modifier = "Alt"
	ModifierControl Modifier = "Control"
	ModifierMeta    Modifier = "Meta"
	ModifierShift   Modifier = "Shift"
)

// MouseButton is the button a tap presses.
type MouseButton string

// The mouse buttons; a Tap with no button uses the left one.
const (
	ButtonLeft   MouseButton = "left"
	ButtonMiddle MouseButton = "middle"
	ButtonRight  MouseButton = "right"
)

// Tap clicks an element.
type Tap struct {
	Origin
	Selector selector.Selector
	// Count is the number of clicks: 2 is a double click. 0 means one.
	Count     int
	Modifiers []Modifier
	// Button is the mouse button; empty means the left one.
	Button MouseButton
}

// TypeText replaces the value of a field with Text (the final value a person
// typed). Text may hold ${secret:…}, ${user:…} and ${param:…} references,
// and may be empty to clear the field. Append says the person typed on the
// end of what the field held: replay types the rest of Text after the value
// the field holds when Text starts with it, instead of clearing the field
// first (docs/trail-format.md, type).
type TypeText struct {
	Origin
	Selector selector.Selector
	Text     string
	Append   bool
}

// Set gives a control that a person sets by dragging or by keys rather than
// by typing (a slider, a number spinner, a date, time or colour input) the
// value it ended with, the way the control takes it: a native input through
// its value and the input and change events a person's setting fires, an
// ARIA slider (role slider, spinbutton) by its arrow keys. Replay fails
// when the control does not end at Value.
type Set struct {
	Origin
	Selector selector.Selector
	// Value is the control's value as the page gives it: "30" for a slider,
	// "2026-12-02" for a date, "#ff8800" for a colour.
	Value string
}

// Press presses a key, with modifiers held, on the focused element.
type Press struct {
	Origin
	// Key is a KeyboardEvent.key name (Enter, Escape, Tab, ArrowDown, F2, …)
	// or a single character.
	Key       string
	Modifiers []Modifier
	// AtOnce says the key went down right after the typing before it,
	// before the page acted on what was typed (a timer the typing set, a
	// search box's debounce, had not run yet): replay presses it without
	// the wait after a type (docs/trail-format.md, press).
	AtOnce bool
}

// SelectOption chooses options of a select or listbox by their labels. One
// option is written `option:`, several `options:`.
type SelectOption struct {
	Origin
	Selector selector.Selector
	Options  []string
}

// Check makes a checkbox, radio button or switch checked.
type Check struct {
	Origin
	Selector selector.Selector
}

// Uncheck makes a checkbox or switch unchecked.
type Uncheck struct {
	Origin
	Selector selector.Selector
}

// Hover moves the mouse over an element.
type Hover struct {
	Origin
	Selector selector.Selector
}

// Drag presses the mouse on an element, moves it to another in steps, and
// releases it there: a card dropped into another list (HTML5 drag and
// drop) or an item of a sortable list that follows the pointer. Replay
// fails when the drop did not take effect, which the step's end shows.
type Drag struct {
	Origin
	// Selector names the element dragged.
	Selector selector.Selector
	// To names the element dropped on.
	To selector.Selector
	// Offset is the point within To where the drop happened, from its
	// top-left corner; nil for its centre.
	Offset *Offset
}

// Offset is a point within an element, in CSS pixels from its top-left
// corner.
type Offset struct {
	X, Y int
}

// Upload sets the files of a file input. Files are paths relative to the
// trail file, with forward slashes.
type Upload struct {
	Origin
	Selector selector.Selector
	Files    []string
}

// Dialog answers the JavaScript dialog (alert, confirm, prompt,
// beforeunload) that the previous action opened.
type Dialog struct {
	Origin
	// Accept is true to accept the dialog, false to dismiss it.
	Accept bool
	// PromptText is what is entered into a prompt before accepting it.
	PromptText string
}

// SwitchTab makes a tab or popup the app opened the page that the following
// actions act on. Exactly one of URL and Title is set.
type SwitchTab struct {
	Origin
	// URL is the tab's path (and query), without origin.
	URL string
	// Title is the tab's document title.
	Title string
}

// AssertVisible checks that exactly one visible node matches the selector
// (with an index, that the indexed match exists and is visible).
type AssertVisible struct {
	Origin
	Selector selector.Selector
}

// AssertNotVisible checks that no visible node's normalised text or
// accessible name equals Text.
type AssertNotVisible struct {
	Origin
	Text string
}

// AssertValue checks a form control's current value. Never for secrets.
type AssertValue struct {
	Origin
	Selector selector.Selector
	Value    string
}

// The states an AssertState can check.
const (
	StateChecked  = "checked"
	StateDisabled = "disabled"
	StateExpanded = "expanded"
	StateSelected = "selected"
)

// AssertState checks one state of an element.
type AssertState struct {
	Origin
	Selector selector.Selector
	// State is StateChecked, StateDisabled, StateExpanded or StateSelected.
	State string
	// Want is "true" or "false", or "mixed" for StateChecked: the form the
	// page model gives states in (Node.Checked).
	Want string
}

// AssertURL checks the page's path and query (relative to the app's origin):
// exactly equal to URL, or matching the regular expression Pattern. Exactly
// one of them is set.
type AssertURL struct {
	Origin
	URL     string
	Pattern string
}

// The kinds of change a ChangeMatch can name (docs/screen-diffs.md), as
// recorder/screendiff names them.
const (
	ChangeAdded               = "added"
	ChangeRemoved             = "removed"
	ChangeContent             = "content"
	ChangeState               = "state"
	ChangeStyle               = "style"
	ChangeMoved               = "moved"
	ChangeResized             = "resized"
	ChangePossibleReplacement = "possible-replacement"
)

// A ChangeMatch names changes in a diff: of a kind, on nodes matching a
// selector, with states or styles that ended at a value, or any of these
// together.
type ChangeMatch struct {
	Change   string
	Selector *selector.Selector
	// To lists fields of a state or style change and the value each must
	// have after it (`to: {expanded: true}`: the menu button is now open),
	// in the order written.
	To []ChangeTo
}

// A ChangeTo is one field a change must end at: a state (expanded,
// checked, …) or a style (visible, covered), and its value as a screen
// writes it ("true", "false", "mixed", "3").
type ChangeTo struct {
	Field string
	Value string
}

// Retry is how long a live assertChange captures the page again, against
// the same baseline, until its checks pass.
type Retry struct {
	BudgetMs int
}

// AssertChange checks what the previous action changed (docs/screen-diffs.md). Checks
// against a stored diff (Changed … BecameCovered, DiffID) read the diff
// replay took around the action before the assertion (or the earlier one
// DiffID names); live checks (URL … KeepBaseline) read the page now, against
// the screen taken before that action. The two cannot be mixed in one
// assertion.
type AssertChange struct {
	Origin
	// Checks against the stored diff of the previous action.
	Changed        *bool
	MustInclude    []ChangeMatch
	MustNotInclude []ChangeMatch
	Only           []ChangeMatch
	MaxChanges     *int
	BecameVisible  []selector.Selector
	BecameCovered  []selector.Selector
	// DiffID names an earlier stored diff of the run ("d1" is the first
	// action observed for an assertChange) instead of the previous
	// action's; empty for the previous action's.
	DiffID string
	// Live checks, and how they read the page.
	URL          string
	Exists       []selector.Selector
	NotCovered   []selector.Selector
	SettleMs     *int
	Retry        *Retry
	KeepBaseline *bool
	Ignore       []selector.Selector
}

// IsLive reports whether the assertion reads the page now (any live key is
// set) rather than a stored diff.
func (a AssertChange) IsLive() bool {
	return a.URL != "" || a.Exists != nil || a.NotCovered != nil || a.SettleMs != nil || a.Retry != nil ||
		a.KeepBaseline != nil || a.Ignore != nil
}

func (Navigate) Kind() ActionKind         { return ActionNavigate }
func (Tap) Kind() ActionKind              { return ActionTap }
func (TypeText) Kind() ActionKind         { return ActionType }
func (Set) Kind() ActionKind              { return ActionSet }
func (Press) Kind() ActionKind            { return ActionPress }
func (SelectOption) Kind() ActionKind     { return ActionSelect }
func (Check) Kind() ActionKind            { return ActionCheck }
func (Uncheck) Kind() ActionKind          { return ActionUncheck }
func (Hover) Kind() ActionKind            { return ActionHover }
func (Drag) Kind() ActionKind             { return ActionDrag }
func (Upload) Kind() ActionKind           { return ActionUpload }
func (Dialog) Kind() ActionKind           { return ActionDialog }
func (SwitchTab) Kind() ActionKind        { return ActionSwitchTab }
func (AssertVisible) Kind() ActionKind    { return ActionAssertVisible }
func (AssertNotVisible) Kind() ActionKind { return ActionAssertNotVisible }
func (AssertValue) Kind() ActionKind      { return ActionAssertValue }
func (AssertState) Kind() ActionKind      { return ActionAssertState }
func (AssertURL) Kind() ActionKind        { return ActionAssertURL }
func (AssertChange) Kind() ActionKind     { return ActionAssertChange }

func (Navigate) isAction()         {}
func (Tap) isAction()              {}
func (TypeText) isAction()         {}
func (Set) isAction()              {}
func (Press) isAction()            {}
func (SelectOption) isAction()     {}
func (Check) isAction()            {}
func (Uncheck) isAction()          {}
func (Hover) isAction()            {}
func (Drag) isAction()             {}
func (Upload) isAction()           {}
func (Dialog) isAction()           {}
func (SwitchTab) isAction()        {}
func (AssertVisible) isAction()    {}
func (AssertNotVisible) isAction() {}
func (AssertValue) isAction()      {}
func (AssertState) isAction()      {}
func (AssertURL) isAction()        {}
func (AssertChange) isAction()     {}

// ActionSelector returns the selector an action targets, and false for
// actions without one (navigate, press, dialog, switchTab,
// assertNotVisible, assertUrl, assertChange).
func ActionSelector(a Action) (selector.Selector, bool) {
	switch a := a.(type) {
	case Tap:
		return a.Selector, true
	case TypeText:
		return a.Selector, true
	case Set:
		return a.Selector, true
	case SelectOption:
		return a.Selector, true
	case Check:
		return a.Selector, true
	case Uncheck:
		return a.Selector, true
	case Hover:
		return a.Selector, true
	case Drag:
		return a.Selector, true
	case Upload:
		return a.Selector, true
	case AssertVisible:
		return a.Selector, true
	case AssertValue:
		return a.Selector, true
	case AssertState:
		return a.Selector, true
	}
	return selector.Selector{}, false
}
