package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
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
	"github.com/trailpin/trailpin/storage/redact"
)

// testKey is the API key in the test's environment: it goes in the
// Authorization header, never in a body.
const testKey = "tk-agent-5c0ffee1d2b3a4f5e6"

// shopPassword is the secret the login case types; no request may hold it.
const shopPassword = "Wr0ng-Horse-Battery-77"

// discountHandOff is replay's record of the discount step: it typed the
// code, then found no Apply button (it is called Redeem now).
var discountHandOff = &agent.HandOff{
	Reason:    "target-not-found",
	Performed: []string{`typed "SUMMER" into textbox "Discount code"`},
	Total:     2,
	Detail:    `tap role=button name="Apply": no element matches`,
}

const discountIntent = "apply the discount code SUMMER"

type setup struct {
	srv    *modeltest.Server
	page   *checkoutPage
	cfg    agent.Config
	secret string
}

// newSetup starts a scripted server answering with the generic policy
// (after script), and a checkout page.
func newSetup(t *testing.T, policy []agenttest.PolicyOption, script ...modeltest.Reply) *setup {
	t.Helper()
	srv := modeltest.Start(t, modeltest.WithKey(testKey), modeltest.WithPolicy(agenttest.Policy(policy...)))
	srv.Script(script...)
	secrets := []redact.Secret{{Name: "secret:shop-password", Value: shopPassword}}
	red := redact.New(secrets, func(name string) string { return "${" + name + "}" })
	c, err := model.New(model.Config{BaseURL: srv.URL, Name: "scripted", APIKeyEnv: "AGENT_TEST_KEY"},
		model.WithRedactor(red), model.WithBackoff(time.Millisecond, 5*time.Millisecond),
		model.WithGetenv(func(k string) string {
			if k == "AGENT_TEST_KEY" {
				return testKey
			}
			return ""
		}))
	if err != nil {
		t.Fatal(err)
	}
	return &setup{
		srv:  srv,
		page: &checkoutPage{secrets: map[string]string{"shop-password": shopPassword}},
		cfg: agent.Config{Client: c, MaxActions: 10, StepDeadline: 30 * time.Second, Calls: model.NewCallBudget(50),
			Sensitive: []string{shopPassword}, Redact: red.String},
		secret: shopPassword,
	}
}

// checkSafeRequests fails when a request body holds the API key or the
// secret in any form a leak takes, or a request offers a tool whose
// schema is not strict.
func checkSafeRequests(t *testing.T, s *setup) {
	t.Helper()
	forms := storage.SecretForms(s.secret)
	for i, r := range s.srv.Requests() {
		if bytes.Contains(r.Body, []byte(testKey)) {
			t.Errorf("request %d: the body holds the API key", i+1)
		}
		for _, f := range forms {
			if bytes.Contains(r.Body, f.Bytes) {
				t.Errorf("request %d: the body holds the secret (%s)", i+1, f.Form)
			}
		}
		tools, _ := r.Decoded()["tools"].([]any)
		if len(tools) != len(agent.Tools) {
			t.Errorf("request %d offers %d tools, want %d", i+1, len(tools), len(agent.Tools))
		}
		for _, tool := range tools {
			fn := tool.(map[string]any)["function"].(map[string]any)
			if fn["strict"] != true {
				t.Errorf("request %d: tool %v is not strict", i+1, fn["name"])
			}
		}
		if d := r.Decoded(); d["parallel_tool_calls"] != false || d["tool_choice"] != "required" {
			t.Errorf("request %d: parallel_tool_calls %v, tool_choice %v; want false, required (one call at a time)", i+1, d["parallel_tool_calls"], d["tool_choice"])
		}
	}
}

