package steps

import (
	"fmt"
	"net/url"
	"slices"

	"github.com/trailpin/trailpin/recorder/screen"
)

// What each kind of interaction must carry beside seq and kind: the host
// refuses an interaction without it on arrival (host/PROTOCOL.md,
// record.interaction, error 5), and BuildSteps leaves out, with a note, one
// it is given anyway (stored before the rule, or built by hand), so a
// recording never fails at Stop for what could have been refused at once.
//
// Every kind but switchTab and undo carries the page's url: the step it
// starts needs a page, and the trail's start is the first step's. A switch
// to a tab closed before its address was read has none, and is left out of
// the trail with a note; an undo needs none.
var interactionNeeds = map[InteractionKind][]need{
	InteractClick:            {needURL},
	InteractType:             {needURL},
	InteractSelect:           {needURL, needOptions},
	InteractSet:              {needURL},
	InteractCheck:            {needURL},
	InteractUncheck:          {needURL},
	InteractPress:            {needURL, needKey},
	InteractHover:            {needURL},
	InteractDrag:             {needURL, needTarget, needDrop},
	InteractUpload:           {needURL, needFiles},
	InteractDialog:           {needURL, needDialogKind},
	InteractNavigate:         {needURL},
	InteractSwitchTab:        {},
	InteractAssertVisible:    {needURL},
	InteractAssertNotVisible: {needURL, needText},
	InteractAssertURL:        {needURL},
	InteractAssertValue:      {needURL},
	InteractAssertState:      {needURL, needState},
	InteractAssertChange:     {needURL, needScreen, needPicks},
	InteractUndo:             {},
	InteractMarkSensitive:    {needURL, needTarget},
	InteractAgentStart:       {needGoal},
	InteractAgentEnd:         {needAgentState},
}

// DialogKinds are the dialogs a page can open.
var DialogKinds = []string{"alert", "confirm", "prompt", "beforeunload"}

// A need is one field an interaction must carry: its name in the protocol,
// what to send, and whether it is there.
type need struct {
	field, send string
	ok          func(*Interaction) bool
}

var (
	needURL = need{"url", "the page's address (http or https)", func(i *Interaction) bool {
		u, err := url.Parse(i.URL)
		return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	}}
	needOptions    = need{"options", "the labels of the chosen options", func(i *Interaction) bool { return len(i.Options) > 0 }}
	needKey        = need{"key", "the key pressed", func(i *Interaction) bool { return i.Key != "" }}
	needFiles      = need{"files", "the names of the chosen files", func(i *Interaction) bool { return len(i.Files) > 0 }}
	needDialogKind = need{"dialogKind", "alert, confirm, prompt or beforeunload", func(i *Interaction) bool { return slices.Contains(DialogKinds, i.DialogKind) }}
	needText       = need{"text", "the text that must not show", func(i *Interaction) bool { return i.Text != "" }}
	needState      = need{"state and want", "the state asserted and its expected value", func(i *Interaction) bool { return i.State != "" && i.Want != "" }}
	needGoal       = need{"text", "the goal the agent was asked to perform", func(i *Interaction) bool { return i.Text != "" }}
	needAgentState = need{"state", "done, stopped or failed", func(i *Interaction) bool { return slices.Contains(AgentEndStates, i.State) }}
	needScreen     = need{"screen", "the screen captured after the action, when Assert change was pressed", func(i *Interaction) bool { return i.Screen != "" }}
	needPicks      = need{"changes, unchanged, only or assertChange", "the keys of the changes that must be included, the refs of elements that must not change, only: true, or the whole check", hasPicks}
	needDrop       = need{"drop", "where the element was dropped: {x, y} in the top-level viewport", func(i *Interaction) bool { return i.Drop != nil }}
	needTarget     = need{"screen and ref", "the screen captured before it and the element's ref in it", func(i *Interaction) bool { return i.Screen != "" && i.Ref != "" }}
)

// hasPicks: an assertChange says what it checks, by picks or whole.
func hasPicks(i *Interaction) bool {
	return len(i.Changes) > 0 || len(i.Unchanged) > 0 || i.Only || i.AssertChange != nil
}

// Check reports the first field the interaction lacks for its kind, naming
// the field and what to send (never a value); nil when it carries all its
// kind needs. An unknown kind is an error too.
func (i *Interaction) Check() error {
	if i.Seq < 1 {
		return fmt.Errorf("interaction seq %d: sequence numbers start at 1 in each session", i.Seq)
	}
	needs, ok := interactionNeeds[i.Kind]
	if !ok {
		if i.Kind == "" {
			return fmt.Errorf("interaction %d: kind is missing", i.Seq)
		}
		return fmt.Errorf("interaction %d: kind %q is not one a recording knows", i.Seq, screen.Clip(string(i.Kind), 40))
	}
	for _, n := range needs {
		if !n.ok(i) {
			return &IncompleteError{Seq: i.Seq, Kind: i.Kind, Field: n.field, Send: n.send}
		}
	}
	return nil
}

// An IncompleteError says which field an interaction lacks for its kind.
type IncompleteError struct {
	Seq   int64
	Kind  InteractionKind
	Field string // in the protocol's words: url, options, dialogKind…
	Send  string // what to send in it
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("interaction %d (%s) lacks %s: send %s", e.Seq, e.Kind, e.Field, e.Send)
}

// IsKnownKind reports whether k is a kind of interaction a recording knows.
func IsKnownKind(k InteractionKind) bool {
	_, ok := interactionNeeds[k]
	return ok
}
