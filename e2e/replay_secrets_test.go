package e2e

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
)

// replaySecret has a character of each kind an output escapes: @, a space,
// + and / (URL-encoded), é (outside ASCII: %C3%A9, \u00e9, &#233;) and &
// (&amp; in HTML, \u0026 in Go's JSON).
const replaySecret = `p@ss w+rd/é&co`

// notesPage is an app that leaks what is typed into its note the ways a
// careless app does: it logs it to the console as typed and as HTML, and
// sends it in the query string of requests that fail.
const notesPage = `<!doctype html><html lang="en"><title>Notes</title>
<p><label>Note <input id="note"></label> <button onclick="send()">Send</button></p>
<p id="out"></p>
<script>
function send() {
  const v = document.getElementById('note').value;
  console.log('the note is ' + v);
  const d = document.createElement('div');
  d.textContent = v;
  console.log('as HTML: ' + d.innerHTML);
  fetch('/api/save?note=' + encodeURIComponent(v))
    .then(() => fetch('/api/save?' + new URLSearchParams({note: v})))
    .then(r => { document.getElementById('out').textContent = 'sent ' + r.status; });
}
</script>`

const notesTrail = `version: 1
trail: Send a secret note
app: notes
start: /
steps:
  - intent: Type the note and send it
    actions:
      - type: {selector: {role: textbox, name: Note}, text: '${secret:note}'}
      - tap: {selector: {role: button, name: Send}}
      - assertVisible: {selector: {id: out, text: sent 500}}
  - intent: The note was saved
    actions:
      - assertValue: {selector: {role: textbox, name: Note}, value: saved}
`

// secretReplayOutputs replays the notes trail with binary and returns every
// output of the run as leak sources: each file under trailpin-results/,
// the JUnit file, the status lines, standard error and the run database.
func secretReplayOutputs(t *testing.T, binary, appURL string) []LeakSource {
	t.Helper()
	dir := TempDir(t)
	trail := filepath.Join(dir, "trails", "send-a-secret-note.trail.yaml")
	cfg := filepath.Join(dir, "trailpin.yaml")
	for path, content := range map[string]string{
		trail: notesTrail,
		cfg:   "apps:\n  notes:\n    baseURL: " + appURL + "\nreplay:\n  actionTimeout: 3s\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	results, junit, db := filepath.Join(dir, "trailpin-results"), filepath.Join(dir, "junit.xml"), filepath.Join(dir, "runs.db")
	env := append(replayEnv(t, false), "TRAILPIN_SECRET_NOTE="+replaySecret)
	run := RunHostBinary(t, binary, env, nil, "replay", "--config", cfg, "--results", results, "--junit", junit,
		"--format", "status", "--db", db, trail)
	if run.ExitCode != 1 {
		t.Fatalf("%s replay exited %d, want 1 (the trail fails):\n%s\n%s", filepath.Base(binary), run.ExitCode, run.Stdout, run.Stderr)
	}
	if !strings.Contains(string(run.Stdout), "RUN_COMPLETED|failed|") {
		t.Fatalf("no RUN_COMPLETED|failed line in the status lines:\n%s", run.Stdout)
	}
	sources := []LeakSource{LeakFile(junit), LeakBytes("status lines", run.Stdout), LeakBytes("standard error", run.Stderr)}
	sources = append(sources, LeakDatabase(db)...)
	n := 0
	err := filepath.WalkDir(results, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			sources = append(sources, LeakFile(path))
			n++
		}
		return err
	})
	if err != nil || n == 0 {
		t.Fatalf("reading %s: %v (%d files); want the trace page of the failed trail", results, err, n)
	}
	return sources
}

// TestReplaySecretLeaksNowhere types a secret into a trail that fails; the
// app logs it (as typed and as HTML) and sends it in the query strings of
// failing requests. Nothing host replay writes holds it in any form. The
// same run with a host built without redaction shows the scan is real: it
// finds the secret in every output, as typed, URL-encoded and HTML-escaped.
func TestReplaySecretLeaksNowhere(t *testing.T) {
	browsertest.Long(t)
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, notesPage)
	})
	mux.HandleFunc("GET /api/save", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "the notes store is down", http.StatusInternalServerError)
	})
	app := httptest.NewServer(mux)
	t.Cleanup(app.Close)

	t.Run("redacted", func(t *testing.T) {
		sources := secretReplayOutputs(t, HostPath(t), app.URL)
		CheckNoSecretLeaks(t, replaySecret, sources...)
		// The placeholder stands where the value was: in the failure's
		// snapshot, the console lines and the failed requests' URLs.
		for _, src := range sources {
			if filepath.Base(src.Path) != "trace.md" {
				continue
			}
			page, err := os.ReadFile(src.Path)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(page), "[secret:note]"); n < 4 {
				t.Errorf("the trace page shows [secret:note] %d times, want it for the field, both console lines and both requests:\n%s", n, page)
			}
			return
		}
		t.Error("no trace.md among the outputs")
	})

	t.Run("unredacted build", func(t *testing.T) {
		sources := secretReplayOutputs(t, HostPathTagged(t, "trailpin_noredact"), app.URL)
		leaks, err := FindSecretLeaks(replaySecret, sources...)
		if err != nil {
			t.Fatal(err)
		}
		forms := map[string]bool{}
		outputs := map[string]bool{}
		for _, l := range leaks {
			if !strings.Contains(l.Form, "prefix") {
				forms[strings.SplitN(l.Form, " (", 2)[0]] = true
			}
			outputs[outputKind(l.Where)] = true
		}
		t.Logf("the unredacted run leaks the secret in %d places: forms %v, outputs %v", len(leaks), keys(forms), keys(outputs))
		for _, want := range []string{"as typed", "URL-encoded", "HTML-escaped"} {
			if !forms[want] {
				t.Errorf("the scan of the unredacted run found no %s form of the secret; found %v in %d places", want, keys(forms), len(leaks))
			}
		}
		for _, want := range []string{"trace", "junit", "status lines", "standard error", "database"} {
			if !outputs[want] {
				t.Errorf("the scan of the unredacted run found nothing in the %s; found the secret in %v", want, keys(outputs))
			}
		}
	})
}

// outputKind names which output a leak's place belongs to.
func outputKind(where string) string {
	switch {
	case strings.Contains(where, "trailpin-results"):
		return "trace"
	case strings.HasSuffix(where, "junit.xml"):
		return "junit"
	case strings.Contains(where, "runs.db"), strings.Contains(where, " row "):
		return "database"
	}
	return where
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
