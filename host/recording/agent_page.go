package recording

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// A liveTab is the agent's Page on the recorded tab: every call is an
// agent.page request to the extension, which captures the page model's
// screen there or acts with trusted input (chrome.debugger), and answers
// with agent.pageResult. A ref is acted on only in the document of the
// screen it came from: the extension refuses it (stale) otherwise, and
// never takes it for another element.
//
// The agent acts only on the app's origins (docs/agent.md, What the agent
// may and may not do): an act on a screen whose page is elsewhere is
// refused here, and every act carries origins for the extension to check
// the page, the element's frame and where a link goes at the moment it
// acts.
type liveTab struct {
	a    *agentRunner
	tab  Tab
	goal *liveGoal
	// origin is the recording's start page's, which navigate's paths are
	// on; origins are all those the agent may act on (appOrigins).
	origin  string
	origins []string
	// fill puts the values of ${secret:…} and ${user:…} into a text at the
	// moment it is typed; the model and the log only see references.
	fill          func(string) (string, error)
	actionTimeout time.Duration
	// shown is the screen last given to the agent.
	shown *screen.Screen

	mu sync.Mutex
	// left is the first origin off the app a screen of the goal was on.
	left string
}

var _ agent.Page = (*liveTab)(nil)

// pageRequestTimeout bounds one request to the extension: a capture waits
// for a page load and for the page to be quiet, an act for its target to be
// ready (replay.actionTimeout) first.
func (p *liveTab) pageRequestTimeout() time.Duration { return p.actionTimeout + 30*time.Second }

// A Tab is the recorded tab as a door reaches it: the extension that
// acts in it for the agent (host/PROTOCOL.md, The agent while recording).
type Tab interface {
	// Page sends one page request and waits for its answer. It returns an
	// error only when the request could not be sent, or ctx ended first
	// (then ctx's error).
	Page(ctx context.Context, req PageRequest) (PageAnswer, error)
	// Progress says what the agent does now, for the recording bar.
	Progress(p AgentProgress)
	// Done says how the goal ended.
	Done(d AgentDone) error
}

// A PageRequest asks the extension to capture the recorded tab's screen
// or to act in it (agent.page).
type PageRequest struct {
	Session string `json:"session"`
	Goal    string `json:"goal"`
	Op      string `json:"op"`
	// Document is the document token of the screen the ref is of.
	Document string `json:"document,omitempty"`
	Ref      string `json:"ref,omitempty"`
	Text     string `json:"text,omitempty"`
	Option   string `json:"option,omitempty"`
	Key      string `json:"key,omitempty"`
	// URL is where navigate goes (the app's origin and the path); History
	// is back, forward or reload instead.
	URL     string `json:"url,omitempty"`
	History string `json:"history,omitempty"`
	// TimeoutMs is how long an act waits for its target to be ready.
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// Origins are the only origins an act may run on.
	Origins []string `json:"origins,omitempty"`
}

// A PageAnswer is the extension's answer to a PageRequest
// (agent.pageResult).
type PageAnswer struct {
	OK bool `json:"ok"`
	// Reason is stale (the ref is gone, or the page loaded another
	// document), gone (the tab closed or crashed), refused (the act would
	// run off the app's origins: Origin names where, Why says it in a few
	// words) or failed.
	Reason string `json:"reason"`
	Origin string `json:"origin"`
	Why    string `json:"why"`
	Error  string `json:"error"`
	// Screen is the capture, in the page model's wire form
	// (docs/screen-schema.md), for op screen.
	Screen  json.RawMessage `json:"screen"`
	Summary string          `json:"summary"`
}

// AgentProgress says what the agent does now (agent.progress).
type AgentProgress struct {
	Action   string `json:"action"`
	Goal     string `json:"goal"`
	GoalText string `json:"goalText"`
	Session  string `json:"session"`
}

