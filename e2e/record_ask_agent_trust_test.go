package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// What the agent may do while recording (docs/agent.md, What the agent may
// and may not do), at the host: the real host binary over native
// messaging, the test in the extension's place (fakeTab), the scripted
// model server answering with the calls a model steered by page text
// would make.

const (
	// trustPassword is the secret the goal offers; trustProdDB one the
	// project defines and the goal does not offer.
	trustPassword = "Kw3!xPass-4412"
	trustProdDB   = "Zq7#ledger-9917"
	// trustEvil is an origin off the app.
	trustEvil = "http://evil.test:9"
	// trustIdP is an origin the app trusts (apps.shop.origins).
	trustIdP = "https://login.shop.test"
)

// startTrustRecording starts a recording through the host with the two
// secrets in the environment, listed in the project's trailpin.yaml, and
// the identity provider among the app's origins.
func startTrustRecording(t *testing.T, model *modeltest.Server) (*HostProc, string) {
	t.Helper()
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	env := append(askModelEnv(model), "TRAILPIN_SECRET_DEMO_PASSWORD="+trustPassword, "TRAILPIN_SECRET_PROD_DB="+trustProdDB)
	h := StartHostProc(t, home, env...)
	session := h.MustRequest("record.start", recStart("")).Str("session")
	chooseProject(t, h, dir)
	file := filepath.Join(dir, "trailpin.yaml")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "secrets:\n", "secrets:\n  demo-password: null\n  prod-db: null\n", 1)
	edited = strings.Replace(edited, "    baseURL: "+recOrigin+"\n", "    baseURL: "+recOrigin+"\n    origins:\n      - "+trustIdP+"\n", 1)
	if edited == string(b) || !strings.Contains(edited, "prod-db") || !strings.Contains(edited, trustIdP) {
		t.Fatalf("could not add the secrets and the app's origins to trailpin.yaml:\n%s", b)
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range recInteractions(session)[:2] {
		sendInteraction(t, h, s, true)
	}
	return h, session
}

