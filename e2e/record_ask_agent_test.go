package e2e

import (
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// "Ask the agent" while recording (issue 12, item 9): a person records on
// the demo shop, asks the agent a goal in the popup, and the agent performs
// it in the recorded tab with trusted input (chrome.debugger). The recorder
// captures that input like a person's; the goal's interactions become one
// step whose intent is the goal, marked by: agent. The saved trail replays
// green with no request to the model. The model is the scripted server with
// the one generic policy (agenttest.Policy), which stands in for a model.

// askModelKey is the scripted model server's API key; the host reads it
// from the variable model.apiKeyEnv names.
const askModelKey = "sk-e2e-ask-agent-0123456789"

// askGoal is what the person asks the agent.
const askGoal = "Add the iPhone to the cart"

// askModelEnv configures the agent's model for a host Chrome starts (and
// for host replay) through TRAILPIN_MODEL_* variables, as a person's shell
// would.
func askModelEnv(m *modeltest.Server) []string {
	return []string{"TRAILPIN_MODEL_BASEURL=" + m.URL, "TRAILPIN_MODEL_NAME=scripted",
		"TRAILPIN_MODEL_APIKEYENV=E2E_ASK_MODEL_KEY", "E2E_ASK_MODEL_KEY=" + askModelKey}
}

// askAgent types a goal into the popup's Ask the agent field and submits it.
func askAgent(t *testing.T, popup context.Context, goal string) {
	t.Helper()
	WaitFor[bool](t, popup, `(() => {
		const f = document.querySelector('#ask-form');
		return !!f && !f.hidden && !document.querySelector('#ask-goal').disabled;
	})()`)
	fill(t, popup, "#ask-goal", goal)
	clickCSS(t, popup, "#ask")
}

// askState waits until the popup says the agent's last goal ended in state
// (done, stopped, failed) and returns what it says.
func askState(t *testing.T, popup context.Context, state string) string {
	t.Helper()
	return WaitFor[string](t, popup, fmt.Sprintf(`(() => {
		const s = document.querySelector('#ask-status');
		if (!s) return null;
		if (s.dataset.state !== 'running' && s.dataset.state !== %q && s.dataset.state !== 'idle')
			throw new Error('the agent ended ' + s.dataset.state + ': ' + s.textContent);
		return s.dataset.state === %q ? s.textContent : null;
	})()`, state, state))
}

// modelCallsStored counts the model calls the database holds for purpose.
func modelCallsStored(t *testing.T, db, purpose string) int {
	t.Helper()
	q, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var n int
	if err := q.QueryRow(`SELECT count(*) FROM model_calls WHERE purpose = ?`, purpose).Scan(&n); err != nil {
		t.Fatalf("counting model calls in %s: %v", db, err)
	}
	return n
}

// agentSteps are the steps of a trail the agent performed.
func agentSteps(tr *trail.Trail) []trail.Step {
	var out []trail.Step
	for _, s := range tr.Steps {
		if s.By == trail.ByAgent {
			out = append(out, s)
		}
	}
	return out
}

func TestRecordAskAgent(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy()))
	r := newRecordingRig(t, askModelEnv(model)...)
	popup, app := r.recordLogin(t)

	askAgent(t, popup, askGoal)
	// The bar in the recorded tab says what the agent does while it acts.
	waitAXPrefix(t, app, "StaticText", "Agent: "+askGoal+" — ")
	said := askState(t, popup, "done")
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)
	appAt(t, app, "/products")
	waitAXPrefix(t, app, "StaticText", "Agent: "+askGoal+" — Done")
	keepScreenshot(t, "recording-bar-agent.png", screenshotBar(t, app))
	asked := len(model.Requests())
	if asked == 0 {
		t.Fatalf("the agent reached its goal (%q) without a request to the model", said)
	}
	for i, req := range model.Requests() {
		body := string(req.Body)
		if !strings.Contains(body, "Step: "+askGoal) {
			t.Errorf("model request %d does not carry the goal as the step:\n%.600s", i+1, body)
		}
		if strings.Contains(body, askModelKey) {
			t.Errorf("model request %d carries the API key in its body", i+1)
		}
	}
	if stored := modelCallsStored(t, filepath.Join(r.b.DataDir, "trailpin.db"), "record"); stored != asked {
		t.Errorf("the database holds %d model calls of the recording, the model server answered %d", stored, asked)
	}

	// What the person does after the agent is the person's again.
	clickCSS(t, app, `a[href="/cart"]`)
	appAt(t, app, "/cart")

	path, content := r.stopSaveExport(t, popup, false)
	// Save's selector review may ask the model once (docs/review.md);
	// replay must ask it nothing.
	asked = len(model.Requests())
	tr, err := trail.LoadTrail(path, content)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, content)
	}
	steps := agentSteps(tr)
	if len(steps) != 1 {
		t.Fatalf("the trail has %d steps by the agent, want 1:\n%s", len(steps), content)
	}
	got := steps[0]
	if got.Intent != askGoal || got.Act != "" || len(got.Actions) == 0 || got.Key == "" {
		t.Errorf("the agent's step is %+v, want the intent %q, recorded actions and a key:\n%s", got, askGoal, content)
	}
	if !strings.Contains(string(content), "intent: "+askGoal+"\n    by: agent\n") {
		t.Errorf("the trail file does not write the agent's step as `intent: %s` then `by: agent`:\n%s", askGoal, content)
	}
	// The iPhone 17's Add to cart button, however the generator names it.
	tapped := false
	for _, a := range got.Actions {
		if tap, ok := a.(trail.Tap); ok {
			sel := tap.Selector.String()
			tapped = tapped || (strings.Contains(sel, "iPhone 17") && (strings.Contains(sel, "add-to-cart") || strings.Contains(sel, "Add to cart")))
		}
	}
	if !tapped {
		t.Errorf("the agent's step records no tap on the iPhone 17's Add to cart:\n%s", content)
	}
	if last := tr.Steps[len(tr.Steps)-1]; last.By != "" || !strings.Contains(last.Intent, "Cart") {
		t.Errorf("the person's step after the agent's is %+v, want the person's click on the cart", last)
	}

	// The trail replays green, with no request to the model: the agent's
	// recording is a cache hit like a person's.
	env := append(replayEnv(t, true), askModelEnv(model)...)
	run := RunHost(t, env, nil, "replay", "--headless", "--config", filepath.Join(r.project, "trailpin.yaml"),
		"--format", "status", "--results", TempDir(t), path)
	if run.ExitCode != 0 {
		t.Fatalf("host replay of the recorded trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, content)
	}
	if n := len(model.Requests()) - asked; n != 0 {
		t.Errorf("host replay sent %d requests to the model, want none:\n%s", n, run.Stdout)
	}
	r.checkNoPassword(t, path)
}