// request sends one page request and waits for its answer.
func (p *liveTab) request(ctx context.Context, req PageRequest) (PageAnswer, error) {
	req.Session, req.Goal = p.goal.session, p.goal.id
	if req.Op != "screen" {
		req.TimeoutMs = p.actionTimeout.Milliseconds()
		req.Origins = p.origins
	}
	tctx, cancel := context.WithTimeout(ctx, p.pageRequestTimeout())
	defer cancel()
	ans, err := p.tab.Page(tctx, req)
	switch {
	case err != nil && ctx.Err() != nil:
		return PageAnswer{}, ctx.Err()
	case err != nil && tctx.Err() != nil:
		return PageAnswer{}, fmt.Errorf("the extension did not answer %s within %s", req.Op, p.pageRequestTimeout())
	case err != nil:
		return PageAnswer{}, fmt.Errorf("%w: the extension cannot be reached: %v", agent.ErrPageGone, err)
	}
	if ans.OK {
		return ans, nil
	}
	msg := ans.Error
	if msg == "" {
		msg = req.Op + " failed in the recorded tab"
	}
	switch ans.Reason {
	case "stale":
		return ans, fmt.Errorf("%w: %s", agent.ErrStaleRef, msg)
	case "gone":
		return ans, fmt.Errorf("%w: %s", agent.ErrPageGone, msg)
	case "refused":
		why := ans.Why
		if why == "" {
			why = msg
		}
		return ans, &agent.OffOriginError{Origin: ans.Origin, Why: why}
	}
	return ans, errors.New(msg)
}

// progress tells the recording bar what the agent is doing.
func (p *liveTab) progress(what string) {
	p.tab.Progress(AgentProgress{Action: what, Goal: p.goal.id, GoalText: p.goal.text, Session: p.goal.session})
}

// Screen captures the recorded tab once it is quiet.
func (p *liveTab) Screen(ctx context.Context) (*screen.Screen, error) {
	ans, err := p.request(ctx, PageRequest{Op: "screen"})
	if err != nil {
		return nil, err
	}
	if !present(ans.Screen) {
		return nil, errors.New("the recorded tab gave no screen")
	}
	s, err := decodeScreen(ans.Screen, "the recorded tab's screen")
	if err != nil {
		return nil, err
	}
	p.saw(s)
	p.shown = s
	p.progress("Asking the model what to do next")
	return s, nil
}

// saw notes a screen of the goal that is off the app.
func (p *liveTab) saw(s *screen.Screen) {
	if p.onApp(s.URL) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.left == "" {
		p.left = originOrURL(s.URL)
	}
}

// onApp reports whether url is on one of the app's origins.
func (p *liveTab) onApp(url string) bool {
	o, err := config.OriginOf(url)
	return err == nil && slices.Contains(p.origins, o)
}

// originOrURL is the origin of url, or url itself when it has none (an
// error page).
func originOrURL(url string) string {
	if o, err := config.OriginOf(url); err == nil {
		return o
	}
	return url
}

// leftApp is the first origin off the app a screen of the goal was on.
func (p *liveTab) leftApp() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.left
}

// AssertChange checks the agent's assertChange with the code replay runs
// a trail's with (assertchange.Check), on the screens the recorded tab gave
// around the agent's last action; a live check captures the tab again.
// The check is the agent's own: the recording is the person's input as
// the recorder captured it, so it adds no step.
func (p *liveTab) AssertChange(ctx context.Context, spec trail.AssertChange, id string, before, after *screen.Screen) (*assertchange.Evidence, error) {
	path := func(u string) string {
		if rel, err := trail.AppPath(u, p.origin); err == nil {
			return rel
		}
		return u
	}
	return assertchange.Check(ctx, spec, id, before, after, p.Screen, path)
}

// node is the element of ref on the screen last shown.
func (p *liveTab) node(ref string) (*screen.Node, error) {
	if p.shown == nil {
		return nil, fmt.Errorf("%w: no screen was captured yet", agent.ErrStaleRef)
	}
	n := selector.NewMatcher(p.shown).Node(ref)
	if n == nil {
		return nil, fmt.Errorf("%w: %s is not on the screen shown", agent.ErrStaleRef, ref)
	}
	return n, nil
}

