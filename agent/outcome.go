package agent

import (
	"encoding/json"
	"time"

	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A Goal is the step the agent performs.
type Goal struct {
	// Intent is the step's goal in words.
	Intent string
	// HandOff is what replay did before it stopped; nil (or no performed
	// action) for a miss or a bare goal: the agent starts from the
	// beginning.
	HandOff *HandOff
	// Expect lists texts the screen shows once the step took effect (from
	// the step's recorded end state), for the model to look for.
	Expect []string
	// Secrets are the names of the secrets the model may type as
	// ${secret:NAME}; never their values. A type of any other is refused.
	Secrets []string
	// Users are the credential fields the model may type as
	// ${user:NAME.FIELD} ("admin.password"), as Secrets.
	Users []string
	// Started is when the step started: agent.stepDeadline counts from
	// here, replay's time included. Zero means when Run starts.
	Started time.Time
}

// A HandOff is the record of a step's recording that replay performed in
// part (docs/agent.md).
type HandOff struct {
	// Reason is the stop reason: target-not-found, end-mismatch,
	// action-uncertain, …
	Reason string
	// Performed says what each recorded action replay performed did, in
	// order; they count toward the step's actions.
	Performed []string
	// Total is the number of recorded actions of the step.
	Total int
	// Detail is what stopped replay, in one sentence.
	Detail string
}

// The stop reasons whose hand-off carries a warning.
const (
	ReasonEndMismatch     = "end-mismatch"
	ReasonActionUncertain = "action-uncertain"
)

// Config is what every step of a run shares.
type Config struct {
	// Client is the model client (model.baseURL, model.name).
	Client *model.Client
	// MaxActions is agent.maxActions: the actions a step may take, replayed
	// ones included (default 10).
	MaxActions int
	// StepDeadline is agent.stepDeadline, from Goal.Started (default 2m).
	StepDeadline time.Duration
	// Calls is the run's allowance of model requests (agent.maxCalls),
	// shared by every step; nil for no limit.
	Calls *model.CallBudget
	// MaxAttempts bounds the requests of one turn (the client's default
	// when zero).
	MaxAttempts int
	// Sensitive are values no generated selector may hold (the run's
	// secret values); the model never sees them.
	Sensitive []string
	// Redact hides secret values in what the outcome keeps (turns,
	// reasons); nil when the run has none.
	Redact func(string) string
	// Origins are the origins the agent may act on: the app's base URL's
	// first (its pages are shown by their path), then the other origins the
	// person trusts for the app (apps.<name>.origins). Empty: the origin of
	// the page the agent is first shown.
	Origins []string
	// App names the app, for the fix a refusal names
	// (apps.<App>.origins); "" when unknown.
	App string
}

// Defaults of agent.maxActions and agent.stepDeadline (host/config has the
// same, for a Config built without it).
const (
	DefaultMaxActions   = 10
	DefaultStepDeadline = 2 * time.Minute
)

// A Verdict is how the agent's work on a step ended.
type Verdict string

// Verdicts. Only VerdictDone can lead to a passed step, and only when the
// step's checks pass after it.
const (
	VerdictDone       Verdict = "done"        // the model called done
	VerdictAppBug     Verdict = "app-bug"     // the model called fail: the app is broken
	VerdictBlocked    Verdict = "blocked"     // the model called fail: it cannot tell (agent-misread)
	VerdictBudget     Verdict = "budget"      // agent.maxActions, agent.stepDeadline or agent.maxCalls ran out
	VerdictModelError Verdict = "model-error" // no usable answer from the model within its retries
	VerdictPageError  Verdict = "page-error"  // the page could not be read or went away
	VerdictCancelled  Verdict = "cancelled"   // the run was cancelled
	// VerdictRefused: the model asked for an action outside the app's
	// origins, which the agent refuses: it was led away from its goal, by
	// the page or by its own mistake (agent-misread).
	VerdictRefused Verdict = "refused"
)

// Class is the failure class a step that ended so is reported with, ""
// for done and for verdicts whose class the evidence decides.
func (v Verdict) Class() string {
	switch v {
	case VerdictAppBug:
		return "app-bug"
	case VerdictBlocked, VerdictRefused:
		return "agent-misread"
	}
	return ""
}

// An Outcome is what the agent did on a step.
type Outcome struct {
	Verdict Verdict
	// Reason says why it ended: the model's summary (done), its reason
	// (fail), or which budget or failure stopped it, naming it.
	Reason string
	// Actions are the actions it performed, as trail actions with
	// selectors generated from the screens it acted on: the step's new
	// recording, once a check proves it.
	Actions []trail.Action
	// NotRecorded lists the actions performed for which no selector could
	// be generated; a flow with any is not a recording to save.
	NotRecorded []string
	// FailedChecks are the agent's assertChange calls that did not pass,
	// each in a line: with any, the step does not pass (done is refused).
	FailedChecks []string
	// Checks are the agent's assertChange calls that passed, in order,
	// each with the action it checked and when: what a recording of the
	// agent's input (Ask the agent) writes after the recorded action.
	// One that would hold a secret's value is not among them.
	Checks []PassedCheck
	// Refused lists the calls the agent refused because they broke one of
	// its rules: an action outside the app's origins, a secret the goal was
	// not offered, a secret in a URL. Each is a line.
	Refused []string
	// OffOrigins are the origins outside Config.Origins its page went to
	// after one of its actions (a link to another site, a redirect), or
	// that an action was refused on. A flow with any is never saved.
	OffOrigins []string
	// Acted counts the actions it took (toward agent.maxActions, with the
	// replayed ones).
	Acted int
	// Turns are its calls, in order, for the trace page.
	Turns []Turn
	// Failure is the model's failure when the verdict is model-error, or a
	// budget of the model (call-budget, deadline).
	Failure model.Failure
	// Duration is the time Run took.
	Duration time.Duration
}

// A PassedCheck is an assertChange of the agent that passed.
type PassedCheck struct {
	// Action is the agent's action it checked, from 1 (the a1, a2… of the
	// diff ids the model is shown).
	Action int
	// Acted is when that action began, before its input was sent;
	// Checked is when the check passed. What the page recorded of the
	// action happened between the two.
	Acted, Checked time.Time
	// Check is the assertion, its elements named by the recorder's
	// selector generator.
	Check trail.AssertChange
}

// A Turn is one call of the model and what came of it.
type Turn struct {
	// Saw is the message the model answered (the screen it saw), trimmed.
	Saw string
	// Tool and Arguments are its call; empty when no usable answer came.
	Tool      string
	Arguments json.RawMessage
	// Result is what the tool did, as the model was told (without the
	// screen); or why the call failed.
	Result string
	// Usage is every request the turn sent, failed ones included, with
	// tokens and latency.
	Usage model.Usage
}

// Calls is the number of model requests the agent sent for the step.
func (o *Outcome) Calls() int {
	n := 0
	for _, t := range o.Turns {
		n += t.Usage.Calls()
	}
	return n
}

// Tokens are the prompt and completion tokens of every request.
func (o *Outcome) Tokens() (prompt, completion int) {
	for _, t := range o.Turns {
		prompt += t.Usage.PromptTokens()
		completion += t.Usage.CompletionTokens()
	}
	return prompt, completion
}

// Latency is the time spent waiting for the model.
func (o *Outcome) Latency() time.Duration {
	var d time.Duration
	for _, t := range o.Turns {
		d += t.Usage.Latency()
	}
	return d
}
