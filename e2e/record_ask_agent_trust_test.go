package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay/model/modeltest"
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
// the app's origins. Every act carries them (the base URL and
// apps.shop.origins) for the extension to check at the moment of acting;
// an act on a screen whose page is off them is refused by the host before
// anything is sent, naming the origin; one the extension refuses comes back
// to the model naming it too. The goal's agentEnd is marked as having left
// the app, and its steps are not written into the trail, whatever the
// extension says; the person's steps are kept.
func TestRecordAskAgentHostOffTheApp(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey))
	model.Script(
		// On the app: a tap the extension refuses (its link goes off it).
		modeltest.Call("tap", map[string]string{"ref": "e7"}),
		// On a page off the app: a tap and a key the host refuses.
		modeltest.Call("tap", map[string]string{"ref": "e7"}),
		modeltest.Call("press", map[string]string{"key": "Enter"}),
		modeltest.Call("done", map[string]string{"summary": "done"}),
	)
	h, session := startTrustRecording(t, model)
	goal := "Sign in"
	agentMark(t, h, session, 3, map[string]any{"kind": "agentStart", "text": goal})
	evil := recLogin("ada")
	evil.URL, evil.Document = trustEvil+"/steal", "x"
	tab := &refusingTab{fakeTab: fakeTab{screens: []*screen.Screen{recLogin("ada"), evil}}}
	_, done := askThroughHost(t, h, session, goal, tab)

	var acts []HostMsg
	for _, op := range tab.ops {
		if op.Str("op") != "screen" {
			acts = append(acts, op)
		}
	}
	if len(acts) != 1 {
		t.Fatalf("the host sent %d acts, want the one on the app (the others were refused before anything was sent): %v", len(acts), acts)
	}
	origins, _ := acts[0]["origins"].([]any)
	if len(origins) != 2 || origins[0] != recOrigin || origins[1] != trustIdP {
		t.Errorf("the act carries origins %v, want the app's base URL then apps.shop.origins", acts[0]["origins"])
	}
	bodies := modelBodies(model)
	for _, want := range []string{
		"e7 would open a page on " + trustEvil,                   // the extension's refusal, as it said it
		"the page is on " + trustEvil + ", which is not the app", // the host's
	} {
		if !strings.Contains(bodies, want) {
			t.Errorf("the model was not told %q:\n%.4000s", want, bodies)
		}
	}
	if done.Str("left") != trustEvil {
		t.Errorf("agent.done: left = %q, want %s (a screen the agent was shown)", done.Str("left"), trustEvil)
	}

	// The extension's capture of the tap, then the goal's end as an
	// extension that says nothing of where it went would send it.
	sendInteraction(t, h, interactionStep(session, 4, map[string]any{"kind": "click", "url": recOrigin + "/login", "screen": "s9", "ref": "e7"}, recLogin("ada")), true)
	agentMark(t, h, session, 5, map[string]any{"kind": "agentEnd", "state": "done", "message": "done"})
	stop := h.MustRequest("record.stop", recStop(session))
	for _, s := range stop["steps"].([]any) {
		if m, _ := s.(map[string]any); m["by"] == "agent" {
			t.Errorf("record.stop: the goal that left the app is a step: %v\n%s", m, stop.Str("yaml"))
		}
	}
	if !hasNote(stop, `The agent left the app while performing "Sign in": it reached `+trustEvil) {
		t.Errorf("record.stop's notes %v, want one saying the agent left the app", stop["notes"])
	}
	if steps, _ := stop["steps"].([]any); len(steps) != 1 {
		t.Errorf("record.stop: %d steps, want the person's typing of the username kept:\n%s", len(steps), stop.Str("yaml"))
	}
}

// A refusingTab is a fakeTab whose first act is refused as the extension
// refuses an element whose link goes off the app; meanwhile the page goes
// to its next screen on its own (a redirect off the app).
type refusingTab struct {
	fakeTab
	refused bool
}

func (f *refusingTab) answer(req HostMsg) map[string]any {
	if req.Str("op") != "screen" && !f.refused {
		f.refused = true
		f.ops = append(f.ops, req)
		if f.at < len(f.screens)-1 {
			f.at++
		}
		return map[string]any{"ok": false, "reason": "refused", "origin": trustEvil,
			"error": "e7 would open a page on " + trustEvil + ", which is not the app (" + recOrigin + ")"}
	}
	return f.fakeTab.answer(req)
}
