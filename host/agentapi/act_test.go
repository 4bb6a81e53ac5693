package agentapi

import (
	"context"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/host/nativemsg"
)

// scriptedAgent is the built-in agent on the scripted model server the
// agent's own tests use, answering with the generic policy.
func scriptedAgent(t *testing.T) (AgentFunc, *modeltest.Server) {
	t.Helper()
	srv := modeltest.Start(t, modeltest.WithPolicy(agenttest.Policy()))
	c, err := model.New(model.Config{BaseURL: srv.URL, Name: "scripted"}, model.WithBackoff(time.Millisecond, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return func(ctx context.Context, session, url, goal string) (*ActAgent, error) {
		return &ActAgent{Config: agent.Config{Client: c, MaxActions: 5, StepDeadline: 30 * time.Second, Calls: model.NewCallBudget(20)},
			Fill: func(s string) (string, error) { return s, nil }, Model: "scripted"}, nil
	}, srv
}

// tab.act runs the built-in agent toward the client's goal in the shared
// tab: its acts are the client's page ops (same document checks, the
// app's origins), what the tab recorded of them is marked the client's,
// and the reply says what it did and how it ended.
func TestTabActRunsTheAgentAsTheClient(t *testing.T) {
	b := &fakeBrowser{allow: map[string]bool{"a": true}, shared: map[int]bool{12: true}, doc: "d1"}
	calls, _, rec, dial := startCalls(t, b)
	c := dial("a")
	allowed(t, calls, "a")
	ctx := context.Background()
	wantCode(t, c.Call(ctx, TypeTabAct, map[string]any{"tab": 12, "goal": "Add to cart"}, nil), nativemsg.CodeBadRequest, "this host runs no built-in agent")
	var srv *modeltest.Server
	calls.Agent, srv = scriptedAgent(t)
	wantCode(t, c.Call(ctx, TypeTabAct, map[string]any{"tab": 12, "goal": "  "}, nil), nativemsg.CodeBadRequest, `tab.act needs "goal"`)
	wantCode(t, c.Call(ctx, TypeTabAct, map[string]any{"tab": 13, "goal": "Add to cart"}, nil), nativemsg.CodeRefused, "tab 13 is not shared")
	// No secret of the person's is offered to a client's goal.
	wantCode(t, c.Call(ctx, TypeTabAct, map[string]any{"tab": 12, "goal": "Sign in with ${secret:password}"}, nil), nativemsg.CodeBadRequest, "tab.act offers the agent no secret")
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d model requests before any goal was run", n)
	}
	var out struct {
		Verdict, Message string
		Actions          int
		Did              []string
		Calls            int
	}
	if err := c.Call(ctx, TypeTabAct, map[string]any{"tab": 12, "goal": "Add to cart"}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Verdict != "done" || out.Actions != 1 || len(out.Did) != 1 || out.Did[0] != `tapped button "Add to cart"` || out.Calls < 2 {
		t.Errorf("tab.act answered %+v", out)
	}
	acts := b.performed()
	if len(acts) != 1 || acts[0].Op != "tap" || acts[0].Ref != "e3" || acts[0].Document != "d1" || acts[0].Client != "a" ||
		len(acts[0].Origins) != 1 || acts[0].Origins[0] != "http://shop.test" {
		t.Fatalf("performed %+v, want the agent's tap as the client's act on the app's origin", acts)
	}
	if len(rec.spans) != 1 || rec.spans[0] != "r-1/a" {
		t.Errorf("marked %q, want the agent's tap the client's", rec.spans)
	}
}
