package e2e

import (
	"context"
	"strings"
	"testing"
)

// TestRecordAskAgentFocusMoves: the agent types into the element its ref
// names or nowhere (docs/agent.md, What the agent may and may not do). A
// page that moves the focus to another field when the named one gets it
// (here on focus, so the move happens between focusing the field and
// inserting the text) gets nothing typed, and the refusal says where the
// focus went; the field next to it takes the agent's typing as before. The
// real extension's LiveAgent in headless Chromium, acting through
// chrome.debugger on a recorded page.
func TestRecordAskAgentFocusMoves(t *testing.T) {
	t.Parallel()
	const page = `<!doctype html><title>Profile</title><main>
		<label>Name <input id="name"></label>
		<label>Search <input id="search"></label>
		<label>City <input id="city"></label>
		<script>document.querySelector('#name').addEventListener('focus', () => document.querySelector('#search').focus());</script></main>`
	const secretish = "Nv8-typed-here-only"
	var refused, typed map[string]any
	var values []string
	p := recordPageWith(t, page, func(popup, app context.Context) {
		run := liveActs(t, popup)
		refused = run(`return live.perform(tab.id, { op: 'type', ...(await at('#name')), text: '` + secretish + `', timeoutMs: 5000, origins });`)
		typed = run(`const r = await live.perform(tab.id, { op: 'type', ...(await at('#city')), text: 'Paris', timeoutMs: 5000, origins }); await live.detach(); return r;`)
		waitAcrossLoads(t, app, `document.querySelector('#city').value === 'Paris'`)
		values = Eval[[]string](t, app, `['#name', '#search', '#city'].map((s) => document.querySelector(s).value)`)
	})
	t.Logf("type into the field that gives its focus away: %v; into the next one: %v", refused, typed)
	msg, _ := refused["error"].(string)
	if refused["ok"] != false || !strings.Contains(msg, `the focus is on input "Search", not on`) || !strings.Contains(msg, "nothing was typed") {
		t.Errorf("typing into a field whose page moves the focus away answered %v, want it refused, saying the focus is on Search and nothing was typed", refused)
	}
	if typed["ok"] != true {
		t.Errorf("typing into City answered %v, want ok", typed)
	}
	if strings.Join(values, "|") != "||Paris" {
		t.Errorf("the fields hold Name %q, Search %q, City %q; want only City typed into", values[0], values[1], values[2])
	}
	if got := p.actions(t); len(got) != 1 || strings.Count(string(p.yaml), "- type:") != 1 ||
		!strings.Contains(string(p.yaml), "- type: {selector: {id: city}, text: Paris}") {
		t.Errorf("the recording holds %q, want the one typing into City:\n%s", got, p.yaml)
	}
	CheckNoSecretLeaks(t, secretish, LeakFile(p.path))
}
