package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/redact"
)

// TestSecrets: the values to hide are the secrets a trail refers to that the
// options can provide, never its params.
func TestSecrets(t *testing.T) {
	tr, err := trail.LoadTrail("a.trail.yaml", []byte(`version: 1
trail: Sign in
app: shop
start: /login
params:
  code: '000'
steps:
  - intent: Sign in
    actions:
      - type: {selector: {role: textbox, name: Password}, text: '${secret:pw}'}
      - type: {selector: {role: textbox, name: Code}, text: '${param:code}'}
`))
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(ref trail.Ref) (string, error) { return "hunter22", nil }
	r := redact.New(Secrets([]*trail.Trail{tr}, Options{Lookup: lookup, Params: map[string]string{"code": "12345"}}), SecretPlaceholder)
	if r == nil {
		t.Fatal("no redactor for a trail with a secret")
	}
	if got := r.String("typed hunter22 and 12345"); got != "typed [secret:pw] and 12345" {
		t.Errorf("redacted %q: the secret must go, the param stay", got)
	}
	if s := Secrets([]*trail.Trail{tr}, Options{Lookup: EnvLookup(func(string) string { return "" }),
		Params: map[string]string{"code": "1"}}); len(s) != 0 {
		t.Errorf("Secrets with no value to provide = %v, want none", s)
	}
}

// shortSecretPage has texts that contain the letter x, the value of the
// trail's short secret, which must still match as the page shows them.
const shortSecretPage = `<!doctype html><html lang="en"><title>Boxes</title>
<p><label>Code <input id="code"></label></p>
<p><label><input type="checkbox"> Checkbox one</label></p>
<p><label><input type="checkbox"> Checkbox two</label></p>
<p id="done"></p>
<script>
for (const c of document.querySelectorAll('input[type=checkbox]'))
  c.addEventListener('change', () => { document.getElementById('done').textContent = 'Next box ticked'; });
</script>`

// TestReplayShortSecretMatchesThePage: a secret of one character ("x")
// does not hide the page texts that contain it from matching; the trail
// passes, and its result says the value is too short to redact inside text.
func TestReplayShortSecretMatchesThePage(t *testing.T) {
	t.Parallel()
	srv := servePage(t, shortSecretPage)
	tr := inlineTrail(t, `version: 1
trail: Boxes
app: fixture
start: /
steps:
  - intent: Type the code and tick the second box
    actions:
      - type: {selector: {role: textbox, name: Code}, text: '${secret:code}'}
      - check: {selector: {role: checkbox, name: Checkbox two}}
      - assertVisible: {selector: {id: done, text: Next box ticked}}
`)
	lookup := func(ref trail.Ref) (string, error) { return "x", nil }
	res := replayOn(t, tr, srv.URL, Options{Lookup: lookup, ActionTimeout: 5 * time.Second})
	if res.Status != StatusPassed {
		t.Fatalf("a one-character secret failed a healthy trail: %s", explain(res))
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "${secret:code}") || !strings.Contains(res.Notes[0], "shorter than 4") {
		t.Errorf("Notes = %q, want one saying secret:code is too short to redact inside text", res.Notes)
	}
}
