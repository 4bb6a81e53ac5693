package replay

import (
	"bytes"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
	"github.com/trailpin/trailpin/storage"
)

// discountThenChange is the discount step as recorded (Apply, now Redeem),
// with no end state, and a step whose assertChange checks what the step
// before did.
const discountThenChange = `version: 1
trail: Discount
app: fixture
start: /agent_checkout.html
steps:
  - intent: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - type: {selector: {role: textbox, name: Staff PIN}, text: "${secret:staff-pin}"}
      - tap: {selector: {role: button, name: Apply}}
  - intent: the discount shows
    actions:
      - assertChange: {mustInclude: [{change: content, selector: {role: status}}]}
`

// An assertChange right after a step the agent healed reads what the step
// did: the page is captured before the hand-off and after the agent's
// done, and the stored checks read that diff (it used to fail with
// NO_BASELINE). Its pass is the check that proves the heal.
func TestRunTrailAssertChangeAfterHeal(t *testing.T) {
	t.Parallel()
	tr := inlineTrail(t, discountThenChange)
	opts, srv := agentOptions(t)
	res := replayOn(t, tr, site.URL, opts)
	st := res.Steps[0]
	if res.Status != StatusHealed || st.Heal == nil || st.Cache != CacheHandOff {
		t.Fatalf("got %s (cache %s), error %q; want healed by a hand-off", res.Status, st.Cache, res.Error)
	}
	ev := res.Steps[1].Actions[0].Change
	if ev == nil || !ev.Pass || ev.Source != assertchange.SourceStored || ev.DiffID != "d1" || ev.Error != nil {
		t.Fatalf("the assertChange after the heal: %+v", ev)
	}
	if !strings.Contains(strings.Join(ev.Lines, "\n"), `status`) {
		t.Errorf("the diff does not name the status: %q", ev.Lines)
	}
	if !st.Heal.Saveable() || !strings.Contains(st.Heal.Check, "assertChange") {
		t.Errorf("heal: saveable %v, check %q, not saved %q; want proven by the assertChange", st.Heal.Saveable(), st.Heal.Check, st.Heal.NotSaved)
	}
	if last := st.Heal.Actions[len(st.Heal.Actions)-1]; last.Kind().IsAssertion() {
		t.Errorf("the healed flow ends with %s: the trail's assertChange must follow the step's last action", last.Kind())
	}
	for i, req := range srv.Requests() {
		for _, f := range storage.SecretForms(staffPIN) {
			if bytes.Contains(req.Body, f.Bytes) {
				t.Errorf("request %d holds the PIN (%s)", i+1, f.Form)
			}
		}
	}
}

// The agent's own assertChange on replay's page: after its tap on Redeem
// it checks that the status changed, through replay's checks, and the
// evidence it gets holds no secret although the app echoes the PIN. The
// passed check is recorded after the tap in the healed flow, which loads
// as a trail and replays green with no model call.
func TestRunTrailAgentAssertChange(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, srv := agentOptions(t, agenttest.CheckChange(map[string]any{
		"changed":     true,
		"mustInclude": []any{agenttest.Matcher("content", "status", "", "")},
	}))
	res := replayOn(t, tr, site.URL, opts)
	st := res.Steps[0]
	if res.Status != StatusHealed || st.Heal == nil || !st.Heal.Saveable() {
		t.Fatalf("got %s, error %q, heal %+v; want healed, saveable", res.Status, res.Error, st.Heal)
	}
	var change *agent.Turn
	for i := range st.Heal.Turns {
		if st.Heal.Turns[i].Tool == agent.ToolAssertChange {
			change = &st.Heal.Turns[i]
		}
	}
	if change == nil || !strings.HasPrefix(change.Result, "assertChange passed: ") || !strings.Contains(change.Result, `"evidenceSource":"stored"`) {
		t.Fatalf("the agent's assertChange turn: %+v", change)
	}
	for i, req := range srv.Requests() {
		for _, f := range storage.SecretForms(staffPIN) {
			if bytes.Contains(req.Body, f.Bytes) {
				t.Errorf("request %d holds the PIN (%s)", i+1, f.Form)
			}
		}
	}
	acts := st.Heal.Actions
	if len(acts) != 4 {
		t.Fatalf("healed flow %+v, want the 2 replayed actions, the tap and the assertChange", acts)
	}
	if _, ok := acts[3].(trail.AssertChange); !ok || acts[2].Kind() != trail.ActionTap {
		t.Fatalf("healed flow %+v: want the assertChange right after the tap", acts)
	}
	healed := *tr
	healed.Steps = append([]trail.Step(nil), tr.Steps...)
	healed.Steps[0].Actions = acts
	src, err := trail.MarshalTrail(&healed)
	if err != nil {
		t.Fatalf("the healed trail does not write: %v", err)
	}
	back := inlineTrail(t, string(src))
	calls := len(srv.Requests())
	again := replayOn(t, back, site.URL, opts)
	if again.Status != StatusPassed || len(srv.Requests()) != calls {
		t.Fatalf("the healed trail replays %s (%q) with %d model calls; want passed with none:\n%s", again.Status, again.Error, len(srv.Requests())-calls, src)
	}
	if ev := again.Steps[0].Actions[3].Change; ev == nil || !ev.Pass || ev.DiffID != "d1" {
		t.Errorf("the recorded assertChange at replay: %+v", ev)
	}
}

// An assertChange of the agent that fails makes the step fail, never
// pass: the agent's done after it is refused, as an app-bug, and the heal
// is not saved.
func TestRunTrailAgentAssertChangeFails(t *testing.T) {
	t.Parallel()
	tr := agentTrail(t, `type: {selector: {role: textbox, name: Discount code}, text: SUMMER}`)
	opts, _ := agentOptions(t, agenttest.CheckChange(map[string]any{
		"mustInclude": []any{agenttest.Matcher("added", "dialog", "", "")},
	}))
	res := replayOn(t, tr, site.URL, opts)
	h := res.Steps[0].Heal
	if res.Status != StatusFailed || res.Class != ClassAppBug || h == nil || h.Saveable() {
		t.Fatalf("got %s (%s), error %q, heal %+v; want failed as an app-bug, not saved", res.Status, res.Class, res.Error, h)
	}
	if !strings.Contains(res.Error, "assertChange failed") || !strings.Contains(res.Error, "mustInclude") {
		t.Errorf("the error does not say the assertChange failed: %q", res.Error)
	}
}
