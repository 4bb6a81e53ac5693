package replay

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The hand-off (docs/agent.md): a step's recording replays until it no longer
// matches the screen; then, outside strict mode and with a model
// configured, the agent finishes the step's goal from the current screen.
// A step with no recording (a bare goal) goes to the agent in strict mode
// too: strict mode fails stale recordings, and there is none.
// Stopped before any action, it is a miss and the agent performs the step
// from the beginning; stopped after, a hand-off, and the agent is told
// what was done. Replay never guesses: the agent acts only on refs of the
// screen it was shown. A healed step passes only when a check after it
// passes: its end state, or the next assertion or end state of a later
// step.

// ModelHint is the line a failure that the agent could have healed
// carries when no model is configured.
const ModelHint = "to let the agent heal a step that no longer replays, configure a model: model.baseURL and model.name in trailpin.yaml or your user config (docs/agent.md)"

// staleCode marks the error of a step that cache.strict failed.
const staleCode = "REPLAY_STALE"

// canHandOff reports whether a recording that stops could go to the agent.
func (o Options) canHandOff() bool {
	return o.Agent != nil && o.Agent.Client != nil && !o.Strict
}

// targetTimeout is how long a find waits for its target: replay.replayTimeout
// for a recorded action the agent could take over from, else the action
// timeout.
func (r *trailRun) targetTimeout() time.Duration {
	if r.replaying {
		return r.opts.ReplayTimeout
	}
	return r.opts.ActionTimeout
}

// replayOrHandOff plays step i: its recording, and the agent where the
// recording stops, or the agent alone for a bare goal and in cache mode
// off.
func (r *trailRun) replayOrHandOff(ctx context.Context, i int) stepRun {
	st := r.trail.Steps[i]
	sr := &r.res.Steps[i]
	// In cache mode off the agent performs every step's goal; a step of
	// assertions only is a check, not a way to reach a goal, and runs as
	// written.
	agentOnly := len(st.Actions) == 0 || r.opts.CacheMode == CacheModeOff && !onlyChecks(st)
	var run stepRun
	miss := ""
	if !agentOnly && (r.opts.canHandOff() || r.opts.Strict) {
		// Without an agent to run it live, the recording is still the
		// best there is: it replays as long as it matches.
		miss = trail.RecordingMiss(st, agent.ConfigKey())
	}
	switch {
	case miss != "":
		run = stepRun{reason: StopKeyMismatch, err: &stepError{Reason: StopKeyMismatch, Line: st.Line,
			Msg: fmt.Sprintf("the recording of step %d is not replayed: %s", i+1, miss)}}
	case agentOnly:
		run = stepRun{err: &stepError{Reason: StopNeedsAgent, Class: ClassMissingTestData, Line: st.Line}}
		run.reason = StopNeedsAgent
	default:
		run = r.runStep(ctx, i)
		if run.err == nil {
			sr.Cache = CacheHit
			return run
		}
	}
	se := run.err
	if ctx.Err() != nil || !healable(se) {
		return run
	}
	cache := CacheMiss
	switch {
	case agentOnly:
		cache = CacheAgent
	case miss != "":
		cache = CacheMiss
	case run.performed > 0:
		cache = CacheHandOff
	}
	sr.Cache = cache
	if agentOnly && (r.opts.Agent == nil || r.opts.Agent.Client == nil) {
		se.Msg = needsModel(r.trail.Steps[i], i, r.opts.Strict)
		return run
	}
	if _, ok := r.opts.EarlierHeals[i]; ok {
		// Only a goal with no recording can have been healed under
		// strict mode: the flow an earlier attempt made for it is not
		// the trail's recording, so its failure is not REPLAY_STALE.
		se.Msg += "; the agent healed this step in an earlier attempt of this run, and a step is healed at most once per run"
		return run
	}
	// Strict mode judges recordings: a step with none (a bare goal, or
	// every step in cache mode off) has nothing to be stale, and the
	// agent performs it as in any other mode (docs/agent.md).
	if r.opts.Strict && !agentOnly {
		sr.Cache = CacheStale
		se.Msg = fmt.Sprintf("%s: the recording of step %d no longer replays (%s after %d of %d recorded actions): %s; cache.strict fails it without asking the agent (to heal it, replay it once without cache.strict in read-write mode, or apply a heal a read-only run reported with host accept)",
			staleCode, i+1, run.reason, run.performed, len(st.Actions), se.Msg)
		return run
	}
	if !agentOnly && !r.opts.canHandOff() {
		se.Msg += "; " + ModelHint
		return run
	}
	if !agentOnly && !checkFollows(r.trail.Steps, i) {
		se.Msg += "; the agent was not asked to heal it: no check after the step (its recorded end state, or a later assertion or end state) could prove a heal"
		return run
	}
	return r.heal(ctx, i, run, cache)
}