func tapOf(role, name string) trail.Tap {
	return trail.Tap{Selector: selector.Selector{Role: role, Name: name}}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		goal       agent.Goal
		policy     []agenttest.PolicyOption
		script     []modeltest.Reply
		prep       func(*setup)
		verdict    agent.Verdict
		reason     string // a part of the outcome's reason
		failure    model.Failure
		pageCalls  []string
		actions    []trail.Action
		turnResult map[int]string // a part of turn i's result
		within     time.Duration
		sent       string // a part of some request's body
	}{
		{
			name:      "hand-off: the agent taps the renamed button and sees the end state",
			goal:      agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}},
			prep:      func(s *setup) { s.page.code = "SUMMER" },
			verdict:   agent.VerdictDone,
			reason:    `the screen shows "10% off"`,
			pageCalls: []string{"tap e2"},
			actions:   []trail.Action{tapOf("button", "Redeem")},
		},
		{
			name:      "a miss: the agent performs the whole step",
			goal:      agent.Goal{Intent: discountIntent, Expect: []string{"10% off"}},
			verdict:   agent.VerdictDone,
			pageCalls: []string{"type e1 SUMMER", "tap e2"},
			actions: []trail.Action{
				trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Discount code"}, Text: "SUMMER"},
				tapOf("button", "Redeem"),
			},
		},
		{
			name:       "a ref the snapshot never showed is refused with a fresh snapshot",
			goal:       agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}},
			script:     []modeltest.Reply{agenttest.StaleTap()},
			prep:       func(s *setup) { s.page.code = "SUMMER" },
			verdict:    agent.VerdictDone,
			pageCalls:  []string{"tap e2"},
			actions:    []trail.Action{tapOf("button", "Redeem")},
			turnResult: map[int]string{0: `Refused: "e999999" is not a ref of the latest snapshot`},
		},
		{
			name:       "a stale ref is refused, and the fresh snapshot's ref is used, never mapped",
			goal:       agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}},
			prep:       func(s *setup) { s.page.code, s.page.rerenderOnTap = "SUMMER", true },
			verdict:    agent.VerdictDone,
			pageCalls:  []string{"tap e2", "tap e12"},
			actions:    []trail.Action{tapOf("button", "Redeem")},
			turnResult: map[int]string{1: "Refused: e2 is no longer on the page", 3: "You can act 8 more times"},
		},
		{
			name:      "a 500 is retried within the budget",
			goal:      agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}},
			script:    []modeltest.Reply{modeltest.Status(http.StatusInternalServerError)},
			prep:      func(s *setup) { s.page.code = "SUMMER" },
			verdict:   agent.VerdictDone,
			pageCalls: []string{"tap e2"},
		},
		{
			name:      "two calls at once are refused and asked for again, one at a time",
			goal:      agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}},
			script:    []modeltest.Reply{modeltest.Calls([2]string{"tap", `{"ref":"e3"}`}, [2]string{"done", `{"summary":"both"}`})},
			prep:      func(s *setup) { s.page.code = "SUMMER" },
			verdict:   agent.VerdictDone,
			reason:    `the screen shows "10% off"`,
			pageCalls: []string{"tap e2"},
		},
		{
			name:      "429 on every attempt fails the step naming it",
			goal:      agent.Goal{Intent: discountIntent},
			script:    []modeltest.Reply{modeltest.RateLimited(0), modeltest.RateLimited(0), modeltest.RateLimited(0)},
			verdict:   agent.VerdictModelError,
			reason:    "rate-limited after 3 attempts",
			failure:   model.FailRateLimited,
			pageCalls: []string{},
		},
		{
			name:    "5xx on every attempt fails the step naming it",
			goal:    agent.Goal{Intent: discountIntent},
			script:  []modeltest.Reply{modeltest.Status(502), modeltest.Status(503), modeltest.Status(500)},
			verdict: agent.VerdictModelError,
			reason:  "server-error after 3 attempts",
			failure: model.FailServerError,
		},
		{
			name: "malformed arguments on every attempt fail the step naming it",
			goal: agent.Goal{Intent: discountIntent},
			script: []modeltest.Reply{modeltest.RawCall("tap", `{"ref":`), modeltest.RawCall("tap", `{"ref": 7}`),
				modeltest.RawCall("tap", `{"ref":"e2","selector":"#apply"}`)},
			verdict:   agent.VerdictModelError,
			reason:    "malformed after 3 attempts",
			failure:   model.FailMalformed,
			pageCalls: []string{},
		},
		{
			name: "a tool that does not exist, on every attempt, fails the step naming it",
			goal: agent.Goal{Intent: discountIntent},
			script: []modeltest.Reply{modeltest.Call("click", map[string]string{"selector": "#apply"}),
				modeltest.Call("click", map[string]string{"selector": "#apply"}), modeltest.Call("click", map[string]string{"selector": "#apply"})},
			verdict:   agent.VerdictModelError,
			reason:    `unknown-tool after 3 attempts: called "click"`,
			failure:   model.FailUnknownTool,
			pageCalls: []string{},
		},
		{
			name: "a model slower than the step's deadline fails the step in time",
			goal: agent.Goal{Intent: discountIntent},
			script: []modeltest.Reply{modeltest.Slow(time.Minute, modeltest.Call("done", map[string]string{"summary": "late"})),
				modeltest.Slow(time.Minute, modeltest.Call("done", map[string]string{"summary": "late"})),
				modeltest.Slow(time.Minute, modeltest.Call("done", map[string]string{"summary": "late"}))},
			prep:    func(s *setup) { s.cfg.StepDeadline = 3 * time.Second },
			verdict: agent.VerdictBudget,
			reason:  "agent.stepDeadline 3s",
			failure: model.FailDeadline,
			within:  6 * time.Second,
		},
		{
			name: "the step's actions run out, replayed ones counted",
			goal: agent.Goal{Intent: discountIntent, HandOff: discountHandOff},
			script: []modeltest.Reply{modeltest.Call("tap", map[string]string{"ref": "e3"}), modeltest.Call("tap", map[string]string{"ref": "e3"}),
				modeltest.Call("tap", map[string]string{"ref": "e3"})},
			prep:      func(s *setup) { s.cfg.MaxActions = 3 },
			verdict:   agent.VerdictBudget,
			reason:    "its 3 actions (agent.maxActions; 1 replayed, 2 by the agent)",
			pageCalls: []string{"tap e3", "tap e3"},
		},
		{
			name:      "the run's model calls run out",
			goal:      agent.Goal{Intent: discountIntent, Expect: []string{"10% off"}},
			prep:      func(s *setup) { s.cfg.Calls = model.NewCallBudget(1) },
			verdict:   agent.VerdictBudget,
			reason:    "agent.maxCalls",
			failure:   model.FailCallBudget,
			pageCalls: []string{},
		},
		{
			name:    "fail with app-bug",
			goal:    agent.Goal{Intent: discountIntent},
			script:  []modeltest.Reply{modeltest.Call("fail", map[string]string{"reason": "Redeem shows an error page", "kind": "app-bug"})},
			verdict: agent.VerdictAppBug,
			reason:  "Redeem shows an error page",
		},
		{
			name:    "fail with blocked",
			goal:    agent.Goal{Intent: "open the monthly report"},
			verdict: agent.VerdictBlocked,
			reason:  "no control on the screen matches the goal",
		},
		{
			name:      "the wrong element is tapped and reported as what it is",
			goal:      agent.Goal{Intent: "redeem the code"},
			policy:    []agenttest.PolicyOption{agenttest.TapWrong()},
			verdict:   agent.VerdictDone,
			pageCalls: []string{"tap e3"},
			actions:   []trail.Action{tapOf("link", "Cart")},
		},
		{
			name:      "a secret is typed by reference and filled in by the page",
			goal:      agent.Goal{Intent: "sign in with ${secret:shop-password}", Secrets: []string{"shop-password"}},
			verdict:   agent.VerdictDone,
			pageCalls: []string{"type e4 ${secret:shop-password}"},
			actions: []trail.Action{trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Password"},
				Text: "${secret:shop-password}"}},
			sent: "Signed in with ${secret:shop-password}",
		},
		{
			name:       "navigate takes a path of the app only",
			goal:       agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}},
			script:     []modeltest.Reply{modeltest.Call("navigate", map[string]string{"path": "http://shop.test/cart"})},
			prep:       func(s *setup) { s.page.code = "SUMMER" },
			verdict:    agent.VerdictDone,
			pageCalls:  []string{"tap e2"},
			turnResult: map[int]string{0: "Refused: navigate takes a path of the app"},
		},
		{
			name:    "a page that cannot be read within the deadline",
			goal:    agent.Goal{Intent: discountIntent},
			prep:    func(s *setup) { s.page.blockScreens = true; s.cfg.StepDeadline = time.Second },
			verdict: agent.VerdictBudget,
			reason:  "while reading the screen",
			within:  4 * time.Second,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSetup(t, tc.policy, tc.script...)
			if tc.prep != nil {
				tc.prep(s)
			}
			start := time.Now()
			out := agent.Run(context.Background(), s.cfg, s.page, tc.goal)
			took := time.Since(start)
			if out.Verdict != tc.verdict || !strings.Contains(out.Reason, tc.reason) {
				t.Fatalf("Run = %s: %q, want %s: …%s…\nturns: %s", out.Verdict, out.Reason, tc.verdict, tc.reason, turns(out))
			}
			if out.Failure != tc.failure {
				t.Errorf("Failure = %q, want %q", out.Failure, tc.failure)
			}
			if tc.pageCalls != nil {
				if got := s.page.log2(); !slices.Equal(got, tc.pageCalls) && !(len(got) == 0 && len(tc.pageCalls) == 0) {
					t.Errorf("page calls = %q, want %q", got, tc.pageCalls)
				}
			}
			if tc.actions != nil && !sameActions(out.Actions, tc.actions) {
				t.Errorf("actions = %+v, want %+v", out.Actions, tc.actions)
			}
			for i, want := range tc.turnResult {
				if i >= len(out.Turns) || !strings.Contains(out.Turns[i].Result, want) {
					t.Errorf("turn %d's result does not say %q\nturns: %s", i, want, turns(out))
				}
			}
			if tc.within > 0 && took > tc.within {
				t.Errorf("Run took %s, want at most %s", took, tc.within)
			}
			if out.Calls() != len(s.srv.Requests()) {
				t.Errorf("the outcome counts %d calls, the server got %d requests", out.Calls(), len(s.srv.Requests()))
			}
			checkSafeRequests(t, s)
			if tc.sent != "" && !slices.ContainsFunc(s.srv.Requests(), func(r modeltest.Request) bool { return strings.Contains(string(r.Body), tc.sent) }) {
				t.Errorf("no request holds %q", tc.sent)
			}
			if tc.sent != "" && s.page.password != shopPassword {
				t.Errorf("the page got the password %q, want the secret's value filled in", s.page.password)
			}
			for i, turn := range out.Turns {
				if strings.Contains(turn.Saw+turn.Result+string(turn.Arguments), shopPassword) {
					t.Errorf("turn %d holds the secret", i)
				}
			}
		})
	}
}