// TestRecordAskAgentStop: Stop in the recording bar ends the agent's goal
// while it waits for the model; what it did is kept, as a step of its own
// marked by: agent, and the review says the goal was not reached.
func TestRecordAskAgentStop(t *testing.T) {
	t.Parallel()
	policy := agenttest.Policy()
	var calls atomic.Int32
	// The generic policy, with its second answer slow: the agent has tapped
	// and waits for the model when the person presses Stop.
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(func(req modeltest.Request) modeltest.Reply {
		if calls.Add(1) == 2 {
			return modeltest.Slow(2*time.Minute, policy(req))
		}
		return policy(req)
	}))
	r := newRecordingRig(t, askModelEnv(model)...)
	popup, app := r.recordLogin(t)

	askAgent(t, popup, askGoal)
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)
	appAt(t, app, "/products")
	deadline := time.Now().Add(WaitTimeout)
	for calls.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the agent sent %d requests to the model, want a second one after its tap", calls.Load())
		}
		time.Sleep(50 * time.Millisecond)
	}
	clickAX(t, app, "button", "Stop the agent")
	said := askState(t, popup, "stopped")
	if !strings.Contains(said, "kept in the recording") {
		t.Errorf("after Stop the popup says %q, want it to say what the agent did is kept", said)
	}
	waitAXPrefix(t, app, "StaticText", "Agent: "+askGoal+" — Stopped")

	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	notes := Eval[string](t, popup, `document.querySelector('#notes').textContent`)
	if !strings.Contains(notes, `The agent did not reach "`+askGoal+`" (it was stopped`) {
		t.Errorf("the review's notes are %q, want one saying the agent did not reach its goal", notes)
	}
	if n := Eval[int](t, popup, `document.querySelectorAll('#steps li[data-by=agent]').length`); n != 1 {
		t.Errorf("the review shows %d steps performed by the agent, want 1", n)
	}
	path, content := r.saveExportReviewed(t, popup)
	tr, err := trail.LoadTrail(path, content)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, content)
	}
	steps := agentSteps(tr)
	if len(steps) != 1 || steps[0].Intent == askGoal || len(steps[0].Actions) == 0 {
		t.Fatalf("the trail's steps by the agent are %+v, want the one tap it made, with an intent written for it, not the goal it did not reach:\n%s", steps, content)
	}
}

