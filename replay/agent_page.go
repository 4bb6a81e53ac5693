package replay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
	"github.com/trailpin/trailpin/replay/diagnose"
	"github.com/trailpin/trailpin/storage/redact"
)

// The agent's Page on a replay tab: the agent acts by ref through the same
// finds and acts a recorded action plays with (findRef, tap, typeInto,
// choose, press, navigateTo, the assertions), on the run's current tab. A
// ref is looked up only in the document of the screen it came from; a ref
// the page no longer shows fails with agent.ErrStaleRef and is never taken
// for another element.

// agentPage is the agent's Page on r's current tab.
type agentPage struct {
	r *trailRun
	// shown is the screen last given to the agent: its refs are the ones
	// the agent names, in its document.
	shown *screen.Screen
	// offered are the references of the step the agent performs: the only
	// secrets it types.
	offered []trail.Ref
	// origins are those the agent may act on, the app's first.
	origins []string
}

var _ agent.Page = (*agentPage)(nil)

// newAgentPage is the agent's Page on the run's current tab, for step i.
func newAgentPage(r *trailRun, i int) *agentPage {
	return &agentPage{r: r, offered: stepRefs(r.trail.Steps[i]), origins: r.agentOrigins()}
}

// The screen the agent is shown is taken once the page is quiet: an app
// answers a tap a moment later (a request, a timer), and a screen taken in
// between would show the model a page that has not reacted yet.
const (
	// agentQuiet is how long the page must not change to count as quiet.
	agentQuiet = 250 * time.Millisecond
	// agentQuietMax bounds the wait on a page that keeps changing (an
	// animation, a ticking clock): it is then captured as it is.
	agentQuietMax = 2 * time.Second
)

// Screen captures the page once it is quiet (the last capture when
// nothing changed), with the page model's hit tests: two screens around an
// action are what the agent's assertChange diffs, and covered is part of
// a diff. Secret values on it are left to the agent's redactor, which
// hides them from every request and turn.
func (a *agentPage) Screen(ctx context.Context) (*screen.Screen, error) {
	a.r.page.awaitQuiet(ctx, agentQuiet, agentQuietMax)
	s, _, err := a.r.page.lookCovered(ctx)
	if err != nil {
		return nil, agentError(err)
	}
	a.shown = s
	return s, nil
}

// awaitQuiet waits until the page has not changed for quiet, at most max.
func (p *tab) awaitQuiet(ctx context.Context, quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	seq, err := p.changeSeq(ctx)
	for err == nil && ctx.Err() == nil && time.Now().Before(deadline) {
		p.waitChange(ctx, seq, min(quiet, time.Until(deadline)))
		var next int64
		if next, err = p.changeSeq(ctx); err != nil || next == seq {
			return
		}
		seq = next
	}
}

// document is the document of the screen the agent's refs come from.
func (a *agentPage) document() string {
	if a.shown == nil {
		return ""
	}
	return a.shown.Document
}

// onRef finds the element of ref, ready as need says, and runs act on it,
// then waits for the navigation the input started, as a recorded action
// does.
func (a *agentPage) onRef(ctx context.Context, ref string, need readiness, act func(found) Action[done]) (string, error) {
	if a.shown == nil {
		return "", fmt.Errorf("%w: no screen was captured yet", agent.ErrStaleRef)
	}
	return a.play(ctx, settled(onElement(findRef(ref, a.document(), need), act)))
}

// play runs an action on the run's current tab and says what it did.
func (a *agentPage) play(ctx context.Context, act Action[done]) (string, error) {
	p := a.r.page
	d, err := counted(act)(ctx, p)
	if d.node != nil {
		p.lastTarget = d.node.Ref
	}
	if err != nil {
		return "", agentError(err)
	}
	return d.summary, nil
}

func (a *agentPage) Tap(ctx context.Context, ref string) (string, error) {
	return a.onRef(ctx, ref, needActionable, func(f found) Action[done] {
		return a.guarded(f.node, tap(f, trail.Tap{Button: trail.ButtonLeft}))
	})
}

// Type types text into the field of ref; its ${secret:…} references are
// filled in by typeInto at the moment it types, and only once the check
// right before the keys go out finds the field focused in a frame of the
// app's origins: a frame that navigated, or a focus that moved, since the
// ref was read gets nothing.
func (a *agentPage) Type(ctx context.Context, ref, text string) (string, error) {
	if err := a.offers(text); err != nil {
		return "", err
	}
	return a.onRef(ctx, ref, needEditable, func(f found) Action[done] {
		return a.guarded(f.node, a.r.typeInto(f, text, false, func(ctx context.Context, p *tab) error {
			return a.checkTarget(ctx, p, f.node, true)
		}))
	})
}

