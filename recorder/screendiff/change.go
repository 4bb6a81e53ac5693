package screendiff

import (
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// A Kind is what happened to a node between two screens.
type Kind string

// The kinds of change (docs/screen-diffs.md). The trail format names them in
// assertChange's matchers.
const (
	// Added: a subtree that is only in the after screen, at its root.
	Added Kind = "added"
	// Removed: a subtree that is only in the before screen, at its root.
	Removed Kind = "removed"
	// Content: the node's name, description, value, placeholder or own
	// text (the text runs right inside it) changed.
	Content Kind = "content"
	// State: one of the node's ARIA states changed (StateFields).
	State Kind = "state"
	// Style: the node became visible or hidden, covered or uncovered
	// (StyleFields).
	Style Kind = "style"
	// Moved: the node's box moved by MinMove or more, not carried by its
	// parent.
	Moved Kind = "moved"
	// Resized: the node's box changed size by MinResize or more, not
	// around a change inside it.
	Resized Kind = "resized"
	// PossibleReplacement: a removed subtree and an added one that read
	// the same, in the same place: a re-render may have replaced the node.
	PossibleReplacement Kind = "possible-replacement"
)

// Kinds lists every kind, in the order a node's changes are listed.
func Kinds() []Kind {
	return []Kind{Added, Removed, PossibleReplacement, Content, State, Style, Moved, Resized}
}

func kindRank(k Kind) int {
	for i, kk := range Kinds() {
		if kk == k {
			return i
		}
	}
	return len(Kinds())
}

// The fields a Delta names, by kind.
var (
	// ContentFields are compared for Content. "text" is the node's own
	// text: its text runs, not its elements' (their change is theirs).
	ContentFields = fieldNames(contentFields)
	// StateFields are compared for State, as the screen holds them.
	StateFields = fieldNames(stateFields)
	// StyleFields are compared for Style. "covered" changes only where the
	// page model tested coverage in both screens.
	StyleFields = fieldNames(styleFields)
)

// A Change is one thing that changed between two screens.
type Change struct {
	Kind Kind `json:"kind"`
	// Before is the node in the before screen; nil for Added.
	Before *NodeRef `json:"before,omitempty"`
	// After is the node in the after screen; nil for Removed.
	After *NodeRef `json:"after,omitempty"`
	// Deltas are the fields that changed, for Content, State and Style,
	// in the order of ContentFields, StateFields and StyleFields.
	Deltas []Delta `json:"deltas,omitempty"`
}

// A NodeRef is a node as one screen showed it. Its Ref is valid in that
// screen's document only: after a navigation it is history, not something
// to act on.
type NodeRef struct {
	Ref  string `json:"ref"`
	Role string `json:"role,omitempty"`
	Name string `json:"name,omitempty"`
	Tag  string `json:"tag,omitempty"`
	// Text is the start of the node's text, for telling an unnamed node
	// apart when reading a diff: its first line, shortened.
	Text string `json:"text,omitempty"`
	// Box is the node's box on that screen, nil when it had none.
	Box *screen.Box `json:"box,omitempty"`
}

// A Delta is one field of a node, before and after. Values are written as
// the screen's JSON would show them: "true", "false", "mixed", a number,
// or the string itself; "" when the field is absent (an unset
// aria-expanded, a coverage the page model did not test).
type Delta struct {
	Field string `json:"field"`
	From  string `json:"from"`
	To    string `json:"to"`
}

// Delta returns the change's delta of field, and whether it has one.
func (c Change) Delta(field string) (Delta, bool) {
	for _, d := range c.Deltas {
		if d.Field == field {
			return d, true
		}
	}
	return Delta{}, false
}

// A Result is the diff of two screens. It keeps both screens, for Match;
// its JSON form is the evidence without them.
type Result struct {
	// BeforeURL is the before screen's URL: the baseline a later check
	// names when the page moved under it.
	BeforeURL string `json:"beforeUrl"`
	AfterURL  string `json:"afterUrl"`
	// Navigated is set when the URL changed: a soft navigation
	// (history.pushState) diffs two pages of one document; with
	// NewDocument, the page loaded another document.
	Navigated bool `json:"navigated"`
	// NewDocument is set when the screens are of two documents: no node is
	// paired by ref, and refs of the before screen name nothing after.
	NewDocument bool `json:"newDocument,omitempty"`
	// Changes in document order of the after screen; removed subtrees
	// where they were.
	Changes []Change `json:"changes"`

	before, after *tree
}

// Changed reports whether anything changed.
func (r *Result) Changed() bool { return len(r.Changes) > 0 }

func nodeRef(n *screen.Node) *NodeRef {
	text, _, _ := strings.Cut(n.Text, "\n")
	return &NodeRef{Ref: n.Ref, Role: n.Role, Name: n.Name, Tag: n.Tag, Text: screen.Clip(text, maxShownValue), Box: n.Box}
}
