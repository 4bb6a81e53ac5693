package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/trailpin/trailpin/agent/model"
)

// The tools the model may call, one per turn. Every parameter is a strict
// JSON schema (every property required, no other properties), so an
// endpoint with structured outputs can only produce valid arguments; the
// model client checks them either way.
const (
	ToolTap           = "tap"
	ToolType          = "type"
	ToolSelect        = "select"
	ToolPress         = "press"
	ToolNavigate      = "navigate"
	ToolAssertVisible = "assertVisible"
	ToolAssertNotWith = "assertNotVisibleWithText"
	ToolSnapshot      = "snapshot"
	ToolDone          = "done"
	ToolFail          = "fail"
)

// failKindAppBug is the kind of fail that says the app is broken; the
// other, blocked, says the agent cannot tell.
const failKindAppBug = "app-bug"

// What each argument is, as the model reads it in the tools' schemas.
const (
	refDescription      = "the ref of an element of the latest snapshot, such as e12 (never a selector)"
	textDescription     = "the text to type; type a secret as ${secret:NAME}, never its value"
	optionDescription   = "the label of the option to choose"
	keyDescription      = "a key name (Enter, Escape, Tab, ArrowDown, …) or one character"
	pathDescription     = "a path of the app such as /checkout?step=2, or back, forward, reload"
	summaryDescription  = "what you did and what the screen now shows that proves the step's goal is reached"
	reasonDescription   = "what you saw that makes the goal unreachable"
	kindDescription     = "app-bug: the app is broken (an error, a wrong result); blocked: you cannot tell how to reach the goal"
	fullDescription     = "true for every element and all text; false for interactive elements only"
	notVisibleDesc      = "text that no visible element may show"
	refActionArgsSchema = `{"type":"object","properties":{"ref":{"type":"string","description":"` + refDescription + `"}},"required":["ref"],"additionalProperties":false}`
)

// Tools are the agent's tools, in the order they are offered.
var Tools = []model.Tool{
	{Name: ToolTap, Description: "Tap (click) the element of a ref.", Parameters: json.RawMessage(refActionArgsSchema)},
	{Name: ToolType, Description: "Replace the value of the text field of a ref with text.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"ref":{"type":"string","description":"` + refDescription + `"},"text":{"type":"string","description":"` + textDescription + `"}},"required":["ref","text"],"additionalProperties":false}`)},
	{Name: ToolSelect, Description: "Choose an option of the drop-down or listbox of a ref.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"ref":{"type":"string","description":"` + refDescription + `"},"option":{"type":"string","description":"` + optionDescription + `"}},"required":["ref","option"],"additionalProperties":false}`)},
	{Name: ToolPress, Description: "Press a key on the focused element.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"key":{"type":"string","description":"` + keyDescription + `"}},"required":["key"],"additionalProperties":false}`)},
	{Name: ToolNavigate, Description: "Go to a path of the app, or back, forward, or reload.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"path":{"type":"string","description":"` + pathDescription + `"}},"required":["path"],"additionalProperties":false}`)},
	{Name: ToolAssertVisible, Description: "Check that the element of a ref is visible.", Parameters: json.RawMessage(refActionArgsSchema)},
	{Name: ToolAssertNotWith, Description: "Check that no visible element shows this text.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"text":{"type":"string","description":"` + notVisibleDesc + `"}},"required":["text"],"additionalProperties":false}`)},
	{Name: ToolAssertChange, Description: changeToolDescription, Parameters: json.RawMessage(changeArgsSchema)},
	{Name: ToolSnapshot, Description: "Look at the screen again, interactive elements only or in full.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"full":{"type":"boolean","description":"` + fullDescription + `"}},"required":["full"],"additionalProperties":false}`)},
	{Name: ToolDone, Description: "Say that the step's goal is reached. Only when the screen shows it.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"summary":{"type":"string","description":"` + summaryDescription + `"}},"required":["summary"],"additionalProperties":false}`)},
	{Name: ToolFail, Description: "Say that the goal cannot be reached. This never passes the step.", Parameters: json.RawMessage(
		`{"type":"object","properties":{"reason":{"type":"string","description":"` + reasonDescription + `"},"kind":{"type":"string","enum":["app-bug","blocked"],"description":"` + kindDescription + `"}},"required":["reason","kind"],"additionalProperties":false}`)},
}

// PromptVersion names the agent's instructions. Change it whenever the
// system prompt or the first message changes meaning: a recording belongs
// to the agent configuration that made it (docs/agent.md), so a new version is
// a miss.
const PromptVersion = "agent-3"

// agent-2 added the assertChange tool and its line in the instructions;
// agent-3 fenced the page's content as data and gave the agent its rules
// on origins and secrets.

// ConfigKey identifies the agent configuration a recording belongs to: the
// prompt's version and a digest of the tools and their schemas. The model
// and the budgets are not part of it.
func ConfigKey() string {
	h := sha256.New()
	for _, t := range Tools {
		h.Write([]byte(t.Name + "\x00" + t.Description + "\x00"))
		h.Write(t.Parameters)
		h.Write([]byte{0})
	}
	h.Write([]byte(systemPrompt))
	return PromptVersion + "+" + hex.EncodeToString(h.Sum(nil))[:12]
}

// toolArgs are the arguments of any tool; each tool's schema says which
// it has.
type toolArgs struct {
	Ref     string `json:"ref"`
	Text    string `json:"text"`
	Option  string `json:"option"`
	Key     string `json:"key"`
	Path    string `json:"path"`
	Full    bool   `json:"full"`
	Summary string `json:"summary"`
	Reason  string `json:"reason"`
	Kind    string `json:"kind"`
}

// acts are the tools that change the page: each counts toward the step's
// actions (agent.maxActions).
func acts(tool string) bool {
	switch tool {
	case ToolTap, ToolType, ToolSelect, ToolPress, ToolNavigate:
		return true
	}
	return false
}

// takesRef reports whether the tool acts on the element of a ref.
func takesRef(tool string) bool {
	switch tool {
	case ToolTap, ToolType, ToolSelect, ToolAssertVisible:
		return true
	}
	return false
}

// historyMoves are the paths navigate takes that are no path.
var historyMoves = []string{"back", "forward", "reload"}

func validPath(p string) bool {
	for _, m := range historyMoves {
		if p == m {
			return true
		}
	}
	return strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//")
}
