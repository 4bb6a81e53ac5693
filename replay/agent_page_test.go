package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// staffPIN is the secret of the agent's fixture (testdata/agent_checkout.html).
const staffPIN = "4921-Quartz-pin"

const agentModelKey = "tk-replay-agent-0a1b2c3d4e5f"

// agentTrail is the discount step as it was recorded, when the button was
// still called Apply; first is its first recorded action.
func agentTrail(t *testing.T, first string) *trail.Trail {
	return inlineTrail(t, `version: 1
trail: Discount
app: fixture
start: /agent_checkout.html
steps:
  - intent: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
    actions:
      - `+first+`
      - type: {selector: {role: textbox, name: Staff PIN}, text: "${secret:staff-pin}"}
      - tap: {selector: {role: button, name: Apply}}
    end:
      shows:
        - {role: status, text: 10% off}
`)
}

// runAgentOn replays the trail's step until it stops, then hands it to the
// agent through the chromedp Page, the scripted server answering with the
// generic policy.
func runAgentOn(t *testing.T, tr *trail.Trail) (*trailRun, context.Context, stepRun, *agent.Outcome, *modeltest.Server) {
	t.Helper()
	r, ctx := openRun(t, tr, site.URL, Options{ActionTimeout: 3 * time.Second, Lookup: func(ref trail.Ref) (string, error) {
		if ref.Kind == trail.RefSecret && ref.Name == "staff-pin" {
			return staffPIN, nil
		}
		return "", &MissingValueError{Ref: ref, Variable: EnvVariable(ref)}
	}})
	r.res.Steps[0].Started = time.Now()
	run := r.runStep(ctx, 0)
	srv := modeltest.Start(t, modeltest.WithKey(agentModelKey), modeltest.WithPolicy(agenttest.Policy()))
	client, err := model.New(model.Config{BaseURL: srv.URL, Name: "scripted", APIKeyEnv: "REPLAY_AGENT_KEY"},
		model.WithRedactor(agentRedactor(r.secrets)), model.WithGetenv(func(k string) string {
			if k == "REPLAY_AGENT_KEY" {
				return agentModelKey
			}
			return ""
		}))
	if err != nil {
		t.Fatal(err)
	}
	red := agentRedactor(r.secrets)
	cfg := agent.Config{Client: client, MaxActions: 10, StepDeadline: 90 * time.Second, Calls: model.NewCallBudget(50),
		Sensitive: sensitiveValues(r.secrets), Redact: red.String}
	out := agent.Run(ctx, cfg, newAgentPage(r, 0), r.agentGoal(0, run))
	return r, ctx, run, out, srv
}

// checkAgentRun: the step's recorded end state shows after the agent, the
// selectors it recorded find their elements again, and no request held
// the PIN (which the page echoes) or the API key.
func checkAgentRun(t *testing.T, r *trailRun, ctx context.Context, out *agent.Outcome, srv *modeltest.Server, want []trail.Action) {
	t.Helper()
	if out.Verdict != agent.VerdictDone {
		var b strings.Builder
		for i, turn := range out.Turns {
			fmt.Fprintf(&b, "\n  %d %s %s: %s", i, turn.Tool, turn.Arguments, turn.Result)
		}
		t.Fatalf("agent: %s: %s\nturns:%s", out.Verdict, out.Reason, b.String())
	}
	if err := r.checkEnd(ctx, r.trail.Steps[0].End); err != nil {
		t.Errorf("the step's end state after the agent: %v", err)
	}
	got := &trail.Trail{Steps: []trail.Step{{Actions: out.Actions}}}
	if !got.Equal(&trail.Trail{Steps: []trail.Step{{Actions: want}}}) {
		t.Errorf("the agent recorded %+v, want %+v", out.Actions, want)
	}
	_, m, err := r.page.look(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range out.Actions {
		if sel, ok := trail.ActionSelector(a); ok {
			if _, err := m.Match(sel); err != nil {
				t.Errorf("the recorded selector %s finds nothing on the screen after: %v", sel, err)
			}
		}
	}
	if len(out.NotRecorded) > 0 {
		t.Errorf("actions not recorded: %q", out.NotRecorded)
	}
	reqs := srv.Requests()
	prompt, completion := out.Tokens()
	t.Logf("agent: %d model calls, %d prompt and %d completion tokens (the scripted server's count), %d actions, %s in all",
		out.Calls(), prompt, completion, out.Acted, out.Duration.Round(time.Millisecond))
	if len(reqs) == 0 || len(reqs) != out.Calls() {
		t.Errorf("the server got %d requests, the outcome counts %d", len(reqs), out.Calls())
	}
	echoed := false
	for i, req := range reqs {
		for _, f := range storage.SecretForms(staffPIN) {
			if bytes.Contains(req.Body, f.Bytes) {
				t.Errorf("request %d holds the PIN (%s)", i+1, f.Form)
			}
		}
		if bytes.Contains(req.Body, []byte(agentModelKey)) {
			t.Errorf("request %d holds the API key", i+1)
		}
		echoed = echoed || strings.Contains(req.LastUserText(), `textbox "Last PIN used" [ref=`) &&
			strings.Contains(string(req.Body), `: ${secret:staff-pin}`)
	}
	if !echoed {
		t.Errorf("no request showed the echoed PIN as its reference: the test did not see the redactor work")
	}
}

// A hand-off in real Chromium: replay types the code and the PIN, finds
// no Apply button (it is Redeem now) and stops after 2 of 3 actions; the
// agent, through the chromedp Page, taps Redeem, and the step's end state
// shows.
func TestAgentHandOffInChromium(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	r, ctx, run, out, srv := runAgentOn(t, tr)
	if run.performed != 2 || run.reason != StopTargetNotFound {
		t.Fatalf("replay performed %d actions and stopped with %q, want 2 and target-not-found", run.performed, run.reason)
	}
	first := srv.Requests()[0].LastUserText()
	if !strings.Contains(first, "Replay stopped (target-not-found) after 2 of 3 recorded actions.") ||
		!strings.Contains(first, `2. typed "${secret:staff-pin}" into textbox "Staff PIN"`) {
		t.Errorf("the first request does not carry the hand-off:\n%s", first)
	}
	checkAgentRun(t, r, ctx, out, srv, []trail.Action{trail.Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}}})
}

