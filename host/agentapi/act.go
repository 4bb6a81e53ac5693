package agentapi

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// tab.act (host/PROTOCOL.md, Agent API): the built-in agent (agent), the
// one replay hands a step to, performs a goal the client gives in the
// shared tab. Its snapshots and acts go through the same page ops as the
// client's own calls (trusted input, the same origin checks), so the
// recorder in the page records its input as the client's: the steps are
// marked by: agent with the client's name. Every rule of the agent holds
// (docs/agent.md, What the agent may and may not do): page text is fenced
// and never an instruction, it acts only on the app's origins, and secret
// values never reach the model.

// TypeTabAct asks the built-in agent to perform a goal in a tab.
const TypeTabAct = "tab.act"

// An ActAgent is the built-in agent set up for one goal (the host's
// recording service makes it: recording.ClientAgent).
type ActAgent struct {
	Config         agent.Config
	Secrets, Users []string
	// Fill puts the values of the references the goal offers into a text
	// at the moment it is typed, and refuses any other.
	Fill          func(string) (string, error)
	Model         string
	ActionTimeout time.Duration
	// Count stores the outcome's model requests; nil for none.
	Count func(*agent.Outcome)
}

// AgentFunc sets up the agent for goal in a tab showing url, recorded in
// session ("" when not). An error says why it cannot (no model is
// configured: it says how to configure one).
type AgentFunc func(ctx context.Context, session, url, goal string) (*ActAgent, error)

// maxGoalBytes bounds a goal before it is read any further.
const maxGoalBytes = 4096

func (c *Calls) tabAct(ctx context.Context, req *Request) (any, error) {
	var in struct {
		tabField
		Goal string `json:"goal"`
	}
	if err := req.Decode(&in); err != nil {
		return nil, err
	}
	tab, err := in.get(req.Type)
	if err != nil {
		return nil, err
	}
	goal := strings.Join(strings.Fields(in.Goal), " ")
	if goal == "" || len(goal) > maxGoalBytes {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.act needs \"goal\": what the agent should do, in one line of words (such as \"Add the blue mug to the cart\")")
	}
	if strings.Contains(goal, "${") {
		// A client may have the agent type no secret of the person's: a
		// non-secret field would show its value in the next snapshot.
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "tab.act offers the agent no secret or credential: write the goal without ${…} references "+
			"(a goal that needs the person's secrets is theirs to ask, with Ask the agent in the Trailpin popup)")
	}
	if err := c.check(req.Client); err != nil {
		return nil, err
	}
	if c.Agent == nil {
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "this host runs no built-in agent: update Trailpin")
	}
	release, err := c.hold(req.Client, tab)
	if err != nil {
		return nil, err
	}
	defer release()
	info, err := c.tabOf(ctx, req.Client, tab)
	if err != nil {
		return nil, err
	}
	origins, err := c.Recorder.Origins(ctx, info.Recording, info.URL)
	if err != nil {
		return nil, refused("%v", err)
	}
	ag, err := c.Agent(ctx, info.Recording, info.URL, goal)
	if err != nil {
		var ne *nativemsg.Error
		if errors.As(err, &ne) {
			return nil, err
		}
		return nil, nativemsg.Errorf(nativemsg.CodeBadRequest, "the built-in agent cannot be used: %v", err)
	}
	if len(ag.Config.Origins) == 0 {
		ag.Config.Origins = origins
	}
	page := &apiPage{c: c, client: req.Client, tab: tab, origins: ag.Config.Origins, fill: ag.Fill, timeout: ag.ActionTimeout}
	if page.timeout <= 0 {
		page.timeout = c.actionTimeout()
	}
	out := agent.Run(ctx, ag.Config, page, agent.Goal{Intent: goal, Secrets: ag.Secrets, Users: ag.Users})
	if ag.Count != nil {
		ag.Count(out)
	}
	did := page.did
	if did == nil {
		did = []string{}
	}
	reply := map[string]any{"verdict": string(out.Verdict), "message": out.Reason, "actions": out.Acted, "did": did,
		"calls": out.Calls(), "model": ag.Model}
	if len(out.Refused) > 0 {
		reply["refused"] = out.Refused
	}
	if t, err := c.Browser.Ask(ctx, ExtRequest{Call: "tabs", Client: req.Client}); err == nil {
		for _, ti := range t.Tabs {
			if ti.Tab == tab {
				reply["url"] = ti.URL
			}
		}
	}
	return reply, nil
}

