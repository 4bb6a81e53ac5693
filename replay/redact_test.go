package replay

import (
	"testing"

	"github.com/trailpin/trailpin/recorder"
)

func TestSecretRedactor(t *testing.T) {
	tr, err := recorder.LoadTrail("a.trail.yaml", []byte(`version: 1
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
	lookup := func(ref recorder.Ref) (string, error) { return "hunter22", nil }
	r := SecretRedactor([]*recorder.Trail{tr}, Options{Lookup: lookup, Params: map[string]string{"code": "12345"}})
	if r == nil {
		t.Fatal("no redactor for a trail with a secret")
	}
	if got := r("typed hunter22 and 12345"); got != "typed "+redactedText+" and 12345" {
		t.Errorf("redacted %q: the secret must go, the param stay", got)
	}
	if r := SecretRedactor([]*recorder.Trail{tr}, Options{Lookup: EnvLookup(func(string) string { return "" }),
		Params: map[string]string{"code": "1"}}); r != nil {
		t.Errorf("a redactor with no secret value to hide")
	}
}