// A miss in real Chromium: the first recorded target is gone, so the agent
// performs the whole step from the beginning, typing the PIN by reference
// (the page fills it in: the discount is only given for the right PIN).
func TestAgentMissInChromium(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Coupon}, text: SUMMER}`)
	r, ctx, run, out, srv := runAgentOn(t, tr)
	if run.performed != 0 {
		t.Fatalf("replay performed %d actions, want none (a miss)", run.performed)
	}
	if first := srv.Requests()[0].LastUserText(); strings.Contains(first, "Replay stopped") {
		t.Errorf("a miss's first request has a hand-off notice:\n%s", first)
	}
	checkAgentRun(t, r, ctx, out, srv, []trail.Action{
		trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Discount code"}, Text: "SUMMER"},
		trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Staff PIN"}, Text: "${secret:staff-pin}"},
		trail.Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}},
	})
}

// The chromedp Page refuses a ref the page does not show, and one from
// before the page loaded again, at once: nothing is tapped.
func TestAgentPageRefusesStaleRefs(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	// A refusal that waited for the ref to show would take the whole
	// action timeout: a minute, which no refusal at once takes, however
	// loaded the machine.
	r, ctx := openRun(t, tr, site.URL, Options{ActionTimeout: time.Minute, Lookup: func(ref trail.Ref) (string, error) { return staffPIN, nil }})
	page := newAgentPage(r, 0)
	s, err := page.Screen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := selector.Match(s, selector.Selector{Role: "button", Name: "Redeem"})
	if err != nil {
		t.Fatal(err)
	}
	redeem := nodes[0].Ref
	refused := func(ref, what string) {
		t.Helper()
		start := time.Now()
		if _, err := page.Tap(ctx, ref); !errors.Is(err, agent.ErrStaleRef) {
			t.Errorf("Tap of %s: %v, want agent.ErrStaleRef", what, err)
		}
		if took := time.Since(start); took >= r.opts.ActionTimeout {
			t.Errorf("refusing %s took %s: it waited instead of refusing at once", what, took)
		}
	}
	refused("e99999", "a ref the page never gave out")
	if err := r.page.reload(ctx); err != nil {
		t.Fatal(err)
	}
	refused(redeem, redeem+" after the page loaded again")
	if s, err = page.Screen(ctx); err != nil {
		t.Fatal(err)
	}
	if nodes, _ := selector.Match(s, selector.Selector{Role: "textbox", Name: "Last PIN used"}); len(nodes) != 1 || nodes[0].Value != "" {
		t.Errorf("the page shows a PIN used: a stale ref was tapped")
	}
}

// Each tool of the chromedp Page acts through replay's acts and says what
// it did.
func TestAgentPageTools(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	r, ctx := openRun(t, tr, site.URL, Options{ActionTimeout: 5 * time.Second, Lookup: func(ref trail.Ref) (string, error) { return staffPIN, nil }})
	page := newAgentPage(r, 0)
	refOf := func(role, name string) string {
		t.Helper()
		s, err := page.Screen(ctx)
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := selector.Match(s, selector.Selector{Role: role, Name: name})
		if err != nil {
			t.Fatalf("%s %q: %v", role, name, err)
		}
		return nodes[0].Ref
	}
	steps := []struct {
		name string
		do   func() (string, error)
		want string
	}{
		{"select", func() (string, error) { return page.Select(ctx, refOf("combobox", "Delivery"), "Express") }, `chose "Express" in combobox "Delivery"`},
		{"type", func() (string, error) { return page.Type(ctx, refOf("textbox", "Discount code"), "SUMMER") }, `typed "SUMMER" into textbox "Discount code"`},
		{"press", func() (string, error) { return page.Press(ctx, "Tab") }, "pressed Tab"},
		{"assertVisible", func() (string, error) { return page.AssertVisible(ctx, refOf("heading", "Checkout")) }, `saw heading "Checkout"`},
		{"assertNotVisibleWithText", func() (string, error) { return page.AssertNotVisibleWithText(ctx, "10% off") }, `nothing visible reads "10% off"`},
		{"navigate", func() (string, error) { return page.Navigate(ctx, "/agent_checkout.html?again=1") }, "opened /agent_checkout.html?again=1"},
	}
	for _, st := range steps {
		got, err := st.do()
		if err != nil || !strings.Contains(got, st.want) {
			t.Errorf("%s = %q, %v; want %q", st.name, got, err, st.want)
		}
	}
	s, err := page.Screen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(s.URL, "/agent_checkout.html?again=1") {
		t.Errorf("after navigate the page is at %s", s.URL)
	}
	if _, err := page.AssertNotVisibleWithText(ctx, "Checkout"); err == nil {
		t.Errorf("assertNotVisibleWithText of a visible heading passed")
	}
}
