package replay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/redact"
)

// A Lookup fills in a ${secret:…} or ${user:…} reference. Replay calls it
// at the moment a value is typed (and once before the trail starts, to
// learn that every value is there), so secret values live only in memory.
// A value that is not provided is a *MissingValueError (or an error that
// wraps one): the trail then fails as missing-test-data and names the
// variable to set.
type Lookup func(ref trail.Ref) (string, error)

// A MissingValueError says that a reference has no value.
type MissingValueError struct {
	Ref trail.Ref
	// Variable is the environment variable that would provide it
	// (TRAILPIN_SECRET_DEMO_PASSWORD).
	Variable string
	// Err is what the Lookup answered, when it was another error (such as
	// the secrets resolver's, which also names the config key).
	Err error
}

func (e *MissingValueError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("%s has no value: set %s", e.Ref, e.Variable)
}

func (e *MissingValueError) Unwrap() error { return e.Err }

// EnvVariable returns the environment variable that provides a secret or
// user reference (DESIGN §12): ${secret:stripe-key} is
// TRAILPIN_SECRET_STRIPE_KEY, ${user:admin.password} is
// TRAILPIN_USER_ADMIN_PASSWORD; upper case, with '-' and '.' as '_'.
// Params have no variable: it returns "".
func EnvVariable(ref trail.Ref) string {
	name := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(ref.Name))
	switch ref.Kind {
	case trail.RefSecret:
		return "TRAILPIN_SECRET_" + name
	case trail.RefUser:
		return "TRAILPIN_USER_" + name
	}
	return ""
}

// EnvLookup reads secrets and users from environment variables only (the
// project config's secrets and credentials come with the config reader).
// getenv is os.Getenv, or a fake in tests.
func EnvLookup(getenv func(string) string) Lookup {
	return func(ref trail.Ref) (string, error) {
		v := EnvVariable(ref)
		if v == "" {
			return "", fmt.Errorf("%s is not a secret or user reference", ref)
		}
		if value := getenv(v); value != "" {
			return value, nil
		}
		return "", &MissingValueError{Ref: ref, Variable: v}
	}
}

// values fills in references for one run: params from the trail's defaults
// overridden by Options.Params, secrets and users from the Lookup.
type values struct {
	params map[string]string
	lookup Lookup
}

func newValues(t *trail.Trail, overrides map[string]string, lookup Lookup) *values {
	p := make(map[string]string, len(t.Params)+len(overrides))
	for k, v := range t.Params {
		p[k] = v
	}
	for k, v := range overrides {
		p[k] = v
	}
	return &values{params: p, lookup: lookup}
}

// ref returns the value of one reference.
func (v *values) ref(r trail.Ref) (string, error) {
	if r.Kind == trail.RefParam {
		if value, ok := v.params[r.Name]; ok {
			return value, nil
		}
		return "", &MissingValueError{Ref: r, Variable: "--param " + r.Name + "=…"}
	}
	value, err := v.lookup(r)
	if err != nil {
		var missing *MissingValueError
		if !errors.As(err, &missing) {
			err = &MissingValueError{Ref: r, Variable: EnvVariable(r), Err: err}
		}
		return "", err
	}
	return value, nil
}

// expand fills in every reference of s. Callers that may meet a secret
// call it at the last moment and keep the result out of every message.
func (v *values) expand(s string) (string, error) {
	return trail.ExpandRefs(s, v.ref)
}

// public fills in the references of s that are not secret and leaves
// secret ones as written: the form of a typed text that messages show.
func (v *values) public(s string) string {
	out, err := trail.ExpandRefs(s, func(r trail.Ref) (string, error) {
		if r.IsSecret() {
			return r.String(), nil
		}
		return v.ref(r)
	})
	if err != nil {
		return s
	}
	return out
}

// check resolves every reference the trail uses and returns the values of
// its secrets (for masking and redaction), or the first reference without
// a value.
func (v *values) check(t *trail.Trail) (secrets []redact.Secret, err error) {
	for _, r := range t.References() {
		value, err := v.ref(r)
		if err != nil {
			return nil, err
		}
		if r.IsSecret() && value != "" {
			secrets = append(secrets, secretOf(r, value))
		}
	}
	return secrets, nil
}
