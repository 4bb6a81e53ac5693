package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// trail_act (docs/mcp.md): the built-in agent performs a goal in the tab,
// on the person's model (the project's model.* settings), and what it does
// is recorded as the client's own actions would be. Playwright MCP has no
// such tool, hence the trail_ name. Attached, it is the agent API's
// tab.act; headless, the door runs the agent on a Page made of its own
// tools, so its acts are checked and recorded exactly as the client's.

type trailActIn struct {
	Goal string `json:"goal" jsonschema:"what the agent should do, in one line of words, such as Add the blue mug to the cart; headless, ${secret:NAME} offers the project's secret NAME (in the person's browser a goal is offered no secret)"`
}

// actReport says how a goal went.
func actReport(verdict, message string, did []string, calls int) string {
	var b strings.Builder
	if verdict == string(agent.VerdictDone) {
		fmt.Fprintf(&b, "The agent reached the goal: %s\n", message)
	} else {
		fmt.Fprintf(&b, "The agent did not reach the goal (%s): %s\n", verdict, message)
	}
	if len(did) == 0 {
		b.WriteString("It performed nothing.\n")
	} else {
		fmt.Fprintf(&b, "It performed %d action(s), each recorded as yours:\n", len(did))
		for _, d := range did {
			fmt.Fprintf(&b, "- %s\n", d)
		}
	}
	fmt.Fprintf(&b, "Model requests: %d.\n", calls)
	return b.String()
}

func (a *Attached) trailAct(ctx context.Context, client string, in trailActIn) (string, error) {
	if strings.TrimSpace(in.Goal) == "" {
		return "", toolError("goal is missing: say what the agent should do, such as \"Add the blue mug to the cart\"")
	}
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	var out struct {
		Verdict string   `json:"verdict"`
		Message string   `json:"message"`
		Did     []string `json:"did"`
		Calls   int      `json:"calls"`
		URL     string   `json:"url"`
	}
	if err := a.call(ctx, client, apiAct, map[string]any{"tab": tab, "goal": in.Goal}, &out); err != nil {
		return "", err
	}
	if out.URL != "" {
		a.url = out.URL
	}
	text := actReport(out.Verdict, out.Message, out.Did, out.Calls)
	sn, err := a.snap(ctx, client, tab, "", false, a.o.SnapshotLimit)
	if err != nil {
		return text + "The page could not be shown after it: " + err.Error(), nil
	}
	return text + sn.page(), nil
}

func (d *Door) trailAct(ctx context.Context, client string, in trailActIn) (string, error) {
	if err := d.needRecording(); err != nil {
		return "", err
	}
	if strings.TrimSpace(in.Goal) == "" {
		return "", toolError("goal is missing: say what the agent should do, such as \"Add the blue mug to the cart\"")
	}
	now, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	ca, err := d.o.Service.ClientAgent(ctx, d.rec.session, now.URL, in.Goal)
	if err != nil {
		return "", serviceError("the built-in agent", err)
	}
	ca.Config.Origins = d.rec.origins
	var secrets []string
	if refs, err := trail.ParseRefs(in.Goal); err == nil {
		for _, r := range refs {
			if r.Kind == trail.RefSecret {
				secrets = append(secrets, r.Name)
			}
		}
	}
	page := &doorPage{d: d, client: client}
	out := agent.Run(ctx, ca.Config, page, agent.Goal{Intent: strings.Join(strings.Fields(in.Goal), " "), Secrets: secrets})
	if ca.Count != nil {
		ca.Count(out)
	}
	text := actReport(string(out.Verdict), out.Reason, page.did, out.Calls())
	view, err := d.look(ctx)
	if err != nil {
		return text, nil
	}
	return text + view, nil
}

// A doorPage is the agent's Page in headless mode: each act is the door's
// own tool, checked against the page and recorded as the client's.
type doorPage struct {
	d      *Door
	client string
	did    []string
}

var _ agent.Page = (*doorPage)(nil)

func (p *doorPage) Screen(ctx context.Context) (*screen.Screen, error) {
	s, err := p.d.o.Tab.Screen(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", agent.ErrPageGone, err)
	}
	p.d.shown = s
	return s, nil
}

