package agent_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/trail"
)

// changeCall is an assertChange call with the keys given and every other
// key null, as a strict schema has the model write it.
func changeCall(keys map[string]any) modeltest.Reply {
	args := map[string]any{}
	for _, k := range []string{"changed", "mustInclude", "mustNotInclude", "only", "maxChanges", "becameVisible", "becameCovered",
		"url", "exists", "notCovered", "settleMs", "retryMs", "keepBaseline"} {
		args[k] = keys[k]
	}
	return modeltest.Call(agent.ToolAssertChange, args)
}

// matcher is a change matcher with every key the schema has.
func matcher(kind, ref, role, name, text string, to map[string]any) map[string]any {
	orNull := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	m := map[string]any{"kind": orNull(kind), "ref": orNull(ref), "role": orNull(role), "name": orNull(name), "text": orNull(text), "to": nil}
	if to != nil {
		full := map[string]any{}
		for _, f := range slices.Concat(screendiff.StateFields, screendiff.StyleFields) {
			full[f] = to[f]
		}
		m["to"] = full
	}
	return m
}

func target(ref, role, name, text string) map[string]any {
	m := matcher("", ref, role, name, text, nil)
	delete(m, "kind")
	delete(m, "to")
	return m
}

// The agent's assertChange checks what its last action changed, through
// replay's code (the fake page calls assertchange.Check), and answers the
// model with the evidence. A passed one is recorded after the action it
// checked; a failed one, or one that cannot be checked, never lets done
// pass the step.
func TestAssertChange(t *testing.T) {
	t.Parallel()
	typeCode := modeltest.Call("type", map[string]string{"ref": "e1", "text": "SUMMER"})
	tapRedeem := modeltest.Call("tap", map[string]string{"ref": "e2"})
	done := modeltest.Call("done", map[string]string{"summary": "the status says 10% off"})
	statusAdded := changeCall(map[string]any{"mustInclude": []any{matcher("added", "", "status", "", "10% off", nil)}})
	tests := []struct {
		name    string
		script  []modeltest.Reply
		code    string // what the page's field holds already
		verdict agent.Verdict
		reason  string
		// result is what the assertChange turn's result says.
		result []string
		// recorded: the outcome records an assertChange after the tap.
		recorded bool
		pageLog  []string
	}{
		{
			name:     "the discount shows: passed, and recorded after the tap",
			script:   []modeltest.Reply{typeCode, tapRedeem, statusAdded, done},
			verdict:  agent.VerdictDone,
			result:   []string{"assertChange passed", `"pass":true`, `"evidenceSource":"stored"`, `"diffId":"a2"`, `added status`},
			recorded: true,
			pageLog:  []string{"type e1 SUMMER", "tap e2", "assertChange a2"},
		},
		{
			name: "by ref, with nothing else changed",
			script: []modeltest.Reply{typeCode, tapRedeem,
				changeCall(map[string]any{"changed": true, "maxChanges": 1, "only": []any{matcher("added", "e6", "", "", "", nil)}}), done},
			verdict:  agent.VerdictDone,
			result:   []string{`"pass":true`, `only (kind added, ref \"e6\")`, `"diffId":"a2"`},
			recorded: true,
		},
		{
			name:    "the click did nothing: the check fails, and done is refused as an app-bug",
			script:  []modeltest.Reply{tapRedeem, statusAdded, done},
			verdict: agent.VerdictAppBug,
			reason:  "the agent called done after its assertChange failed: mustInclude",
			result:  []string{"assertChange failed", `"pass":false`, "not found among no changes"},
		},
		{
			name:    "changed false on a click that did nothing passes",
			script:  []modeltest.Reply{tapRedeem, changeCall(map[string]any{"changed": false}), done},
			verdict: agent.VerdictDone,
			result:  []string{`"pass":true`, `"check":"changed: false"`},
			// Recorded: the flow checks that the click does nothing.
			recorded: true,
		},
		{
			name:    "before any action there is no baseline",
			script:  []modeltest.Reply{statusAdded, typeCode, tapRedeem, done},
			verdict: agent.VerdictBlocked,
			reason:  "NO_BASELINE",
			result:  []string{`"pass":false`, "NO_BASELINE"},
		},
		{
			name: "stored and live checks mixed: refused, never a pass",
			script: []modeltest.Reply{typeCode, tapRedeem,
				changeCall(map[string]any{"changed": true, "url": "/checkout"}), done},
			verdict: agent.VerdictBlocked,
			reason:  "INVALID_SPEC",
			result:  []string{`"pass":false`, "INVALID_SPEC: it mixes stored checks"},
		},
		{
			name:    "an empty spec: refused, never a pass",
			script:  []modeltest.Reply{typeCode, tapRedeem, changeCall(map[string]any{}), done},
			verdict: agent.VerdictBlocked,
			reason:  "INVALID_SPEC: it checks nothing",
		},
		{
			name: "a ref of no screen: refused",
			script: []modeltest.Reply{typeCode, tapRedeem,
				changeCall(map[string]any{"mustInclude": []any{matcher("added", "e404", "", "", "", nil)}}), done},
			verdict: agent.VerdictBlocked,
			reason:  `"e404" is not a ref`,
		},
		{
			name: "live: the page now against the screen before the tap",
			script: []modeltest.Reply{typeCode, tapRedeem,
				changeCall(map[string]any{"url": "/checkout", "exists": []any{target("", "", "", "10% off")}}), done},
			verdict:  agent.VerdictDone,
			result:   []string{`"pass":true`, `"evidenceSource":"live"`, `"hasBaseline":true`},
			recorded: true,
		},
		{
			name: "live twice: the first consumed the baseline",
			script: []modeltest.Reply{typeCode, tapRedeem,
				changeCall(map[string]any{"url": "/checkout"}), changeCall(map[string]any{"url": "/checkout"}), done},
			verdict: agent.VerdictBlocked,
			reason:  "consumed the baseline",
			// The first passed, right after the tap.
			recorded: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSetup(t, nil, tc.script...)
			out := agent.Run(context.Background(), s.cfg, s.page, agent.Goal{Intent: discountIntent})
			if out.Verdict != tc.verdict || !strings.Contains(out.Reason, tc.reason) {
				t.Fatalf("Run = %s: %q, want %s: …%s…\nturns: %s", out.Verdict, out.Reason, tc.verdict, tc.reason, turns(out))
			}
			var change string
			for _, turn := range out.Turns {
				if turn.Tool == agent.ToolAssertChange && change == "" {
					change = turn.Result
				}
			}
			for _, want := range tc.result {
				if !strings.Contains(change, want) {
					t.Errorf("the assertChange result does not say %s:\n%s", want, change)
				}
			}
			if change != "" {
				// The evidence is JSON after the verdict.
				_, ev, _ := strings.Cut(change, ": ")
				ev, _, _ = strings.Cut(ev, "\n")
				var rep struct {
					Pass   bool   `json:"pass"`
					Source string `json:"evidenceSource"`
					Checks []struct {
						Check, Detail string
						Pass          bool
					} `json:"checks"`
					Changes []string `json:"changes"`
					Error   string   `json:"error"`
				}
				if err := json.Unmarshal([]byte(ev), &rep); err != nil {
					t.Errorf("the evidence is not JSON: %v\n%s", err, ev)
				}
			}
			var recorded []trail.AssertChange
			for i, a := range out.Actions {
				if c, ok := a.(trail.AssertChange); ok {
					recorded = append(recorded, c)
					if i == 0 || out.Actions[i-1].Kind() != trail.ActionTap {
						t.Errorf("the assertChange is recorded at %d, not right after the tap: %+v", i, out.Actions)
					}
				}
			}
			if got := len(recorded) == 1; got != tc.recorded || len(recorded) > 1 {
				t.Errorf("recorded %d assertChange actions, want recorded %v: %+v", len(recorded), tc.recorded, out.Actions)
			}
			if tc.pageLog != nil && strings.Join(s.page.log2(), ",") != strings.Join(tc.pageLog, ",") {
				t.Errorf("page calls = %q, want %q", s.page.log2(), tc.pageLog)
			}
			checkSafeRequests(t, s)
			for i, r := range s.srv.Requests() {
				if strings.Contains(string(r.Body), "selector: {") || strings.Contains(string(r.Body), "{role:") {
					t.Errorf("request %d shows the model a selector:\n%s", i+1, r.LastUserText())
				}
			}
		})
	}
}

