package e2e

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/storage"
)

// The hand-off through the host binary in real Chromium, with the scripted
// model server answering by the one generic policy (agenttest.Policy):
// docs/agent.md and issue 12's "What it must show". The server records every
// request, so each scenario checks what the model was sent.

// handoffModelKey is the API key the scripted server requires; it must be
// in no request body and no output.
const handoffModelKey = "tk-e2e-handoff-7c1d0e9f2a"

// handoffPIN is the staff PIN the secret scenario types. The app echoes it
// on the screen, as a careless app would.
const handoffPIN = "8246-Opal-pin"

// checkoutApp is how the checkout page has changed since the trail was
// recorded (when its button said Apply and its field Discount code).
type checkoutApp struct {
	button string // the discount button's name
	field  string // the discount field's label
	// confirm: Apply asks for a confirmation before the discount shows (an
	// extra step the recording does not have).
	confirm bool
	// pin: the form has a Staff PIN field the discount needs, and echoes
	// the last PIN used.
	pin bool
}

// serveCheckout serves the checkout page at /checkout.
func serveCheckout(t *testing.T, app checkoutApp) *httptest.Server {
	t.Helper()
	pinField, pinCheck, echo := "", "true", ""
	if app.pin {
		pinField = `<label>Staff PIN <input name="pin" type="password" autocomplete="off"></label>`
		pinCheck = `document.querySelector('[name=pin]').value === ` + fmt.Sprintf("%q", handoffPIN)
		echo = `<label>Last PIN used <input name="echo" readonly></label>`
	}
	show := `status.textContent = ok() ? '10% off' : 'That code does not work';`
	if app.confirm {
		show = `const c = document.createElement('button'); c.type = 'button'; c.textContent = 'Confirm discount';
      c.onclick = () => { status.textContent = ok() ? '10% off' : 'That code does not work'; c.remove(); };
      document.getElementById('discount').append(c);`
	}
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body>
<main>
  <h1>Checkout</h1>
  <form id="discount" onsubmit="return false">
    <label>` + html.EscapeString(app.field) + ` <input name="code" autocomplete="off"></label>
    ` + pinField + `
    <button type="button" id="go">` + html.EscapeString(app.button) + `</button>
  </form>
  <button type="button" onclick="document.title = 'Checkout (help)'">Help</button>
  ` + echo + `
  <p role="status"></p>
</main>
<script>
  const status = document.querySelector('[role=status]');
  const ok = () => document.querySelector('[name=code]').value === 'SUMMER' && ` + pinCheck + `;
  document.getElementById('go').addEventListener('click', () => {
    const echo = document.querySelector('[name=echo]');
    if (echo) echo.value = document.querySelector('[name=pin]').value;
    setTimeout(() => { ` + show + ` }, 100);
  });
</script>
</body></html>`
	mux := http.NewServeMux()
	mux.HandleFunc("GET /checkout", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// The trails as they were recorded on the unchanged page. The comments
// are a person's, which no run may touch.
const (
	// discountTrail: the step's proof is the assertion of the step after.
	discountTrail = `version: 1
# Recorded when the button still said Apply.
trail: Apply a discount
app: shop
start: /checkout
steps:
  - intent: apply the discount code SUMMER
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - tap: {selector: {role: button, name: Apply}}
  # The check that proves the step.
  - intent: the discount shows
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`
	// endStateTrail: the step's proof is its own recorded end state.
	endStateTrail = `version: 1
trail: Apply a discount
app: shop
start: /checkout
steps:
  - intent: apply the discount code SUMMER
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - tap: {selector: {role: button, name: Apply}}
    end:
      shows:
        - {role: status, text: 10% off}
`
	pinTrail = `version: 1
trail: Apply a staff discount
app: shop
start: /checkout
steps:
  - intent: apply the discount code SUMMER with the staff PIN ${secret:staff-pin}
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - type: {selector: {role: textbox, name: Staff PIN}, text: "${secret:staff-pin}"}
      - tap: {selector: {role: button, name: Apply}}
  - intent: the discount shows
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`
)

// A handoffRun is one host replay of a trail with the scripted model.
type handoffRun struct {
	run                 HostRun
	dir, file           string
	before, after       []byte // the trail file before and after the run
	results, junit, db  string
	requests            []modeltest.Request
	wall                time.Duration
	status, stderrLines string
}

// handoffOptions say how a scenario runs.
type handoffOptions struct {
	noModel    bool
	strict     bool
	failOnHeal bool
	more       string // more trailpin.yaml
	agent      string // the agent block's settings (default: a 60s step deadline)
	script     []modeltest.Reply
	policy     []agenttest.PolicyOption
}

// replayHandoff writes src as a trail file in a project of its own, with
// the scripted server as its model (unless noModel), and replays it.
func replayHandoff(t *testing.T, app *httptest.Server, src string, o handoffOptions) *handoffRun {
	t.Helper()
	srv := modeltest.Start(t, modeltest.WithKey(handoffModelKey), modeltest.WithPolicy(agenttest.Policy(o.policy...)))
	srv.Script(o.script...)
	dir := TempDir(t)
	hr := &handoffRun{dir: dir, file: filepath.Join(dir, "trails", "apply-a-discount.trail.yaml"),
		results: filepath.Join(dir, "results"), junit: filepath.Join(dir, "junit.xml"), db: filepath.Join(dir, "runs.db")}
	// The step's deadline counts from the step's start, the replay's waits
	// included; unless a scenario sets it to run out, it is a hang guard
	// that a busy machine must not reach.
	cfg := "apps:\n  shop:\n    baseURL: " + app.URL + "\nreplay:\n  actionTimeout: 3s\n  replayTimeout: 3s\n" +
		"agent:\n" + cmp.Or(o.agent, "  stepDeadline: 5m\n")
	if !o.noModel {
		cfg += "model:\n  baseURL: " + srv.URL + "\n  name: scripted\n  apiKeyEnv: E2E_HANDOFF_KEY\n"
	}
	cfg += o.more
	for path, content := range map[string]string{hr.file: src, filepath.Join(dir, "trailpin.yaml"): cfg} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hr.before = []byte(src)
	env := append(replayEnv(t, false), "CI=", "E2E_HANDOFF_KEY="+handoffModelKey, "TRAILPIN_SECRET_STAFF_PIN="+handoffPIN)
	args := []string{"replay", "--config", filepath.Join(dir, "trailpin.yaml"), "--format", "status",
		"--results", hr.results, "--junit", hr.junit, "--db", hr.db}
	if o.strict {
		args = append(args, "--strict")
	}
	if o.failOnHeal {
		args = append(args, "--fail-on-heal")
	}
	start := time.Now()
	hr.run = RunHost(t, env, nil, append(args, hr.file)...)
	hr.wall = time.Since(start)
	hr.requests = srv.Requests()
	var err error
	if hr.after, err = os.ReadFile(hr.file); err != nil {
		t.Fatal(err)
	}
	hr.status, hr.stderrLines = string(hr.run.Stdout), string(hr.run.Stderr)
	return hr
}

// line is the status line of event for step n, unescaped ("" when none).
func (hr *handoffRun) line(t *testing.T, event string, n int) string {
	t.Helper()
	for l := range strings.SplitSeq(hr.status, "\n") {
		if strings.HasPrefix(l, fmt.Sprintf("%s|apply-a-discount-%d|", event, n)) {
			return unescape(t, l)
		}
	}
	return ""
}

// logCost logs what the scenario cost, for the report: the requests the
// model server got, their bytes, the tokens the summary counts (what the
// scripted server reported), and the run's wall time.
func (hr *handoffRun) logCost(t *testing.T, scenario string) {
	size := 0
	for _, r := range hr.requests {
		size += len(r.Body)
	}
	tokens := "no tokens counted"
	for l := range strings.SplitSeq(hr.stderrLines, "\n") {
		if strings.HasPrefix(l, "  model:    ") {
			tokens = strings.TrimPrefix(l, "  model:    ")
		}
	}
	t.Logf("%s: exit %d, %d model requests (%d bytes; %s), wall %s", scenario, hr.run.ExitCode, len(hr.requests), size, tokens, hr.wall.Round(time.Millisecond))
}

// checkRequests: every request the model got is one a careful client
// sends: strict tool schemas, no recorded selector, no API key in the
// body, the screen as the unquoted interactive snapshot.
func checkRequests(t *testing.T, reqs []modeltest.Request) {
	t.Helper()
	for i, req := range reqs {
		if bytes.Contains(req.Body, []byte(handoffModelKey)) {
			t.Errorf("request %d carries the API key in its body", i+1)
		}
		if bytes.Contains(req.Body, []byte("{role:")) || bytes.Contains(req.Body, []byte("name: Apply")) {
			t.Errorf("request %d shows the model a recorded selector:\n%s", i+1, req.LastUserText())
		}
		tools, _ := req.Decoded()["tools"].([]any)
		if len(tools) == 0 {
			t.Errorf("request %d offers no tools", i+1)
		}
		for _, tool := range tools {
			fn, _ := tool.(map[string]any)["function"].(map[string]any)
			params, _ := fn["parameters"].(map[string]any)
			if fn["strict"] != true || params["additionalProperties"] != false {
				t.Errorf("request %d: tool %v is not a strict schema: strict %v, additionalProperties %v", i+1, fn["name"], fn["strict"], params["additionalProperties"])
			}
		}
	}
	if len(reqs) == 0 {
		return
	}
	first := reqs[0].LastUserText()
	if !strings.Contains(first, `- button "Help" [ref=`) {
		t.Errorf("the first request does not show the screen as the unquoted interactive snapshot:\n%s", first)
	}
	for l := range strings.SplitSeq(first, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "- '") {
			t.Errorf("the snapshot has a quoted line: %s", l)
		}
	}
}

// TestReplayHandOff: issue 12's scenarios 1 (up to saving), 2, 4, 5, 7 and
// the run that makes no model call because nothing changed. The runs go on
// at once, a few at a time; each subtest checks what one left.
func TestReplayHandOff(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	renamed := checkoutApp{button: "Redeem", field: "Discount code"}
	scenarios := []struct {
		name string
		app  checkoutApp
		src  string
		opts handoffOptions
		// exit is the run's exit code.
		exit  int
		check func(t *testing.T, hr *handoffRun)
	}{
		{name: "unchanged: zero model calls", app: checkoutApp{button: "Apply", field: "Discount code"}, src: discountTrail, exit: 0,
			check: func(t *testing.T, hr *handoffRun) {
				if len(hr.requests) != 0 {
					t.Errorf("a recording that replays made %d model requests, want 0", len(hr.requests))
				}
				if got := hr.line(t, "STEP_DONE", 1); strings.HasPrefix(got, "healed") {
					t.Errorf("an unchanged step reads %q", got)
				}
			}},
		{name: "hand-off after 1 of 2: healed", app: renamed, src: discountTrail, exit: 0,
			check: func(t *testing.T, hr *handoffRun) {
				if len(hr.requests) == 0 {
					t.Fatal("no request reached the model")
				}
				if first := hr.requests[0].LastUserText(); !strings.Contains(first, "Replay stopped (target-not-found) after 1 of 2 recorded actions.\n") ||
					!strings.Contains(first, "Continue from the current screen without redoing them.") {
					t.Errorf("the first request lacks the hand-off record:\n%s", first)
				}
				checkRequests(t, hr.requests)
				if got := hr.line(t, "STEP_DONE", 1); !strings.Contains(got, "|healed: typed \"SUMMER\"") || !strings.HasSuffix(got, `the agent: tapped button "Redeem"`) {
					t.Errorf("STEP_DONE of the healed step: %q", got)
				}
				if !strings.Contains(hr.status, "RUN_COMPLETED|passed|") || !strings.Contains(hr.stderrLines, "HEALED apply-a-discount") ||
					!strings.Contains(hr.stderrLines, "healed share: 1 of 1 trails (100%)") {
					t.Errorf("the run does not say it was healed:\n%s\n%s", hr.status, hr.stderrLines)
				}
				junit, _ := os.ReadFile(hr.junit)
				if !strings.Contains(string(junit), `<property name="healed.step.1" value="hand-off: replay stopped (target-not-found) after 1 of 2 recorded actions`) ||
					!strings.Contains(string(junit), fmt.Sprintf(`<property name="model.calls" value="%d">`, len(hr.requests))) {
					t.Errorf("JUnit lacks the healed step's property or the model calls:\n%s", junit)
				}
				page, err := os.ReadFile(report.TracePath(hr.results, "apply-a-discount"))
				if err != nil || !strings.Contains(string(page), "- The agent's turns:") || !strings.Contains(string(page), "`tap {\"ref\":") {
					t.Errorf("the trace page lacks the agent's turns (%v):\n%s", err, page)
				}
				checkStoredHeal(t, hr, len(hr.requests))
			}},
		{name: "strict: REPLAY_STALE, zero calls", app: renamed, src: discountTrail, opts: handoffOptions{strict: true}, exit: 1,
			check: func(t *testing.T, hr *handoffRun) {
				if len(hr.requests) != 0 {
					t.Errorf("--strict made %d model requests, want 0", len(hr.requests))
				}
				if got := hr.line(t, "ASSERTION_FAILED", 1); !strings.Contains(got, "REPLAY_STALE: the recording of step 1 no longer replays (target-not-found after 1 of 2") {
					t.Errorf("ASSERTION_FAILED: %q", got)
				}
				if !bytes.Equal(hr.before, hr.after) {
					t.Error("a strict run changed the trail file")
				}
			}},
		{name: "end-mismatch: warned, repaired, not saveable", app: checkoutApp{button: "Apply", field: "Discount code", confirm: true}, src: endStateTrail, exit: 0,
			check: func(t *testing.T, hr *handoffRun) {
				if len(hr.requests) == 0 {
					t.Fatal("no request reached the model")
				}
				first := hr.requests[0].LastUserText()
				if !strings.Contains(first, "Replay stopped (end-mismatch) after 2 of 2 recorded actions.") ||
					!strings.Contains(first, "Warning: every recorded action ran, but the screen does not show the step's recorded end state.") {
					t.Errorf("the first request lacks the end-mismatch warning:\n%s", first)
				}
				checkRequests(t, hr.requests)
				if !strings.Contains(hr.stderrLines, "flow:     dropped: the agent had to repair an end-mismatch") {
					t.Errorf("the summary does not say the repaired flow is not saved:\n%s", hr.stderrLines)
				}
				if !bytes.Equal(hr.before, hr.after) {
					t.Error("a repaired end-mismatch changed the trail file")
				}
			}},
		{name: "miss: the agent runs the whole step", app: checkoutApp{button: "Apply", field: "Promo code"}, src: discountTrail, exit: 0,
			check: func(t *testing.T, hr *handoffRun) {
				if len(hr.requests) == 0 {
					t.Fatal("no request reached the model")
				}
				if first := hr.requests[0].LastUserText(); strings.Contains(first, "Replay stopped") || strings.Contains(first, "Already performed") {
					t.Errorf("a miss got a hand-off notice:\n%s", first)
				}
				checkRequests(t, hr.requests)
				if !strings.Contains(hr.stderrLines, "(miss: replay stopped (target-not-found) before acting)") {
					t.Errorf("the summary does not call it a miss:\n%s", hr.stderrLines)
				}
			}},
		{name: "--fail-on-heal: healed counts as failed", app: renamed, src: discountTrail, opts: handoffOptions{failOnHeal: true}, exit: 1,
			check: func(t *testing.T, hr *handoffRun) {
				if !strings.Contains(hr.status, "RUN_COMPLETED|failed|1 trail in ") || !strings.Contains(hr.stderrLines, "HEALED (counted as failed: --fail-on-heal) apply-a-discount") {
					t.Errorf("--fail-on-heal did not fail the healed run:\n%s\n%s", hr.status, hr.stderrLines)
				}
			}},
		{name: "cache.mode off: the agent performs every goal", app: checkoutApp{button: "Apply", field: "Discount code"}, src: discountTrail,
			opts: handoffOptions{more: "cache:\n  mode: off\n"}, exit: 0,
			check: func(t *testing.T, hr *handoffRun) {
				if len(hr.requests) == 0 {
					t.Fatal("cache.mode off made no model request")
				}
				if first := hr.requests[0].LastUserText(); strings.Contains(first, "Replay stopped") {
					t.Errorf("cache.mode off sent a hand-off notice:\n%s", first)
				}
				if got := hr.line(t, "STEP_DONE", 1); !strings.Contains(got, "|healed: the agent: ") {
					t.Errorf("STEP_DONE of step 1 under cache.mode off: %q", got)
				}
				if !strings.Contains(hr.stderrLines, "(performed by the agent)") || !strings.Contains(hr.stderrLines, "cache.mode is off") {
					t.Errorf("the summary does not say the agent performed the step and nothing was saved:\n%s", hr.stderrLines)
				}
				if !bytes.Equal(hr.before, hr.after) {
					t.Error("cache.mode off changed the trail file")
				}
			}},
		{name: "no model: today's class with the hint", app: renamed, src: discountTrail, opts: handoffOptions{noModel: true}, exit: 1,
			check: func(t *testing.T, hr *handoffRun) {
				got := hr.line(t, "ASSERTION_FAILED", 1)
				if !strings.Contains(got, "|selector-drift: tap {role: button, name: Apply}") || !strings.Contains(got, replay.ModelHint) {
					t.Errorf("ASSERTION_FAILED without a model: %q", got)
				}
				if len(hr.requests) != 0 {
					t.Errorf("no model configured, yet %d requests", len(hr.requests))
				}
			}},
	}
	runs := make([]*handoffRun, len(scenarios))
	sem := make(chan struct{}, 3)
	var wg sync.WaitGroup
	for i, sc := range scenarios {
		app := serveCheckout(t, sc.app)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			runs[i] = replayHandoff(t, app, sc.src, sc.opts)
		})
	}
	wg.Wait()
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			hr := runs[i]
			hr.logCost(t, sc.name)
			if hr.run.ExitCode != sc.exit {
				t.Fatalf("host replay exited %d, want %d:\n%s\n%s", hr.run.ExitCode, sc.exit, hr.status, hr.stderrLines)
			}
			sc.check(t, hr)
		})
	}
}

