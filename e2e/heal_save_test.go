package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/storage"
)

// healModelKey is the scripted model server's API key: no request body
// may carry it.
const healModelKey = "sk-e2e-heal-3b1f0c9a"

// healTrail is a trail kept by hand, comments in many places, whose
// button was renamed from Apply to Redeem after its first action.
const healTrail = `# Checkout discount, kept by hand.
version: 1
trail: Apply a discount
app: shop
start: /checkout.html
steps:
  # The code first; the button was renamed since this was recorded.
  - intent: Apply the discount code SUMMER
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - tap: {selector: {role: button, name: Apply}}
  - intent: The total shows 10% off   # the check that proves the heal
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
# end of the trail
`

// The lines of healTrail around step 1's recording: everything up to its
// first action, and from the next step on, must stay these bytes.
const (
	healTrailBefore = "# Checkout discount, kept by hand.\nversion: 1\ntrail: Apply a discount\napp: shop\nstart: /checkout.html\nsteps:\n" +
		"  # The code first; the button was renamed since this was recorded.\n  - intent: Apply the discount code SUMMER\n    actions:\n"
	healTrailAfter = "  - intent: The total shows 10% off   # the check that proves the heal\n    actions:\n" +
		"      - assertVisible: {selector: {role: status, text: 10% off}}\n# end of the trail\n"
)

// healProject is a project folder with trailpin.yaml (the checkout page's
// origin, short waits) and the trail file, and the model server the host
// is configured with by environment.
type healProject struct {
	dir, config, file, results, data string
	model                            *modeltest.Server
	env                              []string
}