// withEarlierHeals is t with the flows earlier attempts of the run healed
// in place of their steps' recordings (t itself, shared by the attempts,
// is left as it is). A healed flow belongs to the step's intent as it is.
func withEarlierHeals(t *trail.Trail, heals map[int][]trail.Action) *trail.Trail {
	if len(heals) == 0 {
		return t
	}
	cp := *t
	cp.Steps = slices.Clone(t.Steps)
	for i, acts := range heals {
		if i >= 0 && i < len(cp.Steps) && len(acts) > 0 {
			cp.Steps[i].Actions, cp.Steps[i].Key = acts, ""
		}
	}
	return &cp
}

// onlyChecks reports whether every action of a step is an assertion.
func onlyChecks(st trail.Step) bool {
	for _, a := range st.Actions {
		if !a.Kind().IsAssertion() {
			return false
		}
	}
	return true
}

// healable reports whether a stop is one the agent may take over from:
// the recording no longer matches the screen, or there is none. A failed
// assertion is the app's answer, not a stale recording; missing data, a
// page that went away and the trail's deadline are not the recording's.
func healable(se *stepError) bool {
	if se.gone {
		return false
	}
	switch se.Reason {
	case StopNeedsAgent, StopKeyMismatch:
		return true
	case StopTargetNotFound, StopAmbiguous, StopEndMismatch, StopActionFailed, StopActionUncertain:
		return se.Class == ""
	}
	return false
}

// needsModel is why step i (st), which only the agent can perform, failed;
// strict is cache.strict.
func needsModel(st trail.Step, i int, strict bool) string {
	fix := "configure a model: model.baseURL and model.name in trailpin.yaml or your user config (docs/agent.md)"
	if len(st.Actions) == 0 {
		msg := fmt.Sprintf("step %d is a goal for the agent (act: %q) with no recorded actions, and no model is configured: %s", i+1, st.Act, fix)
		if strict {
			msg += " (cache.strict does not change this: a step with no recording has nothing to replay, so only the agent can perform it)"
		}
		return msg
	}
	return fmt.Sprintf("cache.mode is off, so step %d runs with the agent, and no model is configured: %s, or set cache.mode to read-write", i+1, fix)
}

// checkFollows reports whether a check can run after step i of steps: its
// end state, or an assertion or end state of a later step.
func checkFollows(steps []trail.Step, i int) bool {
	if steps[i].End != nil {
		return true
	}
	for _, st := range steps[i+1:] {
		if st.End != nil {
			return true
		}
		for _, a := range st.Actions {
			if a.Kind().IsAssertion() {
				return true
			}
		}
	}
	return false
}

