package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
)

// cache.strict through the host binary in real Chromium, with the scripted
// model (docs/agent.md, Replay with hand-off): a step with no recording (a
// bare act: goal) still runs the agent, a recorded step that no longer
// replays fails REPLAY_STALE without a model call, and a strict run writes
// no recording anywhere.

const (
	// bareGoalTrail: a goal with no recording, proved by the assertion of
	// the step after it.
	bareGoalTrail = `version: 1
# A goal for the agent; no one recorded it yet.
trail: Apply a discount
app: shop
start: /checkout
steps:
  - intent: apply the discount code SUMMER
    act: apply the discount code SUMMER
  - intent: the discount shows
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`
	// bareThenStaleTrail: the same goal, then a recorded step whose button
	// was renamed since (Help reads Help, Apply reads Redeem).
	bareThenStaleTrail = `version: 1
trail: Apply a discount
app: shop
start: /checkout
steps:
  - intent: apply the discount code SUMMER
    act: apply the discount code SUMMER
  - intent: apply the code again
    actions:
      - tap: {selector: {role: button, name: Help}}
      - tap: {selector: {role: button, name: Apply}}
    end:
      shows:
        - {role: status, text: 10% off}
`
)

func TestReplayStrictBareGoal(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	srcs := []string{bareGoalTrail, bareThenStaleTrail}
	runs := make([]*handoffRun, len(srcs))
	var wg sync.WaitGroup
	for i, src := range srcs {
		app := serveCheckout(t, checkoutApp{button: "Redeem", field: "Discount code"})
		wg.Go(func() { runs[i] = replayHandoff(t, app, src, handoffOptions{strict: true}) })
	}
	wg.Wait()

	t.Run("a bare goal runs the agent and writes nothing", func(t *testing.T) {
		hr := runs[0]
		hr.logCost(t, "strict bare goal")
		if hr.run.ExitCode != 0 {
			t.Fatalf("host replay --strict exited %d, want 0:\n%s\n%s", hr.run.ExitCode, hr.status, hr.stderrLines)
		}
		if len(hr.requests) == 0 {
			t.Fatal("the bare goal made no model request under --strict")
		}
		checkRequests(t, hr.requests)
		if got := hr.line(t, "STEP_DONE", 1); !strings.Contains(got, "|healed: the agent: ") {
			t.Errorf("STEP_DONE of the bare goal: %q", got)
		}
		if !strings.Contains(hr.stderrLines, "flow:     reported: not saved, cache.strict never writes a recording") {
			t.Errorf("the summary does not say the strict run kept the flow out of the file:\n%s", hr.stderrLines)
		}
		if !bytes.Equal(hr.before, hr.after) {
			t.Errorf("a strict run changed the trail file:\n%s", hr.after)
		}
		healed := filepath.Join(hr.results, "apply-a-discount", "healed.trail.yaml")
		if _, err := os.Stat(healed); !os.IsNotExist(err) {
			t.Errorf("a strict run wrote %s (err %v); it must write no recording", healed, err)
		}
	})

	t.Run("a stale recording after it is REPLAY_STALE, with no model call for it", func(t *testing.T) {
		hr := runs[1]
		hr.logCost(t, "strict bare goal, then a stale step")
		if hr.run.ExitCode != 1 {
			t.Fatalf("host replay --strict exited %d, want 1:\n%s\n%s", hr.run.ExitCode, hr.status, hr.stderrLines)
		}
		if got := hr.line(t, "ASSERTION_FAILED", 2); !strings.Contains(got, "REPLAY_STALE: the recording of step 2 no longer replays (target-not-found after 1 of 2") ||
			!strings.Contains(got, "without cache.strict") {
			t.Errorf("ASSERTION_FAILED of the stale step: %q", got)
		}
		if len(hr.requests) == 0 {
			t.Fatal("the bare goal made no model request under --strict")
		}
		for i, req := range hr.requests {
			if !bytes.Contains(req.Body, []byte("Step: apply the discount code SUMMER")) || bytes.Contains(req.Body, []byte("Step: apply the code again")) {
				t.Errorf("request %d is not the bare goal's: the stale step reached the model:\n%s", i+1, req.LastUserText())
			}
		}
		if !bytes.Equal(hr.before, hr.after) {
			t.Errorf("a strict run changed the trail file:\n%s", hr.after)
		}
	})
}
