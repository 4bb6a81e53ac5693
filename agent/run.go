package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// maxSaw bounds what a turn keeps of the message the model answered.
const maxSaw = 2000

// Run performs g on page: it shows the model the step and the screen,
// calls the tool the model chose, shows it what came of it with a fresh
// screen, and again, one call at a time, until the model calls done or
// fail, or a budget runs out. It always returns an outcome; it never
// waits past the step's deadline.
func Run(ctx context.Context, cfg Config, page Page, g Goal) *Outcome {
	r := newRun(cfg, page, g)
	start := time.Now()
	ctx, cancel := context.WithDeadline(ctx, r.deadline)
	defer cancel()
	r.loop(ctx)
	r.out.Duration = time.Since(start)
	return r.out
}

// run is one Run: the conversation so far and the screen the model was
// last shown, whose refs its next call names.
type run struct {
	cfg      Config
	page     Page
	goal     Goal
	deadline time.Time
	used     int // actions taken in the step, replayed ones included
	out      *Outcome

	first     string     // the first message, screen left out once it is old
	firstHead string     // the first message without its screen
	exchanges []exchange // the calls answered so far
	shown     *screen.Screen
	matcher   *selector.Matcher
	// last is the agent's last action, which assertChange checks; nil
	// before its first.
	last *lastAction
	// failedOnEvidence: an assertChange failed on what the page did (not
	// on a spec that could not be checked).
	failedOnEvidence bool
	// origins are those the agent may act on, the app's first; fence marks
	// the page's content in every message.
	origins origins
	fence   fence
}

// An exchange is one answered call: what the tool did and, for the last
// one only, the screen after it.
type exchange struct {
	call    model.ToolCall
	outcome string
	screen  string
}

func newRun(cfg Config, page Page, g Goal) *run {
	if cfg.MaxActions <= 0 {
		cfg.MaxActions = DefaultMaxActions
	}
	if cfg.StepDeadline <= 0 {
		cfg.StepDeadline = DefaultStepDeadline
	}
	if cfg.Redact == nil {
		cfg.Redact = func(s string) string { return s }
	}
	if g.Started.IsZero() {
		g.Started = time.Now()
	}
	r := &run{cfg: cfg, page: page, goal: g, deadline: g.Started.Add(cfg.StepDeadline), out: &Outcome{}, fence: newFence()}
	if g.HandOff != nil {
		r.used = len(g.HandOff.Performed)
	}
	return r
}

func (r *run) loop(ctx context.Context) {
	if r.cfg.Client == nil {
		r.stop(VerdictModelError, "no model is configured: set model.baseURL and model.name (docs/agent.md)")
		return
	}
	if err := r.look(ctx); err != nil {
		r.pageFailed(ctx, "reading the screen", err)
		return
	}
	r.origins = allowedOrigins(r.cfg, r.shown)
	if r.used >= r.cfg.MaxActions {
		r.stop(VerdictBudget, r.actionsSpent())
		return
	}
	r.firstHead = r.firstMessage(r.cfg.MaxActions - r.used)
	r.first = r.firstHead + r.screenBlock(r.shown, false)
	for {
		msgs := r.conversation()
		saw := msgs[len(msgs)-1].Text
		call, usage, err := r.cfg.Client.CallTool(ctx, msgs, Tools, model.Budget{MaxAttempts: r.cfg.MaxAttempts, Calls: r.cfg.Calls})
		turn := Turn{Saw: r.trim(saw), Usage: usage}
		if err != nil {
			turn.Result = r.cfg.Redact(err.Error())
			r.out.Turns = append(r.out.Turns, turn)
			r.modelFailed(ctx, err)
			return
		}
		// The model never saw a secret's value; the arguments are kept
		// through the redactor all the same, like everything a turn keeps.
		turn.Tool, turn.Arguments = call.Name, json.RawMessage(r.cfg.Redact(string(call.Arguments)))
		res := r.execute(ctx, call)
		turn.Result = r.cfg.Redact(res.outcome)
		r.out.Turns = append(r.out.Turns, turn)
		if res.stop {
			return
		}
		r.exchanges = append(r.exchanges, exchange{call: call, outcome: res.outcome, screen: res.screen})
	}
}

// conversation is what the next call sends: the instructions, the first
// message and every answered call, with only the latest screen in full
// (older ones are what the model already acted on).
func (r *run) conversation() []model.Message {
	msgs := []model.Message{model.System(systemPrompt)}
	if len(r.exchanges) == 0 {
		return append(msgs, model.User(r.first))
	}
	msgs = append(msgs, model.User(r.firstHead+"(the screen shown then is left out; the latest is below)"))
	for i, e := range r.exchanges {
		text := e.outcome
		if i == len(r.exchanges)-1 && e.screen != "" {
			text += "\n\n" + e.screen
		}
		msgs = append(msgs, model.Called(e.call), model.Result(e.call, text))
	}
	return msgs
}

// look captures the screen the model is shown next.
func (r *run) look(ctx context.Context) error {
	s, err := r.page.Screen(ctx)
	if err != nil {
		return err
	}
	if s == nil || s.Root == nil {
		return errors.New("the page gave no screen")
	}
	r.shown, r.matcher = s, selector.NewMatcher(s)
	return nil
}

// stop ends the run with a verdict and its reason.
func (r *run) stop(v Verdict, reason string) {
	r.out.Verdict, r.out.Reason = v, r.cfg.Redact(reason)
}

func (r *run) actionsSpent() string {
	replayed := 0
	if r.goal.HandOff != nil {
		replayed = len(r.goal.HandOff.Performed)
	}
	return fmt.Sprintf("the step used its %d actions (agent.maxActions; %d replayed, %d by the agent) before the agent reached its goal",
		r.cfg.MaxActions, replayed, r.out.Acted)
}

// modelFailed ends the run on a call that got no usable answer: the
// reason names what the model did (rate-limited, server-error, timeout,
// malformed, unknown-tool…), and which budget ran out.
func (r *run) modelFailed(ctx context.Context, err error) {
	var ce *model.CallError
	if !errors.As(err, &ce) {
		r.stop(VerdictModelError, "the agent could not call the model: "+err.Error())
		return
	}
	r.out.Failure = ce.Failure
	switch ce.Failure {
	case model.FailCancelled:
		r.stop(VerdictCancelled, "the run was cancelled while the agent waited for the model")
	case model.FailDeadline:
		r.stop(VerdictBudget, fmt.Sprintf("the step ran out of time (agent.stepDeadline %s) waiting for the model: %s", r.cfg.StepDeadline, err))
	case model.FailCallBudget:
		r.stop(VerdictBudget, "the run used its model calls (agent.maxCalls): "+err.Error())
	default:
		r.stop(VerdictModelError, "the agent's model gave no usable answer: "+err.Error())
	}
}

// pageFailed ends the run on a page that could not be used, or on the
// step's deadline or a cancel that ended a page action.
func (r *run) pageFailed(ctx context.Context, what string, err error) {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		r.stop(VerdictCancelled, "the run was cancelled")
	case ctx.Err() != nil:
		r.stop(VerdictBudget, fmt.Sprintf("the step ran out of time (agent.stepDeadline %s) while %s", r.cfg.StepDeadline, what))
	default:
		r.stop(VerdictPageError, what+": "+err.Error())
	}
}

// trim bounds a message kept in a turn.
func (r *run) trim(s string) string {
	s = r.cfg.Redact(s)
	if len(s) <= maxSaw {
		return s
	}
	cut := maxSaw
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d more characters)", len(s)-cut)
}
