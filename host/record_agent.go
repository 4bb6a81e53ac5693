package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/agent"
	"github.com/trailpin/trailpin/replay/model"
	"github.com/trailpin/trailpin/replay/secrets"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/redact"
)

// "Ask the agent" while recording (host/PROTOCOL.md, The agent while
// recording): the popup sends a goal, the host runs the same agent loop as
// replay (replay/agent) with the person's model, on a Page that is the
// recorded tab: each snapshot and act by ref is a request to the extension,
// which acts with trusted input (chrome.debugger). The recorder in the page
// captures that input like a person's, and the extension frames the goal's
// interactions with agentStart and agentEnd, so the step builder makes them
// one step whose intent is the goal (by: agent). The host never builds a
// step from the agent's tool calls.

const (
	typeAgentStatus     = "agent.status"
	typeAgentAsk        = "agent.ask"
	typeAgentStop       = "agent.stop"
	typeAgentPageResult = "agent.pageResult"
	// Messages the host starts.
	typeAgentPage     = "agent.page"
	typeAgentProgress = "agent.progress"
	typeAgentDone     = "agent.done"
)

// maxGoalRunes bounds a goal: it becomes a step's intent.
const maxGoalRunes = maxIntentRunes

// noModelMessage says how to configure a model, for the popup.
const noModelMessage = "No model is configured for the agent. Set model.baseURL and model.name " +
	"(and model.apiKeyEnv, the variable that holds its key) in your user config " +
	"(~/.config/trailpin/config.yaml) or the project's trailpin.yaml, then reopen the popup. " +
	"docs/agent.md lists the settings of each endpoint."

// An agentRunner runs at most one goal at a time, for the session that
// asked, and routes the extension's answers to the page requests waiting
// for them.
type agentRunner struct {
	r *recording

	mu      sync.Mutex
	goal    *liveGoal
	goals   int
	waiting map[string]chan pageAnswer
	closed  bool
}

// A liveGoal is a goal the agent is performing.
type liveGoal struct {
	id, session, text string
	cancel            context.CancelFunc
	stopped           bool // the person pressed Stop
	done              chan struct{}
}

func registerAgent(srv *nativemsg.Server, r *recording, handle func(string, nativemsg.Handler)) *agentRunner {
	a := &agentRunner{r: r, waiting: map[string]chan pageAnswer{}}
	handle(typeAgentStatus, a.status)
	handle(typeAgentAsk, a.ask)
	handle(typeAgentStop, a.stop)
	srv.Handle(typeAgentPageResult, a.pageResult)
	return a
}

// A recordAgent is the agent of a recording: its configuration on the
// person's model, the secrets it may type by name, and what fills them in.
type recordAgent struct {
	cfg           agent.Config
	model         string
	secrets       []string // names of ${secret:NAME} the model may type
	fill          func(string) (string, error)
	actionTimeout time.Duration
}

// errNoModel is what a goal gets when no model is configured.
var errNoModel = errors.New(noModelMessage)

// configFor is the configuration a session's agent uses: the user config,
// with the session's project (its trailpin.yaml's model and budgets win).
func (a *agentRunner) configFor(projectDir string) (*config.Config, error) {
	cfg, err := a.r.config()
	if err != nil {
		return nil, err
	}
	if projectDir == "" || a.r.s.LoadConfig == nil {
		return cfg, nil
	}
	file := filepath.Join(projectDir, config.ProjectFileName)
	if _, err := os.Stat(file); err != nil {
		return cfg, nil
	}
	pc, err := a.r.s.LoadConfig(file)
	if err != nil {
		return nil, badRequest("reading %s for the agent: %v", file, err)
	}
	return pc, nil
}

func (a *agentRunner) getenv(name string) string {
	if a.r.s.Getenv != nil {
		return a.r.s.Getenv(name)
	}
	return os.Getenv(name)
}

