package replay

import (
	"reflect"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder"
)

// redactedText stands in for a secret value in every result string.
const redactedText = "[secret]"

// minRedactedInside is the shortest secret value replaced inside longer
// text. Shorter values ("1234") turn up in ordinary text by chance; they
// are replaced only where they are the whole string.
const minRedactedInside = 4

// redactResult replaces every secret value in every string of res (and its
// steps, actions, log and failure screen) with redactedText. Screenshots are
// masked when taken, not here.
func redactResult(res *TrailResult, secrets []string) {
	if r := newRedactor(secrets); r != nil {
		r.walk(reflect.ValueOf(res).Elem())
	}
}

// redactStep is redactResult for one step, as OnStep hands it out.
func redactStep(sr *StepResult, secrets []string) {
	if r := newRedactor(secrets); r != nil {
		r.walk(reflect.ValueOf(sr).Elem())
	}
}

type redactor struct {
	inside *strings.Replacer
	whole  map[string]bool
}

func newRedactor(secrets []string) *redactor {
	var long []string
	whole := map[string]bool{}
	for _, s := range secrets {
		if s == "" {
			continue
		}
		whole[s] = true
		if len(s) >= minRedactedInside {
			long = append(long, s)
		}
	}
	if len(whole) == 0 {
		return nil
	}
	// Longer values first, so one secret inside another is not left half
	// replaced.
	slices.SortFunc(long, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(long))
	for _, s := range long {
		pairs = append(pairs, s, redactedText)
	}
	return &redactor{inside: strings.NewReplacer(pairs...), whole: whole}
}

func (r *redactor) text(s string) string {
	if r.whole[s] {
		return redactedText
	}
	return r.inside.Replace(s)
}

// walk redacts the strings below v, which must be addressable.
func (r *redactor) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(r.text(v.String()))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			r.walk(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes: the screenshot
		}
		for i := range v.Len() {
			r.walk(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				r.walk(v.Field(i))
			}
		}
	}
}

// SecretRedactor returns a function that replaces, in any text, the value
// of every secret the trails refer to that opts can provide, as the engine
// redacts its results; nil when there is none. Reports apply it to the
// text they add around results (titles, file names, the run's messages).
func SecretRedactor(trails []*recorder.Trail, opts Options) func(string) string {
	opts = opts.withDefaults()
	var secrets []string
	for _, t := range trails {
		v := newValues(t, opts.Params, opts.Lookup)
		for _, ref := range t.References() {
			if value, err := v.ref(ref); err == nil && ref.IsSecret() && value != "" {
				secrets = append(secrets, value)
			}
		}
	}
	r := newRedactor(secrets)
	if r == nil {
		return nil
	}
	return r.text
}
