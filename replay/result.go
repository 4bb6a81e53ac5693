package replay

import (
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// The result types below are what the engine reports about one attempt at a
// trail, and all the reports (progress, status lines, JUnit, trace pages,
// the database) are built from them alone. Every string in them is already
// redacted: no secret value ever reaches a result.

// Status is the outcome of a trail, a step or an action.
type Status string

const (
	StatusPassed Status = "passed"
	StatusFailed Status = "failed"
	// StatusFlaky: failed at first, passed on a retry (trails only).
	StatusFlaky Status = "flaky"
	// StatusSkipped: not run, because an earlier step failed or the run
	// stopped.
	StatusSkipped Status = "skipped"
	// StatusHealed: passed with the agent (docs/agent.md). A step is healed
	// when the agent reached its goal and a check after it passed; a trail
	// when it passed with at least one healed step.
	StatusHealed Status = "healed"
)

// FailureClass says why a trail failed, in the words of docs/ci.md.
type FailureClass string

const (
	ClassEnvIssue        FailureClass = "env-issue"         // 5xx, crash, browser gone
	ClassAuthBlocked     FailureClass = "auth-blocked"      // 401/403, redirected to login
	ClassSelectorDrift   FailureClass = "selector-drift"    // no match, or ambiguous
	ClassAppBug          FailureClass = "app-bug"           // clear evidence: expected vs actual
	ClassMissingTestData FailureClass = "missing-test-data" // e.g. a secret not provided
	ClassAgentMisread    FailureClass = "agent-misread"     // the agent could not tell what it saw
)

// StopReason says why replay stopped inside a step (docs/agent.md). The agent
// hand-off starts from exactly there.
type StopReason string

const (
	StopTargetNotFound  StopReason = "target-not-found"
	StopAmbiguous       StopReason = "ambiguous"
	StopEndMismatch     StopReason = "end-mismatch"
	StopActionFailed    StopReason = "action-failed"    // failed before it could reach the app
	StopActionUncertain StopReason = "action-uncertain" // failed, and may have reached the app
	StopAssertionFailed StopReason = "assertion-failed"
	StopNeedsAgent      StopReason = "needs-agent" // a bare goal (act:) with no recording
	// StopKeyMismatch: the step's recording was made for another wording
	// of its goal or another agent configuration (its key: says which), so
	// it is not replayed: a miss.
	StopKeyMismatch StopReason = "key-mismatch"
	StopMissingData StopReason = "missing-data"
	StopTimeout     StopReason = "timeout"
	StopCancelled   StopReason = "cancelled"
)

// A TrailResult is one attempt at one trail.
type TrailResult struct {
	// File is the trail file it was loaded from (empty for a trail from the
	// database); Slug names it in status lines, JUnit and the results folder.
	File  string
	Slug  string
	Title string
	// Attempt counts from 1; Status is this attempt's outcome (a later pass
	// after a failure is reported as StatusFlaky by the runner).
	Attempt int
	Status  Status
	Class   FailureClass
	// Error says what failed in one sentence; Line is the trail file line to
	// look at (0 when unknown).
	Error    string
	Line     int
	Expected string // app-bug: what the trail expected
	Actual   string // app-bug: what the page showed
	// Missing names the variable to set for missing-test-data
	// (TRAILPIN_SECRET_…).
	Missing string

	Started  time.Time
	Duration time.Duration
	Steps    []StepResult
	// Log is what the app did on its own while the trail ran: console
	// output, uncaught errors, failed requests and navigations, in order.
	Log []LogEntry
	// Failure is the screen at failure; nil when the attempt passed.
	Failure *FailureScreen
	// Notes are what a reader of the attempt's outputs should know about
	// them: a secret too short to be redacted inside other text.
	Notes []string
}

// A StepResult is one step of an attempt.
type StepResult struct {
	// Index counts from 1, as status lines do (<slug>-<n>).
	Index  int
	Intent string
	Line   int
	Status Status
	// Path is the URL path (and query) the step started on; ROUTE lines
	// come from it.
	Path     string
	Started  time.Time
	Duration time.Duration
	Actions  []ActionResult
	// Stopped and Performed record where replay stopped inside the step:
	// why, and how many of its recorded actions it had performed. Empty
	// and len(Actions) when the step ran to its end.
	Stopped   StopReason
	Performed int
	// ModelCalls counts the model requests the step's agent sent; Cache is
	// what the recording cache decided: hit (the recording replayed), miss
	// (replay stopped before acting), hand-off (after acting), agent (a
	// bare goal, or cache.mode off), stale (strict: no agent), none (a
	// step replay did not reach).
	ModelCalls int
	Cache      string
	// Heal is the agent's part of the step; nil when no agent ran.
	Heal *Heal
	// Changes summarises what changed on the screen during the step
	// (nodes added, removed, changed), one line each, at most a few dozen.
	Changes []string
	// Aria is the interactive snapshot when the step is the last on its
	// path (the page moves on, or the trail ends); empty otherwise.
	Aria  string
	Error string
}

// Cache decisions of a step (StepResult.Cache).
const (
	CacheNone    = "none"
	CacheHit     = "hit"
	CacheMiss    = "miss"
	CacheHandOff = "hand-off"
	CacheAgent   = "agent"
	CacheStale   = "stale"
)

// Healing decisions (Heal.Decision), as the database records them.
const (
	// HealSaved: the healed flow replaced the step's recording.
	HealSaved = "saved"
	// HealReported: verified, but the cache is read-only: reported and
	// written to the results folder, the trail file untouched.
	HealReported = "reported"
	// HealDropped: not saved (Heal.NotSaved says why).
	HealDropped = "dropped"
	// HealKept: no model answered; the recording stays as it is.
	HealKept = "kept"
)

// A Heal is what the agent did on a step replay handed it, and what
// became of its flow. The host decides what to do with a saveable one
// (Decision saved or reported); the engine decides the rest.
type Heal struct {
	// Cache is miss, hand-off or agent (see StepResult.Cache).
	Cache string
	// Stopped is why replay stopped ("" when no recording ran); Replayed
	// the recorded actions it performed before the agent took over.
	Stopped  StopReason
	Replayed int
	// Verdict is how the agent ended (agent.Verdict); Summary is what it
	// said (done), why it failed, or which budget ran out.
	Verdict string
	Summary string
	// Actions is the step's new recording: the recorded actions replay
	// performed, as the trail has them, then the agent's, with selectors
	// the recorder's generator made from the screens it acted on. Nil when
	// the agent did nothing that can be recorded. After action-uncertain,
	// the action replay was unsure of stands between them when the
	// evidence says it took effect (Uncertain says why).
	Actions []trail.Action
	// Uncertain says whether the recorded action replay stopped on with
	// action-uncertain is part of Actions, and why; "" for other stops.
	Uncertain string
	// Check names the check that passed after the agent: the step's end
	// state, or a later step's assertion or end state. "" when none passed.
	Check string
	// NotSaved says why this flow must not be written; "" when it may be
	// (with Check set).
	NotSaved string
	// Decision is HealSaved, HealReported, HealDropped or HealKept; Reason
	// says why.
	Decision string
	Reason   string
	// ConfigKey is the agent configuration the flow was made with
	// (agent.ConfigKey()).
	ConfigKey string
	// What the model calls cost: requests (failed ones included), tokens,
	// and time spent waiting.
	Calls                          int
	PromptTokens, CompletionTokens int
	Latency                        time.Duration
	// Turns are the agent's calls: what it saw (trimmed), the tool and its
	// arguments, the result.
	Turns []agent.Turn
	// Did says what each of the agent's actions did, in order ("tapped
	// button \"Redeem\"").
	Did []string
	// Refused lists the agent's calls refused for breaking one of its rules
	// (an action outside the app's origins, a secret its goal was not
	// offered, a secret in a URL); OffOrigins the origins outside the
	// app's its flow went to or was refused on. With either, the flow is
	// never saved.
	Refused, OffOrigins []string
}

// Saveable reports whether the healed flow may replace the step's
// recording: a check passed after it, and nothing said it must not.
func (h *Heal) Saveable() bool {
	return h != nil && h.Check != "" && h.NotSaved == "" && len(h.Actions) > 0
}

// An ActionResult is one action of a step.
type ActionResult struct {
	Kind     trail.ActionKind
	Line     int
	Status   Status
	Duration time.Duration
	// Summary says what was done in words ("tapped button \"Apply\"").
	Summary string
	// Landed is the snapshot line of the node the action acted on.
	Landed string
	// Reads lists what an assertion (or a wait) read while it waited: each
	// distinct observation once, in order.
	Reads []string
	// Navigations counts the navigations of the page's top frame while the
	// action ran: those it caused (a link, a form sent, navigate).
	Navigations int
	Error       string
	// Change is the evidence of an assertChange: its checks and the diff
	// they read, passed or not.
	Change *assertchange.Evidence `json:",omitempty"`
}

// LogKind is what a LogEntry records.
type LogKind string

const (
	LogConsole    LogKind = "console"
	LogException  LogKind = "exception"
	LogRequest    LogKind = "request" // a failed request, or an HTTP error status
	LogNavigation LogKind = "navigation"
)

// A LogEntry is one thing the app did on its own.
type LogEntry struct {
	Time time.Time
	// Step is the index of the step it happened in (0 before the first).
	Step  int
	Kind  LogKind
	Level string // console level, or the HTTP status for requests
	Text  string
	URL   string
}

// FailureScreen is the page when the attempt failed.
type FailureScreen struct {
	URL string
	// Screenshot is a PNG with secret and sensitive elements masked.
	Screenshot []byte
	// Snapshot is the screen's snapshot text (unquoted form).
	Snapshot string
	// Closest lists, for a selector that matched nothing, the nodes most
	// like what it asked for, best first.
	Closest []diagnose.CloseNode
	// Masked are the boxes painted over in Screenshot (CSS pixels of the
	// viewport): the secret and sensitive elements.
	Masked []screen.Box
}