// saveExportReviewed names the secret and the trail in the review the
// popup shows, saves and exports it.
func (r *recordingRig) saveExportReviewed(t *testing.T, popup context.Context) (string, []byte) {
	t.Helper()
	fill(t, popup, "#secret-list input", "demo-password")
	fill(t, popup, "#trail-title", "Ask the agent, then stop it")
	pressSave(t, popup)
	clickCSS(t, popup, "#export")
	path := WaitFor[string](t, popup, `(document.querySelector('#exported').textContent.match(/^Exported to (\S+)/) || [])[1]`)
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, content
}

// TestRecordAskAgentNoModel: without a model the field is there but
// disabled, and says how to configure one; the host refuses a goal with
// the same words.
func TestRecordAskAgentNoModel(t *testing.T) {
	t.Parallel()
	r := newRecordingRig(t)
	popup, _ := r.recordLogin(t)
	WaitFor[bool](t, popup, `document.querySelector('#ask-status')?.dataset.state === 'unconfigured'`)
	if hidden := Eval[bool](t, popup, `document.querySelector('#ask-form').hidden`); hidden {
		t.Fatal("the popup hides Ask the agent while recording; it must show it, disabled, with how to configure a model")
	}
	if !Eval[bool](t, popup, `document.querySelector('#ask-goal').disabled && document.querySelector('#ask').disabled`) {
		t.Error("without a model the Ask the agent field and button are enabled")
	}
	said := Eval[string](t, popup, `document.querySelector('#ask-status').textContent`)
	for _, want := range []string{"No model is configured", "model.baseURL", "model.name", "trailpin.yaml", "docs/agent.md"} {
		if !strings.Contains(said, want) {
			t.Errorf("the popup says %q without a model, want it to name %q", said, want)
		}
	}
	ctx, cancel := context.WithTimeout(popup, WaitTimeout)
	defer cancel()
	session, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`chrome.runtime.sendMessage({to: 'background', kind: 'record', op: 'state'}).then((v) => v.session)`, chromedp.EvalAwaitPromise))
	if err != nil || session == "" {
		t.Fatalf("reading the recording's session: %q, %v", session, err)
	}
	reply := HostRequest(t, popup, "agent.ask", map[string]any{"session": session, "goal": askGoal})
	if reply.OK || reply.Code != 5 || !strings.Contains(reply.Error, "No model is configured") {
		t.Errorf("agent.ask without a model = %+v, want error 5 saying no model is configured", reply)
	}
	// Nothing recorded before is lost: the person's login is still there.
	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	if n := Eval[int](t, popup, `document.querySelectorAll('#steps > li').length`); n < 2 {
		t.Errorf("the review shows %d steps, want the login's", n)
	}
}

