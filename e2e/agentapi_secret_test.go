package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestAgentAPITypesASecretIntoAPasswordField: an outside client signs in
// to the shop in the person's recorded tab with tab.type and the text
// ${secret:demo-password}; the host reads the value where Chrome started
// it and the extension types it into the password field with trusted
// input. The same reference into the user name field is refused, nothing
// typed. The trail's typing keeps the reference, the client's snapshots
// and replies never hold the value, and the leak scanner finds it in
// nothing the product wrote (the database, the trail, the logs, the
// native messages, every reply the client received); the trail replays
// green with the secret and no model.
func TestAgentAPITypesASecretIntoAPasswordField(t *testing.T) {
	t.Parallel()
	runtimeDir := TempDir(t)
	r := newRecordingRig(t, "XDG_RUNTIME_DIR="+runtimeDir, "TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password)
	app := r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	popup := r.openPopupFor(t, r.shop.URL+"/login")
	c := dialAgentAPI(t, runtimeDir)
	apiRefused(t, c, agentapi.TypeTabsList, nil, nativemsg.CodeRefused, "the person has not allowed "+apiClient)
	allowClient(t, popup, apiClient)
	shareTab(t, popup)

	// Every reply the client receives, for the leak scan.
	var replies bytes.Buffer
	call := func(typ string, body any, out any) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
		defer cancel()
		var raw json.RawMessage
		err := c.Call(ctx, typ, body, &raw)
		replies.Write(raw)
		if err != nil {
			replies.WriteString(err.Error())
			t.Fatalf("%s: %v", typ, err)
		}
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				t.Fatal(err)
			}
		}
	}
	refused := func(typ string, body any, prefix string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
		defer cancel()
		err := c.Call(ctx, typ, body, nil)
		if err != nil {
			replies.WriteString(err.Error())
		}
		if err == nil || !strings.Contains(err.Error(), prefix) {
			t.Fatalf("%s: %v, want a refusal saying %q", typ, err, prefix)
		}
	}
	var list struct{ Tabs []agentapi.TabInfo }
	call(agentapi.TypeTabsList, nil, &list)
	if len(list.Tabs) != 1 {
		t.Fatalf("tabs.list: %+v", list.Tabs)
	}
	tab := list.Tabs[0].Tab
	var started struct{ Session string }
	call(agentapi.TypeRecordingStart, map[string]any{"tab": tab, "project": r.project, "app": "shop"}, &started)
	popupPhase(t, popup, "recording")

	var snap apiSnapshot
	call(agentapi.TypeTabSnapshot, map[string]any{"tab": tab}, &snap)
	user := apiRefOf(t, snap, `textbox "Username"`)
	pass := apiRefOf(t, snap, `textbox "Password"`)
	// Not a password field: refused, nothing typed.
	refused(agentapi.TypeTabType, map[string]any{"tab": tab, "ref": user, "text": "${secret:demo-password}"}, "is not a password field nor one the person marked sensitive")
	if v := Eval[string](t, app, `document.querySelector('#username').value`); v != "" {
		t.Fatalf("a refused secret typed %d characters into the user name", len(v))
	}
	call(agentapi.TypeTabType, map[string]any{"tab": tab, "ref": user, "text": demo.Username}, nil)
	var did struct{ Did, URL string }
	call(agentapi.TypeTabType, map[string]any{"tab": tab, "ref": pass, "text": "${secret:demo-password}", "submit": true}, &did)
	if !strings.Contains(did.Did, `typed "${secret:demo-password}" into`) {
		t.Errorf("tab.type did %q", did.Did)
	}
	appAt(t, app, "/products")
	call(agentapi.TypeTabSnapshot, map[string]any{"tab": tab, "mode": "full"}, &snap)
	if !strings.HasSuffix(snap.URL, "/products") {
		t.Fatalf("signed in with the secret, the tab shows %s", snap.URL)
	}

	var saved struct {
		File  string
		Steps int
	}
	call(agentapi.TypeRecordingSave, map[string]any{"session": started.Session, "title": "Sign in with a secret through the agent API"}, &saved)
	src, err := os.ReadFile(saved.File)
	if err != nil {
		t.Fatalf("recording.save gave %+v: %v", saved, err)
	}
	tr, err := trail.LoadTrail(saved.File, src)
	if err != nil {
		t.Fatalf("the saved trail does not load: %v\n%s", err, src)
	}
	typed := false
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if ty, ok := a.(trail.TypeText); ok && ty.Text == "${secret:demo-password}" {
				typed = true
				if s.By != trail.ByAgent || s.Client != apiClient {
					t.Errorf("the secret's typing is %q/%q, want the client's:\n%s", s.By, s.Client, src)
				}
			}
		}
	}
	if !typed {
		t.Errorf("no step types ${secret:demo-password}:\n%s", src)
	}
	repliesFile := filepath.Join(TempDir(t), "replies.json")
	if err := os.WriteFile(repliesFile, replies.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(replies.Bytes(), []byte("${secret:demo-password}")) {
		t.Error("the replies scanned do not hold the typing's reply")
	}
	// The host's messages to the extension: only the api.request that
	// types the value into the password field may carry it.
	carriers, rest := splitFrames(t, filepath.Join(r.wire, "from-host.bin"), func(m map[string]any) bool {
		return m["type"] == "api.request" && m["op"] == "type" && m["secret"] == true
	})
	if !strings.Contains(string(carriers), demo.Password) {
		t.Error("no api.request typed the password: the secret reached the page some other way, or not at all")
	}
	sources := append(LeakDatabase(filepath.Join(r.b.DataDir, "trailpin.db")),
		LeakFile(saved.File), LeakFile(repliesFile), LeakFile(filepath.Join(r.b.DataDir, "host.log")), LeakFile(filepath.Join(r.wire, "host-stderr.log")),
		LeakFile(filepath.Join(r.wire, "to-host.bin")), LeakBytes("the host's other messages to the extension", rest))
	CheckNoSecretLeaks(t, demo.Password, sources...)
	run := RunHost(t, replayEnv(t, true), nil, "replay", "--base-url", r.shop.URL, "--results", TempDir(t), saved.File)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}
