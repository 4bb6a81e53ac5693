package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
)

// The values below are test data; failures never print them (they say
// which reference went wrong and compare lengths), so the tests keep the
// rule they check.
const (
	envStripe    = "sk_env_4f9a7c"
	fileStripe   = "sk_file_0b3e2d"
	filePassword = "file-pass-92x"
	envPassword  = "env-pass-71q"
)

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestEnvNames(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"secret with dash", SecretEnv("stripe-key"), "TRAILPIN_SECRET_STRIPE_KEY"},
		{"secret with dot", SecretEnv("db.password"), "TRAILPIN_SECRET_DB_PASSWORD"},
		{"secret mixed case", SecretEnv("Api_Token"), "TRAILPIN_SECRET_API_TOKEN"},
		{"user password", UserEnv("admin", "password"), "TRAILPIN_USER_ADMIN_PASSWORD"},
		{"user name with dash", UserEnv("shop-owner", "username"), "TRAILPIN_USER_SHOP_OWNER_USERNAME"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("env name = %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	cfg := Config{
		Secrets: map[string]Value{
			"stripe-key": Given(fileStripe),
			"required":   {},
		},
		Credentials: map[string]Credential{
			"admin":  {Username: Given("admin@example.com"), Password: Given(filePassword)},
			"viewer": {Username: Given("viewer@example.com")},
		},
	}
	tests := []struct {
		name    string
		env     map[string]string
		ref     string
		want    string
		source  Source
		wantErr string // substring of the error; "" for none
	}{
		{"config value", nil, "${secret:stripe-key}", fileStripe, FromConfig, ""},
		{"environment wins over config", map[string]string{"TRAILPIN_SECRET_STRIPE_KEY": envStripe}, "${secret:stripe-key}", envStripe, FromEnv, ""},
		{"empty variable counts as unset", map[string]string{"TRAILPIN_SECRET_STRIPE_KEY": ""}, "${secret:stripe-key}", fileStripe, FromConfig, ""},
		{"environment alone is enough", map[string]string{"TRAILPIN_SECRET_UNLISTED": envStripe}, "${secret:unlisted}", envStripe, FromEnv, ""},
		{"null means required", nil, "${secret:required}", "", Missing, "${secret:required} is required and not set: set TRAILPIN_SECRET_REQUIRED"},
		{"required given by environment", map[string]string{"TRAILPIN_SECRET_REQUIRED": envStripe}, "${secret:required}", envStripe, FromEnv, ""},
		{"unknown secret", nil, "${secret:other-key}", "", Missing, "set TRAILPIN_SECRET_OTHER_KEY, or give secrets.other-key in trailpin.yaml"},
		{"credential username", nil, "${user:admin.username}", "admin@example.com", FromConfig, ""},
		{"credential password", nil, "${user:admin.password}", filePassword, FromConfig, ""},
		{"credential password from environment", map[string]string{"TRAILPIN_USER_ADMIN_PASSWORD": envPassword}, "${user:admin.password}", envPassword, FromEnv, ""},
		{"credential field left out is required", nil, "${user:viewer.password}", "", Missing, "${user:viewer.password} is required and not set: set TRAILPIN_USER_VIEWER_PASSWORD"},
		{"unknown user", nil, "${user:root.password}", "", Missing, "set TRAILPIN_USER_ROOT_PASSWORD, or give credentials.root.password"},
		{"param is not a secret", nil, "${param:coupon}", "", Missing, "not a secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs, err := trail.ParseRefs(tt.ref)
			if err != nil || len(refs) != 1 {
				t.Fatalf("ParseRefs(%q) = %v, %v", tt.ref, refs, err)
			}
			r := NewResolver(cfg, mapEnv(tt.env))
			got, err := r.Lookup(refs[0])
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Lookup(%s) error = %v, want it to contain %q", tt.ref, err, tt.wantErr)
				}
				if got != "" {
					t.Errorf("Lookup(%s) returned a value (%d bytes) beside its error", tt.ref, len(got))
				}
			} else if err != nil {
				t.Fatalf("Lookup(%s) error = %v", tt.ref, err)
			}
			if got != tt.want {
				t.Errorf("Lookup(%s) returned the wrong value (%d bytes, want %d)", tt.ref, len(got), len(tt.want))
			}
			if src := r.SourceOf(refs[0]); src != tt.source {
				t.Errorf("SourceOf(%s) = %v, want %v", tt.ref, src, tt.source)
			}
		})
	}
}

func TestMissingErrorIsTyped(t *testing.T) {
	r := NewResolver(Config{Secrets: map[string]Value{"k": {}}}, nil)
	_, err := r.Secret("k")
	var me *MissingError
	if !errors.As(err, &me) || !errors.Is(err, ErrMissing) {
		t.Fatalf("Secret(k) error = %v, want a *MissingError wrapping ErrMissing", err)
	}
	if me.Env != "TRAILPIN_SECRET_K" || !me.Required {
		t.Errorf("MissingError = %+v, want Env TRAILPIN_SECRET_K, Required", *me)
	}
}

func TestCheckNamesEveryMissingVariable(t *testing.T) {
	r := NewResolver(Config{Secrets: map[string]Value{"given": Given(fileStripe)}}, nil)
	refs := []trail.Ref{
		{Kind: trail.RefSecret, Name: "given"},
		{Kind: trail.RefSecret, Name: "api-key"},
		{Kind: trail.RefParam, Name: "coupon"},
		{Kind: trail.RefUser, Name: "admin.password"},
	}
	err := r.Check(refs)
	if err == nil {
		t.Fatal("Check = nil, want the two missing references")
	}
	for _, want := range []string{"TRAILPIN_SECRET_API_KEY", "TRAILPIN_USER_ADMIN_PASSWORD"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check error = %q, want it to name %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "coupon") || strings.Contains(err.Error(), "given") {
		t.Errorf("Check error = %q, want only the missing secrets", err)
	}
	if err := r.Check(refs[:1]); err != nil {
		t.Errorf("Check(resolvable) = %v, want nil", err)
	}
}