func turns(out *agent.Outcome) string {
	var b strings.Builder
	for i, t := range out.Turns {
		b.WriteString("\n  ")
		b.WriteString(strings.Join([]string{string(rune('0' + i)), t.Tool, string(t.Arguments), t.Result}, " | "))
	}
	return b.String()
}

// The first request of a hand-off carries the exact sentence, the
// performed actions, and the unquoted interactive snapshot; each later one
// only the latest screen. Turns count tokens and latency.
func TestHandOffRequests(t *testing.T) {
	s := newSetup(t, nil)
	s.page.code = "SUMMER"
	out := agent.Run(context.Background(), s.cfg, s.page, agent.Goal{Intent: discountIntent, HandOff: discountHandOff, Expect: []string{"10% off"}})
	if out.Verdict != agent.VerdictDone {
		t.Fatalf("Run = %s: %s", out.Verdict, out.Reason)
	}
	reqs := s.srv.Requests()
	if len(reqs) != 4 { // the policy reads the end state in full before and after it taps
		t.Fatalf("the server got %d requests, want 4 (look in full, tap, look in full, done)\nturns: %s", len(reqs), turns(out))
	}
	first := reqs[0].LastUserText()
	for _, want := range []string{
		"Step: apply the discount code SUMMER\n",
		"Replay stopped (target-not-found) after 1 of 2 recorded actions.\n",
		"1. typed \"SUMMER\" into textbox \"Discount code\"\n",
		"Continue from the current screen without redoing them.",
		"- button \"Redeem\" [ref=e2]",
		"- textbox \"Discount code\" [ref=e1]: SUMMER",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request does not say %q:\n%s", want, first)
		}
	}
	if _, shown, _ := strings.Cut(first, "Screen ("); strings.Contains(shown, "'") || strings.Contains(shown, "10% off") || !strings.Contains(shown, "interactive") {
		t.Errorf("the first request's screen is not the unquoted interactive snapshot:\n%s", shown)
	}
	for i, r := range reqs[1:] {
		if n := strings.Count(string(r.Body), "Screen ("); n != 1 {
			t.Errorf("request %d holds %d screens, want only the latest", i+2, n)
		}
	}
	p, c := out.Tokens()
	if p <= 0 || c <= 0 || out.Latency() <= 0 {
		t.Errorf("tokens %d in, %d out, latency %s; want them counted", p, c, out.Latency())
	}
	for i, turn := range out.Turns {
		if turn.Usage.Calls() != 1 || turn.Saw == "" || turn.Tool == "" {
			t.Errorf("turn %d = %+v, want one call, what it saw and its tool", i, turn)
		}
	}
}