// offApp refuses an act on the screen last shown when its page is not on
// the app's origins, before anything is sent. (The agent refuses it first,
// on the same screen; this is the page's own guard.)
func (p *liveTab) offApp() error {
	if p.shown == nil || p.onApp(p.shown.URL) {
		return nil
	}
	o := originOrURL(p.shown.URL)
	return &agent.OffOriginError{Origin: o, Why: "the page is on " + o}
}

// onRef acts on the element of ref with op.
func (p *liveTab) onRef(ctx context.Context, ref, verb string, req PageRequest) (*screen.Node, error) {
	n, err := p.node(ref)
	if err != nil {
		return nil, err
	}
	if err := p.offApp(); err != nil {
		return n, err
	}
	p.progress(verb + " " + screen.Describe(n))
	req.Ref, req.Document = ref, p.shown.Document
	if _, err := p.request(ctx, req); err != nil {
		return n, err
	}
	return n, nil
}

func (p *liveTab) Tap(ctx context.Context, ref string) (string, error) {
	n, err := p.onRef(ctx, ref, "Tapping", PageRequest{Op: "tap"})
	if err != nil {
		return "", err
	}
	return "tapped " + screen.Describe(n), nil
}

// Type fills in the references of text and types it; what it says and
// logs holds the references only.
func (p *liveTab) Type(ctx context.Context, ref, text string) (string, error) {
	value, err := p.fill(text)
	if err != nil {
		return "", fmt.Errorf("type %s: %v", ref, err)
	}
	n, err := p.onRef(ctx, ref, "Typing into", PageRequest{Op: "type", Text: value})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("typed %q into %s", text, screen.Describe(n)), nil
}

func (p *liveTab) Select(ctx context.Context, ref, option string) (string, error) {
	n, err := p.onRef(ctx, ref, "Choosing "+fmt.Sprintf("%q in", option), PageRequest{Op: "select", Option: option})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("chose %q in %s", option, screen.Describe(n)), nil
}

func (p *liveTab) Press(ctx context.Context, key string) (string, error) {
	if err := p.offApp(); err != nil {
		return "", err
	}
	p.progress("Pressing " + key)
	if _, err := p.request(ctx, PageRequest{Op: "press", Key: key}); err != nil {
		return "", err
	}
	return "pressed " + key, nil
}

func (p *liveTab) Navigate(ctx context.Context, path string) (string, error) {
	req := PageRequest{Op: "navigate"}
	switch path {
	case "back", "forward", "reload":
		req.History = path
	default:
		if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
			return "", fmt.Errorf("navigate takes a path of the app such as /cart, not %q", path)
		}
		req.URL = p.origin + path
	}
	p.progress("Going to " + path)
	if _, err := p.request(ctx, req); err != nil {
		return "", err
	}
	return "went to " + path, nil
}

// poll captures the tab until check is satisfied or actionTimeout passes;
// it returns check's last error.
func (p *liveTab) poll(ctx context.Context, check func(*screen.Screen, *selector.Matcher) (bool, error)) error {
	deadline := time.Now().Add(p.actionTimeout)
	for {
		ans, err := p.request(ctx, PageRequest{Op: "screen"})
		if err != nil {
			return err
		}
		s, err := decodeScreen(ans.Screen, "the recorded tab's screen")
		if err != nil {
			return err
		}
		p.saw(s)
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

// AssertVisible checks, up to replay.actionTimeout, that the element of ref
// is visible; the extension records nothing for it.
func (p *liveTab) AssertVisible(ctx context.Context, ref string) (string, error) {
	n, err := p.node(ref)
	if err != nil {
		return "", err
	}
	doc := p.shown.Document
	p.progress("Checking " + screen.Describe(n))
	err = p.poll(ctx, agent.StillVisible(doc, ref))
	if err != nil {
		return "", err
	}
	return "saw " + screen.Describe(n), nil
}

// AssertNotVisibleWithText checks, up to replay.actionTimeout, that no
// visible element reads text.
func (p *liveTab) AssertNotVisibleWithText(ctx context.Context, text string) (string, error) {
	p.progress(fmt.Sprintf("Checking that nothing reads %q", text))
	err := p.poll(ctx, agent.NothingReads(text))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("nothing visible reads %q", text), nil
}