func (a *agentPage) Select(ctx context.Context, ref, option string) (string, error) {
	if err := a.offers(option); err != nil {
		return "", err
	}
	// An ARIA listbox's options are found within it: name it by the
	// selector the recorder would write for it.
	var within selector.Selector
	if a.shown != nil {
		if sel, err := selector.Generate(selector.PurposeSelect, ref, a.shown, sensitiveValues(a.r.secrets)); err == nil {
			within = sel
		}
	}
	return a.onRef(ctx, ref, needActionable, func(f found) Action[done] {
		return a.guarded(f.node, a.r.choose(f, trail.SelectOption{Selector: within, Options: []string{option}}))
	})
}

// Press presses a key once the page is on the app's origins. Where the
// focus is, the agent checked on the screen it was shown.
func (a *agentPage) Press(ctx context.Context, key string) (string, error) {
	return a.play(ctx, settled(a.guarded(nil, press(trail.Press{Key: key}))))
}

// guarded runs act only when, at that moment, the page and the frame of
// the element n (nil for none) are on the agent's origins: the page can
// move between the screen the model was shown and the action.
func (a *agentPage) guarded(n *screen.Node, act Action[done]) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		if err := a.checkTarget(ctx, p, n, false); err != nil {
			return done{}, err
		}
		return act(ctx, p)
	}
}

// checkTarget is the origin check at the moment of acting: the page's
// origin, and that of the document holding n (its frame), and with
// focused, that n has the focus keys go to. The origins are read from
// the page as it is now, never from a screen.
func (a *agentPage) checkTarget(ctx context.Context, p *tab, n *screen.Node, focused bool) error {
	if o := agent.OriginOf(p.location(ctx)); !slices.Contains(a.origins, o) {
		return &agent.OffOriginError{Origin: o, Why: "the page is on " + o}
	}
	if n == nil {
		return nil
	}
	var at struct {
		Origin  string `json:"origin"`
		Focused bool   `json:"focused"`
	}
	if err := withElement(ctx, p, n.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
		return m.CallOn(ctx, obj, typingTargetScript, &at)
	}); err != nil {
		return err
	}
	if o := agent.OriginOf(at.Origin); !slices.Contains(a.origins, o) {
		if at.Origin == "null" {
			o = "an opaque origin (a sandboxed frame)"
		}
		return &agent.OffOriginError{Origin: o, Why: fmt.Sprintf("%s is in a frame of %s", diagnose.Describe(n), o)}
	}
	if focused && !at.Focused {
		return fmt.Errorf("the focus left %s before typing, so nothing was typed", diagnose.Describe(n))
	}
	return nil
}

func (a *agentPage) Navigate(ctx context.Context, path string) (string, error) {
	return a.play(ctx, a.r.navigateTo(path))
}

// offers refuses a text with a secret or user reference the step does not
// name: the agent fills in only what its goal was offered, whatever else
// the run could.
func (a *agentPage) offers(text string) error {
	refs, err := trail.ParseRefs(text)
	if err != nil {
		return err
	}
	for _, ref := range refs {
		if ref.Kind != trail.RefParam && !slices.Contains(a.offered, ref) {
			return fmt.Errorf("%s was not offered to this step, so nothing was typed", ref)
		}
	}
	return nil
}

// AssertVisible waits, up to the action timeout, until the element of ref
// is visible.
func (a *agentPage) AssertVisible(ctx context.Context, ref string) (string, error) {
	doc := a.document()
	f, err := a.r.page.await(ctx, needVisible, nil, func(s *screen.Screen, m *selector.Matcher) (*screen.Node, error) {
		if s.Document != doc {
			return nil, &browser.RefError{Ref: ref, Code: "stale", Message: "ref " + ref + ": the page has loaded another document since"}
		}
		n := m.Node(ref)
		if n == nil {
			return nil, &browser.RefError{Ref: ref, Code: "stale", Message: "ref " + ref + " is not on the page any more"}
		}
		if !n.Visible {
			return nil, fmt.Errorf("%s is not visible", diagnose.Describe(n))
		}
		return n, nil
	})
	if err != nil {
		return "", agentError(err)
	}
	a.r.page.lastTarget = f.node.Ref
	return "saw " + diagnose.Describe(f.node), nil
}

func (a *agentPage) AssertNotVisibleWithText(ctx context.Context, text string) (string, error) {
	return a.play(ctx, a.r.assertNotVisible(text))
}