// heal hands step i to the agent, from where its recording stopped (run),
// and judges the outcome: the step passes as healed only when the agent
// reached the goal and a check after it passes.
func (r *trailRun) heal(ctx context.Context, i int, run stepRun, cache string) stepRun {
	st := r.trail.Steps[i]
	sr := &r.res.Steps[i]
	cfg := *r.opts.Agent
	cfg.Origins, cfg.App = r.agentOrigins(), r.trail.App
	cfg.Sensitive = sensitiveValues(r.secrets)
	red := agentRedactor(r.secrets)
	cfg.Redact = red.String
	// No request leaves without this trail's secrets redacted, whatever
	// redactor the run's client was made with.
	cfg.Client = cfg.Client.WithSecrets(red)
	if cache == CacheAgent {
		run = stepRun{err: run.err, reason: run.reason}
	}
	// An assertChange after the step checks what the agent did, as it
	// checks a recorded action: the page is captured before the hand-off
	// and once quiet after the agent's done.
	obsID, observe := r.agentObservation(i)
	var before *screen.Screen
	var beforeErr error
	if observe {
		before, beforeErr = screenBefore(ctx, r.page)
	}
	// Whether an action replay was unsure of took effect is judged on the
	// screen the agent is handed, before the agent changes it.
	unsure := r.uncertainEvidence(ctx, i, run)
	out := agent.Run(ctx, cfg, newAgentPage(r, i), r.agentGoal(i, run))
	r.page.acted() // the agent changed the page: look afresh
	observed := false
	if observe && out.Verdict == agent.VerdictDone && ctx.Err() == nil {
		r.observe(ctx, obsID, fmt.Sprintf("the agent's part of step %d", i+1), st.Line, before, beforeErr)
		observed = true
	}
	if observe {
		// The trail's assertChange after the step reads its last action:
		// checks of the agent's own at the end of its flow would stand
		// between them.
		out.Actions = trimTrailingChecks(out.Actions)
	}

	h := newHeal(out, cache, run)
	if cache != CacheAgent {
		h.Actions = append(h.Actions, st.Actions[:run.performed]...)
	}
	if unsure != nil && out.Verdict == agent.VerdictDone {
		keep, why := unsure.judge(out.Actions)
		if keep {
			h.Actions = append(h.Actions, unsure.action)
		}
		h.Uncertain = why
	}
	h.Actions = append(h.Actions, out.Actions...)
	sr.Heal, sr.ModelCalls = h, h.Calls

	if out.Verdict != agent.VerdictDone {
		return agentFailed(i, run, out, h)
	}
	switch {
	case len(out.OffOrigins) > 0:
		h.NotSaved = "the agent's flow left the app's origins (" + strings.Join(out.OffOrigins, ", ") +
			"): a flow that goes outside them is never saved, so no later run repeats it without a model"
	case len(out.Refused) > 0:
		h.NotSaved = "the agent asked for what it may not do (" + strings.Join(out.Refused, "; ") +
			"): a flow made while the model was led astray is never saved"
	case len(out.NotRecorded) > 0:
		h.NotSaved = "the agent did what no selector records: " + strings.Join(out.NotRecorded, "; ")
	case out.Acted == 0:
		h.NotSaved = "the agent changed nothing that could be checked, so there is no new flow to save"
	case run.reason == StopEndMismatch && cache == CacheHandOff:
		h.NotSaved = "the agent had to repair an end-mismatch: the next verified run records a clean flow, not the old one plus the fix"
	}
	if st.End != nil {
		if err := r.checkEnd(ctx, st.End); err != nil {
			se := asStepError(err)
			se.Msg = fmt.Sprintf("the agent said it reached the goal (%s), but %s", screen.OneLine(out.Reason), se.Msg)
			h.NotSaved = "the check after it failed: " + se.Msg
			return stepRun{performed: run.performed, reason: se.Reason, err: se, done: run.done, observed: observed}
		}
		h.Check = fmt.Sprintf("the end state of step %d (line %d)", i+1, st.End.Line)
	} else if checkFollows(r.trail.Steps, i) {
		r.pending = h
	} else if h.NotSaved == "" {
		h.NotSaved = "no check after the step passed: record an end state or add an assertion after it"
	}
	sr.Status = StatusHealed
	return stepRun{performed: run.performed, reason: run.reason, done: run.done, observed: observed}
}

// agentObservation says whether the agent's part of step i is observed:
// when an assertChange follows the step. Its id is that of the step's last
// recorded action when the trail gives it one (trail.DiffIDs), else one of
// the step's own, which no diffId names.
func (r *trailRun) agentObservation(i int) (string, bool) {
	st := r.trail.Steps[i]
	last := len(st.Actions) - 1
	if _, ok := nextAction(r.trail.Steps, i, last).(trail.AssertChange); !ok {
		return "", false
	}
	if id := r.diffIDs[trail.ActionAt{Step: i, Action: last}]; id != "" {
		return id, true
	}
	return fmt.Sprintf("step-%d", i+1), true
}

// trimTrailingChecks drops the assertions at the end of a flow: a
// trail's assertChange must follow the action whose change it checks.
func trimTrailingChecks(acts []trail.Action) []trail.Action {
	for len(acts) > 0 && acts[len(acts)-1].Kind().IsAssertion() {
		acts = acts[:len(acts)-1]
	}
	return acts
}