func TestValues(t *testing.T) {
	cfg := Config{
		Secrets:     map[string]Value{"a": Given(fileStripe), "b": {}},
		Credentials: map[string]Credential{"admin": {Username: Given("admin@example.com"), Password: Given(filePassword)}},
	}
	env := map[string]string{"TRAILPIN_SECRET_B": envStripe, "TRAILPIN_SECRET_EXTRA": envPassword}
	r := NewResolver(cfg, mapEnv(env))
	got := r.Values(trail.Ref{Kind: trail.RefSecret, Name: "extra"}, trail.Ref{Kind: trail.RefParam, Name: "p"})
	want := map[string]bool{fileStripe: true, envStripe: true, filePassword: true, envPassword: true}
	if len(got) != len(want) {
		t.Fatalf("Values returned %d values, want %d (secrets a, b, extra and admin's password; no username)", len(got), len(want))
	}
	for i, v := range got {
		if !want[v] {
			t.Errorf("Values()[%d] is not one of the secret values (%d bytes)", i, len(v))
		}
	}
}

// TestValuesNeverPrint formats configs and errors every way a log line
// might, and looks for the values in the text.
func TestValuesNeverPrint(t *testing.T) {
	cfg := Config{
		Secrets:     map[string]Value{"stripe-key": Given(fileStripe), "required": {}},
		Credentials: map[string]Credential{"admin": {Username: Given("admin@example.com"), Password: Given(filePassword)}},
	}
	r := NewResolver(cfg, mapEnv(map[string]string{"TRAILPIN_SECRET_ENV": envStripe}))
	_, missing := r.Secret("required")
	var texts []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T"} {
		texts = append(texts, fmt.Sprintf(verb, cfg), fmt.Sprintf(verb, r), fmt.Sprintf(verb, cfg.Secrets["stripe-key"]))
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	texts = append(texts, string(js), missing.Error(), fmt.Sprint(r.Check([]trail.Ref{{Kind: trail.RefSecret, Name: "required"}})))
	for i, text := range texts {
		for _, secret := range []string{fileStripe, filePassword, envStripe, fmt.Sprintf("%x", fileStripe)} {
			if strings.Contains(text, secret) {
				t.Errorf("text %d shows a secret value (%d bytes)", i, len(secret))
			}
		}
	}
	if got := fmt.Sprint(cfg.Secrets["stripe-key"], cfg.Secrets["required"]); got != "<set> <missing>" {
		t.Errorf("fmt.Sprint(values) = %q, want %q", got, "<set> <missing>")
	}
}

// TestValueInsideAnotherStruct prints a Config held in an unexported field,
// where fmt cannot call Value's methods.
func TestValueInsideAnotherStruct(t *testing.T) {
	type holder struct{ cfg Config }
	h := holder{Config{Secrets: map[string]Value{"k": Given(fileStripe)}}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%x"} {
		if text := fmt.Sprintf(verb, h); strings.Contains(text, fileStripe) || strings.Contains(text, fmt.Sprintf("%x", fileStripe)) {
			t.Errorf("fmt.Sprintf(%q, holder) shows the secret value", verb)
		}
	}
}

// TestKnownListsEverySecretTheProcessCouldFill: the config's secrets and
// passwords (a file value a variable shadows too), and every secret or
// password variable of the environment, named or not; never a username or
// another variable.
func TestKnownListsEverySecretTheProcessCouldFill(t *testing.T) {
	cfg := Config{
		Secrets: map[string]Value{"stripe-key": Given(fileStripe), "missing": {}},
		Credentials: map[string]Credential{
			"admin": {Username: Given("admin@example.com"), Password: Given(filePassword)},
		},
	}
	env := map[string]string{
		"TRAILPIN_SECRET_STRIPE_KEY":     envStripe,
		"TRAILPIN_SECRET_PROD_DB":        "prod-db-value-1",
		"TRAILPIN_USER_OPS_PASSWORD":     envPassword,
		"TRAILPIN_USER_OPS_USERNAME":     "ops@example.com",
		"TRAILPIN_SECRET_EMPTY":          "",
		"TRAILPIN_MODEL_APIKEYENV":       "OPENAI_API_KEY",
		"HOME":                           "/home/ana",
		"TRAILPIN_SECRET_PROD_DB_MIRROR": "prod-db-value-1",
	}
	var environ []string
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	type pair struct{ ref, value string }
	var got []pair
	for _, k := range NewResolver(cfg, mapEnv(env)).Known(environ) {
		got = append(got, pair{k.Ref.String(), k.Value})
	}
	want := []pair{
		{"${secret:stripe-key}", envStripe},
		{"${secret:stripe-key}", fileStripe}, // the file's value, which its variable shadows
		{"${user:admin.password}", filePassword},
		{"${secret:prod_db}", "prod-db-value-1"},
		{"${user:ops.password}", envPassword},
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("Known lacks %s (a value of %d bytes)", w.ref, len(w.value))
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("Known has %s (%d bytes), which is no secret the process could fill in, or a value twice", g.ref, len(g.value))
		}
	}
}