// checkStoredHeal: the database holds a row per model request, the step's
// count of them, and what became of its flow.
func checkStoredHeal(t *testing.T, hr *handoffRun, calls int) {
	t.Helper()
	ctx := t.Context()
	db, err := storage.Open(ctx, hr.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, err := db.Runs(ctx, 1)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v (%d)", err, len(runs))
	}
	trails, err := db.TrailResults(ctx, runs[0].ID)
	if err != nil || len(trails) != 1 || len(trails[0].Steps) == 0 {
		t.Fatalf("trail results: %v (%+v)", err, trails)
	}
	mcs, err := db.ModelCalls(ctx, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	hds, err := db.HealingDecisions(ctx, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	tr, st := trails[0], trails[0].Steps[0]
	if tr.Status != storage.TrailHealed || st.Status != storage.StepHealed || st.ModelCalls != calls || st.CacheDecision != replay.CacheHandOff {
		t.Errorf("database: trail %s, step %s with %d model calls (cache %s); want healed, healed, %d, hand-off",
			tr.Status, st.Status, st.ModelCalls, st.CacheDecision, calls)
	}
	if len(mcs) != calls || len(hds) != 1 {
		t.Errorf("database: %d model_calls rows, %d healing decisions; want %d and 1", len(mcs), len(hds), calls)
	}
	for _, mc := range mcs {
		if mc.Purpose != "heal" || mc.Model != "scripted" || mc.StepIndex == nil || *mc.StepIndex != 0 || mc.TrailResultID != tr.ID {
			t.Errorf("model call row %+v", mc)
		}
	}
}

// TestReplayHandOffNeverSavesAWrongHeal: issue 12's scenario 6. The model
// taps the wrong control and says done; the assertion after fails, the
// trail fails, and its file is byte for byte what it was. Likewise for
// each misbehaviour of the model: the step fails within its budget with a
// reason that names it, and nothing is written. A stale ref is refused
// (never mapped to another element) and the heal goes on.
func TestReplayHandOffNeverSavesAWrongHeal(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	four := func(r modeltest.Reply) []modeltest.Reply { return []modeltest.Reply{r, r, r, r} }
	scenarios := []struct {
		name   string
		opts   handoffOptions
		exit   int
		reason string // in the ASSERTION_FAILED line
	}{
		{"wrong element", handoffOptions{policy: []agenttest.PolicyOption{agenttest.TapWrong()}}, 1,
			`apply-a-discount-2|selector-drift: assertVisible {role: status, text: "10% off"}: waited 3s, but no visible element matches`},
		{"HTTP 500", handoffOptions{script: four(modeltest.Failed(500, "upstream down"))}, 1, "server-error after 3 attempts"},
		{"HTTP 429", handoffOptions{script: four(modeltest.RateLimited(100 * time.Millisecond))}, 1, "rate-limited after 3 attempts"},
		{"malformed arguments", handoffOptions{script: four(modeltest.RawCall("tap", `{"ref": `))}, 1, "malformed after 3 attempts"},
		{"unknown tool", handoffOptions{script: four(modeltest.Call("click", map[string]string{"ref": "e1"}))}, 1, "unknown-tool after 3 attempts"},
		// A model that never answers (within the run): the deadline runs
		// out whatever the machine's speed.
		{"slow model", handoffOptions{agent: "  stepDeadline: 8s\n", script: four(modeltest.Slow(time.Hour, modeltest.Text("late")))}, 1, "agent.stepDeadline"},
		{"call budget", handoffOptions{agent: "  maxCalls: 2\n", script: four(modeltest.Failed(500, "upstream down"))}, 1, "agent.maxCalls"},
		{"stale ref: refused, then healed", handoffOptions{script: []modeltest.Reply{agenttest.StaleTap()}}, 0, ""},
	}
	runs := make([]*handoffRun, len(scenarios))
	sem := make(chan struct{}, 3)
	var wg sync.WaitGroup
	for i, sc := range scenarios {
		app := serveCheckout(t, checkoutApp{button: "Redeem", field: "Discount code"})
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			src := discountTrail
			if sc.exit == 0 {
				// The policy looks for the end state's text after a
				// refused call, instead of taking the call for a tap.
				src = endStateTrail
			}
			runs[i] = replayHandoff(t, app, src, sc.opts)
		})
	}
	wg.Wait()
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			hr := runs[i]
			hr.logCost(t, sc.name)
			if hr.run.ExitCode != sc.exit {
				t.Fatalf("host replay exited %d, want %d:\n%s\n%s", hr.run.ExitCode, sc.exit, hr.status, hr.stderrLines)
			}
			checkRequests(t, hr.requests)
			if sc.exit != 0 && !bytes.Equal(hr.before, hr.after) {
				t.Errorf("the trail file changed:\n%s", hr.after)
			}
			if sc.exit == 0 {
				// A verified heal in read-write mode is saved: the refused
				// ref left no trace in it.
				if bytes.Equal(hr.before, hr.after) || !bytes.Contains(hr.after, []byte("key: ")) || bytes.Contains(hr.after, []byte("e999999")) {
					t.Errorf("the verified heal was not saved as the clean new flow:\n%s", hr.after)
				}
				if !strings.Contains(hr.stderrLines, "HEALED apply-a-discount") {
					t.Errorf("the stale ref's run did not heal:\n%s", hr.stderrLines)
				}
				if len(hr.requests) < 2 || !bytes.Contains(hr.requests[1].Body, []byte(`Refused: \"e999999\" is not a ref`)) ||
					!bytes.Contains(hr.requests[1].Body, []byte(`button \"Redeem\" [ref=`)) {
					t.Errorf("the refused stale ref got no refusal with a fresh screen")
				}
				return
			}
			failed := hr.line(t, "ASSERTION_FAILED", 1) + hr.line(t, "ASSERTION_FAILED", 2)
			if !strings.Contains(failed, sc.reason) {
				t.Errorf("ASSERTION_FAILED says %q, want %q", failed, sc.reason)
			}
			if strings.Contains(hr.stderrLines, "flow:     saved") || strings.Contains(hr.stderrLines, "HEALED") {
				t.Errorf("a failed heal is reported as healed or saved:\n%s", hr.stderrLines)
			}
		})
	}
}