// A recorded assertChange loads as a trail's: the flow the agent made is
// written and read back by the trail format.
func TestAssertChangeRecordedLoads(t *testing.T) {
	t.Parallel()
	s := newSetup(t, nil,
		modeltest.Call("type", map[string]string{"ref": "e1", "text": "SUMMER"}),
		modeltest.Call("tap", map[string]string{"ref": "e2"}),
		changeCall(map[string]any{"mustInclude": []any{matcher("added", "e6", "", "", "", nil)}, "maxChanges": 2}),
		modeltest.Call("done", map[string]string{"summary": "10% off"}))
	out := agent.Run(context.Background(), s.cfg, s.page, agent.Goal{Intent: discountIntent})
	if out.Verdict != agent.VerdictDone || len(out.Actions) != 3 {
		t.Fatalf("Run = %s, actions %+v; want done with type, tap, assertChange", out.Verdict, out.Actions)
	}
	tr := &trail.Trail{Version: 1, Title: "Discount", App: "shop", Start: "/checkout", Steps: []trail.Step{{Intent: discountIntent, Actions: out.Actions}}}
	src, err := trail.MarshalTrail(tr)
	if err != nil {
		t.Fatal(err)
	}
	back, err := trail.LoadTrail("discount.trail.yaml", src)
	if err != nil {
		t.Fatalf("the agent's flow does not load: %v\n%s", err, src)
	}
	if !back.Equal(tr) {
		t.Errorf("the flow loads back different:\n%s", src)
	}
	if !strings.Contains(string(src), "assertChange:") || !strings.Contains(string(src), "change: added") {
		t.Errorf("the trail does not hold the check:\n%s", src)
	}
	t.Logf("recorded flow:\n%s", src)
}