func newHealProject(t *testing.T, ci bool, policy ...agenttest.PolicyOption) *healProject {
	t.Helper()
	page := ServeDir(t, filepath.Join(RepoRoot(), "e2e", "testdata", "heal"))
	p := &healProject{dir: TempDir(t)}
	p.model = modeltest.Start(t, modeltest.WithKey(healModelKey), modeltest.WithPolicy(agenttest.Policy(policy...)))
	p.config = filepath.Join(p.dir, "trailpin.yaml")
	cfg := "apps:\n  shop:\n    baseURL: " + page.URL + "\nreplay:\n  actionTimeout: 5s\n  replayTimeout: 3s\n"
	if err := os.WriteFile(p.config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	p.file = filepath.Join(p.dir, "trails", "apply-a-discount.trail.yaml")
	if err := os.MkdirAll(filepath.Dir(p.file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.file, []byte(healTrail), 0o644); err != nil {
		t.Fatal(err)
	}
	p.results = filepath.Join(p.dir, "trailpin-results")
	p.data = filepath.Join(p.dir, "data")
	p.env = append(replayEnv(t, false),
		"TRAILPIN_MODEL_BASEURL="+p.model.URL, "TRAILPIN_MODEL_NAME=scripted",
		"TRAILPIN_MODEL_APIKEYENV=E2E_HEAL_MODEL_KEY", "E2E_HEAL_MODEL_KEY="+healModelKey,
		"XDG_DATA_HOME="+p.data)
	if ci {
		p.env = append(p.env, "CI=true")
	}
	return p
}

func (p *healProject) replay(t *testing.T) HostRun {
	t.Helper()
	return RunHost(t, p.env, nil, "replay", "--config", p.config, "--results", p.results, p.file)
}

// checkHealedStep checks a trail file whose step 1 the agent healed: the
// rest is the bytes it was, the step taps Redeem, and its recording is
// keyed to the step and this agent configuration.
func checkHealedStep(t *testing.T, got []byte) {
	t.Helper()
	s := string(got)
	if !strings.HasPrefix(s, healTrailBefore) || !strings.HasSuffix(s, healTrailAfter) {
		t.Errorf("the healed file changed outside step 1's recording:\n%s", got)
	}
	step := strings.TrimSuffix(strings.TrimPrefix(s, healTrailBefore), healTrailAfter)
	key := trail.StepKey(trail.Step{Intent: "Apply the discount code SUMMER"}, agent.ConfigKey())
	for _, want := range []string{"      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}\n", "name: Redeem", "    key: " + key + "\n"} {
		if !strings.Contains(step, want) {
			t.Errorf("healed step 1 lacks %q:\n%s", want, step)
		}
	}
	if strings.Contains(step, "name: Apply}") {
		t.Errorf("healed step 1 still taps Apply:\n%s", step)
	}
	if _, err := trail.LoadTrail("healed", got); err != nil {
		t.Errorf("the healed file does not load: %v", err)
	}
}

// redeemOnScreen is the renamed button's line in the snapshot text a
// request shows the model.
var redeemOnScreen = regexp.MustCompile(`button "?Redeem"? \[ref=e\d+\]`)

// checkHealRequests checks what the model server received in a healing
// run: the hand-off sentence, the snapshot with refs, tools and no
// selector, never the API key.
func checkHealRequests(t *testing.T, reqs []modeltest.Request) {
	t.Helper()
	if len(reqs) == 0 {
		t.Fatal("the healing run sent no request to the model server")
	}
	if first := reqs[0].LastUserText(); !strings.Contains(first, "Replay stopped (target-not-found) after 1 of 2 recorded actions.") {
		t.Errorf("the first request lacks the hand-off sentence:\n%s", first)
	}
	if first := reqs[0].LastUserText(); !redeemOnScreen.MatchString(first) {
		t.Errorf("the first request does not show the screen with refs:\n%s", first)
	}
	for i, r := range reqs {
		if bytes.Contains(r.Body, []byte(healModelKey)) {
			t.Errorf("request %d carries the API key", i+1)
		}
		// The instructions say never to use a selector; no request shows
		// one of the trail's.
		for _, sel := range []string{"selector:", "{role:", "role: button", "name: Apply"} {
			if bytes.Contains(r.Body, []byte(sel)) {
				t.Errorf("request %d shows a selector (%q)", i+1, sel)
			}
		}
		if !bytes.Contains(r.Body, []byte(`"strict":true`)) {
			t.Errorf("request %d has no strict tool schemas", i+1)
		}
	}
}

// TestHealSavedInTheTrailFile is issue 12's first scenario, locally (cache
// read-write): replay types the code, stops at the renamed button
// (target-not-found after 1 of 2), the agent taps Redeem, the assertion
// after it passes, and the step in the trail file is rewritten with every
// other line kept; the trail gets a version in the database; the next run
// replays the new recording with no model request.
func TestHealSavedInTheTrailFile(t *testing.T) {
	t.Parallel()
	p := newHealProject(t, false)
	run := p.replay(t)
	if run.ExitCode != 0 {
		t.Fatalf("the healing run exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	out := string(run.Stdout) + string(run.Stderr)
	for _, want := range []string{"healed", "saved: the check after it passed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the healing run's output lacks %q:\n%s", want, out)
		}
	}
	checkHealRequests(t, p.model.Requests())
	healed, err := os.ReadFile(p.file)
	if err != nil {
		t.Fatal(err)
	}
	checkHealedStep(t, healed)

	db, err := storage.Open(context.Background(), filepath.Join(p.data, "trailpin", "trailpin.db"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Trail(context.Background(), "apply-a-discount")
	db.Close()
	if err != nil || !strings.Contains(string(v.Content), "name: Redeem") {
		t.Errorf("the database has no version of the healed trail (%v):\n%s", err, v.Content)
	}

	calls := len(p.model.Requests())
	again := p.replay(t)
	if again.ExitCode != 0 {
		t.Fatalf("the run after the heal exited %d:\n%s\n%s", again.ExitCode, again.Stdout, again.Stderr)
	}
	if n := len(p.model.Requests()) - calls; n != 0 {
		t.Errorf("the run after the heal sent %d model requests, want 0", n)
	}
	if strings.Contains(string(again.Stdout), "healed") {
		t.Errorf("the run after the heal says healed:\n%s", again.Stdout)
	}
	if now, _ := os.ReadFile(p.file); !bytes.Equal(now, healed) {
		t.Errorf("the run after the heal changed the trail file:\n%s", now)
	}
}

// TestHealReportedInCIAndAccepted is issue 12's third scenario: with
// CI=true and no cache.mode the step is healed and reported, the trail file
// is unchanged, the healed trail is in the results folder; `host accept`
// applies it (the diff printed), and the next run makes no model request.
func TestHealReportedInCIAndAccepted(t *testing.T) {
	t.Parallel()
	p := newHealProject(t, true)
	run := p.replay(t)
	if run.ExitCode != 0 {
		t.Fatalf("the healing run exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	out := string(run.Stdout) + string(run.Stderr)
	for _, want := range []string{"healed", "read-only", "host accept"} {
		if !strings.Contains(out, want) {
			t.Errorf("the CI run's output lacks %q:\n%s", want, out)
		}
	}
	checkHealRequests(t, p.model.Requests())
	if now, _ := os.ReadFile(p.file); string(now) != healTrail {
		t.Fatalf("the CI run changed the trail file:\n%s", now)
	}
	healedPath := filepath.Join(p.results, "apply-a-discount", heal.HealedTrailFile)
	healed, err := os.ReadFile(healedPath)
	if err != nil {
		t.Fatalf("no healed trail in the results folder: %v\n%s", err, out)
	}
	checkHealedStep(t, healed)

	dry := RunHost(t, p.env, nil, "accept", "--config", p.config, "--dry-run", p.results)
	if dry.ExitCode != 0 || !strings.Contains(string(dry.Stdout), "+       - tap: {selector: {role: button, name: Redeem}}") {
		t.Errorf("host accept --dry-run exited %d:\n%s\n%s", dry.ExitCode, dry.Stdout, dry.Stderr)
	}
	if now, _ := os.ReadFile(p.file); string(now) != healTrail {
		t.Fatalf("host accept --dry-run changed the trail file:\n%s", now)
	}
	accept := RunHost(t, p.env, nil, "accept", "--config", p.config, p.results)
	if accept.ExitCode != 0 {
		t.Fatalf("host accept exited %d:\n%s\n%s", accept.ExitCode, accept.Stdout, accept.Stderr)
	}
	for _, want := range []string{"applied the healed step 1", "-       - tap: {selector: {role: button, name: Apply}}"} {
		if !strings.Contains(string(accept.Stdout), want) {
			t.Errorf("host accept's output lacks %q:\n%s", want, accept.Stdout)
		}
	}
	if now, _ := os.ReadFile(p.file); !bytes.Equal(now, healed) {
		t.Errorf("after host accept the trail file is not the healed trail:\n%s", now)
	}

	calls := len(p.model.Requests())
	again := p.replay(t)
	if again.ExitCode != 0 {
		t.Fatalf("the CI run after accepting exited %d:\n%s\n%s", again.ExitCode, again.Stdout, again.Stderr)
	}
	if n := len(p.model.Requests()) - calls; n != 0 {
		t.Errorf("the CI run after accepting sent %d model requests, want 0", n)
	}
	if _, err := os.Stat(healedPath); !os.IsNotExist(err) {
		t.Errorf("the run that healed nothing left the old healed trail to accept (%v)", err)
	}
}

// TestWrongHealIsNeverSaved is issue 12's sixth scenario for what is
// written: the model taps the wrong control, or never answers usably; the
// trail fails, its file is byte for byte what it was, and no healed trail
// is left to accept, locally and in CI.
func TestWrongHealIsNeverSaved(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		policy []agenttest.PolicyOption
		script []modeltest.Reply
		says   string
		flow   string // the trace page's "Healed flow:" decision
	}{
		{name: "the wrong control", policy: []agenttest.PolicyOption{agenttest.TapWrong()}, says: "the check after it failed", flow: "dropped"},
		{name: "the model answers 500", script: repeatReply(modeltest.Status(500), 12), says: "verdict `model-error`: the agent's model gave no usable answer", flow: "kept"},
	}
	for _, tt := range tests {
		for _, ci := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, CI %v", tt.name, ci), func(t *testing.T) {
				t.Parallel()
				p := newHealProject(t, ci, tt.policy...)
				p.model.Script(tt.script...)
				run := p.replay(t)
				out := string(run.Stdout) + string(run.Stderr)
				if run.ExitCode == 0 {
					t.Fatalf("a run the agent did not heal passed:\n%s", out)
				}
				if len(p.model.Requests()) == 0 {
					t.Errorf("the agent was not asked:\n%s", out)
				}
				// The trace page of the failed trail says why the flow was
				// not saved.
				trace, err := os.ReadFile(filepath.Join(p.results, "apply-a-discount", "trace.md"))
				if err != nil || !strings.Contains(string(trace), tt.says) || !strings.Contains(string(trace), "- Healed flow: "+tt.flow) {
					t.Errorf("the trace page does not say %q (%v):\n%s\n%s", tt.says, err, trace, out)
				}
				if now, _ := os.ReadFile(p.file); string(now) != healTrail {
					t.Errorf("the trail file changed:\n%s", now)
				}
				if healed, _, _ := heal.ReadHealed(p.results); len(healed) > 0 {
					t.Errorf("a healed trail was written to the results folder")
				}
			})
		}
	}
}

func repeatReply(r modeltest.Reply, n int) []modeltest.Reply {
	out := make([]modeltest.Reply, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// TestRewordedIntentIsAMiss: a recording the agent made belongs to the
// goal it was made for. Once the step's intent is reworded, its key no
// longer matches: the recording is not replayed, the agent performs the
// step from the beginning (no hand-off notice), and the new flow is saved
// with the new key; the run after that asks no model.
func TestRewordedIntentIsAMiss(t *testing.T) {
	t.Parallel()
	p := newHealProject(t, false)
	if run := p.replay(t); run.ExitCode != 0 {
		t.Fatalf("the healing run exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	healed, _ := os.ReadFile(p.file)
	const reworded = "Redeem the discount code SUMMER"
	edited := strings.Replace(string(healed), "  - intent: Apply the discount code SUMMER\n", "  - intent: "+reworded+"\n", 1)
	if err := os.WriteFile(p.file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := len(p.model.Requests())
	run := p.replay(t)
	if run.ExitCode != 0 {
		t.Fatalf("the run after rewording exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	reqs := p.model.Requests()[calls:]
	if len(reqs) == 0 {
		t.Fatalf("the reworded step replayed the old recording without the agent:\n%s", run.Stdout)
	}
	if first := reqs[0].LastUserText(); strings.Contains(first, "Replay stopped") || !strings.Contains(first, reworded) {
		t.Errorf("a miss must give the agent the step from the beginning, no hand-off notice:\n%s", first)
	}
	now, _ := os.ReadFile(p.file)
	key := trail.StepKey(trail.Step{Intent: reworded}, agent.ConfigKey())
	if !strings.Contains(string(now), "    key: "+key+"\n") || !strings.Contains(string(now), "# the check that proves the heal") {
		t.Errorf("the reworded step is not saved with its new key %s:\n%s", key, now)
	}
	calls = len(p.model.Requests())
	if again := p.replay(t); again.ExitCode != 0 || len(p.model.Requests()) != calls {
		t.Errorf("the run after the new recording exited %d with %d model requests, want 0 and 0", again.ExitCode, len(p.model.Requests())-calls)
	}
}