// setup makes the agent of a recording in projectDir for goal ("" to ask
// whether it can be made); errNoModel when no model is configured. The
// secrets it may type are the project's and those the goal names.
func (a *agentRunner) setup(projectDir, goal string) (*recordAgent, error) {
	cfg, err := a.configFor(projectDir)
	if err != nil {
		return nil, err
	}
	mc, err := cfg.Model()
	if err != nil {
		return nil, badRequest("the agent's model: %v", err)
	}
	if !mc.Configured() {
		return nil, errNoModel
	}
	ra := &recordAgent{model: mc.Name, actionTimeout: 10 * time.Second}
	var sc secrets.Config
	maxActions, deadline, maxCalls := noProjectMaxActions, agent.DefaultStepDeadline, noProjectMaxCalls
	if p := cfg.Project; p != nil {
		sc = p.Secrets
		maxActions, deadline, maxCalls = p.Agent.MaxActions, p.Agent.StepDeadline, p.Agent.MaxCalls
		if p.Replay.ActionTimeout > 0 {
			ra.actionTimeout = p.Replay.ActionTimeout
		}
		a.r.learnSecrets(p)
	}
	res := secrets.NewResolver(sc, a.getenv)
	// Every value the agent could meet, named as a model request names it.
	var list []redact.Secret
	var values []string
	names := map[string]bool{}
	for name := range sc.Secrets {
		names[name] = true
	}
	refs, err := trail.ParseRefs(goal)
	if err != nil {
		return nil, badRequest("goal: %v", err)
	}
	for _, ref := range refs {
		if ref.Kind != trail.RefSecret || names[ref.Name] {
			continue
		}
		if _, err := res.Secret(ref.Name); err != nil {
			return nil, badRequest("the goal types %s, which has no value: set %s where Chrome starts, or secrets.%s in trailpin.yaml",
				ref, secrets.SecretEnv(ref.Name), ref.Name)
		}
		names[ref.Name] = true
	}
	known := map[string]string{}
	for name := range names {
		ra.secrets = append(ra.secrets, name)
		if v, err := res.Secret(name); err == nil && v != "" {
			list = append(list, redact.Secret{Name: "secret:" + name, Value: v})
			values = append(values, v)
			known[name] = v
		}
	}
	// Storage and the log hide them too, should one reach them anyway.
	a.r.learnValues(known)
	for user := range sc.Credentials {
		if v, err := res.User(user, "password"); err == nil && v != "" {
			list = append(list, redact.Secret{Name: "user:" + user + ".password", Value: v})
			values = append(values, v)
		}
	}
	sort.Strings(ra.secrets)
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	red := redact.New(list, func(name string) string { return "${" + name + "}" })
	client, err := model.New(mc, model.WithRedactor(red), model.WithGetenv(a.getenv))
	if err != nil {
		return nil, badRequest("the agent's model: %v", err)
	}
	ra.cfg = agent.Config{Client: client, MaxActions: maxActions, StepDeadline: deadline,
		Calls: model.NewCallBudget(maxCalls), Sensitive: values, Redact: red.String}
	ra.fill = func(text string) (string, error) {
		refs, err := trail.ParseRefs(text)
		if err != nil {
			return "", err
		}
		out := text
		for _, ref := range refs {
			if ref.Kind == trail.RefParam {
				return "", fmt.Errorf("%s: a recording has no params; type the text itself", ref)
			}
			v, err := res.Lookup(ref)
			if err != nil {
				return "", err
			}
			out = strings.ReplaceAll(out, ref.String(), v)
		}
		return out, nil
	}
	return ra, nil
}

type agentStatusReply struct {
	Configured bool   `json:"configured"`
	Model      string `json:"model"`
	Message    string `json:"message"`
	Running    string `json:"running"`
}

// status says whether the agent can be asked in a session (its project's
// model, else the user's), for the popup's Ask the agent field.
func (a *agentRunner) status(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in sessionRequest
	if err := req.Decode(&in); err != nil {
		return nativemsg.Reply{}, err
	}
	dir, err := a.projectOf(ctx, in.Session)
	if err != nil {
		return nativemsg.Reply{}, err
	}
	out := agentStatusReply{}
	ra, err := a.setup(dir, "")
	var ne *nativemsg.Error
	switch {
	case err == nil:
		out.Configured, out.Model = true, ra.model
	case errors.Is(err, errNoModel):
		out.Message = noModelMessage
	case errors.As(err, &ne):
		out.Message = ne.Message
	default:
		return nativemsg.Reply{}, err
	}
	a.mu.Lock()
	if a.goal != nil {
		out.Running = a.goal.text
	}
	a.mu.Unlock()
	return nativemsg.Reply{Body: out}, nil
}

// projectOf is the project folder of a session: the one it was started
// in, else the current project (the popup's project.set), as record.stop
// finds it; "" for none.
func (a *agentRunner) projectOf(ctx context.Context, session string) (string, error) {
	if session != "" {
		if err := checkSessionID(session); err != nil {
			return "", err
		}
		db, err := a.r.database(ctx)
		if err != nil {
			return "", err
		}
		sess, err := db.Session(ctx, session)
		if err != nil {
			return "", storageError(err)
		}
		if sess.ProjectDir != "" {
			return sess.ProjectDir, nil
		}
	}
	p, _, err := a.r.currentProject()
	if err != nil || p == nil {
		return "", err
	}
	return p.Dir, nil
}

