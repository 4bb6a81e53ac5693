package secrets

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
)

// Environment variable prefixes. A secret's variable is SecretEnvPrefix plus
// its name upper-cased with '-' and '.' as '_'; a credential field's is
// UserEnvPrefix, the user, '_' and the field, alike.
const (
	SecretEnvPrefix = "TRAILPIN_SECRET_"
	UserEnvPrefix   = "TRAILPIN_USER_"
)

// ErrMissing is wrapped by every *MissingError: a reference whose value is
// neither in the environment nor in the project config.
var ErrMissing = errors.New("missing secret")

// A Value is a secret as the project config gives it: a value, or none —
// written as null, which means the value is required from the environment.
// Its zero value is "none". It never prints its value: fmt, JSON and text
// marshalling show <set> or <missing>, and the value sits behind a pointer
// so that even a struct printed field by field (where fmt cannot call
// Format on an unexported field) shows an address, not the text.
type Value struct {
	value *string
}

// Given is a value written in the project config.
func Given(v string) Value { return Value{value: &v} }

// IsGiven reports whether the config holds a value.
func (v Value) IsGiven() bool { return v.value != nil }

// String shows whether a value is there, never the value.
func (v Value) String() string {
	if v.IsGiven() {
		return "<set>"
	}
	return "<missing>"
}

// Format keeps every fmt verb (%v, %#v, %d, %x, …) from printing the
// value: without it, verbs other than %v and %s would print the fields.
func (v Value) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, "secrets.Value("+v.String()+")")
		return
	}
	io.WriteString(f, v.String())
}

// MarshalText keeps encoders from writing the value.
func (v Value) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// A Credential is a named login of the project config: ${user:NAME.username}
// and ${user:NAME.password}. A field left out or null must come from the
// environment when a trail uses it.
type Credential struct {
	Username, Password Value
}

// Config is what the project config says about secrets.
type Config struct {
	// Secrets maps a name to its value; a zero Value (null in YAML) means
	// the name is required from the environment.
	Secrets map[string]Value
	// Credentials maps a user name (admin) to its login.
	Credentials map[string]Credential
}

// SecretEnv is the environment variable of ${secret:name}:
// "stripe-key" → TRAILPIN_SECRET_STRIPE_KEY.
func SecretEnv(name string) string { return SecretEnvPrefix + envWord(name) }

// UserEnv is the environment variable of ${user:user.field}:
// ("admin", "password") → TRAILPIN_USER_ADMIN_PASSWORD.
func UserEnv(user, field string) string {
	return UserEnvPrefix + envWord(user) + "_" + envWord(field)
}

func envWord(s string) string {
	return strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(s))
}

// A MissingError is a reference with no value. It names the variable to
// set, which is what a CI log needs to say.
type MissingError struct {
	Ref trail.Ref
	// Env is the environment variable that would give the value.
	Env string
	// Required is true when the project config lists the name as null: the
	// value is expected from the environment only.
	Required bool
}

func (e *MissingError) Error() string {
	if e.Required {
		return fmt.Sprintf("%s is required and not set: set %s", e.Ref, e.Env)
	}
	where := "secrets." + e.Ref.Name
	if e.Ref.Kind == trail.RefUser {
		where = "credentials." + e.Ref.Name
	}
	return fmt.Sprintf("%s has no value: set %s, or give %s in trailpin.yaml", e.Ref, e.Env, where)
}

func (e *MissingError) Unwrap() error { return ErrMissing }

// A Resolver looks references up in the environment, then the config.
type Resolver struct {
	cfg    Config
	getenv func(string) string
}

// NewResolver returns a resolver over cfg that reads variables with getenv
// (os.Getenv in the program; nil reads none).
func NewResolver(cfg Config, getenv func(string) string) *Resolver {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &Resolver{cfg: cfg, getenv: getenv}
}

// Source says where a reference's value comes from.
type Source int

const (
	// Missing: no value anywhere.
	Missing Source = iota
	// FromEnv: the environment variable is set.
	FromEnv
	// FromConfig: the project config holds the value.
	FromConfig
)

func (s Source) String() string {
	switch s {
	case FromEnv:
		return "<set> (environment)"
	case FromConfig:
		return "<set> (trailpin.yaml)"
	}
	return "<missing>"
}

// Lookup returns the value of a ${secret:…} or ${user:…} reference. It has
// the signature trail.ExpandRefs takes; a ${param:…} is not a secret and
// is an error here (the caller expands params first, or with its own
// lookup).
func (r *Resolver) Lookup(ref trail.Ref) (string, error) {
	v, _, err := r.resolve(ref)
	return v, err
}

// SourceOf says where ref's value would come from, without returning it:
// for `host project show` and the popup's list of secrets a recording
// needs.
func (r *Resolver) SourceOf(ref trail.Ref) Source {
	_, src, _ := r.resolve(ref)
	return src
}

// Secret is Lookup of ${secret:name}.
func (r *Resolver) Secret(name string) (string, error) {
	return r.Lookup(trail.Ref{Kind: trail.RefSecret, Name: name})
}

// User is Lookup of ${user:user.field}.
func (r *Resolver) User(user, field string) (string, error) {
	return r.Lookup(trail.Ref{Kind: trail.RefUser, Name: user + "." + field})
}