// TestRecordAskAgentSecret: a goal that types a secret by its reference.
// The model is told the reference only; the host fills the value in at the
// last moment, in the one agent.page request the extension types it from.
// The value is in no model request, and nowhere else the recording wrote
// (the database, the trail, the logs, the other native messages).
func TestRecordAskAgentSecret(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy()))
	r := newRecordingRig(t, append(askModelEnv(model), "TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password)...)
	popup, app := r.recordStart(t)
	goal := `Sign in as "ada" with ${secret:demo-password}`
	askAgent(t, popup, goal)
	askState(t, popup, "done")
	appAt(t, app, "/products")

	path, content := r.stopSaveExport(t, popup, false)
	tr, err := trail.LoadTrail(path, content)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, content)
	}
	steps := agentSteps(tr)
	if len(steps) != 1 || steps[0].Intent != goal {
		t.Fatalf("the trail's steps by the agent are %+v, want one with the goal %q as intent:\n%s", steps, goal, content)
	}
	typed := ""
	for _, a := range steps[0].Actions {
		if ty, ok := a.(trail.TypeText); ok && strings.Contains(ty.Text, "${secret:") {
			typed = ty.Text
		}
	}
	if typed != "${secret:demo-password}" {
		t.Errorf("the agent's step types %q into the password, want the reference ${secret:demo-password}:\n%s", typed, content)
	}

	// The model was told the reference, never the value.
	var bodies []byte
	for _, req := range model.Requests() {
		bodies = append(bodies, req.Body...)
	}
	if !strings.Contains(string(bodies), "${secret:demo-password}") {
		t.Error("no model request names ${secret:demo-password}: the model was not told how to type the secret")
	}
	// The host's messages to the extension: only the agent.page request
	// that types the value may carry it.
	carriers, rest := splitFrames(t, filepath.Join(r.wire, "from-host.bin"), func(m map[string]any) bool {
		return m["type"] == "agent.page" && m["op"] == "type"
	})
	if !strings.Contains(string(carriers), demo.Password) {
		t.Error("no agent.page request typed the password: the secret reached the page some other way, or not at all")
	}
	sources := append(LeakDatabase(filepath.Join(r.b.DataDir, "trailpin.db")),
		LeakFile(path), LeakFile(filepath.Join(r.b.DataDir, "host.log")), LeakFile(filepath.Join(r.wire, "host-stderr.log")),
		LeakFile(filepath.Join(r.wire, "to-host.bin")), LeakBytes("the host's other messages to the extension", rest),
		LeakBytes("model requests", bodies))
	CheckNoSecretLeaks(t, demo.Password, sources...)

	// And it replays: the recorder wrote the secret by name.
	env := append(replayEnv(t, true), askModelEnv(model)...)
	asked := len(model.Requests())
	run := RunHost(t, env, nil, "replay", "--headless", "--config", filepath.Join(r.project, "trailpin.yaml"),
		"--format", "status", "--results", TempDir(t), path)
	if run.ExitCode != 0 {
		t.Fatalf("host replay of the recorded trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, content)
	}
	if n := len(model.Requests()) - asked; n != 0 {
		t.Errorf("host replay sent %d requests to the model, want none", n)
	}
}

// splitFrames reads a file of native-messaging frames (a 4-byte
// little-endian length, then JSON) and returns the frames pick chooses and
// the others, each concatenated as framed.
func splitFrames(t *testing.T, file string, pick func(map[string]any) bool) (picked, rest []byte) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for len(b) >= 4 {
		n := int(binary.LittleEndian.Uint32(b))
		if 4+n > len(b) {
			t.Fatalf("%s ends inside a frame", file)
		}
		frame, body := b[:4+n], b[4:4+n]
		b = b[4+n:]
		var m map[string]any
		if json.Unmarshal(body, &m) == nil && pick(m) {
			picked = append(picked, frame...)
		} else {
			rest = append(rest, frame...)
		}
	}
	return picked, rest
}

// TestRecordAskAgentModelError: a model that answers 500 ends the goal; the
// popup and the bar say so in words that name the model, and what was
// recorded before is all there.
func TestRecordAskAgentModelError(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey))
	model.Script(repeatReply(modeltest.Status(500), 20)...)
	r := newRecordingRig(t, askModelEnv(model)...)
	popup, app := r.recordLogin(t)
	askAgent(t, popup, askGoal)
	said := askState(t, popup, "failed")
	if !strings.Contains(said, "the agent's model gave no usable answer") || !strings.Contains(said, "kept in the recording") {
		t.Errorf("after the model failed the popup says %q, want it to name the model's failure and say nothing is lost", said)
	}
	bar := waitAXPrefix(t, app, "StaticText", "Agent: "+askGoal+" — The agent failed")
	if !strings.Contains(bar, "model gave no usable answer") {
		t.Errorf("the recording bar says %q, want the model's failure", bar)
	}
	// The person goes on; the goal can be asked again.
	if Eval[bool](t, popup, `document.querySelector('#ask-goal').disabled`) {
		t.Error("after a failed goal the Ask the agent field stays disabled")
	}
	clickCSS(t, popup, "#stop")
	popupPhase(t, popup, "stopped")
	intents := Eval[[]string](t, popup, `[...document.querySelectorAll('#steps > li > input')].map((i) => i.value)`)
	if len(intents) != 3 || !strings.Contains(intents[2], "Sign in") {
		t.Errorf("the review's steps are %q, want the person's login (username, password, sign in)", intents)
	}
	if notes := Eval[string](t, popup, `document.querySelector('#notes').textContent`); !strings.Contains(notes, `The agent recorded nothing for "`+askGoal+`"`) {
		t.Errorf("the review's notes are %q, want one saying the agent recorded nothing", notes)
	}
}

