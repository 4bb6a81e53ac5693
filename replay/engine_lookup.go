package replay

import (
	"errors"
	"fmt"
	"slices"
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
// user reference (docs/config.md): ${secret:stripe-key} is
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
// overridden by Options.Params, secrets and users from the Lookup — only
// those the trail names (trailRefs): whatever else the environment or the
// project config could give, a run never fills in.
type values struct {
	params map[string]string
	lookup Lookup
	names  map[trail.Ref]bool
}

func newValues(t *trail.Trail, overrides map[string]string, lookup Lookup) *values {
	p := make(map[string]string, len(t.Params)+len(overrides))
	for k, v := range t.Params {
		p[k] = v
	}
	for k, v := range overrides {
		p[k] = v
	}
	names := map[trail.Ref]bool{}
	for _, r := range trailRefs(t) {
		names[r] = true
	}
	return &values{params: p, lookup: lookup, names: names}
}

// An UnnamedRefError is a ${secret:…} or ${user:…} reference the trail
// does not name: replay does not fill it in, whatever could give a value.
type UnnamedRefError struct{ Ref trail.Ref }

func (e *UnnamedRefError) Error() string {
	return fmt.Sprintf("%s is not named by this trail (its actions, end states or goals), so replay does not fill it in", e.Ref)
}

// ref returns the value of one reference.
func (v *values) ref(r trail.Ref) (string, error) {
	if r.Kind == trail.RefParam {
		if value, ok := v.params[r.Name]; ok {
			return value, nil
		}
		return "", &MissingValueError{Ref: r, Variable: "--param " + r.Name + "=…"}
	}
	if !v.names[r] {
		return "", &UnnamedRefError{Ref: r}
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

// A SecretInURLError is a secret reference in a URL: a secret is never
// put into one (a URL reaches servers' logs, the browser's history and,
// through Referer, other sites). Params can be.
type SecretInURLError struct {
	Ref trail.Ref
	// Where names the URL: "navigate", "the start page"…
	Where string
}

func (e *SecretInURLError) Error() string {
	return fmt.Sprintf("%s in %s: a secret is never put into a URL, where servers' logs, the browser's history and other sites would get it; a ${param:…} can be", e.Ref, e.Where)
}

// url fills in the references of a URL (or URL pattern) s; a secret among
// them is a *SecretInURLError, and nothing is filled in.
func (v *values) url(s, where string) (string, error) {
	refs, err := trail.ParseRefs(s)
	if err != nil {
		return "", err
	}
	for _, r := range refs {
		if r.IsSecret() {
			return "", &SecretInURLError{Ref: r, Where: where}
		}
	}
	return v.expand(s)
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

// check resolves every reference the trail names and returns the values
// of its secrets (for masking and redaction), or the first reference
// without a value.
func (v *values) check(t *trail.Trail) (secrets []redact.Secret, err error) {
	for _, r := range trailRefs(t) {
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

// trailRefs are the references a trail names: in its start page, its
// steps' recorded actions and end states, and its steps' goals (intent,
// act), which the agent performs. These are what a run fills in.
func trailRefs(t *trail.Trail) []trail.Ref {
	refs := t.References()
	for _, st := range t.Steps {
		for _, r := range goalRefs(st) {
			if !slices.Contains(refs, r) {
				refs = append(refs, r)
			}
		}
	}
	return refs
}

// stepRefs are the references a step names: in its goal, its recorded
// actions and its end state. The agent is offered the secrets among them
// and no other.
func stepRefs(st trail.Step) []trail.Ref {
	refs := (&trail.Trail{Steps: []trail.Step{st}}).References()
	for _, r := range goalRefs(st) {
		if !slices.Contains(refs, r) {
			refs = append(refs, r)
		}
	}
	return refs
}

// goalRefs are the references in a step's intent and act.
func goalRefs(st trail.Step) []trail.Ref {
	var refs []trail.Ref
	for _, text := range []string{st.Intent, st.Act} {
		more, _ := trail.ParseRefs(text)
		refs = append(refs, more...)
	}
	return refs
}

// urlRefs checks that no URL of the trail holds a secret: its start page,
// each navigate, switchTab, assertUrl and live assertChange, and each end
// state's URL. It returns the first one found, with its line.
func urlRefs(t *trail.Trail) (*SecretInURLError, int) {
	check := func(s, where string, line int) (*SecretInURLError, int) {
		refs, _ := trail.ParseRefs(s)
		for _, r := range refs {
			if r.IsSecret() {
				return &SecretInURLError{Ref: r, Where: where}, line
			}
		}
		return nil, 0
	}
	if e, l := check(t.Start, "the start page", 0); e != nil {
		return e, l
	}
	for _, st := range t.Steps {
		for _, a := range st.Actions {
			var s string
			switch a := a.(type) {
			case trail.Navigate:
				s = a.To
			case trail.SwitchTab:
				s = a.URL
			case trail.AssertURL:
				s = a.URL + a.Pattern
			case trail.AssertChange:
				s = a.URL
			}
			if e, l := check(s, string(a.Kind()), a.SourceLine()); e != nil {
				return e, l
			}
		}
		if st.End != nil {
			if e, l := check(st.End.URL, "an end state's url", st.End.Line); e != nil {
				return e, l
			}
		}
	}
	return nil, 0
}