// act runs one of the door's tools; a refusal is the agent's error (a
// stale ref, an act off the app's origins).
func (p *doorPage) act(ctx context.Context, what string, tool func() (string, error)) (string, error) {
	if p.d.shown != nil && !p.d.rec.onApp(p.d.shown.URL) {
		o := originOrURL(p.d.shown.URL)
		return "", &agent.OffOriginError{Origin: o, Why: "the page is on " + o}
	}
	if _, err := tool(); err != nil {
		if strings.Contains(err.Error(), "is stale") || strings.Contains(err.Error(), "not in the last snapshot") {
			return "", fmt.Errorf("%w: %v", agent.ErrStaleRef, err)
		}
		return "", err
	}
	p.did = append(p.did, what)
	return what, nil
}

func (p *doorPage) describe(ref string) string {
	if p.d.shown != nil {
		if n := selector.NewMatcher(p.d.shown).Node(ref); n != nil {
			return screen.Describe(n)
		}
	}
	return ref
}

func (p *doorPage) Tap(ctx context.Context, ref string) (string, error) {
	return p.act(ctx, "tapped "+p.describe(ref), func() (string, error) { return p.d.click(ctx, p.client, clickIn{Ref: ref}) })
}

func (p *doorPage) Type(ctx context.Context, ref, text string) (string, error) {
	return p.act(ctx, fmt.Sprintf("typed %q into %s", text, p.describe(ref)), func() (string, error) {
		return p.d.typeText(ctx, p.client, typeIn{Ref: ref, Text: text})
	})
}

func (p *doorPage) Select(ctx context.Context, ref, option string) (string, error) {
	return p.act(ctx, fmt.Sprintf("chose %q in %s", option, p.describe(ref)), func() (string, error) {
		return p.d.selectOption(ctx, p.client, selectIn{Ref: ref, Values: []string{option}})
	})
}

func (p *doorPage) Press(ctx context.Context, key string) (string, error) {
	return p.act(ctx, "pressed "+key, func() (string, error) { return p.d.pressKey(ctx, p.client, pressIn{Key: key}) })
}

func (p *doorPage) Navigate(ctx context.Context, path string) (string, error) {
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		return "", fmt.Errorf("navigate takes a path of the app such as /cart here, not %q", path)
	}
	return p.act(ctx, "went to "+path, func() (string, error) { return p.d.navigate(ctx, p.client, navigateIn{URL: path}) })
}

// AssertVisible checks that the element of ref is visible now; it records
// nothing (the agent's own check).
func (p *doorPage) AssertVisible(ctx context.Context, ref string) (string, error) {
	s, err := p.Screen(ctx)
	if err != nil {
		return "", err
	}
	n := selector.NewMatcher(s).Node(ref)
	if n == nil {
		return "", fmt.Errorf("%w: %s is not on the page any more", agent.ErrStaleRef, ref)
	}
	if !n.Visible {
		return "", fmt.Errorf("%s is not visible", screen.Describe(n))
	}
	return "saw " + screen.Describe(n), nil
}

// AssertNotVisibleWithText checks that no visible element reads text now.
func (p *doorPage) AssertNotVisibleWithText(ctx context.Context, text string) (string, error) {
	s, err := p.Screen(ctx)
	if err != nil {
		return "", err
	}
	m := selector.NewMatcher(s)
	if n := visibleMatch(m, selector.Selector{Text: text}); n != nil {
		return "", fmt.Errorf("%s is visible", screen.Describe(n))
	}
	if n := visibleMatch(m, selector.Selector{Name: text}); n != nil {
		return "", fmt.Errorf("%s is visible", screen.Describe(n))
	}
	return fmt.Sprintf("nothing visible reads %q", text), nil
}

// AssertChange checks with replay's code; one that passes right after the
// agent's last act is recorded after it, as browser_assert_change records
// the client's.
func (p *doorPage) AssertChange(ctx context.Context, spec trail.AssertChange, id string, before, after *screen.Screen) (*assertchange.Evidence, error) {
	origin := p.d.rec.origins[0]
	path := func(u string) string {
		if rel, err := trail.AppPath(u, origin); err == nil {
			return rel
		}
		return u
	}
	ev, err := assertchange.Check(ctx, spec, id, before, after, p.d.o.Tab.Screen, path)
	if err != nil || !ev.Pass || ev.Error != nil || p.d.last == nil {
		return ev, err
	}
	now, serr := p.d.o.Tab.Screen(ctx)
	if serr != nil {
		return ev, nil
	}
	check := trail.ChangeJSONOf(spec)
	if rerr := p.d.emit(ctx, p.client, steps.Interaction{Kind: steps.InteractAssertChange, AssertChange: &check}, now); rerr != nil && errors.Is(rerr, context.Canceled) {
		return ev, rerr
	}
	return ev, nil
}
