package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// Host-level tests of "Ask the agent" (host/PROTOCOL.md, The agent while
// recording): the real host binary in native-messaging mode, the test in
// the extension's place, answering the host's agent.page requests with
// scripted screens. What the browser does with them is
// TestRecordAskAgent's.

// A fakeTab answers agent.page requests: screens in turn, each act taking
// it to the next screen.
type fakeTab struct {
	screens []*screen.Screen
	at      int
	ops     []HostMsg
}

func (f *fakeTab) answer(req HostMsg) map[string]any {
	f.ops = append(f.ops, req)
	if req.Str("op") == "screen" {
		return map[string]any{"ok": true, "screen": json.RawMessage(WireScreen(f.screens[f.at]))}
	}
	if f.at < len(f.screens)-1 {
		f.at++
	}
	return map[string]any{"ok": true}
}

// askThroughHost sends agent.ask and plays the extension's part until the
// goal ends: it returns the ask's reply and agent.done.
func askThroughHost(t *testing.T, h *HostProc, session, goal string, tab interface{ answer(HostMsg) map[string]any }) (reply, done HostMsg) {
	t.Helper()
	id := h.Send("agent.ask", map[string]any{"session": session, "goal": goal})
	for {
		m, err := h.Recv()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m.ID() == id:
			if m.Type() != "agent.ask" {
				t.Fatalf("agent.ask: got %v", m)
			}
			reply = m
		case m.Type() == "agent.page":
			if err := h.Write(Frame(m.ID(), "agent.pageResult", tab.answer(m))); err != nil {
				t.Fatal(err)
			}
		case m.Type() == "agent.progress":
		case m.Type() == "agent.done":
			if reply == nil {
				t.Fatalf("agent.done came before the reply to agent.ask: %v", m)
			}
			return reply, m
		default:
			t.Fatalf("while the agent works the host sent %v", m)
		}
	}
}

// startAskRecording starts a recording through the host, names its
// project (whose trailpin.yaml gets more) and records the person's click
// and typing into the username.
func startAskRecording(t *testing.T, model *modeltest.Server, more string) (*HostProc, string) {
	t.Helper()
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	h := StartHostProc(t, home, askModelEnv(model)...)
	session := h.MustRequest("record.start", recStart("")).Str("session")
	chooseProject(t, h, dir)
	f, err := os.OpenFile(filepath.Join(dir, "trailpin.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(more); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, s := range recInteractions(session)[:2] {
		sendInteraction(t, h, s, true)
	}
	return h, session
}

// agentMarks sends the agentStart and agentEnd the extension frames a goal
// with.
func agentMark(t *testing.T, h *HostProc, session string, seq int64, in map[string]any) {
	t.Helper()
	in["url"] = recOrigin + "/login"
	sendInteraction(t, h, interactionStep(session, seq, in, nil), true)
}

// TestRecordAskAgentHostModelError: a model that answers 500 ends the goal
// as failed with a reason that names it; what was recorded before stays.
func TestRecordAskAgentHostModelError(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey))
	model.Script(repeatReply(modeltest.Status(500), 20)...)
	h, session := startAskRecording(t, model, "")
	goal := `Sign in as "ada"`
	agentMark(t, h, session, 3, map[string]any{"kind": "agentStart", "text": goal})
	reply, done := askThroughHost(t, h, session, goal, &fakeTab{screens: []*screen.Screen{recLogin("")}})
	if reply.Str("model") != "scripted" || reply.Str("goal") == "" {
		t.Errorf("agent.ask: got %v", reply)
	}
	if done.Str("state") != "failed" || done.Str("verdict") != "model-error" || !strings.Contains(done.Str("message"), "the agent's model gave no usable answer") {
		t.Errorf("agent.done after 500s: got %v, want failed, model-error, with a reason naming the model", done)
	}
	if n := len(model.Requests()); n < 2 || done.Int("calls") != int64(n) {
		t.Errorf("the model got %d requests, agent.done says %d calls: want them retried, and counted", n, done.Int("calls"))
	}
	agentMark(t, h, session, 4, map[string]any{"kind": "agentEnd", "state": "failed", "message": done.Str("message")})
	stop := h.MustRequest("record.stop", recStop(session))
	if !hasNote(stop, fmt.Sprintf("The agent recorded nothing for %q (it failed: the agent's model gave no usable answer", goal)) {
		t.Errorf("record.stop's notes %v, want one saying the agent recorded nothing, and why", stop["notes"])
	}
	if steps, _ := stop["steps"].([]any); len(steps) != 1 {
		t.Errorf("record.stop: %d steps, want the person's typing of the username kept", len(steps))
	}
}

