package replay

import (
	"reflect"
	"slices"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/redact"
)

// SecretPlaceholder stands in for a secret value in every result string and
// report: [secret:NAME] for ${secret:NAME}, [user:NAME.password] for a
// user's password.
func SecretPlaceholder(name string) string { return "[" + name + "]" }

// secretOf is a secret reference's value as the redactor takes it, named
// after the reference.
func secretOf(ref trail.Ref, value string) redact.Secret {
	return redact.Secret{Name: string(ref.Kind) + ":" + ref.Name, Value: value}
}

// ShortSecretNotice says which of secrets are too short to be redacted
// inside text, by their references; "" when none is. The engine puts it in
// each result's Notes; host replay says it once on standard error at start.
func ShortSecretNotice(secrets []redact.Secret) string {
	names := redact.TooShort(secrets)
	for i, n := range names {
		names[i] = "${" + n + "}"
	}
	return redact.ShortNotice(names)
}

// redactResult replaces every secret value in every string of res (and its
// steps, actions, log and failure screen) with its placeholder. Screenshots
// are masked when taken, not here. Matching never sees this: the engine
// matches the page as it is, and redacts only what it hands out.
func redactResult(res *TrailResult, r *redact.Redactor) {
	if r != nil {
		walkStrings(reflect.ValueOf(res).Elem(), r.String)
	}
}

// redactStep is redactResult for one step, as OnStep hands it out.
func redactStep(sr *StepResult, r *redact.Redactor) {
	if r != nil {
		walkStrings(reflect.ValueOf(sr).Elem(), r.String)
	}
}

// walkStrings applies f to the strings below v, which must be addressable.
func walkStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(f(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), f)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes: the screenshot
		}
		for i := range v.Len() {
			walkStrings(v.Index(i), f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkStrings(v.Field(i), f)
			}
		}
	}
}

// Secrets returns the secrets the trails name that opts can provide, and
// every other secret opts knows (Options.Known), named as their
// placeholders show them, each value once.
func Secrets(trails []*trail.Trail, opts Options) []redact.Secret {
	opts = opts.withDefaults()
	var out []redact.Secret
	seen := map[redact.Secret]bool{}
	for _, t := range trails {
		v := newValues(t, opts.Params, opts.Lookup)
		for _, ref := range trailRefs(t) {
			if value, err := v.ref(ref); err == nil && ref.IsSecret() && value != "" {
				if s := secretOf(ref, value); !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
	}
	return withKnown(out, opts.Known)
}

// withKnown is secrets and each of known whose value none of them has.
func withKnown(secrets, known []redact.Secret) []redact.Secret {
	out := slices.Clone(secrets)
	for _, k := range known {
		if k.Value != "" && !slices.ContainsFunc(out, func(s redact.Secret) bool { return s.Value == k.Value }) {
			out = append(out, k)
		}
	}
	return out
}
