package recording

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/redact"
	"github.com/trailpin/trailpin/storage/secrets"
)

// "Ask the agent" while recording (host/PROTOCOL.md, The agent while
// recording): the popup sends a goal, the host runs the same agent loop as
// replay (agent) with the person's model, on a Page that is the
// recorded tab: each snapshot and act by ref is a request to the extension,
// which acts with trusted input (chrome.debugger). The recorder in the page
// captures that input like a person's, and the extension frames the goal's
// interactions with agentStart and agentEnd, so the step builder makes them
// one step whose intent is the goal (by: agent). The host never builds a
// step from the agent's tool calls.

// maxGoalRunes bounds a goal: it becomes a step's intent.
const maxGoalRunes = maxIntentRunes

// maxOfferedSecrets bounds the secrets agent.ask offers by name.
const maxOfferedSecrets = 50

// appOrigins are the origins the agent may act on while recording from
// origin (the recording's start page), the app's first: the base URL of
// the project's app with that origin and its apps.<name>.origins, or that
// origin alone when no app of the project has it ("" for app then).
func appOrigins(p *config.Project, origin string) (origins []string, app string) {
	if p == nil {
		return []string{origin}, ""
	}
	name, ok := p.AppForOrigin(origin)
	if !ok {
		return []string{origin}, ""
	}
	base, err := config.OriginOf(p.Apps[name])
	if err != nil {
		base = origin
	}
	out := []string{base}
	for _, o := range p.Origins[name] {
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out, name
}

// noModelMessage says how to configure a model, for the popup.
const noModelMessage = "No model is configured for the agent. Set model.baseURL and model.name " +
	"(and model.apiKeyEnv, the variable that holds its key) in your user config " +
	"(~/.config/trailpin/config.yaml) or the project's trailpin.yaml, then reopen the popup. " +
	"docs/agent.md lists the settings of each endpoint."

// An agentRunner runs at most one goal at a time, for the session that
// asked.
type agentRunner struct {
	r *Service

	mu     sync.Mutex
	goal   *liveGoal
	goals  int
	closed bool
	// left maps a session to the origin off the app its last goal's agent
	// was shown, until its next goal starts: the goal's agentEnd is marked
	// with it, and its steps are left out of the trail.
	left map[string]string
}

// A liveGoal is a goal the agent is performing.
type liveGoal struct {
	id, session, text string
	cancel            context.CancelFunc
	stopped           bool // the person pressed Stop
	done              chan struct{}
}

func newAgentRunner(r *Service) *agentRunner {
	return &agentRunner{r: r, left: map[string]string{}}
}

// AgentStatus says whether the agent can be asked in a session
// (agent.status).
func (r *Service) AgentStatus(ctx context.Context, in SessionIn) (_ AgentStatusOut, err error) {
	defer r.explainDamage(&err)
	return r.agent.status(ctx, in)
}

// AskAgent starts the agent on a goal in the session's recorded tab and
// returns at once (agent.ask); in.Tab hears how it ends.
func (r *Service) AskAgent(ctx context.Context, in AskIn) (_ AskOut, err error) {
	defer r.explainDamage(&err)
	return r.agent.ask(ctx, in)
}

// StopAgent cancels the goal under way in a session and returns once it
// ended (agent.stop).
func (r *Service) StopAgent(ctx context.Context, in SessionIn) (_ StopAgentOut, err error) {
	defer r.explainDamage(&err)
	return r.agent.stop(ctx, in)
}

// A recordAgent is the agent of a recording: its configuration on the
// person's model, the secrets it may type by name, and what fills them in.
type recordAgent struct {
	cfg   agent.Config
	model string
	// secrets and users are the ${secret:NAME} and ${user:NAME.FIELD} the
	// goal was offered, which the model is told it may type.
	secrets, users []string
	// fill puts the values of the offered references into a text at the
	// moment it is typed, and refuses any other reference.
	fill          func(string) (string, error)
	actionTimeout time.Duration
	// project is the recording's trailpin.yaml, nil when it has none.
	project *config.Project
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
	if projectDir == "" || a.r.opts.LoadConfig == nil {
		return cfg, nil
	}
	file := filepath.Join(projectDir, config.ProjectFileName)
	if _, err := os.Stat(file); err != nil {
		return cfg, nil
	}
	pc, err := a.r.opts.LoadConfig(file)
	if err != nil {
		return nil, invalid("reading %s for the agent: %v", file, err)
	}
	return pc, nil
}

func (a *agentRunner) getenv(name string) string {
	if a.r.opts.Getenv != nil {
		return a.r.opts.Getenv(name)
	}
	return os.Getenv(name)
}

// offeredRefs are the references a goal offers the agent (docs/agent.md,
// Ask the agent while recording): the ${secret:…} and ${user:…} the goal
// names, and the secrets the person offered by name with it. A secret of
// the project that neither names is not offered: the model is not told of
// it, and the agent cannot type it. Each must have a value.
func offeredRefs(goal string, offered []string, res *secrets.Resolver) ([]trail.Ref, error) {
	refs, err := trail.ParseRefs(goal)
	if err != nil {
		return nil, invalid("goal: %v", err)
	}
	var out []trail.Ref
	seen := map[trail.Ref]bool{}
	add := func(ref trail.Ref) error {
		if seen[ref] {
			return nil
		}
		seen[ref] = true
		if _, err := res.Lookup(ref); err != nil {
			where := "secrets." + ref.Name
			env := secrets.SecretEnv(ref.Name)
			if ref.Kind == trail.RefUser {
				user, field, _ := strings.Cut(ref.Name, ".")
				where, env = "credentials."+user+"."+field, secrets.UserEnv(user, field)
			}
			return invalid("the goal offers %s, which has no value: set %s where Chrome starts, or %s in trailpin.yaml", ref, env, where)
		}
		out = append(out, ref)
		return nil
	}
	for _, ref := range refs {
		if ref.Kind == trail.RefParam {
			return nil, invalid("goal: %s: a recording has no params; write the text itself", ref)
		}
		if err := add(ref); err != nil {
			return nil, err
		}
	}
	for _, name := range offered {
		ref := trail.Ref{Kind: trail.RefSecret, Name: name}
		if _, err := trail.ParseRefs(ref.String()); err != nil || name == "" {
			return nil, invalid("secrets: %q is not the name of a secret", name)
		}
		if err := add(ref); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setup makes the agent of a recording in projectDir for goal ("" to ask
// whether it can be made), offered the references of offeredRefs;
// errNoModel when no model is configured. Its redactor knows every secret
// value the recording could fill in, offered or not.
func (a *agentRunner) setup(projectDir, goal string, offered []string) (*recordAgent, error) {
	cfg, err := a.configFor(projectDir)
	if err != nil {
		return nil, err
	}
	mc, err := cfg.Model()
	if err != nil {
		return nil, invalid("the agent's model: %v", err)
	}
	if !mc.Configured() {
		return nil, errNoModel
	}
	ra := &recordAgent{model: mc.Name, actionTimeout: 10 * time.Second, project: cfg.Project}
	var sc secrets.Config
	maxActions, deadline, maxCalls := a.r.opts.AgentMaxActions, agent.DefaultStepDeadline, a.r.opts.AgentMaxCalls
	if p := cfg.Project; p != nil {
		sc = p.Secrets
		maxActions, deadline, maxCalls = p.Agent.MaxActions, p.Agent.StepDeadline, p.Agent.MaxCalls
		if p.Replay.ActionTimeout > 0 {
			ra.actionTimeout = p.Replay.ActionTimeout
		}
		a.r.learnSecrets(p)
	}
	res := secrets.NewResolver(sc, a.getenv)
	refs, err := offeredRefs(goal, offered, res)
	if err != nil {
		return nil, err
	}
	allowed := map[trail.Ref]bool{}
	for _, ref := range refs {
		allowed[ref] = true
		switch ref.Kind {
		case trail.RefSecret:
			ra.secrets = append(ra.secrets, ref.Name)
		case trail.RefUser:
			ra.users = append(ra.users, ref.Name)
		}
	}
	sort.Strings(ra.secrets)
	sort.Strings(ra.users)
	// Every value the agent could meet, offered or not: the goal's, then
	// every one the process could fill in (the project's secrets and
	// passwords, every TRAILPIN_SECRET_* and TRAILPIN_USER_*_PASSWORD
	// variable), named as a model request names it.
	var list []redact.Secret
	var values []string
	known := map[string]string{}
	add := func(ref trail.Ref, v string) {
		if v == "" || slices.Contains(values, v) {
			return
		}
		list = append(list, redact.Secret{Name: string(ref.Kind) + ":" + ref.Name, Value: v})
		values = append(values, v)
		if ref.Kind == trail.RefSecret {
			known[ref.Name] = v
		}
	}
	for _, ref := range refs {
		if ref.IsSecret() {
			v, _ := res.Lookup(ref)
			add(ref, v)
		}
	}
	var environ []string
	if a.r.opts.Environ != nil {
		environ = a.r.opts.Environ()
	}
	for _, k := range res.Known(environ) {
		add(k.Ref, k.Value)
	}
	// Storage and the log hide them too, should one reach them anyway.
	a.r.learnValues(known)
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	red := redact.New(list, func(name string) string { return "${" + name + "}" })
	client, err := model.New(mc, model.WithRedactor(red), model.WithGetenv(a.getenv))
	if err != nil {
		return nil, invalid("the agent's model: %v", err)
	}
	if n := mc.InsecureNotice(); n != "" {
		a.r.insecureSaid.Do(func() { a.r.log.Warn(n) })
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
			if !allowed[ref] {
				return "", notOffered(ref, refs)
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

// notOffered is the refusal of a reference the goal was not offered: the
// model is told which it may type. The agent refuses it before it asks
// the page to type (agent); this is the page's own guard.
func notOffered(ref trail.Ref, offered []trail.Ref) error {
	may := "none"
	if len(offered) > 0 {
		var list []string
		for _, o := range offered {
			list = append(list, o.String())
		}
		may = strings.Join(list, ", ")
	}
	return fmt.Errorf("%s was not offered for this goal, so nothing was typed: the secrets it may type are %s (a person offers one by naming it in the goal)", ref, may)
}

// AgentStatusOut says whether a model is configured for the session's
// project, and the goal under way ("" for none).
type AgentStatusOut struct {
	Configured bool   `json:"configured"`
	Model      string `json:"model"`
	Message    string `json:"message"`
	Running    string `json:"running"`
}

// status says whether the agent can be asked in a session (its project's
// model, else the user's), for the popup's Ask the agent field.
func (a *agentRunner) status(ctx context.Context, in SessionIn) (AgentStatusOut, error) {
	dir, err := a.projectOf(ctx, in.Session)
	if err != nil {
		return AgentStatusOut{}, err
	}
	out := AgentStatusOut{}
	ra, err := a.setup(dir, "", nil)
	var re *Error
	switch {
	case err == nil:
		out.Configured, out.Model = true, ra.model
	case errors.Is(err, errNoModel):
		out.Message = noModelMessage
	case errors.As(err, &re):
		out.Message = re.Message
	default:
		return AgentStatusOut{}, err
	}
	a.mu.Lock()
	if a.goal != nil {
		out.Running = a.goal.text
	}
	a.mu.Unlock()
	return out, nil
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
			return "", StorageError(err)
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

// AskIn asks the agent to perform a goal in the recorded tab (agent.ask).
type AskIn struct {
	Session string `json:"session"`
	Goal    string `json:"goal"`
	// Secrets are names of secrets the person offers the goal besides
	// those it names (${secret:NAME}); optional.
	Secrets []string `json:"secrets"`
	// Tab is the door's way to the recorded tab: the agent's page
	// requests go through it, and its progress and end come back.
	Tab Tab `json:"-"`
}

// AskOut is the goal started: Goal is the id its progress and end carry.
type AskOut struct {
	Session string `json:"session"`
	Goal    string `json:"goal"`
	Model   string `json:"model"`
}

// ask starts the agent on a goal in the session's recorded tab and answers
// at once; agent.done says how it ended.
func (a *agentRunner) ask(ctx context.Context, in AskIn) (AskOut, error) {
	if err := checkSessionID(in.Session); err != nil {
		return AskOut{}, err
	}
	if in.Tab == nil {
		return AskOut{}, errors.New("no way to the recorded tab was given")
	}
	goal, err := oneLine("goal", in.Goal, maxGoalRunes)
	if err != nil {
		return AskOut{}, err
	}
	db, err := a.r.database(ctx)
	if err != nil {
		return AskOut{}, err
	}
	sess, st, err := a.r.sessionState(ctx, db, in.Session)
	if err != nil {
		return AskOut{}, err
	}
	a.r.mu.Lock()
	stopped := st.stopped
	a.r.mu.Unlock()
	if stopped || !sess.SavedAt.IsZero() {
		return AskOut{}, invalid("session %s is stopped: the agent acts only while recording; start a new recording", sess.ID)
	}
	dir, err := a.projectOf(ctx, sess.ID)
	if err != nil {
		return AskOut{}, err
	}
	if len(in.Secrets) > maxOfferedSecrets {
		return AskOut{}, invalid("secrets: %d names; offer at most %d", len(in.Secrets), maxOfferedSecrets)
	}
	ra, err := a.setup(dir, goal, in.Secrets)
	if errors.Is(err, errNoModel) {
		return AskOut{}, invalid("%s", noModelMessage)
	}
	if err != nil {
		return AskOut{}, err
	}
	origin, err := config.OriginOf(sess.StartURL)
	if err != nil {
		return AskOut{}, invalid("the recording's start page %s has no origin: %v", sess.StartURL, err)
	}
	origins, app := appOrigins(ra.project, origin)
	ra.cfg.Origins, ra.cfg.App = origins, app
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return AskOut{}, errHostClosing
	}
	if a.goal != nil {
		running := a.goal.text
		a.mu.Unlock()
		return AskOut{}, invalid("the agent is performing %q already: wait for it, or press Stop in the recording bar", screen.Clip(running, 80))
	}
	a.goals++
	gctx, cancel := context.WithCancel(context.Background())
	g := &liveGoal{id: "g-" + strconv.Itoa(a.goals), session: sess.ID, text: goal, cancel: cancel, done: make(chan struct{})}
	a.goal = g
	a.mu.Unlock()

	page := &liveTab{a: a, tab: in.Tab, goal: g, origin: origin, origins: origins, fill: ra.fill, actionTimeout: ra.actionTimeout}
	a.r.log.Info("agent goal started", "session", sess.ID, "goal", g.id, "model", ra.model)
	go a.run(gctx, g, ra, page)
	return AskOut{Session: sess.ID, Goal: g.id, Model: ra.model}, nil
}

// AgentDone says how a goal ended (agent.done).
type AgentDone struct {
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
	// Left is the origin off the app a screen of the goal was on, or an
	// act was refused on: its steps are not written into the trail.
	Left string `json:"left,omitempty"`
	// Refused counts the calls refused for breaking the agent's rules (an
	// act off the app's origins, a secret the goal was not offered).
	Refused int `json:"refused,omitempty"`
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
	out := agent.Run(ctx, ra.cfg, page, agent.Goal{Intent: g.text, Secrets: ra.secrets, Users: ra.users})
	a.mu.Lock()
	stopped := g.stopped
	if a.goal == g {
		a.goal = nil
	}
	a.mu.Unlock()
	done := AgentDone{Session: g.session, Goal: g.id, Verdict: string(out.Verdict), Message: out.Reason,
		Actions: out.Acted, Calls: out.Calls(), Checks: agentChecks(out), Left: page.leftApp(),
		Refused: len(out.Refused)}
	if len(out.OffOrigins) > 0 {
		done.Left = out.OffOrigins[0]
	}
	if done.Left != "" {
		a.mu.Lock()
		a.left[g.session] = done.Left
		a.mu.Unlock()
	}
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
	a.r.log.Info("agent goal ended", "session", g.session, "goal", g.id, "state", done.State, "verdict", out.Verdict,
		"actions", out.Acted, "calls", done.Calls, "checks", len(done.Checks), "left", done.Left, "refused", done.Refused)
	if err := page.tab.Done(done); err != nil {
		a.r.log.Warn("the end of the agent's goal could not be sent", "goal", g.id, "err", err)
	}
}

// leftOf is the origin off the app the last goal of session was shown, ""
// when none.
func (a *agentRunner) leftOf(session string) string {
	if a == nil {
		return ""
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.left[session]
}

// forgetLeft forgets it, when the session's next goal starts.
func (a *agentRunner) forgetLeft(session string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.left, session)
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
				a.r.log.Warn("a model call could not be stored", "goal", g.id, "err", err)
			}
		}
	}
}

// stop cancels the goal the agent performs in a session; it answers once
// the goal ended (its end was told to the tab before it returns).
func (a *agentRunner) stop(ctx context.Context, in SessionIn) (StopAgentOut, error) {
	if err := checkSessionID(in.Session); err != nil {
		return StopAgentOut{}, err
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
		return StopAgentOut{Session: in.Session, Stopped: false}, nil
	}
	g.cancel()
	// The page requests under way end with the cancel; their answers are
	// not waited for.
	select {
	case <-g.done:
	case <-time.After(5 * time.Second):
	}
	return StopAgentOut{Goal: g.id, Session: in.Session, Stopped: true}, nil
}

// StopAgentOut says whether a goal was under way, and which.
type StopAgentOut struct {
	Goal    string `json:"goal,omitempty"`
	Session string `json:"session"`
	Stopped bool   `json:"stopped"`
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