// The warnings of an end-mismatch and an action-uncertain hand-off.
func TestHandOffWarnings(t *testing.T) {
	for reason, want := range map[string]string{
		"end-mismatch":     "Check whether the step took effect before you act",
		"action-uncertain": "Verify the current state before you do anything like it again",
	} {
		t.Run(reason, func(t *testing.T) {
			s := newSetup(t, nil, modeltest.Call("fail", map[string]string{"reason": "stop", "kind": "blocked"}))
			h := *discountHandOff
			h.Reason = reason
			agent.Run(context.Background(), s.cfg, s.page, agent.Goal{Intent: discountIntent, HandOff: &h})
			first := s.srv.Requests()[0].LastUserText()
			if !strings.Contains(first, want) || !strings.Contains(first, "Replay stopped ("+reason+") after 1 of 2 recorded actions.") {
				t.Errorf("the first request does not warn %q:\n%s", want, first)
			}
		})
	}
	t.Run("a miss has no notice", func(t *testing.T) {
		s := newSetup(t, nil, modeltest.Call("fail", map[string]string{"reason": "stop", "kind": "blocked"}))
		agent.Run(context.Background(), s.cfg, s.page, agent.Goal{Intent: discountIntent, HandOff: &agent.HandOff{Reason: "target-not-found", Total: 2}})
		if first := s.srv.Requests()[0].LastUserText(); strings.Contains(first, "Replay stopped") {
			t.Errorf("a miss's first request has a hand-off notice:\n%s", first)
		}
	})
}