// newHeal is the record of the agent's work on a step.
func newHeal(out *agent.Outcome, cache string, run stepRun) *Heal {
	h := &Heal{Cache: cache, Verdict: string(out.Verdict), Summary: out.Reason, ConfigKey: agent.ConfigKey(),
		Turns: out.Turns, Calls: out.Calls(), Latency: out.Latency(), Refused: out.Refused, OffOrigins: out.OffOrigins}
	if cache != CacheAgent {
		h.Stopped, h.Replayed = run.reason, run.performed
	}
	h.PromptTokens, h.CompletionTokens = out.Tokens()
	for _, t := range out.Turns {
		if isAgentAction(t.Tool) && t.Result != "" && !strings.HasPrefix(t.Result, "Refused") {
			// What it did, without the budget the model was told of.
			did, _, _ := strings.Cut(t.Result, ". You can act ")
			h.Did = append(h.Did, did)
		}
	}
	return h
}

// agentFailed is the step's failure when the agent did not reach the
// goal: replay's stop, and what the agent said. Its class is the agent's
// where the agent says (app-bug, agent-misread), else what the evidence
// shows.
func agentFailed(i int, run stepRun, out *agent.Outcome, h *Heal) stepRun {
	se := run.err
	if h.Cache == CacheAgent {
		// Only the agent could perform the step: its verdict is the cause.
		se.Msg = fmt.Sprintf("step %d: the agent did not reach the goal (%s): %s", i+1, out.Verdict, screen.OneLine(out.Reason))
		se.Class = ClassAgentMisread
		if out.Verdict == agent.VerdictModelError || out.Verdict == agent.VerdictPageError {
			se.Class = ClassEnvIssue
		}
	} else {
		se.Msg = fmt.Sprintf("%s; the agent did not heal it (%s): %s", se.Msg, out.Verdict, screen.OneLine(out.Reason))
	}
	switch out.Verdict.Class() {
	case string(ClassAppBug):
		se.Class = ClassAppBug
	case string(ClassAgentMisread):
		se.Class = ClassAgentMisread
	}
	switch out.Verdict {
	case agent.VerdictModelError:
		h.NotSaved, h.Decision = "no model answered", HealKept
	case agent.VerdictCancelled:
		h.NotSaved, h.Decision = "the run was cancelled", HealKept
	default:
		h.NotSaved = "the step failed"
	}
	if out.Verdict == agent.VerdictRefused {
		h.NotSaved = "the agent was refused an action outside the app's origins: " + screen.OneLine(out.Reason)
	}
	return run
}

// checkPassed records that a check passed: the proof of a healed step
// that waited for one.
func (r *trailRun) checkPassed(what string) {
	if r.pending != nil {
		r.pending.Check = what
		r.pending = nil
	}
}

// settleHeals completes the record of every heal once the attempt ended:
// a heal whose check never ran or failed is not saved, and every one that
// is not saveable is dropped (or kept, when no model answered).
func (r *trailRun) settleHeals() {
	if h := r.pending; h != nil {
		h.NotSaved = "no check after it passed: the trail failed first"
		if r.failure != nil && r.failed >= 0 {
			healed := 0
			for j := range r.failed {
				if r.res.Steps[j].Heal == h {
					healed = j + 1
				}
			}
			if healed > 0 {
				r.failure.Msg += fmt.Sprintf(" (after the agent healed step %d: %s)", healed, screen.OneLine(h.Summary))
				h.NotSaved = "the check after it failed"
			}
		}
		r.pending = nil
	}
	for i := range r.res.Steps {
		h := r.res.Steps[i].Heal
		if h == nil || h.Decision != "" {
			continue
		}
		if r.res.Steps[i].Status == StatusFailed && h.NotSaved == "" {
			h.NotSaved = "the step failed"
		}
		if !h.Saveable() {
			h.Decision, h.Reason = HealDropped, h.NotSaved
			if h.Reason == "" {
				h.Reason = "no check after it passed"
			}
		}
	}
}

// healedSteps counts the steps of res the agent healed.
func healedSteps(res *TrailResult) int {
	n := 0
	for _, s := range res.Steps {
		if s.Status == StatusHealed {
			n++
		}
	}
	return n
}

// isAgentAction reports whether a tool acts on the page (and counts as an
// action of the step).
func isAgentAction(tool string) bool {
	switch tool {
	case agent.ToolTap, agent.ToolType, agent.ToolSelect, agent.ToolPress, agent.ToolNavigate:
		return true
	}
	return false
}
