package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// healedRun is a run of one trail whose second step the agent healed
// after a hand-off.
func healedRun(failOnHeal bool) Run {
	at := time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)
	h := &replay.Heal{Cache: replay.CacheHandOff, Stopped: replay.StopTargetNotFound, Replayed: 1,
		Verdict: "done", Summary: "the status shows 10% off", Check: "the end state of step 2 (line 14)",
		Decision: replay.HealReported, Reason: "read-only cache", Calls: 2, PromptTokens: 900, CompletionTokens: 40,
		Latency: 30 * time.Millisecond, Did: []string{`tapped button "Redeem"`},
		Turns: []agent.Turn{{Saw: "Step: apply SUMMER\nScreen …", Tool: "tap", Arguments: json.RawMessage(`{"ref":"e7"}`), Result: `tapped button "Redeem"`}}}
	res := replay.TrailResult{Slug: "discount", Title: "Discount", File: "trails/discount.trail.yaml", Attempt: 1,
		Status: replay.StatusHealed, Started: at, Duration: time.Second,
		Steps: []replay.StepResult{
			{Index: 1, Intent: "open the cart", Status: replay.StatusPassed, Path: "/cart", Started: at, Cache: replay.CacheHit,
				Actions: []replay.ActionResult{{Kind: "tap", Status: replay.StatusPassed, Summary: `tapped link "Cart"`}}},
			{Index: 2, Intent: "apply SUMMER", Status: replay.StatusHealed, Path: "/cart", Started: at, Cache: replay.CacheHandOff,
				Stopped: replay.StopTargetNotFound, Performed: 1, ModelCalls: 2, Heal: h,
				Actions: []replay.ActionResult{{Kind: "type", Status: replay.StatusPassed, Summary: `typed "SUMMER"`},
					{Kind: "tap", Status: replay.StatusFailed}}},
		}}
	return Run{Started: at, Duration: time.Second, Trails: []TrailRun{{Attempts: []replay.TrailResult{res}}}, FailOnHeal: failOnHeal}
}

func TestHealedReports(t *testing.T) {
	run := healedRun(false)
	var status bytes.Buffer
	sw := NewStatusWriter(&status)
	if err := sw.Trail(run.Trails[0].Final()); err != nil {
		t.Fatal(err)
	}
	if err := sw.Done(run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`STEP_DONE|discount-2|healed: typed "SUMMER"; the agent: tapped button "Redeem"` + "\n",
		"RUN_COMPLETED|passed|1 trail in 1.00s: 0 passed, 0 failed, 1 healed\n",
	} {
		if !strings.Contains(status.String(), want) {
			t.Errorf("status lines lack %q:\n%s", want, status.String())
		}
	}
	var sum bytes.Buffer
	if err := WriteSummary(&sum, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"HEALED discount — Discount", `agent:    tapped button "Redeem"`,
		"hand-off: replay stopped (target-not-found) after 1 of 2 recorded actions", "flow:     reported: read-only cache",
		"healed share: 1 of 1 trails (100%), 1 steps healed; model: 2 calls, 900 prompt + 40 completion tokens", "PASSED"} {
		if !strings.Contains(sum.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sum.String())
		}
	}
	var junit bytes.Buffer
	if err := WriteJUnit(&junit, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<property name="healed.step.2" value="hand-off: replay stopped (target-not-found) after 1 of 2 recorded actions; the agent: tapped button &#34;Redeem&#34;; flow reported: read-only cache">`,
		`<property name="model.calls" value="2">`, `<property name="healed" value="1">`} {
		if !strings.Contains(junit.String(), want) {
			t.Errorf("JUnit lacks %q:\n%s", want, junit.String())
		}
	}
	if strings.Contains(junit.String(), "<failure") {
		t.Errorf("a healed trail is a failure in JUnit without --fail-on-heal:\n%s", junit.String())
	}
	trace := string(RenderTrace(run.Trails[0], nil))
	for _, want := range []string{"- Agent: hand-off", "verdict `done`", "- Checked after it: the end state of step 2 (line 14)",
		"- The agent's turns:", "1. `tap {\"ref\":\"e7\"}` → tapped button \"Redeem\"", "Step: apply SUMMER"} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace page lacks %q:\n%s", want, trace)
		}
	}
	if !TraceRetainOnFailure.Keep(run.Trails[0]) {
		t.Error("retain-on-failure drops the trace page of a healed trail")
	}
	if code := run.ExitCode(); code != exitcode.Passed {
		t.Errorf("a healed run exits %d, want %d", code, exitcode.Passed)
	}
	var progress bytes.Buffer
	p := NewProgress(&progress, 1)
	p.TrailFinished(run.Trails[0])
	p.Close()
	if !strings.Contains(progress.String(), "HEALED discount 1.00s (1/1): passed with the agent (1 step)") {
		t.Errorf("progress: %q", progress.String())
	}
}

// --fail-on-heal: a healed trail counts as failed.
func TestFailOnHeal(t *testing.T) {
	run := healedRun(true)
	if code := run.ExitCode(); code != exitcode.Failed {
		t.Errorf("with --fail-on-heal a healed run exits %d, want %d", code, exitcode.Failed)
	}
	var junit bytes.Buffer
	if err := WriteJUnit(&junit, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `failures="1"`) || !strings.Contains(junit.String(), `type="healed"`) {
		t.Errorf("JUnit with --fail-on-heal does not count the healed trail as failed:\n%s", junit.String())
	}
	var status bytes.Buffer
	if err := NewStatusWriter(&status).Done(run); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(status.String(), "RUN_COMPLETED|failed|") {
		t.Errorf("status with --fail-on-heal: %s", status.String())
	}
}

// What became of the action replay was unsure of is in the summary and on
// the trace page.
func TestHealedReportsSayTheUnsureAction(t *testing.T) {
	run := healedRun(false)
	h := run.Trails[0].Attempts[0].Steps[1].Heal
	h.Stopped = replay.StopActionUncertain
	h.Uncertain = "recorded action 2 (tap) failed after its input reached the app; it took effect (the screen changed after it: added status) and the agent did not do it again, so the new flow keeps it"
	var sum bytes.Buffer
	if err := WriteSummary(&sum, run); err != nil {
		t.Fatal(err)
	}
	if want := "  unsure:   " + h.Uncertain + "\n"; !strings.Contains(sum.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, sum.String())
	}
	trace := string(RenderTrace(run.Trails[0], nil))
	if want := "- The action replay was unsure of: recorded action 2 (tap) failed after its input reached the app; it took effect"; !strings.Contains(trace, want) {
		t.Errorf("trace page lacks %q:\n%s", want, trace)
	}
}