// No model configured: the step fails saying how to configure one, and
// nothing is sent.
func TestRunWithoutModel(t *testing.T) {
	out := agent.Run(context.Background(), agent.Config{}, &checkoutPage{}, agent.Goal{Intent: discountIntent})
	if out.Verdict != agent.VerdictModelError || !strings.Contains(out.Reason, "model.baseURL") {
		t.Errorf("Run = %s: %q, want model-error naming model.baseURL", out.Verdict, out.Reason)
	}
}

// A cancelled run ends at once with its own verdict.
func TestRunCancelled(t *testing.T) {
	s := newSetup(t, nil, modeltest.Slow(time.Minute, modeltest.Call("done", map[string]string{"summary": "late"})))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	out := agent.Run(ctx, s.cfg, s.page, agent.Goal{Intent: discountIntent})
	if out.Verdict != agent.VerdictCancelled {
		t.Errorf("Run = %s: %q, want cancelled", out.Verdict, out.Reason)
	}
}

// The verdicts of fail map to the classes a failed step reports.
func TestVerdictClass(t *testing.T) {
	for v, want := range map[agent.Verdict]string{agent.VerdictAppBug: "app-bug", agent.VerdictBlocked: "agent-misread", agent.VerdictDone: ""} {
		if got := v.Class(); got != want {
			t.Errorf("%s.Class() = %q, want %q", v, got, want)
		}
	}
}

// Every tool's schema is strict, as the client requires; and none takes a
// selector.
func TestToolsTakeRefsNotSelectors(t *testing.T) {
	for _, tool := range agent.Tools {
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		for p := range schema.Properties {
			if p == "selector" || p == "css" || p == "xpath" {
				t.Errorf("tool %s takes a %s", tool.Name, p)
			}
		}
	}
	if k := agent.ConfigKey(); !strings.HasPrefix(k, agent.PromptVersion+"+") {
		t.Errorf("ConfigKey() = %q, want it to start with the prompt version", k)
	}
}

// sameActions compares two lists of actions as a trail file would.
func sameActions(a, b []trail.Action) bool {
	ta := &trail.Trail{Steps: []trail.Step{{Actions: a}}}
	return ta.Equal(&trail.Trail{Steps: []trail.Step{{Actions: b}}})
}

// A model server that is down: every attempt is unreachable, and the step
// fails at once naming it.
func TestRunModelDown(t *testing.T) {
	// Nothing listens on port 1 of loopback: every connection is refused.
	c, err := model.New(model.Config{BaseURL: "http://127.0.0.1:1/v1", Name: "scripted"}, model.WithBackoff(time.Millisecond, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out := agent.Run(context.Background(), agent.Config{Client: c, StepDeadline: 10 * time.Second}, &checkoutPage{}, agent.Goal{Intent: discountIntent})
	if out.Verdict != agent.VerdictModelError || out.Failure != model.FailUnreachable || !strings.Contains(out.Reason, "unreachable after 3 attempts") {
		t.Errorf("Run = %s (%s): %q, want model-error: unreachable after 3 attempts", out.Verdict, out.Failure, out.Reason)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Run took %s against a server that is down", took)
	}
}