type askRequest struct {
	Session string `json:"session"`
	Goal    string `json:"goal"`
}

func (m askRequest) sessionID() string { return m.Session }

type askReply struct {
	Session string `json:"session"`
	Goal    string `json:"goal"`
	Model   string `json:"model"`
}

// ask starts the agent on a goal in the session's recorded tab and answers
// at once; agent.done says how it ended.
func (a *agentRunner) ask(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in askRequest
	if err := decodeSession(req, &in); err != nil {
		return nativemsg.Reply{}, err
	}
	goal, err := oneLine("goal", in.Goal, maxGoalRunes)
	if err != nil {
		return nativemsg.Reply{}, err
	}
	db, err := a.r.database(ctx)
	if err != nil {
		return nativemsg.Reply{}, err
	}
	sess, st, err := a.r.sessionState(ctx, db, in.Session)
	if err != nil {
		return nativemsg.Reply{}, err
	}
	a.r.mu.Lock()
	stopped := st.stopped
	a.r.mu.Unlock()
	if stopped || !sess.SavedAt.IsZero() {
		return nativemsg.Reply{}, badRequest("session %s is stopped: the agent acts only while recording; start a new recording", sess.ID)
	}
	dir, err := a.projectOf(ctx, sess.ID)
	if err != nil {
		return nativemsg.Reply{}, err
	}
	ra, err := a.setup(dir, goal)
	if errors.Is(err, errNoModel) {
		return nativemsg.Reply{}, badRequest("%s", noModelMessage)
	}
	if err != nil {
		return nativemsg.Reply{}, err
	}
	origin, err := config.OriginOf(sess.StartURL)
	if err != nil {
		return nativemsg.Reply{}, badRequest("the recording's start page %s has no origin: %v", sess.StartURL, err)
	}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return nativemsg.Reply{}, errHostClosing
	}
	if a.goal != nil {
		running := a.goal.text
		a.mu.Unlock()
		return nativemsg.Reply{}, badRequest("the agent is performing %q already: wait for it, or press Stop in the recording bar", truncate(running, 80))
	}
	a.goals++
	gctx, cancel := context.WithCancel(context.Background())
	g := &liveGoal{id: "g-" + strconv.Itoa(a.goals), session: sess.ID, text: goal, cancel: cancel, done: make(chan struct{})}
	a.goal = g
	a.mu.Unlock()

	page := &liveTab{a: a, conn: req.Conn, goal: g, origin: origin, fill: ra.fill, actionTimeout: ra.actionTimeout}
	a.r.s.Log.Info("agent goal started", "session", sess.ID, "goal", g.id, "model", ra.model)
	go a.run(gctx, g, ra, page)
	return nativemsg.Reply{Body: askReply{Session: sess.ID, Goal: g.id, Model: ra.model}}, nil
}

type agentDone struct {
	Session string `json:"session"`
	Goal    string `json:"goal"`
	// State is done, stopped or failed (steps.AgentDone…).
	State   string `json:"state"`
	Verdict string `json:"verdict"`
	Message string `json:"message"`
	Actions int    `json:"actions"`
	Calls   int    `json:"calls"`
	// Checks are the agent's assertChange checks that passed, for the
	// extension to send back in the goal's agentEnd: the step builder
	// writes each after the recorded action it checked. A failed check
	// is never among them.
	Checks []steps.AgentCheck `json:"checks,omitempty"`
}

// agentChecks are the passed checks of an outcome, as agent.done carries
// them.
func agentChecks(out *agent.Outcome) []steps.AgentCheck {
	var list []steps.AgentCheck
	for _, c := range out.Checks {
		list = append(list, steps.AgentCheck{Action: c.Action, From: c.Acted.UnixMilli(), Until: c.Checked.UnixMilli(),
			AssertChange: trail.ChangeJSONOf(c.Check)})
	}
	return list
}

