package steps

import (
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// An Interaction is one thing a person (or an agent) did while recording, as
// the extension reports it. The host appends each one to the database as it
// arrives and acknowledges it; BuildSteps later turns a session's
// interactions into a trail's steps.
//
// An interaction never carries a secret's value: typing into a secret field
// is reported with Secret (the name the value will be read from at replay)
// and no Value.
type Interaction struct {
	// Seq numbers a session's interactions from 1, in the order they
	// happened; a re-sent interaction keeps its number.
	Seq  int64           `json:"seq"`
	Kind InteractionKind `json:"kind"`
	// Time is when it happened, in milliseconds since the Unix epoch; used
	// to group interactions into steps, never written into a trail.
	Time int64 `json:"time"`
	// Tab is the browser tab it happened in.
	Tab int `json:"tab,omitempty"`
	// URL and Title are the page's when it happened (full URL; the host
	// makes it origin-free for the trail).
	URL   string `json:"url,omitempty"`
	Title string `json:"title,omitempty"`
	// Screen identifies the screen captured just before the interaction (the
	// element may be gone a moment later); Ref is the target in that screen.
	Screen string `json:"screen,omitempty"`
	Ref    string `json:"ref,omitempty"`

	// Click: how many clicks (2 for a double click), the mouse button
	// (left, middle, right) and the modifier keys held (Alt, Control, Meta,
	// Shift).
	Count     int      `json:"count,omitempty"`
	Button    string   `json:"button,omitempty"`
	Modifiers []string `json:"modifiers,omitempty"`
	// Type: the field's final value. Set: the control's value (an input's
	// value, an ARIA slider's aria-valuenow). AssertValue: the value asserted.
	Value string `json:"value,omitempty"`
	// Append (Type): the typing went on the end of the text the field held
	// when it began, and Value starts with that text.
	Append bool `json:"append,omitempty"`
	// Secret names the secret a secret field's typed value is read from
	// (${secret:NAME}); set instead of Value.
	Secret string `json:"secret,omitempty"`
	// Select: the labels of the chosen options.
	Options []string `json:"options,omitempty"`
	// Press: the key (a character or a key name such as Enter).
	Key string `json:"key,omitempty"`
	// AtOnce (Press): the key went down in the field being typed into
	// while a timer the typing set off was still pending (the extension's
	// typingtimers.js): before the page acted on what was typed.
	AtOnce bool `json:"atOnce,omitempty"`
	// Upload: the chosen files' names.
	Files []string `json:"files,omitempty"`
	// Drag: where the element Ref was dropped, in CSS pixels relative to
	// the top-level viewport, as Screen (taken when the mouse went down)
	// lays the page out. The element dropped on is the one Screen shows
	// there.
	Drop *Point `json:"drop,omitempty"`
	// Dialog: the dialog's kind (alert, confirm, prompt, beforeunload), its
	// message, whether it was accepted, and the text entered in a prompt.
	DialogKind string `json:"dialogKind,omitempty"`
	Message    string `json:"message,omitempty"`
	Accept     bool   `json:"accept,omitempty"`
	PromptText string `json:"promptText,omitempty"`
	// Navigate: how the navigation came about: typed, link, reload, back,
	// forward, redirect, script or form (a link, redirect, script or form
	// navigation belongs to the step of the action that caused it).
	Transition string `json:"transition,omitempty"`
	// AssertNotVisible: the text that must not be shown. AgentStart: the
	// goal the agent was asked to perform.
	Text string `json:"text,omitempty"`
	// AssertState: the state (checked, disabled, expanded, selected) and
	// its expected value ("true", "false", "mixed"). AgentEnd: how the
	// goal ended (State: done, stopped, failed).
	State string `json:"state,omitempty"`
	Want  string `json:"want,omitempty"`
	// AssertChange: the keys (ChangeKey) of the changes of the last
	// action's diff that must be included, and whether nothing else may
	// change; Unchanged are the refs (on Screen) of elements the person
	// picked that must not change. Screen is the screen after the action,
	// when the person asked.
	Changes   []string `json:"changes,omitempty"`
	Only      bool     `json:"only,omitempty"`
	Unchanged []string `json:"unchanged,omitempty"`
	// AssertChange: AssertChange is the whole check instead of picks, in the
	// trail's keys, as an outside agent's call gave it (host/PROTOCOL.md,
	// Agent API, tab.assertChange): the host checked it on the page before
	// the extension recorded it. The host reads it on arrival
	// (ReadChangeCheck).
	AssertChange *trail.ChangeJSON `json:"assertChange,omitempty"`
	// AgentEnd: the assertChange checks the agent passed during the goal
	// (AgentCheck), each to be written right after the recorded action it
	// checked. ChecksLeftOut says, for each check that arrived and could
	// not be read (ReadAgentChecks), why it was left out: the host fills
	// it in on arrival, and the review shows it.
	Checks        []AgentCheck `json:"checks,omitempty"`
	ChecksLeftOut []string     `json:"checksLeftOut,omitempty"`
	// Left (AgentEnd) is the origin off the app that a screen the agent
	// was shown during the goal was on: the host sets it on arrival, and
	// the goal's steps are left out of the trail.
	Left string `json:"left,omitempty"`
	// Client is the outside agent whose call made this interaction: the
	// name its MCP client gave (docs/mcp.md). The step it becomes is
	// marked by: agent with that client. Set by the host's own door that
	// performed the call, never by the extension.
	Client string `json:"client,omitempty"`
}

// A Point is a position in CSS pixels relative to the top-level viewport.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// InteractionKind says what an Interaction was.
type InteractionKind string

const (
	InteractClick  InteractionKind = "click"
	InteractType   InteractionKind = "type"
	InteractSelect InteractionKind = "select"
	// InteractSet: a control a person sets by dragging or by keys (a slider,
	// a number, date, time or colour input, an ARIA slider or spin button)
	// ended at Value.
	InteractSet     InteractionKind = "set"
	InteractCheck   InteractionKind = "check"
	InteractUncheck InteractionKind = "uncheck"
	InteractPress   InteractionKind = "press"
	InteractHover   InteractionKind = "hover"
	// InteractDrag: the person pressed the mouse on Ref, moved it with the
	// button held and released it at Drop (HTML5 drag and drop, or a list
	// that follows the pointer).
	InteractDrag     InteractionKind = "drag"
	InteractUpload   InteractionKind = "upload"
	InteractDialog   InteractionKind = "dialog"
	InteractNavigate InteractionKind = "navigate"
	// InteractSwitchTab: the person moved to a tab or popup the app opened;
	// URL and Title are the new tab's.
	InteractSwitchTab        InteractionKind = "switchTab"
	InteractAssertVisible    InteractionKind = "assertVisible"
	InteractAssertNotVisible InteractionKind = "assertNotVisible"
	InteractAssertURL        InteractionKind = "assertUrl"
	InteractAssertValue      InteractionKind = "assertValue"
	InteractAssertState      InteractionKind = "assertState"
	// InteractAssertChange: what the action before it changed, picked
	// from its diff in the recording bar (PreviewChange).
	InteractAssertChange InteractionKind = "assertChange"
	// InteractUndo removes the step built from the interactions before it
	// (the recording bar's Undo last step).
	InteractUndo InteractionKind = "undo"
	// InteractMarkSensitive names an element (Ref in Screen) whose shown
	// value must never be written down.
	InteractMarkSensitive InteractionKind = "markSensitive"
	// InteractAgentStart says that the agent starts performing the goal
	// Text in the recorded tab ("Ask the agent"): the interactions after it,
	// up to InteractAgentEnd, are the agent's trusted input, captured like a
	// person's.
	InteractAgentStart InteractionKind = "agentStart"
	// InteractAgentEnd says that the agent's goal ended: State is done
	// (the agent said the goal is reached), stopped (the person pressed
	// Stop) or failed (the agent gave up, ran out of a budget, or no model
	// answered); Message says why, in words.
	InteractAgentEnd InteractionKind = "agentEnd"
)

// How an agent's goal ended (InteractAgentEnd's State).
const (
	AgentDone    = "done"
	AgentStopped = "stopped"
	AgentFailed  = "failed"
)

// AgentEndStates are the states an InteractAgentEnd may carry.
var AgentEndStates = []string{AgentDone, AgentStopped, AgentFailed}

// A RecordedInteraction is an interaction with the screen it happened on.
type RecordedInteraction struct {
	Interaction
	// Before is the screen Interaction.Screen names; nil when the
	// interaction has none (navigate, dialog, undo).
	Before *screen.Screen
}
