package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The agent's assertChange while recording (docs/agent.md, Ask the agent
// while recording): a person records the demo shop up to a product page
// and asks the agent to open the shipping info. The scripted agent taps
// Shipping info, which opens a modal dialog, and checks what its tap
// changed. A check that passed travels with agent.done, rides the goal's
// agentEnd back to the host, and is written as an assertChange right
// after the recorded tap, so that replay checks that tap's diff; a check
// that failed is written nowhere.

// shippingGoal is what the person asks the agent on the iPhone 17's page.
const shippingGoal = "Open the shipping info"

// dialogShown is the agent's check that its tap opened the dialog.
var dialogShown = map[string]any{"mustInclude": []any{agenttest.Matcher("", "dialog", "Shipping and returns", "")}}

// askAtProduct records the sign-in and a click to the iPhone 17's page,
// then asks the agent the shipping goal; policy answers the model's
// requests.
func askAtProduct(t *testing.T, policy func(modeltest.Request) modeltest.Reply) (r *recordingRig, model *modeltest.Server, popup, app context.Context) {
	t.Helper()
	model = modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(policy))
	r = newRecordingRig(t, askModelEnv(model)...)
	popup, app = r.recordLogin(t)
	clickCSS(t, app, `a[href="/products/iphone-17"]`)
	appAt(t, app, "/products/iphone-17")
	WaitFor[bool](t, app, `!!document.querySelector('button[data-opens="shipping-dialog"]')`)
	askAgent(t, popup, shippingGoal)
	return r, model, popup, app
}

// agentDones are the agent.done messages the host sent the extension.
func agentDones(t *testing.T, r *recordingRig) []map[string]any {
	t.Helper()
	picked, _ := splitFrames(t, filepath.Join(r.wire, "from-host.bin"), func(m map[string]any) bool { return m["type"] == "agent.done" })
	var out []map[string]any
	for len(picked) >= 4 {
		n := int(picked[0]) | int(picked[1])<<8 | int(picked[2])<<16 | int(picked[3])<<24
		var m map[string]any
		if err := json.Unmarshal(picked[4:4+n], &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
		picked = picked[4+n:]
	}
	return out
}

func TestRecordAskAgentAssertChange(t *testing.T) {
	t.Parallel()
	// The generic policy, checking what its tap changed.
	r, model, popup, app := askAtProduct(t, agenttest.Policy(agenttest.CheckChange(dialogShown)))
	said := askState(t, popup, "done")
	WaitFor[bool](t, app, `document.querySelector('#shipping-dialog').open`)
	if !bytes.Contains(requestBodies(model), []byte(`assertChange passed: {\"pass\":true`)) {
		t.Fatalf("no request tells the model its assertChange passed (the goal ended: %q)", said)
	}

	// agent.done carries the check, in the protocol's words.
	dones := agentDones(t, r)
	if len(dones) != 1 {
		t.Fatalf("the host sent %d agent.done messages, want 1", len(dones))
	}
	checks, _ := dones[0]["checks"].([]any)
	if len(checks) != 1 {
		t.Fatalf("agent.done carries the checks %v, want the one that passed", dones[0]["checks"])
	}
	check, _ := checks[0].(map[string]any)
	spec, _ := check["assertChange"].(map[string]any)
	if check["action"] != float64(1) || check["from"] == nil || check["until"] == nil || spec["mustInclude"] == nil {
		t.Errorf("agent.done's check is %v, want action 1, from, until and the assertChange with lower-camel keys", check)
	}
	// The extension sent it back in the goal's agentEnd.
	ends, _ := splitFrames(t, filepath.Join(r.wire, "to-host.bin"), func(m map[string]any) bool {
		in, _ := m["interaction"].(map[string]any)
		return m["type"] == "record.interaction" && in["kind"] == "agentEnd"
	})
	if !bytes.Contains(ends, []byte(`"checks":[{`)) || !bytes.Contains(ends, []byte(`"mustInclude"`)) {
		t.Errorf("the agentEnd the extension sent carries no check:\n%s", ends)
	}

	path, content := r.stopSaveExport(t, popup, false)
	tr, err := trail.LoadTrail(path, content)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, content)
	}
	steps := agentSteps(tr)
	if len(steps) != 1 || steps[0].Intent != shippingGoal {
		t.Fatalf("the trail's steps by the agent are %+v, want one with the goal as intent:\n%s", steps, content)
	}
	acts := steps[0].Actions
	tapAt := -1
	for i, a := range acts {
		if tap, ok := a.(trail.Tap); ok && strings.Contains(tap.Selector.String(), "Shipping info") {
			tapAt = i
		}
	}
	if tapAt < 0 || tapAt+1 >= len(acts) {
		t.Fatalf("the agent's step records no tap on Shipping info with an action after it: %v\n%s", kinds(acts), content)
	}
	got, ok := acts[tapAt+1].(trail.AssertChange)
	if !ok {
		t.Fatalf("the action after the tap is %s, want the agent's assertChange:\n%s", acts[tapAt+1].Kind(), content)
	}
	if len(got.MustInclude) != 1 || got.MustInclude[0].Selector == nil || got.MustInclude[0].Selector.Role != "dialog" ||
		got.MustInclude[0].Selector.Name != "Shipping and returns" || got.IsLive() {
		t.Errorf("the assertChange after the tap is %+v, want the agent's check of the dialog", got)
	}
	if n := strings.Count(string(content), "assertChange:"); n != 1 {
		t.Errorf("the trail holds %d assertChange actions, want the agent's one:\n%s", n, content)
	}

	// It replays green, the check reading the tap's diff, with no model.
	asked := len(model.Requests())
	env := append(replayEnv(t, true), askModelEnv(model)...)
	run := RunHost(t, env, nil, "replay", "--headless", "--config", filepath.Join(r.project, "trailpin.yaml"),
		"--format", "status", "--results", TempDir(t), path)
	if run.ExitCode != 0 {
		t.Fatalf("host replay of the recorded trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, content)
	}
	if n := len(model.Requests()) - asked; n != 0 {
		t.Errorf("host replay sent %d requests to the model, want none:\n%s", n, run.Stdout)
	}
}