// An apiPage is the agent's Page on a shared tab: every snapshot and act
// is a page op of the client's, as its own calls make them; a ref is acted
// on only in the document of the screen it came from.
type apiPage struct {
	c       *Calls
	client  string
	tab     int
	origins []string
	fill    func(string) (string, error)
	timeout time.Duration
	// shown is the screen last given to the agent.
	shown *screen.Screen
	// until is the seq of the last interaction the tab recorded for the
	// agent's last act, 0 when none: a passed assertChange of it is
	// recorded right after it.
	until int64
	// did says what each act did, in order.
	did []string
}

var _ agent.Page = (*apiPage)(nil)

// do sends one op and says a refusal as the agent reads it.
func (p *apiPage) do(ctx context.Context, ext ExtRequest) (ExtAnswer, error) {
	ext.Call, ext.Client, ext.Tab, ext.Origins = "page", p.client, p.tab, p.origins
	ext.TimeoutMs = p.timeout.Milliseconds()
	p.c.mu.Lock()
	from := p.c.shown[p.client][p.tab]
	p.c.mu.Unlock()
	ans, err := p.c.Browser.Ask(ctx, ext)
	if err != nil {
		if ctx.Err() != nil {
			return ans, ctx.Err()
		}
		return ans, fmt.Errorf("%w: the browser did not answer: %v", agent.ErrPageGone, err)
	}
	recorded := ans.From > 0 && ans.Until >= ans.From && ans.Recording != ""
	if recorded {
		if perr := p.c.Recorder.Performed(ans.Recording, p.tab, ans.From, ans.Until, p.client); perr != nil {
			return ans, perr
		}
	}
	p.c.noteAct(p.client, p.tab, ext.Op, from, ans, ans.OK && recorded)
	if ans.OK {
		if ext.Op != "assertChange" {
			p.until = 0
			if recorded {
				p.until = ans.Until
			}
		}
		return ans, nil
	}
	msg := ans.Error
	if msg == "" {
		msg = ext.Op + " failed in the tab"
	}
	switch ans.Reason {
	case "stale":
		return ans, fmt.Errorf("%w: %s", agent.ErrStaleRef, msg)
	case "gone":
		return ans, fmt.Errorf("%w: %s", agent.ErrPageGone, msg)
	case "refused":
		if ans.Origin != "" {
			return ans, &agent.OffOriginError{Origin: ans.Origin, Why: msg}
		}
	}
	return ans, errors.New(msg)
}

// done notes what an act did, for the reply.
func (p *apiPage) done(what string) string {
	p.did = append(p.did, what)
	return what
}

func (p *apiPage) Screen(ctx context.Context) (*screen.Screen, error) {
	s, err := p.c.capture(ctx, p.client, p.tab)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %v", agent.ErrPageGone, err)
	}
	p.shown = s
	return s, nil
}

// onApp reports whether u is on one of the app's origins.
func (p *apiPage) onApp(u string) bool {
	o := originOf(u)
	for _, a := range p.origins {
		if a == o {
			return true
		}
	}
	return false
}

// offApp refuses an act on a screen whose page is off the app's origins,
// before anything is sent (the extension checks again as it acts).
func (p *apiPage) offApp() error {
	if p.shown == nil || p.onApp(p.shown.URL) {
		return nil
	}
	o := originOf(p.shown.URL)
	if o == "" {
		o = p.shown.URL
	}
	return &agent.OffOriginError{Origin: o, Why: "the page is on " + o}
}

func (p *apiPage) node(ref string) (*screen.Node, error) {
	if p.shown == nil {
		return nil, fmt.Errorf("%w: no screen was captured yet", agent.ErrStaleRef)
	}
	n := selector.NewMatcher(p.shown).Node(ref)
	if n == nil {
		return nil, fmt.Errorf("%w: %s is not on the screen shown", agent.ErrStaleRef, ref)
	}
	return n, nil
}

func (p *apiPage) onRef(ctx context.Context, ref string, ext ExtRequest) (*screen.Node, error) {
	n, err := p.node(ref)
	if err != nil {
		return nil, err
	}
	if err := p.offApp(); err != nil {
		return n, err
	}
	ext.Ref, ext.Document = ref, p.shown.Document
	_, err = p.do(ctx, ext)
	return n, err
}