// run performs a goal and tells the extension how it ended.
func (a *agentRunner) run(ctx context.Context, g *liveGoal, ra *recordAgent, page *liveTab) {
	defer close(g.done)
	defer g.cancel()
	page.progress("Reading the page")
	out := agent.Run(ctx, ra.cfg, page, agent.Goal{Intent: g.text, Secrets: ra.secrets})
	a.mu.Lock()
	stopped := g.stopped
	if a.goal == g {
		a.goal = nil
	}
	a.mu.Unlock()
	done := agentDone{Session: g.session, Goal: g.id, Verdict: string(out.Verdict), Message: out.Reason,
		Actions: out.Acted, Calls: out.Calls(), Checks: agentChecks(out)}
	switch {
	case out.Verdict == agent.VerdictDone:
		done.State = "done"
	case stopped || out.Verdict == agent.VerdictCancelled:
		done.State, done.Message = "stopped", "stopped before the goal was reached"
	default:
		done.State = "failed"
		if done.Message == "" {
			done.Message = "the agent ended with " + string(out.Verdict)
		}
	}
	a.countCalls(g, ra, out)
	a.r.s.Log.Info("agent goal ended", "session", g.session, "goal", g.id, "state", done.State, "verdict", out.Verdict,
		"actions", out.Acted, "calls", done.Calls, "checks", len(done.Checks))
	if _, err := page.conn.Notify(typeAgentDone, done); err != nil {
		a.r.s.Log.Warn("the end of the agent's goal could not be sent", "goal", g.id, "err", err)
	}
}

// countCalls stores every model request of the goal, like replay's (no
// run: purpose record).
func (a *agentRunner) countCalls(g *liveGoal, ra *recordAgent, out *agent.Outcome) {
	db, err := a.r.database(context.Background())
	if err != nil {
		return
	}
	for _, turn := range out.Turns {
		for _, c := range turn.Usage.Attempts {
			name := turn.Usage.Model
			if name == "" {
				name = ra.model
			}
			mc := storage.ModelCall{Purpose: "record", Model: name, PromptTokens: c.PromptTokens,
				CompletionTokens: c.CompletionTokens, Latency: c.Latency, StartedAt: c.Started}
			if c.Failure != "" {
				mc.Error = string(c.Failure) + ": " + c.Detail
			}
			if _, err := db.AddModelCall(context.Background(), mc); err != nil {
				a.r.s.Log.Warn("a model call could not be stored", "goal", g.id, "err", err)
			}
		}
	}
}

// stop cancels the goal the agent performs in a session; it answers once
// the goal ended (agent.done went out before the reply).
func (a *agentRunner) stop(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in sessionRequest
	if err := decodeSession(req, &in); err != nil {
		return nativemsg.Reply{}, err
	}
	a.mu.Lock()
	g := a.goal
	if g != nil && g.session == in.Session {
		g.stopped = true
	} else {
		g = nil
	}
	a.mu.Unlock()
	if g == nil {
		return nativemsg.Reply{Body: map[string]any{"session": in.Session, "stopped": false}}, nil
	}
	g.cancel()
	// The page requests under way end with the cancel; their answers are
	// not waited for.
	select {
	case <-g.done:
	case <-time.After(5 * time.Second):
	}
	return nativemsg.Reply{Body: map[string]any{"session": in.Session, "stopped": true, "goal": g.id}}, nil
}

// cancelFor stops the goal under way in session, without waiting.
func (a *agentRunner) cancelFor(session string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	g := a.goal
	a.mu.Unlock()
	if g != nil && g.session == session {
		g.cancel()
	}
}

// close cancels the goal under way, when the host ends.
func (a *agentRunner) close() {
	a.mu.Lock()
	a.closed = true
	g := a.goal
	a.mu.Unlock()
	if g != nil {
		g.cancel()
	}
}

// A pageAnswer is the extension's answer to an agent.page request.
type pageAnswer struct {
	OK bool `json:"ok"`
	// Reason is stale (the ref is gone, or the page loaded another
	// document), gone (the tab closed or crashed) or failed.
	Reason  string          `json:"reason"`
	Error   string          `json:"error"`
	Screen  json.RawMessage `json:"screen"`
	Summary string          `json:"summary"`
}

// pageResult hands the extension's answer to the page request waiting for
// it; it has no reply.
func (a *agentRunner) pageResult(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var ans pageAnswer
	if err := req.Decode(&ans); err != nil {
		a.r.s.Log.Warn("an agent.pageResult could not be read", "id", req.ID, "err", err)
		ans = pageAnswer{Reason: "failed", Error: "the extension's answer could not be read"}
	}
	a.mu.Lock()
	ch := a.waiting[req.ID]
	delete(a.waiting, req.ID)
	a.mu.Unlock()
	if ch != nil {
		ch <- ans
	}
	return nativemsg.NoReply, nil
}

// await registers the wait for the answer to the page request id.
func (a *agentRunner) await(id string) chan pageAnswer {
	ch := make(chan pageAnswer, 1)
	a.mu.Lock()
	a.waiting[id] = ch
	a.mu.Unlock()
	return ch
}

func (a *agentRunner) forget(id string) {
	a.mu.Lock()
	delete(a.waiting, id)
	a.mu.Unlock()
}