func (r *Resolver) resolve(ref trail.Ref) (string, Source, error) {
	var env string
	var cfg Value
	var listed bool
	switch ref.Kind {
	case trail.RefSecret:
		env = SecretEnv(ref.Name)
		cfg, listed = r.cfg.Secrets[ref.Name]
	case trail.RefUser:
		user, field, ok := strings.Cut(ref.Name, ".")
		if !ok || !slices.Contains(trail.UserFields, field) {
			return "", Missing, fmt.Errorf("%s: a user reference is ${user:NAME.username} or ${user:NAME.password}", ref)
		}
		env = UserEnv(user, field)
		var c Credential
		c, listed = r.cfg.Credentials[user]
		if field == "username" {
			cfg = c.Username
		} else {
			cfg = c.Password
		}
	default:
		return "", Missing, fmt.Errorf("%s is not a secret or credential reference", ref)
	}
	// An empty variable counts as unset: CI systems expand a secret that
	// was never defined to "", and typing "" is never what a trail meant.
	if v := r.getenv(env); v != "" {
		return v, FromEnv, nil
	}
	if cfg.IsGiven() {
		return *cfg.value, FromConfig, nil
	}
	return "", Missing, &MissingError{Ref: ref, Env: env, Required: listed}
}

// Check returns an error for every secret or credential reference in refs
// that has no value (params are skipped), joined, so a run can stop before
// it starts and name every variable to set. Nil when all resolve.
func (r *Resolver) Check(refs []trail.Ref) error {
	var errs []error
	for _, ref := range refs {
		if ref.Kind == trail.RefParam {
			continue
		}
		if _, _, err := r.resolve(ref); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Values returns the values of every secret and credential password the
// config lists, and of refs, that resolve: what a redactor must hide and
// what trail.CheckNoSecrets looks for. Usernames are not secret and are
// left out. The order is stable; the result must never be printed.
func (r *Resolver) Values(refs ...trail.Ref) []string {
	all := slices.Clone(refs)
	for name := range r.cfg.Secrets {
		all = append(all, trail.Ref{Kind: trail.RefSecret, Name: name})
	}
	for user := range r.cfg.Credentials {
		all = append(all, trail.Ref{Kind: trail.RefUser, Name: user + ".password"})
	}
	var values []string
	for _, ref := range all {
		if !ref.IsSecret() {
			continue
		}
		if v, _, err := r.resolve(ref); err == nil && !slices.Contains(values, v) {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	return values
}

// A Known is a secret value this process could fill in, with the
// reference it is hidden behind. It must never be printed.
type Known struct {
	Ref   trail.Ref
	Value string
}

// Known lists every secret value this process could fill in, for the
// redactors of everything it writes and sends: each secret and credential
// password the config lists that has a value, and every TRAILPIN_SECRET_*
// and TRAILPIN_USER_*_PASSWORD variable of environ ("NAME=value" entries,
// as os.Environ gives them), whether or not the config or any trail names
// it. A variable the config names is known by the config's name; another
// by its own, lower-cased: TRAILPIN_SECRET_PROD_DB is ${secret:prod_db}.
// Each value is listed once, in a stable order.
func (r *Resolver) Known(environ []string) []Known {
	var out []Known
	add := func(ref trail.Ref, v string) {
		if v != "" && !slices.ContainsFunc(out, func(k Known) bool { return k.Value == v }) {
			out = append(out, Known{Ref: ref, Value: v})
		}
	}
	named := map[string]trail.Ref{}
	for _, name := range sortedKeys(r.cfg.Secrets) {
		ref := trail.Ref{Kind: trail.RefSecret, Name: name}
		named[SecretEnv(name)] = ref
		v, _, _ := r.resolve(ref)
		add(ref, v)
		if c := r.cfg.Secrets[name]; c.IsGiven() {
			add(ref, *c.value) // the file's value, where a variable wins over it
		}
	}
	for _, user := range sortedKeys(r.cfg.Credentials) {
		ref := trail.Ref{Kind: trail.RefUser, Name: user + ".password"}
		named[UserEnv(user, "password")] = ref
		v, _, _ := r.resolve(ref)
		add(ref, v)
		if c := r.cfg.Credentials[user].Password; c.IsGiven() {
			add(ref, *c.value)
		}
	}
	env := slices.Clone(environ)
	slices.Sort(env)
	for _, kv := range env {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			continue
		}
		ref, listed := named[name]
		switch {
		case listed:
		case strings.HasPrefix(name, SecretEnvPrefix) && len(name) > len(SecretEnvPrefix):
			ref = trail.Ref{Kind: trail.RefSecret, Name: strings.ToLower(strings.TrimPrefix(name, SecretEnvPrefix))}
		case strings.HasPrefix(name, UserEnvPrefix) && strings.HasSuffix(name, "_PASSWORD") && len(name) > len(UserEnvPrefix)+len("_PASSWORD"):
			user := strings.TrimSuffix(strings.TrimPrefix(name, UserEnvPrefix), "_PASSWORD")
			ref = trail.Ref{Kind: trail.RefUser, Name: strings.ToLower(user) + ".password"}
		default:
			continue
		}
		add(ref, v)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
