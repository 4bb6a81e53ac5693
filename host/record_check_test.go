package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// An interaction that lacks what its kind must carry (host/PROTOCOL.md,
// record.interaction) is refused on arrival with error 5 naming the field,
// and nothing is stored; the same interaction with it is stored.
func TestRecordInteractionRefusesWhatItsKindLacks(t *testing.T) {
	tempHome(t)
	const page = "http://127.0.0.1:8080/"
	interaction := func(id, body string) string {
		return `{"v":1,"id":"` + id + `","type":"record.interaction","session":"r-1","interaction":{"time":1,"tab":1,` + body + `}}`
	}
	msgs := []string{
		`{"v":1,"id":"start","type":"record.start","tab":1,"url":"` + page + `","viewport":{"width":800,"height":600},"session":"r-1"}`,
		interaction("dialog-no-url", `"seq":1,"kind":"dialog","dialogKind":"confirm","accept":true`),
		interaction("dialog-no-kind", `"seq":1,"kind":"dialog","url":"`+page+`"`),
		interaction("select-no-options", `"seq":1,"kind":"select","url":"`+page+`"`),
		interaction("mark-no-target", `"seq":1,"kind":"markSensitive","url":"`+page+`"`),
		interaction("click-no-url", `"seq":1,"kind":"click"`),
		`{"v":1,"id":"status","type":"record.status","session":"r-1"}`,
		interaction("dialog", `"seq":1,"kind":"dialog","dialogKind":"confirm","accept":true,"url":"`+page+`"`),
	}
	var in []byte
	for _, m := range msgs {
		in = append(in, frame(m)...)
	}
	out, _, err := run(t, in, "chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/")
	if err != nil {
		t.Fatal(err)
	}
	replies := map[string]map[string]any{}
	for _, f := range readFrames(t, out) {
		var m map[string]any
		json.Unmarshal([]byte(f), &m)
		replies[m["id"].(string)] = m
	}
	for id, field := range map[string]string{
		"dialog-no-url":     "interaction 1 (dialog) lacks url",
		"dialog-no-kind":    "interaction 1 (dialog) lacks dialogKind: send alert, confirm, prompt or beforeunload",
		"select-no-options": "interaction 1 (select) lacks options",
		"mark-no-target":    "interaction 1 (markSensitive) lacks screen and ref",
		"click-no-url":      "interaction 1 (click) lacks url",
	} {
		r := replies[id]
		if r["type"] != "error" || r["code"] != float64(nativemsg.CodeBadRequest) || !strings.Contains(r["message"].(string), field) {
			t.Errorf("reply to %s = %v, want error 5 saying %q", id, r, field)
		}
	}
	if rec, _ := replies["status"]["recording"].(map[string]any); rec == nil || rec["interactions"] != float64(0) {
		t.Errorf("record.status after the refusals = %v, want a recording with 0 interactions stored", replies["status"])
	}
	if r := replies["dialog"]; r["type"] != "record.interaction" || r["added"] != true {
		t.Errorf("reply to a dialog with its url = %v, want it stored", r)
	}
}
