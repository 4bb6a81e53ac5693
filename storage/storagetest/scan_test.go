package storagetest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/storage"
)

// testSecret has characters JSON escapes (" and \ always, < and > as HTML),
// and one outside ASCII so UTF-16 differs from Latin-1.
const testSecret = `Tr41l"p\ss<w0rd>é`

func TestScanFilesFindsEveryForm(t *testing.T) {
	filler := strings.Repeat("lorem ipsum dolor sit amet ", 40)
	b64 := func(enc *base64.Encoding, lead int) string {
		return enc.EncodeToString([]byte(strings.Repeat("x", lead) + testSecret + "tail"))
	}
	jsonEscaped, _ := json.Marshal(testSecret)
	tests := []struct {
		name     string
		content  string
		wantForm string // "" means no leak
	}{
		{"as typed", testSecret, "as typed"},
		{"JSON-escaped", string(jsonEscaped), "JSON-escaped"},
		{"JSON-escaped without HTML escaping", `"Tr41l\"p\\ss<w0rd>é"`, "JSON-escaped"},
		{"URL-encoded as a query value", "?q=" + url.QueryEscape(testSecret) + "&x=1", "URL-encoded"},
		{"URL-encoded in lower-case hex", regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(testSecret), strings.ToLower), "URL-encoded"},
		{"URL-encoded as a path", "/a/" + url.PathEscape(testSecret), "URL-encoded"},
		{"HTML-escaped", "<p>" + html.EscapeString(testSecret) + "</p>", "HTML-escaped"},
		{"HTML-escaped as a text node", "<p>" + strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(testSecret) + "</p>", "HTML-escaped"},
		{"UTF-16LE", string(utf16Of(testSecret, false)), "UTF-16LE"},
		{"UTF-16BE", string(utf16Of(testSecret, true)), "UTF-16BE"},
		{"base64 aligned", b64(base64.StdEncoding, 0), "base64"},
		{"base64 one byte in", b64(base64.StdEncoding, 1), "base64"},
		{"base64 two bytes in", b64(base64.StdEncoding, 2), "base64"},
		{"base64url", b64(base64.URLEncoding, 4), "base64"},
		{"a keystroke prefix", `value=Tr41l;`, "as typed, prefix of 5 characters"},
		{"a JSON-escaped keystroke prefix", `{"value":"Tr41l\"p\\"}`, "JSON-escaped, prefix of 8 characters"},
		{"a UTF-16 prefix", string(utf16Of("Tr41l\"", false)), "UTF-16LE, prefix of 6 characters"},
		{"three characters are not a leak", "Tr4", ""},
		{"nothing", "no secret here", ""},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := os.WriteFile(path, []byte(filler+tt.content+filler), 0o600); err != nil {
				t.Fatal(err)
			}
			leaks, err := ScanFiles([]string{path, path + "-missing"}, testSecret)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantForm == "" {
				if len(leaks) != 0 {
					t.Errorf("ScanFiles(%s) = %v, want no leaks", tt.name, leaks)
				}
				return
			}
			found := false
			for _, l := range leaks {
				if l.Where != path {
					t.Errorf("leak %v names the wrong file", l)
				}
				if strings.HasPrefix(l.Form, tt.wantForm) && l.Offset >= int64(len(filler))-8 {
					found = true
				}
				if strings.Contains(l.String(), testSecret) {
					t.Errorf("Leak.String() = %q shows the secret", l.String())
				}
			}
			if !found {
				t.Errorf("ScanFiles(%s) = %v, want a leak %q after the filler", tt.name, leaks, tt.wantForm)
			}
		})
	}
	if _, err := ScanFiles([]string{filepath.Join(dir, "nothing")}, ""); err == nil {
		t.Errorf("ScanFiles with an empty secret = nil error, want one")
	}
}