// AssertChange checks the agent's assertChange with the code a trail's
// runs (assertchange.Check): the stored checks on the diff of the screens around
// its last action, the live ones on the page now.
func (a *agentPage) AssertChange(ctx context.Context, spec trail.AssertChange, id string, before, after *screen.Screen) (*assertchange.Evidence, error) {
	look := func(ctx context.Context) (*screen.Screen, error) {
		a.r.page.acted() // a live check reads the page now, whatever the watcher says
		s, _, err := a.r.page.lookCovered(ctx)
		return s, err
	}
	ev, err := assertchange.Check(ctx, spec, id, before, after, look, a.r.appPath)
	if err != nil {
		return nil, agentError(err)
	}
	return ev, nil
}

// agentError is what the agent is told of a failed find or act: a ref
// that names nothing any more is stale, a tab that went away is gone.
func agentError(err error) error {
	switch {
	case errors.Is(err, browser.ErrStaleRef), errors.Is(err, browser.ErrUnknownRef), errors.Is(err, browser.ErrBadRef):
		return fmt.Errorf("%w: %v", agent.ErrStaleRef, err)
	case errors.Is(err, errTabCrashed), errors.Is(err, errTabGone):
		return fmt.Errorf("%w: %v", agent.ErrPageGone, err)
	}
	return err
}

// sensitiveValues are the values of a run's secrets, which no selector the
// agent's actions are recorded with may hold.
func sensitiveValues(secrets []redact.Secret) []string {
	out := make([]string, 0, len(secrets))
	for _, s := range secrets {
		out = append(out, s.Value)
	}
	return out
}

// agentRedactor hides the values of a run's secrets behind their
// references (${secret:NAME}), the form a model request carries
// (docs/agent.md).
func agentRedactor(secrets []redact.Secret) *redact.Redactor {
	return redact.New(secrets, func(name string) string { return "${" + name + "}" })
}

// agentGoal is the goal of step i for the agent, with the record of what
// replaying its recording did (run): a hand-off when it performed at least
// one action, a miss otherwise. Replayed actions and the time since the
// step started count toward the agent's budgets.
func (r *trailRun) agentGoal(i int, run stepRun) agent.Goal {
	st := r.trail.Steps[i]
	g := agent.Goal{Intent: st.Intent, Started: r.res.Steps[i].Started}
	if g.Intent == "" {
		g.Intent = st.Act
	}
	if run.performed > 0 {
		red := agentRedactor(r.secrets)
		h := &agent.HandOff{Reason: string(run.reason), Total: len(st.Actions)}
		for _, d := range run.done[:run.performed] {
			h.Performed = append(h.Performed, red.String(d.summary))
		}
		h.Detail = stopDetail(st, run)
		g.HandOff = h
	}
	if st.End != nil {
		for _, sel := range st.End.Shows {
			if t := diagnose.Pinned(sel); t != "" {
				g.Expect = append(g.Expect, r.vals.public(t))
			}
		}
	}
	for _, ref := range stepRefs(st) {
		switch ref.Kind {
		case trail.RefSecret:
			g.Secrets = append(g.Secrets, ref.Name)
		case trail.RefUser:
			g.Users = append(g.Users, ref.Name)
		}
	}
	return g
}

// agentOrigins are the origins the agent may act on: the app's (the base
// URL's) first, then the others the person listed for it
// (apps.<name>.origins).
func (r *trailRun) agentOrigins() []string {
	out := []string{r.origin.String()}
	for _, o := range r.opts.Origins {
		if o = agent.OriginOf(o); !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// stopDetail says why replay stopped in words the agent can use: which
// recorded action, of what kind, and what went wrong, never its selector
// (the agent acts by refs of the screen it is shown, and a recorded
// selector would only invite it to look for the old control).
func stopDetail(st trail.Step, run stepRun) string {
	if run.reason == StopEndMismatch {
		return "every recorded action ran, but the screen does not show the step's recorded end state"
	}
	what := map[StopReason]string{
		StopTargetNotFound:  "found no element on the screen that is the control it was recorded on",
		StopAmbiguous:       "found several elements that could be the control it was recorded on, so it did nothing",
		StopActionFailed:    "failed before it reached the app",
		StopActionUncertain: "failed, and may have reached the app",
	}[run.reason]
	if what == "" || run.performed >= len(st.Actions) {
		return ""
	}
	return fmt.Sprintf("recorded action %d of %d (%s) %s", run.performed+1, len(st.Actions), st.Actions[run.performed].Kind(), what)
}
