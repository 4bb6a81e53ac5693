package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
	"github.com/trailpin/trailpin/storage/redact"
)

func TestEnvVariable(t *testing.T) {
	for ref, want := range map[trail.Ref]string{
		{Kind: trail.RefSecret, Name: "demo-password"}: "TRAILPIN_SECRET_DEMO_PASSWORD",
		{Kind: trail.RefSecret, Name: "stripe.key"}:    "TRAILPIN_SECRET_STRIPE_KEY",
		{Kind: trail.RefUser, Name: "admin.password"}:  "TRAILPIN_USER_ADMIN_PASSWORD",
		{Kind: trail.RefParam, Name: "coupon"}:         "",
	} {
		if got := EnvVariable(ref); got != want {
			t.Errorf("EnvVariable(%s) = %q, want %q", ref, got, want)
		}
	}
}

func TestEnvLookup(t *testing.T) {
	env := map[string]string{"TRAILPIN_SECRET_DEMO_PASSWORD": "hunter22"}
	lookup := EnvLookup(func(k string) string { return env[k] })
	if v, err := lookup(trail.Ref{Kind: trail.RefSecret, Name: "demo-password"}); err != nil || v != "hunter22" {
		t.Errorf("lookup(secret:demo-password) = %q, %v", v, err)
	}
	_, err := lookup(trail.Ref{Kind: trail.RefUser, Name: "admin.password"})
	var missing *MissingValueError
	if !errors.As(err, &missing) || missing.Variable != "TRAILPIN_USER_ADMIN_PASSWORD" {
		t.Errorf("lookup(user:admin.password) error = %v, want a MissingValueError naming TRAILPIN_USER_ADMIN_PASSWORD", err)
	}
}

func TestValues(t *testing.T) {
	tr := &trail.Trail{Params: map[string]string{"coupon": "SUMMER", "who": "ada"},
		Steps: []trail.Step{{Actions: []trail.Action{
			trail.TypeText{Text: "${secret:pw}"},
			trail.TypeText{Text: "${param:coupon}"},
		}}}}
	v := newValues(tr, map[string]string{"coupon": "WINTER"}, func(r trail.Ref) (string, error) {
		if r.Name == "pw" {
			return "s3cret-value", nil
		}
		return "", &MissingValueError{Ref: r, Variable: EnvVariable(r)}
	})
	if got, _ := v.expand("${param:coupon} for ${param:who}"); got != "WINTER for ada" {
		t.Errorf("expand = %q, want the override and the default", got)
	}
	if got := v.public("${param:who}: ${secret:pw}"); got != "ada: ${secret:pw}" {
		t.Errorf("public = %q, want the secret left as its reference", got)
	}
	secrets, err := v.check(tr)
	if err != nil || len(secrets) != 1 || secrets[0].Value != "s3cret-value" || secrets[0].Name != "secret:pw" {
		t.Errorf("check = %q, %v", secrets, err)
	}
}

func TestRedactResult(t *testing.T) {
	res := &TrailResult{Error: "typed s3cret-value!", Steps: []StepResult{{
		Changes: []string{"+ - paragraph: s3cret-value"},
		Actions: []ActionResult{{Reads: []string{"value \"s3cret-value\""}, Summary: "1234"}},
	}}, Log: []LogEntry{{Text: "console says s3cret-value", URL: "http://x/?p=s3cret-value"}},
		Failure: &FailureScreen{Snapshot: "- text: s3cret-value", Closest: []diagnose.CloseNode{{Why: "s3cret-value"}}}}
	redactResult(res, redact.New([]redact.Secret{{Name: "secret:pw", Value: "s3cret-value"}, {Name: "secret:pin", Value: "1234"},
		{Name: "secret:ab", Value: "ab"}}, SecretPlaceholder))
	all := strings.Join([]string{res.Error, res.Steps[0].Changes[0], res.Steps[0].Actions[0].Reads[0],
		res.Log[0].Text, res.Log[0].URL, res.Failure.Snapshot, res.Failure.Closest[0].Why}, "|")
	if strings.Contains(all, "s3cret") {
		t.Errorf("redacted result still holds the secret: %s", all)
	}
	if res.Steps[0].Actions[0].Summary != "[secret:pin]" {
		t.Errorf("a short secret that is the whole string: %q, want it redacted", res.Steps[0].Actions[0].Summary)
	}
	if !strings.Contains(res.Error, "typed [secret:pw]") {
		t.Errorf("Error = %q", res.Error)
	}
}

// TestMissingValueFromResolver: a Lookup's own missing error (the secrets
// resolver's) keeps its message and stays reachable with errors.Is.
func TestMissingValueFromResolver(t *testing.T) {
	cause := errors.New("${secret:pw} has no value: set TRAILPIN_SECRET_PW, or give secrets.pw in trailpin.yaml")
	tr := &trail.Trail{Steps: []trail.Step{{Actions: []trail.Action{trail.TypeText{Text: "${secret:pw}"}}}}}
	v := newValues(tr, nil, func(trail.Ref) (string, error) { return "", cause })
	_, err := v.ref(trail.Ref{Kind: trail.RefSecret, Name: "pw"})
	var missing *MissingValueError
	if !errors.As(err, &missing) || missing.Variable != "TRAILPIN_SECRET_PW" || !errors.Is(err, cause) || err.Error() != cause.Error() {
		t.Errorf("ref = %v, want a MissingValueError naming TRAILPIN_SECRET_PW that wraps the lookup's error", err)
	}
}