// TestRecordAskAgentHostBudget: agent.maxActions bounds a goal while
// recording as at replay; the goal ends as failed, naming the budget, and
// the action taken before is the agent's step (by: agent), with a note.
func TestRecordAskAgentHostBudget(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy()))
	h, session := startAskRecording(t, model, "agent:\n  maxActions: 1\n")
	goal := `Sign in as "ada"`
	agentMark(t, h, session, 3, map[string]any{"kind": "agentStart", "text": goal})
	tab := &fakeTab{screens: []*screen.Screen{recLogin(""), recLogin("ada")}}
	_, done := askThroughHost(t, h, session, goal, tab)
	if done.Str("state") != "failed" || done.Str("verdict") != "budget" || !strings.Contains(done.Str("message"), "agent.maxActions") {
		t.Errorf("agent.done: got %v, want failed on agent.maxActions", done)
	}
	var acts []string
	for _, op := range tab.ops {
		if op.Str("op") != "screen" {
			acts = append(acts, op.Str("op")+" "+op.Str("ref")+" "+op.Str("text"))
			if op.Str("document") != "e" || op.Str("session") != session {
				t.Errorf("agent.page %v: want the document of the screen shown and the session", op)
			}
		}
	}
	if len(acts) != 1 || acts[0] != "type e5 ada" {
		t.Errorf("the agent acted %q, want one type of ada into the username (e5) within its one action", acts)
	}
	// The extension's capture of that typing, framed as the agent's.
	sendInteraction(t, h, interactionStep(session, 4, map[string]any{"kind": "type", "url": recOrigin + "/login", "screen": "s1", "ref": "e5", "value": "ada"}, nil), true)
	agentMark(t, h, session, 5, map[string]any{"kind": "agentEnd", "state": "failed", "message": done.Str("message")})
	stop := h.MustRequest("record.stop", recStop(session))
	steps, _ := stop["steps"].([]any)
	byAgent := 0
	for _, s := range steps {
		if m, _ := s.(map[string]any); m["by"] == "agent" {
			byAgent++
		}
	}
	if byAgent != 1 || !hasNote(stop, fmt.Sprintf("The agent did not reach %q (it failed: the step used its 1 actions (agent.maxActions", goal)) {
		t.Errorf("record.stop: %d steps by the agent, notes %v; want its one step kept with a note:\n%s", byAgent, stop["notes"], stop.Str("yaml"))
	}
}

// hasNote reports whether one of record.stop's notes holds text.
func hasNote(stop HostMsg, text string) bool {
	notes, _ := stop["notes"].([]any)
	for _, n := range notes {
		if s, _ := n.(string); strings.Contains(s, text) {
			return true
		}
	}
	return false
}