func (p *apiPage) Tap(ctx context.Context, ref string) (string, error) {
	n, err := p.onRef(ctx, ref, ExtRequest{Op: "tap"})
	if err != nil {
		return "", err
	}
	return p.done("tapped " + screen.Describe(n)), nil
}

// Type fills in the references text names and types it; what it says
// holds the references only.
func (p *apiPage) Type(ctx context.Context, ref, text string) (string, error) {
	value, err := p.fill(text)
	if err != nil {
		return "", fmt.Errorf("type %s: %v", ref, err)
	}
	n, err := p.onRef(ctx, ref, ExtRequest{Op: "type", Text: value})
	if err != nil {
		return "", err
	}
	return p.done(fmt.Sprintf("typed %q into %s", text, screen.Describe(n))), nil
}

func (p *apiPage) Select(ctx context.Context, ref, option string) (string, error) {
	n, err := p.onRef(ctx, ref, ExtRequest{Op: "select", Option: option})
	if err != nil {
		return "", err
	}
	return p.done(fmt.Sprintf("chose %q in %s", option, screen.Describe(n))), nil
}

func (p *apiPage) Press(ctx context.Context, key string) (string, error) {
	if err := p.offApp(); err != nil {
		return "", err
	}
	if _, err := p.do(ctx, ExtRequest{Op: "press", Key: key}); err != nil {
		return "", err
	}
	return p.done("pressed " + key), nil
}

func (p *apiPage) Navigate(ctx context.Context, path string) (string, error) {
	ext := ExtRequest{Op: "navigate"}
	switch path {
	case "back", "forward", "reload":
		ext.History = path
	default:
		if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
			return "", fmt.Errorf("navigate takes a path of the app such as /cart, not %q", path)
		}
		ext.URL = p.origins[0] + path
	}
	if _, err := p.do(ctx, ext); err != nil {
		return "", err
	}
	return p.done("went to " + path), nil
}

// poll captures the tab until check passes or the action timeout ends.
func (p *apiPage) poll(ctx context.Context, check func(*screen.Screen, *selector.Matcher) (bool, error)) error {
	deadline := time.Now().Add(p.timeout)
	for {
		s, err := p.c.capture(ctx, p.client, p.tab)
		if err != nil {
			return err
		}
		ok, cerr := check(s, selector.NewMatcher(s))
		if ok || errors.Is(cerr, agent.ErrStaleRef) || time.Now().After(deadline) {
			return cerr
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// AssertVisible checks, up to the action timeout, that the element of ref
// is visible; it records nothing (the agent's own check).
func (p *apiPage) AssertVisible(ctx context.Context, ref string) (string, error) {
	n, err := p.node(ref)
	if err != nil {
		return "", err
	}
	doc := p.shown.Document
	err = p.poll(ctx, agent.StillVisible(doc, ref))
	if err != nil {
		return "", err
	}
	return "saw " + screen.Describe(n), nil
}

// AssertNotVisibleWithText checks, up to the action timeout, that no
// visible element reads text; it records nothing.
func (p *apiPage) AssertNotVisibleWithText(ctx context.Context, text string) (string, error) {
	err := p.poll(ctx, agent.NothingReads(text))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("nothing visible reads %q", text), nil
}

// AssertChange checks the agent's assertChange with replay's code on the
// screens around its last act; one that passes right after that act is
// recorded after it, as the client's own tab.assertChange is (a check the
// tab cannot record there is the agent's alone).
func (p *apiPage) AssertChange(ctx context.Context, spec trail.AssertChange, id string, before, after *screen.Screen) (*assertchange.Evidence, error) {
	origin := p.origins[0]
	path := func(u string) string {
		if rel, err := trail.AppPath(u, origin); err == nil {
			return rel
		}
		return u
	}
	ev, err := assertchange.Check(ctx, spec, id, before, after, p.Screen, path)
	if err != nil || !ev.Pass || ev.Error != nil || p.until == 0 {
		return ev, err
	}
	check := trail.ChangeJSONOf(spec)
	if _, err := p.do(ctx, ExtRequest{Op: "assertChange", AssertChange: &check, Since: p.until}); err != nil && ctx.Err() != nil {
		return ev, ctx.Err()
	}
	return ev, nil
}