// storeEverywhere writes secret into every text a caller can hand the
// database.
func storeEverywhere(t *testing.T, db *storage.DB, secret string) {
	t.Helper()
	ctx := context.Background()
	s, err := db.CreateSession(ctx, storage.NewSession{Title: "Log in as " + secret, ProjectDir: "/home/" + secret,
		App: "shop", StartURL: "http://127.0.0.1/?p=" + secret, Locale: secret, TimeZone: secret})
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]any{"type": "type", "target": "e9", "value": secret})
	captured := bigScreen(300)
	captured.Root.Children[0].Children = append(captured.Root.Children[0].Children,
		&screen.Node{Ref: "e999", Tag: "input", Role: "textbox", Name: "Password", Value: secret, Text: secret})
	if _, err := db.AppendInteraction(ctx, storage.Interaction{SessionID: s.ID, Seq: 1, Kind: "type", Payload: payload}, captured); err != nil {
		t.Fatal(err)
	}
	if _, err := db.PutScreen(ctx, "", &screen.Screen{Title: secret, Root: &screen.Node{Ref: "e1", Name: secret}}); err != nil {
		t.Fatal(err)
	}
	content := "version: 1\ntrail: Log in\nsteps:\n  - intent: Type the password\n    actions:\n      - type: {selector: {label: Password}, text: \"" +
		strings.ReplaceAll(strings.ReplaceAll(secret, `\`, `\\`), `"`, `\"`) + "\"}\n  - intent: plain " + secret + "\n"
	if _, err := db.SaveTrail(ctx, storage.TrailInput{Slug: "log-in", Title: "Log in " + secret, App: secret,
		Content: []byte(content), SessionID: s.ID}); err != nil {
		t.Fatal(err)
	}
	run, err := db.StartRun(ctx, storage.NewRun{Args: "replay --param password=" + secret})
	if err != nil {
		t.Fatal(err)
	}
	trID, err := db.AddTrailResult(ctx, storage.TrailResult{RunID: run.ID, Slug: "log-in", Title: secret, Source: secret,
		Attempt: 1, Status: storage.TrailFailed, Error: "typed " + secret, TracePath: secret, Duration: time.Second,
		Steps: []storage.StepResult{{Index: 0, Intent: "Type " + secret, Status: storage.StepFailed, Error: secret, StoppedReason: secret}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddModelCall(ctx, storage.ModelCall{RunID: run.ID, TrailResultID: trID, Purpose: "heal", Model: "m-" + secret,
		Error: "the model echoed " + secret}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddHealingDecision(ctx, storage.HealingDecision{RunID: run.ID, Decision: "dropped", Reason: secret}); err != nil {
		t.Fatal(err)
	}
}

func TestRedactorKeepsSecretsOutOfTheFiles(t *testing.T) {
	ctx := context.Background()
	for _, redact := range []bool{false, true} {
		name := map[bool]string{false: "without a redactor", true: "with a redactor"}[redact]
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trailpin.db")
			var opts []storage.Option
			if redact {
				opts = append(opts, storage.WithRedactor(storage.SecretRedactor(map[string]string{"shop-password": testSecret})))
			}
			db, err := storage.Open(ctx, path, opts...)
			if err != nil {
				t.Fatal(err)
			}
			storeEverywhere(t, db, testSecret)
			if redact {
				got, err := db.Trail(ctx, "log-in")
				if err != nil || !strings.Contains(string(got.Content), "${secret:shop-password}") {
					t.Errorf("redacted trail content = %q, %v; want the secret's reference in it", got.Content, err)
				}
			}
			leaks, err := ScanDatabase(ctx, path, testSecret)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			// Scan again with the database closed (WAL checkpointed).
			after, err := ScanDatabase(ctx, path, testSecret)
			if err != nil {
				t.Fatal(err)
			}
			leaks = append(leaks, after...)
			if redact && len(leaks) > 0 {
				t.Errorf("the secret reached the database despite the redactor:\n%v", leaks)
			}
			if !redact {
				// The scan must see what was written: every table that
				// got the secret, and inside the compressed screen.
				for _, where := range []string{"sessions.title", "interactions.payload", "screens.data", "(decompressed)",
					"trail_versions.content", "runs.args", "trail_results.error", "step_results.intent",
					"model_calls.error", "healing_decisions.reason"} {
					if !leakAt(leaks, where) {
						t.Errorf("ScanDatabase found no leak in %s; it found:\n%v", where, leaks)
					}
				}
			}
		})
	}
}

func leakAt(leaks []Leak, where string) bool {
	for _, l := range leaks {
		if strings.Contains(l.Where, where) {
			return true
		}
	}
	return false
}

// bigScreen is a screen of about n nodes, enough for its stored form to be
// compressed.
func bigScreen(n int) *screen.Screen {
	main := &screen.Node{Ref: "e2", Tag: "main", Role: "main"}
	for i := range n {
		main.Children = append(main.Children, &screen.Node{Ref: fmt.Sprintf("e%d", i+3), Tag: "p", Role: "paragraph",
			Text: fmt.Sprintf("Product %d, in stock, ships in %d days", i, i%5+1)})
	}
	return &screen.Screen{URL: "http://127.0.0.1/products", Title: "Products",
		Root: &screen.Node{Ref: "e1", Tag: "body", Role: "document", Children: []*screen.Node{main}}}
}

// utf16Of is s in UTF-16, little- or big-endian.
func utf16Of(s string, bigEndian bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}