// TestRecordAskAgentInput: each of the agent's acts (extension/agentlive.js,
// run here from an extension page on the recorded tab) is trusted input
// the recorder captures as a person's: typing over a field's text, a
// choice in a drop-down with the keyboard, a key, a navigation typed in as
// an address, and a click; a ref of a document the page left is refused.
func TestRecordAskAgentInput(t *testing.T) {
	t.Parallel()
	const page = `<!doctype html><title>Order</title><main>
		<form action="/page.html" onsubmit="event.preventDefault(); document.querySelector('#said').textContent = 'Sent for ' + document.querySelector('#name').value">
		<label>Name <input id="name" value="Bob"></label>
		<label>Country <select id="country"><option>France</option><option>Germany</option><option>Spain</option></select></label>
		<button>Send</button></form><p id="said" role="status"></p><a href="/page.html?next=1">Next</a></main>`
	var stale map[string]any
	p := recordPageWith(t, page, func(popup, app context.Context) {
		run := liveActs(t, popup)
		for _, js := range []string{
			`return live.perform(tab.id, { op: 'type', ...(await at('#name')), text: 'Ada', timeoutMs: 5000, origins });`,
			`return live.perform(tab.id, { op: 'select', ...(await at('#country')), option: 'Spain', timeoutMs: 5000, origins });`,
			`return live.perform(tab.id, { op: 'tap', ...(await at('button')), timeoutMs: 5000, origins });`,
		} {
			if got := run(js); got["ok"] != true {
				t.Fatalf("the agent's act %s answered %v", js, got)
			}
		}
		waitAcrossLoads(t, app, `document.querySelector('#said').textContent === 'Sent for Ada'`)
		if got := run(`globalThis.__before = await at('a'); return live.perform(tab.id, { op: 'navigate', url: location.origin === '' ? '' : tab.url.replace(/\?.*$/, '') + '?next=2', origins });`); got["ok"] != true {
			t.Fatalf("navigate answered %v", got)
		}
		appAt(t, app, "/page.html?next=2")
		stale = run(`const r = await live.perform(tab.id, { op: 'tap', ...globalThis.__before, timeoutMs: 2000, origins }); await live.detach(); return r;`)
	})
	if stale["ok"] != false || stale["reason"] != "stale" {
		t.Errorf("a tap on a ref of the document the page left answered %v, want it refused as stale", stale)
	}
	got := p.actions(t)
	want := []string{"type ", "select ", "tap {role: button, name: Send}", "navigate "}
	if len(got) != len(want) {
		t.Fatalf("the agent's acts were recorded as %q, want a type, a select, the tap and the navigation:\n%s", got, p.yaml)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("action %d was recorded as %q, want %q…:\n%s", i+1, got[i], want[i], p.yaml)
		}
	}
	for _, s := range []string{"text: Ada", "Spain", "navigate: /page.html?next=2"} {
		if !strings.Contains(string(p.yaml), s) {
			t.Errorf("the trail does not hold %q:\n%s", s, p.yaml)
		}
	}
	p.replayGreen(t)
}

// liveActs runs the agent's acts (extension/agentlive.js) from the popup on
// the recorded tab of /page.html: each js has tab, live (one LiveAgent),
// origins (the page's own) and at(css), the ref and document token of the
// element css selects, and returns an agent.pageResult's body.
func liveActs(t *testing.T, popup context.Context) func(js string) map[string]any {
	return func(js string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(popup, WaitTimeout)
		defer cancel()
		out, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`(async () => {
			const { LiveAgent } = await import('./agentlive.js');
			const [tab] = (await chrome.tabs.query({})).filter((t) => (t.url || '').includes('/page.html'));
			const live = globalThis.__live ??= new LiveAgent({ chrome });
			const origins = [new URL(tab.url).origin];
			const at = async (css) => {
				const [{ result }] = await chrome.scripting.executeScript({ target: { tabId: tab.id, frameIds: [0] }, args: [css],
					func: (css) => ({ ref: __trailpinPageModel.refForElement(document.querySelector(css)), document: __trailpinPageModel.documentToken() }) });
				return result;
			};
			`+js+`
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("running the agent's act %s: %v", js, err)
		}
		return out
	}
}