// TestRecordAskAgentHostChecks: the check the agent passed comes in
// agent.done, with the action it checked and when; sent back in the
// goal's agentEnd, it is written after the recorded tap. What arrives
// malformed in an agentEnd's checks is left out with a note, and loses
// nothing else: the goal's end is stored, its step and its good check
// are kept.
func TestRecordAskAgentHostChecks(t *testing.T) {
	t.Parallel()
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy(agenttest.CheckChange(map[string]any{"changed": true}))))
	h, session := startAskRecording(t, model, "")
	goal := `Sign in as "ada"`
	agentMark(t, h, session, 3, map[string]any{"kind": "agentStart", "text": goal})
	tab := &fakeTab{screens: []*screen.Screen{recLogin(""), recLogin("ada"), recHome(0)}}
	_, done := askThroughHost(t, h, session, goal, tab)
	if done.Str("state") != "done" {
		t.Fatalf("agent.done: got %v, want done", done)
	}
	checks, _ := done["checks"].([]any)
	if len(checks) != 1 {
		t.Fatalf("agent.done carries the checks %v, want the one that passed", done["checks"])
	}
	check, _ := checks[0].(map[string]any)
	spec, _ := check["assertChange"].(map[string]any)
	from, _ := check["from"].(float64)
	until, _ := check["until"].(float64)
	if check["action"] != float64(2) || from <= 0 || until < from || len(spec) != 1 || spec["changed"] != true {
		t.Fatalf("agent.done's check is %v, want the tap (action 2), when it began and was checked, and {changed: true}", check)
	}

	// The extension's capture of the agent's typing and tap, each when
	// the page did it, then the goal's end with the check and two that
	// cannot be read.
	u := func(path string) string { return recOrigin + path }
	at := func(s recStep, ms float64) recStep {
		s.body["interaction"].(map[string]any)["time"] = int64(ms)
		return s
	}
	sendInteraction(t, h, at(interactionStep(session, 4, map[string]any{"kind": "type", "url": u("/login"), "screen": "s1", "ref": "e5", "value": "ada"}, nil), from-1), true)
	sendInteraction(t, h, at(interactionStep(session, 5, map[string]any{"kind": "click", "url": u("/login"), "screen": "s2", "ref": "e7"}, recLogin("ada")), from), true)
	sendInteraction(t, h, at(interactionStep(session, 6, map[string]any{"kind": "navigate", "url": u("/home"), "transition": "form"}, nil), from+1), true)
	agentMark(t, h, session, 7, map[string]any{"kind": "agentEnd", "state": "done", "checks": []any{
		check,
		map[string]any{"action": 2, "from": from, "until": until, "assertChange": map[string]any{"Changed": true}},
		"a check",
	}})
	stop := h.MustRequest("record.stop", recStop(session))
	yaml := stop.Str("yaml")
	if !strings.Contains(yaml, "      - tap: {selector: {role: button, name: Sign in}}\n      - assertChange: {changed: true}\n") {
		t.Errorf("the agent's check is not written right after its tap:\n%s", yaml)
	}
	if strings.Count(yaml, "assertChange") != 1 {
		t.Errorf("the trail holds more than the one check:\n%s", yaml)
	}
	for _, want := range []string{
		fmt.Sprintf(`While performing %q, the agent's check 2 was left out: its assertChange cannot be read: assertChange has a key this host does not know, "Changed"`, goal),
		fmt.Sprintf(`While performing %q, the agent's check 3 was left out: it is not a check`, goal),
	} {
		if !hasNote(stop, want) {
			t.Errorf("record.stop's notes %v, want one saying %q", stop["notes"], want)
		}
	}

	// Checks that are no list at all: the goal's end is stored even so.
	agentMark(t, h, session, 8, map[string]any{"kind": "agentStart", "text": "Add to the cart"})
	sendInteraction(t, h, interactionStep(session, 9, map[string]any{"kind": "click", "url": u("/home"), "screen": "s3", "ref": "h7"}, recHome(0)), true)
	agentMark(t, h, session, 10, map[string]any{"kind": "agentEnd", "state": "done", "checks": "all of them"})
	stop = h.MustRequest("record.stop", recStop(session))
	if !hasNote(stop, `While performing "Add to the cart", the agent's checks are not a list of checks`) {
		t.Errorf("record.stop's notes %v, want one saying the checks are not a list", stop["notes"])
	}
	byAgent := 0
	for _, s := range stop["steps"].([]any) {
		if m, _ := s.(map[string]any); m["by"] == "agent" && m["intent"] == "Add to the cart" {
			byAgent++
		}
	}
	if byAgent != 1 {
		t.Errorf("record.stop's steps %v, want the second goal's one step", stop["steps"])
	}
}