// Every passed assertChange is kept with the action it checked and when,
// for a recording of the agent's input; a failed one is not.
func TestAssertChangePassedChecks(t *testing.T) {
	t.Parallel()
	before := time.Now()
	s := newSetup(t, nil,
		modeltest.Call("type", map[string]string{"ref": "e1", "text": "SUMMER"}),
		changeCall(map[string]any{"changed": true}),
		modeltest.Call("tap", map[string]string{"ref": "e2"}),
		changeCall(map[string]any{"mustInclude": []any{matcher("added", "", "status", "", "10% off", nil)}}),
		changeCall(map[string]any{"mustInclude": []any{matcher("added", "", "dialog", "", "", nil)}}),
		modeltest.Call("fail", map[string]string{"reason": "no dialog", "kind": "app-bug"}))
	out := agent.Run(context.Background(), s.cfg, s.page, agent.Goal{Intent: discountIntent})
	if out.Verdict != agent.VerdictAppBug {
		t.Fatalf("Run = %s: %q\nturns: %s", out.Verdict, out.Reason, turns(out))
	}
	if len(out.Checks) != 2 || len(out.FailedChecks) != 1 {
		t.Fatalf("Checks = %+v, FailedChecks = %q; want the two that passed and the one that failed", out.Checks, out.FailedChecks)
	}
	for i, want := range []int{1, 2} {
		c := out.Checks[i]
		if c.Action != want || c.Acted.Before(before) || c.Checked.Before(c.Acted) {
			t.Errorf("check %d = action %d, acted %v, checked %v; want action %d, acted after the run began and checked after it acted", i+1, c.Action, c.Acted, c.Checked, want)
		}
	}
	if out.Checks[1].Acted.Before(out.Checks[0].Checked) {
		t.Errorf("the tap began (%v) before the first check passed (%v)", out.Checks[1].Acted, out.Checks[0].Checked)
	}
	if c := out.Checks[0].Check; c.Changed == nil || !*c.Changed {
		t.Errorf("the first check is %+v, want changed: true", c)
	}
	if c := out.Checks[1].Check; len(c.MustInclude) != 1 || c.MustInclude[0].Change != trail.ChangeAdded {
		t.Errorf("the second check is %+v, want the status added", c)
	}
}