// TestReplayHandOffKeepsTheSecret: issue 12's scenario 8. Replay types the
// staff PIN, hands off, and the agent taps the renamed button while the app
// echoes the PIN on the screen: the value is in no request the model
// server received, nor in any file the run wrote (the leak scanner over
// the database, the trail file, the results, the JUnit file and the
// output).
func TestReplayHandOffKeepsTheSecret(t *testing.T) {
	t.Parallel()
	app := serveCheckout(t, checkoutApp{button: "Redeem", field: "Discount code", pin: true})
	hr := replayHandoff(t, app, pinTrail, handoffOptions{})
	hr.logCost(t, "secret")
	if hr.run.ExitCode != 0 {
		t.Fatalf("host replay exited %d, want 0:\n%s\n%s", hr.run.ExitCode, hr.status, hr.stderrLines)
	}
	checkRequests(t, hr.requests)
	sawRef := false
	sources := []LeakSource{LeakFile(hr.file), LeakFile(hr.junit), LeakBytes("status lines", hr.run.Stdout), LeakBytes("standard error", hr.run.Stderr)}
	for i, req := range hr.requests {
		sources = append(sources, LeakBytes(fmt.Sprintf("model request %d", i+1), req.Body))
		sawRef = sawRef || strings.Contains(req.LastUserText(), `textbox "Last PIN used"`) && strings.Contains(string(req.Body), "${secret:staff-pin}")
	}
	if !sawRef {
		t.Errorf("no request showed the echoed PIN as its reference: the scan did not see the redactor at work")
	}
	sources = append(sources, LeakDatabase(hr.db)...)
	err := filepath.WalkDir(hr.results, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			sources = append(sources, LeakFile(path))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	CheckNoSecretLeaks(t, handoffPIN, sources...)
}
