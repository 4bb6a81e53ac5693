package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The native door sends each operation's answer as the reply's fields,
// and each failure with its protocol code, byte for byte as
// host/PROTOCOL.md shows them: frames in, frames out, no browser.
func TestRecordingDoorReplies(t *testing.T) {
	home := tempHome(t)
	dir := filepath.Join(home, "src", "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const page = "http://127.0.0.1:8080/login"
	msgs := []string{
		`{"v":1,"id":"list0","type":"project.list"}`,
		`{"v":1,"id":"set-no-file","type":"project.set","dir":"` + dir + `","origin":"` + page + `"}`,
		`{"v":1,"id":"set","type":"project.set","dir":"` + dir + `","create":true,"origin":"` + page + `"}`,
		`{"v":1,"id":"app","type":"project.addApp","origin":"` + page + `","name":"shop"}`,
		`{"v":1,"id":"list","type":"project.list"}`,
		`{"v":1,"id":"none","type":"record.status"}`,
		`{"v":1,"id":"start","type":"record.start","tab":1,"url":"` + page + `","viewport":{"width":800,"height":600},"session":"r-1"}`,
		`{"v":1,"id":"click","type":"record.interaction","session":"r-1","interaction":{"seq":1,"kind":"click","time":1,"tab":1,"url":"` + page + `"}}`,
		`{"v":1,"id":"claims-client","type":"record.interaction","session":"r-1","interaction":{"seq":2,"kind":"click","time":2,"tab":1,"url":"` + page + `","client":"claude-code"}}`,
		`{"v":1,"id":"resume","type":"record.resume","session":"r-1"}`,
		`{"v":1,"id":"bad-session","type":"record.resume","session":"r 1"}`,
		`{"v":1,"id":"bad-field","type":"record.start","tab":"one"}`,
		`{"v":1,"id":"agent-stop","type":"agent.stop","session":"r-1"}`,
		`{"v":1,"id":"save-unstopped","type":"record.save","session":"r-1","title":"Sign in"}`,
		`{"v":1,"id":"review-unstopped","type":"record.review","session":"r-1"}`,
		`{"v":1,"id":"discard","type":"record.discard","session":"r-1"}`,
		`{"v":1,"id":"discard-again","type":"record.discard","session":"r-1"}`,
		`{"v":1,"id":"export-none","type":"trail.export","trail":"nothing-here"}`,
	}
	var in []byte
	for _, m := range msgs {
		in = append(in, frame(m)...)
	}
	out, _, err := run(t, in, "chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/")
	if err != nil {
		t.Fatal(err)
	}
	got := readFrames(t, out)
	if len(got) != len(msgs) {
		t.Fatalf("got %d replies, want %d:\n%s", len(got), len(msgs), strings.Join(got, "\n"))
	}
	project := `{"dir":"` + dir + `","name":"shop"}`
	app := `{"name":"shop","baseUrl":"http://127.0.0.1:8080"}`
	want := []string{
		`{"v":1,"id":"list0","type":"project.list","current":"","projects":[]}`,
		`{"v":1,"id":"set-no-file","type":"error","code":5,"message":"` + dir + ` has no trailpin.yaml: send project.set with create: true to write a starter one, or run ` + "`host project init`" + ` there"}`,
		`{"v":1,"id":"set","type":"project.set","app":null,"apps":[],"needsApp":true,"project":` + project + `}`,
		`{"v":1,"id":"app","type":"project.addApp","app":` + app + `,"project":` + project + `}`,
		`{"v":1,"id":"list","type":"project.list","current":"shop","projects":[` + project + `]}`,
		`{"v":1,"id":"none","type":"record.status","recording":null}`,
		`{"v":1,"id":"start","type":"record.start","session":"r-1","origin":"http://127.0.0.1:8080","project":` + project + `,"app":` + app + `,"needsProject":false,"needsApp":false,"lastSeq":0}`,
		`{"v":1,"id":"click","type":"record.interaction","session":"r-1","seq":1,"added":true}`,
		`{"v":1,"id":"claims-client","type":"error","code":5,"message":"interaction.client is set by the host's own doors (host mcp), never by the extension: send the interaction without it; nothing was stored"}`,
		`{"v":1,"id":"resume","type":"record.resume","session":"r-1","lastSeq":1,"saved":false}`,
		`{"v":1,"id":"bad-session","type":"error","code":5,"message":"session \"r 1\" is not a session id (1 to 64 letters, digits, '-' or '_'): send the id record.start returned"}`,
		`{"v":1,"id":"bad-field","type":"error","code":5,"message":"reading record.start fields: json: cannot unmarshal string into Go struct field StartIn.tab of type int"}`,
		`{"v":1,"id":"agent-stop","type":"agent.stop","session":"r-1","stopped":false}`,
		`{"v":1,"id":"save-unstopped","type":"error","code":5,"message":"session r-1 was not stopped by this host process: send record.stop (again, after a reconnect) before record.save"}`,
		`{"v":1,"id":"review-unstopped","type":"error","code":5,"message":"session r-1 was not stopped by this host process: send record.stop (again, after a reconnect) before record.review"}`,
		`{"v":1,"id":"discard","type":"record.discard","discarded":true,"session":"r-1"}`,
		`{"v":1,"id":"discard-again","type":"record.discard","discarded":false,"session":"r-1"}`,
		`{"v":1,"id":"export-none","type":"error","code":5,"message":"reading trail \"nothing-here\": trail \"nothing-here\": not found; ` + "`host trails list`" + ` shows the saved trails"}`,
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("reply %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}