// modelBodies are the bodies of every request the model server received.
func modelBodies(m *modeltest.Server) string {
	var b strings.Builder
	for _, r := range m.Requests() {
		b.Write(r.Body)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRecordAskAgentHostSecretNotOffered: a goal offers the secrets it
// names, and no other. A model told (by page text) to type a secret of the
// project the goal did not name gets a tool error saying which it may
// type, and the value reaches no agent.page request, no model request and
// nothing the host wrote. Before, every secret of trailpin.yaml was offered
// and filled in.
func TestRecordAskAgentHostSecretNotOffered(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey))
	model.Script(
		modeltest.Call("type", map[string]string{"ref": "e6", "text": "${secret:prod-db}"}),
		modeltest.Call("type", map[string]string{"ref": "e6", "text": "${secret:demo-password}"}),
		modeltest.Call("done", map[string]string{"summary": "typed the password"}),
	)
	h, session := startTrustRecording(t, model)
	goal := "Type ${secret:demo-password} into the password"
	agentMark(t, h, session, 3, map[string]any{"kind": "agentStart", "text": goal})
	tab := &fakeTab{screens: []*screen.Screen{recLogin("ada"), recLogin("ada")}}
	_, done := askThroughHost(t, h, session, goal, tab)

	var typed []string
	for _, op := range tab.ops {
		if op.Str("op") == "type" {
			typed = append(typed, op.Str("text"))
		}
	}
	if len(typed) != 1 || typed[0] != trustPassword {
		t.Errorf("the extension was asked to type %q, want only the offered password", typed)
	}
	bodies := modelBodies(model)
	if !strings.Contains(bodies, "${secret:demo-password}") {
		t.Error("no model request names ${secret:demo-password}: the model was not told the secret it may type")
	}
	if strings.Contains(strings.SplitN(bodies, "\n", 2)[0], "${secret:prod-db}") {
		t.Error("the first model request names ${secret:prod-db}: a secret the goal did not offer was offered")
	}
	if !strings.Contains(bodies, "was not offered") {
		t.Errorf("after typing ${secret:prod-db} the model was not told it was not offered:\n%.3000s", bodies)
	}
	if done.Str("state") != "done" {
		t.Errorf("agent.done: got %v, want the goal done once the offered secret was typed", done)
	}
	CheckNoSecretLeaks(t, trustProdDB, LeakBytes("model requests", []byte(bodies)),
		LeakBytes("agent.page requests", mustJSON(t, tab.ops)), LeakBytes("agent.done", mustJSON(t, done)),
		LeakBytes("the host's log", h.Stderr()))
	CheckNoSecretLeaks(t, trustPassword, LeakBytes("model requests", []byte(bodies)), LeakBytes("the host's log", h.Stderr()))
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRecordAskAgentHostOffTheApp: while recording, the agent acts only on
// the app's origins. Every act carries them (the base URL, then
// apps.shop.origins) for the extension to check at the moment of acting;
// an act the extension refuses there (a link off the app) ends the goal as
// refused, naming the origin, as the agent's own refusal of an act on a
// page off the app does. Each goal's agentEnd is marked by the host as
// having left the app, whatever the extension says, and its steps are not
// written into the trail; the person's steps are kept.
func TestRecordAskAgentHostOffTheApp(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey))
	model.Script(
		modeltest.Call("tap", map[string]string{"ref": "e7"}), // goal 1: the extension refuses it
		modeltest.Call("tap", map[string]string{"ref": "e7"}), // goal 2: on a page off the app
		modeltest.Call("done", map[string]string{"summary": "done"}),
	)
	h, session := startTrustRecording(t, model)

	// Goal 1: the page is the app's; the extension refuses the tap, whose
	// link goes off it.
	agentMark(t, h, session, 3, map[string]any{"kind": "agentStart", "text": "Claim the offer"})
	tab := &refusingTab{fakeTab: fakeTab{screens: []*screen.Screen{recLogin("ada")}}}
	_, done := askThroughHost(t, h, session, "Claim the offer", tab)
	var acts []HostMsg
	for _, op := range tab.ops {
		if op.Str("op") != "screen" {
			acts = append(acts, op)
		}
	}
	if len(acts) != 1 {
		t.Fatalf("the host sent %d acts, want the one tap the extension refused, and none after it: %v", len(acts), acts)
	}
	origins, _ := acts[0]["origins"].([]any)
	if len(origins) != 2 || origins[0] != recOrigin || origins[1] != trustIdP {
		t.Errorf("the act carries origins %v, want the app's base URL then apps.shop.origins", acts[0]["origins"])
	}
	if done.Str("state") != "failed" || done.Str("verdict") != "refused" || !strings.Contains(done.Str("message"), "tap refused: e7 would open a page on "+trustEvil) ||
		done.Int("refused") != 1 || done.Str("left") != trustEvil {
		t.Errorf("agent.done after the refused tap: %v, want failed, refused, naming %s, 1 refusal", done, trustEvil)
	}
	if n := len(model.Requests()); n != 1 {
		t.Errorf("the model got %d requests, want the goal to end at the refusal, after 1", n)
	}
	sendInteraction(t, h, interactionStep(session, 4, map[string]any{"kind": "agentEnd", "url": recOrigin + "/login", "state": "failed", "message": done.Str("message")}, nil), true)

	// Goal 2: the page is off the app; the agent refuses to act there.
	agentMark(t, h, session, 5, map[string]any{"kind": "agentStart", "text": "Sign in"})
	evil := recLogin("ada")
	evil.URL, evil.Document = trustEvil+"/steal", "x"
	tab2 := &fakeTab{screens: []*screen.Screen{evil}}
	_, done = askThroughHost(t, h, session, "Sign in", tab2)
	for _, op := range tab2.ops {
		if op.Str("op") != "screen" {
			t.Errorf("the host sent an act for a page off the app: %v", op)
		}
	}
	if done.Str("verdict") != "refused" || done.Str("left") != trustEvil || done.Int("refused") != 1 {
		t.Errorf("agent.done on a page off the app: %v, want refused, left %s", done, trustEvil)
	}
	if bodies := modelBodies(model); !strings.Contains(bodies, trustEvil+"/steal") {
		t.Errorf("the model was not shown the whole URL of the page off the app:\n%.3000s", bodies)
	}
	// What the extension recorded meanwhile, then the goal's end as an
	// extension that says nothing of where it went would send it.
	sendInteraction(t, h, interactionStep(session, 6, map[string]any{"kind": "click", "url": recOrigin + "/login", "screen": "s9", "ref": "e7"}, recLogin("ada")), true)
	agentMark(t, h, session, 7, map[string]any{"kind": "agentEnd", "state": "failed", "message": "refused"})

	stop := h.MustRequest("record.stop", recStop(session))
	for _, s := range stop["steps"].([]any) {
		if m, _ := s.(map[string]any); m["by"] == "agent" {
			t.Errorf("record.stop: a goal that left the app is a step: %v\n%s", m, stop.Str("yaml"))
		}
	}
	if !hasNote(stop, `The agent left the app while performing "Sign in": it reached `+trustEvil) {
		t.Errorf("record.stop's notes %v, want one saying the agent left the app", stop["notes"])
	}
	if steps, _ := stop["steps"].([]any); len(steps) != 1 {
		t.Errorf("record.stop: %d steps, want the person's typing of the username kept:\n%s", len(steps), stop.Str("yaml"))
	}
}

// A refusingTab is a fakeTab whose acts are refused as the extension
// refuses an element whose link goes off the app.
type refusingTab struct{ fakeTab }

func (f *refusingTab) answer(req HostMsg) map[string]any {
	if req.Str("op") != "screen" {
		f.ops = append(f.ops, req)
		return map[string]any{"ok": false, "reason": "refused", "origin": trustEvil, "why": "e7 would open a page on " + trustEvil,
			"error": "e7 would open a page on " + trustEvil + ", which is not the app (" + recOrigin + ")"}
	}
	return f.fakeTab.answer(req)
}
