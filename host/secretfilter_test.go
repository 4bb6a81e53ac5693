package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The log and the database hide what the filter learnt, each with its own
// placeholder, and a value too short to redact inside text is said once.
func TestSecretFilter(t *testing.T) {
	f := &secretFilter{}
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(f.writer(&out), nil))
	log.Info("before", "typed", "p@ss w+rd/é")
	f.learn(map[string]string{"shop": "p@ss w+rd/é", "pin": "42"}, nil, log)
	log.Info("request failed", "url", "http://127.0.0.1/?q=p%40ss+w%2Brd%2F%C3%A9", "typed", "p@ss w+rd/é")
	f.learn(map[string]string{"shop": "p@ss w+rd/é", "pin": "42"}, map[string]bool{"shop": true, "pin": true}, log)
	got := out.String()
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 3 {
		t.Fatalf("log has %d lines, want 3 (before, one notice, the request):\n%s", len(lines), got)
	}
	if !strings.Contains(lines[0], "p@ss") {
		t.Errorf("a line written before the secret was known changed: %s", lines[0])
	}
	if !strings.Contains(lines[1], "${secret:pin}") || !strings.Contains(lines[1], "shorter than 4") {
		t.Errorf("notice = %s, want it to name ${secret:pin} and the rule", lines[1])
	}
	if strings.Contains(lines[2], "p@ss") || strings.Contains(lines[2], "p%40ss") || strings.Count(lines[2], "[secret:shop]") != 2 {
		t.Errorf("log line = %s, want the value and its URL form as [secret:shop]", lines[2])
	}
	if got := string(f.database([]byte(`{"value":"p@ss w+rd/é","pin":"42"}`))); got != `{"value":"${secret:shop}","pin":"${secret:pin}"}` {
		t.Errorf("database redaction = %s", got)
	}
}

// TestSecretFilterHidesTheEnvironmentsSecrets: every secret value the
// environment gives the host is hidden from the start, though no project
// names it: in the log and in the database.
func TestSecretFilterHidesTheEnvironmentsSecrets(t *testing.T) {
	const prod, ops = "prod-db-Sup3r-S3cret-99", "ops-pass-K33p-0ut"
	e := &env{getenv: func(string) string { return "" }, environ: func() []string {
		return []string{"TRAILPIN_SECRET_PROD_DB=" + prod, "TRAILPIN_USER_OPS_PASSWORD=" + ops, "HOME=/home/ana"}
	}}
	f := newSecretFilter(e)
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(f.writer(&out), nil))
	log.Info("typed", "a", prod, "b", ops, "home", "/home/ana")
	f.learn(map[string]string{"shop": "p@ss w+rd/é"}, nil, log)
	log.Info("typed", "a", prod, "b", ops, "c", "p@ss w+rd/é")
	got := out.String()
	if strings.Contains(got, prod) || strings.Contains(got, ops) || strings.Contains(got, "p@ss") {
		t.Errorf("the log shows a secret value:\n%s", got)
	}
	if !strings.Contains(got, "[secret:prod_db]") || !strings.Contains(got, "/home/ana") {
		t.Errorf("the log does not show the placeholder, or lost other text:\n%s", got)
	}
	db := string(f.database([]byte(`{"a":"` + prod + `","b":"` + ops + `"}`)))
	if db != `{"a":"${secret:prod_db}","b":"${secret:credentials.ops.password}"}` {
		t.Errorf("database redaction = %s", db)
	}
}