// TestRecordAskAgentAssertChangeFailed: a check that fails is not written,
// and it does not let the goal pass. The agent checks its tap twice: that
// it opened the dialog (passed), then that it changed nothing (failed).
// The goal fails; the tap it made is kept as its own step, with the check
// that passed after it and nothing of the one that failed.
func TestRecordAskAgentAssertChangeFailed(t *testing.T) {
	t.Parallel()
	generic := agenttest.Policy(agenttest.CheckChange(dialogShown))
	changedNothing := modeltest.Call("assertChange", agenttest.ChangeArgs(map[string]any{"changed": false}))
	r, model, popup, _ := askAtProduct(t, func(req modeltest.Request) modeltest.Reply {
		body := string(req.Body)
		if strings.Contains(body, "assertChange passed") && !strings.Contains(body, "assertChange failed") {
			return changedNothing
		}
		return generic(req)
	})
	said := askState(t, popup, "failed")
	if !strings.Contains(said, "assertChange failed") {
		t.Errorf("after the failed check the popup says %q, want it to say the agent's assertChange failed", said)
	}
	if !bytes.Contains(requestBodies(model), []byte(`assertChange failed: {\"pass\":false`)) {
		t.Error("no request tells the model its assertChange failed")
	}
	dones := agentDones(t, r)
	if len(dones) != 1 || dones[0]["state"] != "failed" {
		t.Fatalf("agent.done messages %v, want one, failed", dones)
	}
	checks, _ := dones[0]["checks"].([]any)
	if len(checks) != 1 || !strings.Contains(jsonText(t, checks), `"mustInclude"`) || strings.Contains(jsonText(t, checks), `"changed"`) {
		t.Errorf("agent.done carries the checks %s, want only the one that passed", jsonText(t, checks))
	}

	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	path, content := r.saveExportReviewed(t, popup)
	tr, err := trail.LoadTrail(path, content)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, content)
	}
	steps := agentSteps(tr)
	if len(steps) != 1 || steps[0].Intent == shippingGoal {
		t.Fatalf("the trail's steps by the agent are %+v, want the tap it made, with an intent written for it:\n%s", steps, content)
	}
	if got := kinds(steps[0].Actions); len(got) != 2 || got[0] != trail.ActionTap || got[1] != trail.ActionAssertChange {
		t.Fatalf("the agent's step is %v, want its tap and the check that passed:\n%s", got, content)
	}
	if c := steps[0].Actions[1].(trail.AssertChange); c.Changed != nil || len(c.MustInclude) != 1 {
		t.Errorf("the check written is %+v, want the dialog's, not the one that failed", c)
	}
	if n := strings.Count(string(content), "assertChange:"); n != 1 || strings.Contains(string(content), "changed: false") {
		t.Errorf("the trail holds %d assertChange actions, want only the one that passed:\n%s", n, content)
	}
}

// jsonText is v as JSON.
func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// requestBodies is every body the model server got, one after another.
func requestBodies(m *modeltest.Server) []byte {
	var b []byte
	for _, r := range m.Requests() {
		b = append(b, r.Body...)
	}
	return b
}
