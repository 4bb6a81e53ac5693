package replay

import (
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/redact"
)

// prodDBValue is what the environment gives a secret no trail names.
const prodDBValue = "prod-db-Sup3r-S3cret-99"

// anyLookup resolves every secret and user reference, as an environment
// that holds many secrets does.
func anyLookup(r trail.Ref) (string, error) {
	if r.Name == "prod-db" {
		return prodDBValue, nil
	}
	return "value-of-" + r.Name, nil
}

// TestValuesFillInOnlyWhatTheTrailNames: a run fills in the secrets its
// trail names (its actions, end states and goals), and refuses any other
// whatever the environment could give.
func TestValuesFillInOnlyWhatTheTrailNames(t *testing.T) {
	tr := &trail.Trail{Steps: []trail.Step{
		{Actions: []trail.Action{trail.TypeText{Text: "${secret:note}"}}},
		{Intent: "sign in as ${user:admin.username} with ${user:admin.password}", Act: "sign in"},
	}}
	v := newValues(tr, nil, anyLookup)
	for _, ok := range []string{"${secret:note}", "${user:admin.password}", "${user:admin.username}"} {
		if got, err := v.expand(ok); err != nil || !strings.HasPrefix(got, "value-of-") {
			t.Errorf("expand(%s) = %q, %v; want its value (the trail names it)", ok, got, err)
		}
	}
	got, err := v.expand("x${secret:prod-db}")
	var unnamed *UnnamedRefError
	if !errors.As(err, &unnamed) || got != "" || !strings.Contains(err.Error(), "${secret:prod-db} is not named by this trail") {
		t.Errorf("expand(${secret:prod-db}) = %q, %v; want an UnnamedRefError and no value", got, err)
	}
	if err != nil && strings.Contains(err.Error(), prodDBValue) {
		t.Error("the error holds the value")
	}
}

// TestNoSecretInAURL: params go into a URL, secrets never, in any URL a
// trail has; a trail with one fails before it starts, naming its line.
func TestNoSecretInAURL(t *testing.T) {
	tr := &trail.Trail{Params: map[string]string{"q": "shoes"}, Steps: []trail.Step{
		{Actions: []trail.Action{trail.TypeText{Text: "${secret:note}"}}},
	}}
	v := newValues(tr, nil, anyLookup)
	if got, err := v.url("/search?q=${param:q}", "navigate"); err != nil || got != "/search?q=shoes" {
		t.Errorf("url(param) = %q, %v; want the param filled in", got, err)
	}
	got, err := v.url("/login?token=${secret:note}", "navigate")
	var inURL *SecretInURLError
	if !errors.As(err, &inURL) || got != "" || !strings.Contains(err.Error(), "${secret:note} in navigate: a secret is never put into a URL") {
		t.Errorf("url(secret) = %q, %v; want a SecretInURLError and nothing filled in", got, err)
	}
	// Trail files refuse a secret outside typed text when they load; a
	// trail made otherwise (an agent's flow, a test) is checked before it
	// starts.
	tap := trail.Tap{Origin: trail.Origin{Line: 7}}
	for name, tr := range map[string]*trail.Trail{
		"start":     {Start: "/login?pw=${secret:note}", Steps: []trail.Step{{Actions: []trail.Action{tap}}}},
		"navigate":  {Start: "/", Steps: []trail.Step{{Actions: []trail.Action{trail.Navigate{Origin: trail.Origin{Line: 7}, To: "/x?pw=${user:admin.password}"}}}}},
		"switchTab": {Start: "/", Steps: []trail.Step{{Actions: []trail.Action{trail.SwitchTab{Origin: trail.Origin{Line: 7}, URL: "/x?pw=${secret:note}"}}}}},
		"assertUrl": {Start: "/", Steps: []trail.Step{{Actions: []trail.Action{trail.AssertURL{Origin: trail.Origin{Line: 7}, URL: "/x?pw=${secret:note}"}}}}},
		"end state": {Start: "/", Steps: []trail.Step{{Actions: []trail.Action{tap}, End: &trail.End{Line: 7, URL: "/x?pw=${secret:note}"}}}},
	} {
		r := newTrailRun(nil, tr, Options{BaseURL: "http://127.0.0.1:1", Lookup: anyLookup})
		err := r.prepare()
		var se *stepError
		if !errors.As(err, &se) || se.Class != ClassMissingTestData || !strings.Contains(se.Msg, "a secret is never put into a URL") {
			t.Errorf("%s: prepare = %v; want missing-test-data saying a secret never goes into a URL", name, err)
		}
		if name != "start" && (se == nil || se.Line != 7) {
			t.Errorf("%s: the failure does not name the line", name)
		}
	}
}

// TestEveryKnownSecretIsRedacted: a run's redactor, and the secrets the
// host's outputs hide, hold every secret the process could fill in, not
// only those the trail names; a secret named only in a goal is among
// them.
func TestEveryKnownSecretIsRedacted(t *testing.T) {
	tr := &trail.Trail{Steps: []trail.Step{{Intent: "sign in with ${secret:pw}", Act: "sign in with ${secret:pw}"}}}
	known := []redact.Secret{{Name: "secret:prod_db", Value: prodDBValue}}
	opts := Options{BaseURL: "http://127.0.0.1:1", Lookup: anyLookup, Known: known}
	r := newTrailRun(nil, tr, opts)
	if err := r.prepare(); err != nil {
		t.Fatal(err)
	}
	if got := r.redactor.String("echo " + prodDBValue + " and value-of-pw"); got != "echo [secret:prod_db] and [secret:pw]" {
		t.Errorf("the run's redactor gives %q; want both values hidden", got)
	}
	if got := agentRedactor(r.secrets).String(prodDBValue); got != "${secret:prod_db}" {
		t.Errorf("the agent's redactor gives %q; want the reference", got)
	}
	names := map[string]bool{}
	for _, s := range Secrets([]*trail.Trail{tr}, opts) {
		names[s.Name] = true
	}
	if !names["secret:prod_db"] || !names["secret:pw"] {
		t.Errorf("Secrets = %v; want the known secret and the goal's", names)
	}
}

// TestAgentPageTypesOnlyTheStepsSecrets: replay's page for the agent
// refuses a reference the step does not name before it touches the page,
// though the trail names it elsewhere and the run could fill it in.
func TestAgentPageTypesOnlyTheStepsSecrets(t *testing.T) {
	tr := &trail.Trail{Steps: []trail.Step{
		{Intent: "type the note ${secret:note}", Act: "type the note ${secret:note}"},
		{Actions: []trail.Action{trail.TypeText{Text: "${secret:pin}"}}},
	}}
	r := newTrailRun(nil, tr, Options{BaseURL: "http://127.0.0.1:1", Lookup: anyLookup})
	if err := r.prepare(); err != nil {
		t.Fatal(err)
	}
	p := newAgentPage(r, 0)
	for _, text := range []string{"${secret:pin}", "${secret:prod-db}", "a ${user:admin.password}"} {
		if _, err := p.Type(t.Context(), "e1", text); err == nil || !strings.Contains(err.Error(), "was not offered to this step, so nothing was typed") {
			t.Errorf("Type(%q) = %v; want it refused before the page is touched", text, err)
		}
		if _, err := p.Select(t.Context(), "e1", text); err == nil || !strings.Contains(err.Error(), "was not offered") {
			t.Errorf("Select(%q) = %v; want it refused", text, err)
		}
	}
	if err := p.offers("${secret:note} and ${param:x}"); err != nil {
		t.Errorf("offers(the step's own secret) = %v, want nil", err)
	}
}
