package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// recMenu is a page with a menu button, closed or open; the open page also
// shows the sensitive email in the menu's header.
func recMenu(open bool) *screen.Screen {
	button := recEl("m4", "button", "button", "Menu", 40, recText("Menu"))
	button.Text, button.Expanded = "Menu", &open
	kids := []*screen.Node{button}
	if open {
		item := recEl("m6", "menuitem", "li", "Settings", 112, recText("Settings"))
		item.Text = "Settings"
		kids = append(kids, recEl("m5", "menu", "ul", "Main", 80, item))
	}
	return recPage("m", "/home", "Home — Shop", kids...)
}

// TestHostRecordChanges: record.changes lists what the last action changed,
// each change with the matcher it would record; an assertChange interaction
// naming the ticked ones by key ends the action's step, and the exported
// trail holds it and loads. Before any action, and when nothing changed,
// the reply says so and offers nothing.
func TestHostRecordChanges(t *testing.T) {
	t.Parallel()
	browsertest.Long(t)
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	h := StartHostProc(t, home)
	session := h.MustRequest("record.start", recStart("")).Str("session")
	chooseProject(t, h, dir)
	closed, open := recMenu(false), recMenu(true)

	changes := func(s *screen.Screen) HostMsg {
		t.Helper()
		m := h.MustRequest("record.changes", map[string]any{"session": session, "screen": json.RawMessage(WireScreen(s))})
		expectOK(t, m, "record.changes")
		return m
	}
	if m := changes(open); !strings.Contains(m.Str("message"), "No action recorded yet") || len(m["changes"].([]any)) != 0 {
		t.Fatalf("record.changes before any action = %v, want a message and nothing to tick", m)
	}
	expectError(t, h.Request("record.changes", map[string]any{"session": session}), 5)

	u := recOrigin + "/home"
	sendInteraction(t, h, interactionStep(session, 1, map[string]any{"kind": "click", "url": u, "screen": "s1", "ref": "m4"}, closed), true)
	if m := changes(closed); !strings.Contains(m.Str("message"), "changed nothing visible") || len(m["changes"].([]any)) != 0 || m["only"] != true {
		t.Fatalf("record.changes with nothing changed = %v, want a message, no change and only offered (nothing changes)", m)
	}
	m := changes(open)
	if m.Int("seq") != 1 || m["only"] != true || m.Str("message") != "" {
		t.Fatalf("record.changes = %v, want the click's changes", m)
	}
	var keys []string
	byText := map[string]string{}
	for _, c := range m["changes"].([]any) {
		c := c.(map[string]any)
		byText[c["text"].(string)] = c["matcher"].(string)
		keys = append(keys, c["key"].(string))
	}
	want := map[string]string{
		`state button "Menu" [m4]: expanded false → true`: "{change: state, selector: {role: button, name: Menu}, to: {expanded: true}}",
		`added menu "Main" [m5]`:                          "{change: added, selector: {role: menu, name: Main}}",
	}
	for text, matcher := range want {
		if byText[text] != matcher {
			t.Errorf("change %q: matcher %q, want %q (all: %v)", text, byText[text], matcher, byText)
		}
	}
	if len(byText) != len(want) {
		t.Errorf("changes %v, want exactly %v", byText, want)
	}
	sendInteraction(t, h, interactionStep(session, 2, map[string]any{"kind": "assertChange", "url": u, "screen": "s2", "changes": keys}, open), true)

	stop := h.MustRequest("record.stop", map[string]any{"session": session, "screen": json.RawMessage(WireScreen(open))})
	saved := h.MustRequest("record.save", map[string]any{"session": session, "title": "Open the menu"})
	exp := h.MustRequest("trail.export", map[string]any{"trail": saved.Str("trail")})
	data, err := os.ReadFile(exp.Str("path"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(exp.Str("path"), data)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, data)
	}
	if len(tr.Steps) != 1 || len(tr.Steps[0].Actions) != 2 {
		t.Fatalf("trail steps = %+v, want the click and its assertChange (stop said %v):\n%s", tr.Steps, stop["notes"], data)
	}
	ac, ok := tr.Steps[0].Actions[1].(trail.AssertChange)
	if !ok || len(ac.MustInclude) != 2 || ac.Only != nil {
		t.Fatalf("second action = %+v, want an assertChange with the two ticked changes and no only:\n%s", tr.Steps[0].Actions[1], data)
	}
	got := map[string]string{}
	for _, mi := range ac.MustInclude {
		var to []string
		for _, t := range mi.To {
			to = append(to, t.Field+"="+t.Value)
		}
		got[mi.Change] = mi.Selector.String() + " " + strings.Join(to, ",")
	}
	if got["added"] != "{role: menu, name: Main} " || got["state"] != "{role: button, name: Menu} expanded=true" {
		t.Errorf("mustInclude = %v, want the menu added and the button's expanded: true:\n%s", got, data)
	}
}

// TestHostRecordChangesKeepsSecretsOut: a project secret the page shows
// after the action never comes back in record.changes: the screen now is
// redacted as the stored one was, and a change that would show the value
// is listed without it.
func TestHostRecordChangesKeepsSecretsOut(t *testing.T) {
	t.Parallel()
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	conf := "apps:\n  shop:\n    baseURL: " + recOrigin + "\ntrails:\n  dir: trails\nsecrets:\n  shop_password: null\n"
	if err := os.WriteFile(filepath.Join(dir, "trailpin.yaml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	h := StartHostProc(t, home, "TRAILPIN_SECRET_SHOP_PASSWORD="+recPassword)
	start := recStart("r-changes-secret")
	start["project"] = dir
	session := h.MustRequest("record.start", start).Str("session")
	closed := recMenu(false)
	shown := recMenu(true)
	p := recEl("m7", "paragraph", "p", "", 200, recText("Your key: "+recPassword))
	p.Text = "Your key: " + recPassword
	shown.Root.Children[0].Children[0].Children = append(shown.Root.Children[0].Children[0].Children, p)
	sendInteraction(t, h, interactionStep(session, 1, map[string]any{"kind": "click", "url": recOrigin + "/home", "screen": "s1", "ref": "m4"}, closed), true)
	m := h.MustRequest("record.changes", map[string]any{"session": session, "screen": json.RawMessage(WireScreen(shown))})
	expectOK(t, m, "record.changes")
	raw, _ := json.Marshal(m)
	if bytes.Contains(raw, []byte(recPassword)) || bytes.Contains(raw, []byte(`vörtex`)) {
		t.Fatalf("record.changes shows the secret's value: %s", raw)
	}
	if len(m["changes"].([]any)) < 2 {
		t.Errorf("record.changes = %s, want the click's changes still listed", raw)
	}
}
