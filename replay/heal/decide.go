package heal

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
)

// Facts are what the decision reads of one step the agent worked on.
type Facts struct {
	// Cancelled: the run was cancelled (Ctrl-C, a deadline of the whole
	// run). A cancelled run writes nothing.
	Cancelled bool
	// ModelAnswered: at least one model request got a usable answer.
	ModelAnswered bool
	// Verdict is the agent's verdict (agent.Verdict: done, app-bug,
	// blocked, budget, model-error, page-error, cancelled) and Reason what
	// it said of it.
	Verdict, Reason string
	// StepPassed: the step ended passed with the agent (its verdict was
	// done and the step's own checks passed after it).
	StepPassed bool
	// Stopped is why replay stopped before the agent took over
	// (target-not-found, end-mismatch, …); "" for a bare goal or
	// cache.mode off.
	Stopped string
	// Actions are the step's new recording; NotRecorded the actions the
	// agent took for which no selector could be made.
	Actions     []trail.Action
	NotRecorded []string
	// CheckPassed names the check that passed after the step (an
	// assertion, or the step's recorded end state); "" when none did.
	// CheckFailed names the check after it that failed, if one did.
	CheckPassed, CheckFailed string
}

// The decisions, as stored in the database's healing_decisions.
type Action string

const (
	// Saved: the new flow replaced the step's recording in the trail file.
	Saved Action = "saved"
	// Reported: the heal is verified but the cache does not write the
	// trail file (read-only: it goes to the results folder; off).
	Reported Action = "reported"
	// Dropped: the new flow is not saved; the trail file keeps its
	// recording.
	Dropped Action = "dropped"
	// Kept: no model answered; the recording stays as it is.
	Kept Action = "kept"
)

// The cache modes (cache.mode, docs/agent.md), and ModeStrict: cache.strict,
// whatever cache.mode says, under which a run never writes a recording.
const (
	ModeReadWrite = "read-write"
	ModeReadOnly  = "read-only"
	ModeOff       = "off"
	ModeStrict    = "strict"
)

// A Decision is what becomes of a healed step and why.
type Decision struct {
	// Action is "" for a cancelled run: nothing is written or recorded.
	Action Action
	// Reason is one sentence for the run's output and the trace page.
	Reason string
}

// WhyNotSaved says why the step's new flow must not be written anywhere,
// or "" when it is a verified heal that may be. It is the rule of docs/agent.md
// , in this order: a cancelled run writes nothing; no model answered;
// the step failed; the agent had to repair an end-mismatch; the flow
// changed nothing that could be checked; part of it could not be recorded;
// the check after it failed, or no check passed after it.
func WhyNotSaved(f Facts) string {
	d := decideFacts(f)
	if d.Action == "" && d.Reason == "" {
		return ""
	}
	return d.Reason
}

// Decide is what becomes of the step in cache mode mode ("read-write",
// "read-only", "off", or "strict" for cache.strict): saved into the trail
// file only in read-write mode, reported otherwise, or one of the reasons
// of WhyNotSaved. Under cache.strict the agent performs only steps with no
// recording (docs/agent.md), and what it verified is reported, never
// written: not into the trail file, nor the results folder.
func Decide(f Facts, mode string) Decision {
	if d := decideFacts(f); d.Reason != "" {
		return d
	}
	proof := "the check after it passed (" + f.CheckPassed + ")"
	switch mode {
	case ModeReadWrite:
		return Decision{Saved, "saved: " + proof}
	case ModeReadOnly:
		return Decision{Reported, "not saved in the trail file, cache.mode is read-only: " + proof + "; apply the healed trail with `host accept`"}
	case ModeOff:
		return Decision{Reported, "not saved, cache.mode is off (recordings are neither replayed nor written): " + proof}
	case ModeStrict:
		return Decision{Reported, "not saved, cache.strict never writes a recording: " + proof + "; to keep it, replay the trail once without cache.strict in read-write mode"}
	}
	return Decision{Dropped, fmt.Sprintf("not saved: cache.mode %q is not read-write", mode)}
}

// decideFacts applies the rules that do not depend on the mode; a zero
// Decision means the heal is verified.
func decideFacts(f Facts) Decision {
	keeps := "; the trail file keeps its recording"
	switch {
	case f.Cancelled || f.Verdict == "cancelled":
		return Decision{"", "the run was cancelled: nothing is written"}
	case !f.ModelAnswered || f.Verdict == "model-error":
		return Decision{Kept, "not saved: no model answered" + detail(f.Reason) + keeps}
	case f.Verdict != "done" || !f.StepPassed:
		what := "the step failed"
		if f.Verdict != "" && f.Verdict != "done" {
			what += " (" + f.Verdict + detail(f.Reason) + ")"
		}
		return Decision{Dropped, "not saved: " + what + keeps}
	case f.Stopped == "end-mismatch":
		return Decision{Dropped, "not saved: the agent had to repair an end-mismatch (every recorded action ran, the end state was missing); the next verified run records a clean flow, not the old one plus the fix"}
	case !actsOnThePage(f.Actions):
		return Decision{Dropped, "not saved: the step changed nothing that could be checked, so there is no new flow to save" + keeps}
	case len(f.NotRecorded) > 0:
		return Decision{Dropped, "not saved: no selector could be made for " + strings.Join(f.NotRecorded, ", ") + keeps}
	case f.CheckFailed != "":
		return Decision{Dropped, "not saved: the check after it failed (" + f.CheckFailed + ")" + keeps}
	case f.CheckPassed == "":
		return Decision{Dropped, "not saved: no check passed after it" + keeps}
	}
	return Decision{}
}

func detail(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

// actsOnThePage reports whether a flow does something a check can see:
// at least one action that is not an assertion.
func actsOnThePage(actions []trail.Action) bool {
	for _, a := range actions {
		if a != nil && !a.Kind().IsAssertion() {
			return true
		}
	}
	return false
}
