package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The agent's assertChange through the host binary in real Chromium: a
// step that no longer replays (Apply is Redeem now) is handed to the
// scripted agent, which taps Redeem and checks what the tap changed. The
// passed check is saved in the healed trail right after the tap, the
// healed trail loads and replays green with no model call; a check that
// fails makes the step fail, never pass, and the file stays as it was. The
// app echoes the staff PIN the step types, so the tap's diff holds it: no
// request to the model may.
func TestReplayAgentAssertChange(t *testing.T) {
	t.Parallel()
	app := serveCheckout(t, checkoutApp{button: "Redeem", field: "Discount code", pin: true})
	statusChanged := agenttest.CheckChange(map[string]any{
		"changed":     true,
		"mustInclude": []any{agenttest.Matcher("content", "status", "", "")},
	})

	t.Run("passed: saved after the tap, and replays green", func(t *testing.T) {
		t.Parallel()
		hr := replayHandoff(t, app, pinTrail, handoffOptions{policy: []agenttest.PolicyOption{statusChanged}})
		hr.logCost(t, "agent assertChange, healed")
		if hr.run.ExitCode != 0 || !strings.Contains(hr.status, "RUN_COMPLETED|passed|") {
			t.Fatalf("exit %d:\n%s\n%s", hr.run.ExitCode, hr.status, hr.stderrLines)
		}
		checkAgentRequests(t, hr)
		if !bytes.Contains(hr.requestsText(), []byte(`assertChange passed: {\"pass\":true`)) {
			t.Errorf("no request tells the model its assertChange passed")
		}
		healed, err := trail.LoadTrail(hr.file, hr.after)
		if err != nil {
			t.Fatalf("the healed trail does not load: %v\n%s", err, hr.after)
		}
		acts := healed.Steps[0].Actions
		if len(acts) != 4 || acts[2].Kind() != trail.ActionTap || acts[3].Kind() != trail.ActionAssertChange {
			t.Fatalf("the healed step's actions are %v, want the two types, the tap on Redeem and the assertChange:\n%s", kinds(acts), hr.after)
		}
		if c := acts[3].(trail.AssertChange); c.Changed == nil || !*c.Changed || len(c.MustInclude) != 1 || c.MustInclude[0].Change != trail.ChangeContent {
			t.Errorf("the saved assertChange is %+v", c)
		}
		if !strings.Contains(string(hr.after), "assertChange:") || !strings.Contains(string(hr.after), "key: ") {
			t.Errorf("the healed file:\n%s", hr.after)
		}
		again := replayHandoff(t, app, string(hr.after), handoffOptions{})
		again.logCost(t, "the healed trail again")
		if again.run.ExitCode != 0 || len(again.requests) != 0 || !bytes.Equal(again.before, again.after) {
			t.Fatalf("the healed trail replays with exit %d and %d model requests (file changed: %v):\n%s\n%s",
				again.run.ExitCode, len(again.requests), !bytes.Equal(again.before, again.after), again.status, again.stderrLines)
		}
		if got := again.line(t, "STEP_DONE", 1); strings.Contains(got, "healed") {
			t.Errorf("the healed trail's step reads %q", got)
		}
	})

	t.Run("failed: the step fails, nothing saved", func(t *testing.T) {
		t.Parallel()
		dialog := agenttest.CheckChange(map[string]any{"mustInclude": []any{agenttest.Matcher("added", "dialog", "", "")}})
		hr := replayHandoff(t, app, pinTrail, handoffOptions{policy: []agenttest.PolicyOption{dialog}})
		hr.logCost(t, "agent assertChange, failed")
		if hr.run.ExitCode != 1 || !strings.Contains(hr.status, "RUN_COMPLETED|failed|") {
			t.Fatalf("exit %d, want 1:\n%s\n%s", hr.run.ExitCode, hr.status, hr.stderrLines)
		}
		if got := hr.line(t, "ASSERTION_FAILED", 1); !strings.Contains(got, "assertChange failed") || !strings.Contains(got, "mustInclude") {
			t.Errorf("ASSERTION_FAILED: %q", got)
		}
		if !bytes.Equal(hr.before, hr.after) {
			t.Errorf("a failed check changed the trail file:\n%s", hr.after)
		}
		checkAgentRequests(t, hr)
	})
}

// checkAgentRequests: the requests are those of a careful client, and
// none holds the staff PIN in any form, though the app shows it.
func checkAgentRequests(t *testing.T, hr *handoffRun) {
	t.Helper()
	checkRequests(t, hr.requests)
	var sources []LeakSource
	for i, r := range hr.requests {
		sources = append(sources, LeakBytes(fmt.Sprintf("model request %d", i+1), r.Body))
	}
	sources = append(sources, LeakBytes("the trail file", hr.after), LeakBytes("stdout", hr.run.Stdout), LeakBytes("stderr", hr.run.Stderr))
	CheckNoSecretLeaks(t, handoffPIN, sources...)
}

// requestsText is every request body, one after another.
func (hr *handoffRun) requestsText() []byte {
	var b bytes.Buffer
	for _, r := range hr.requests {
		b.Write(r.Body)
	}
	return b.Bytes()
}

func kinds(acts []trail.Action) []trail.ActionKind {
	out := make([]trail.ActionKind, len(acts))
	for i, a := range acts {
		out[i] = a.Kind()
	}
	return out
}
