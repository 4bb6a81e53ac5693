package trail

import (
	"fmt"
	"reflect"
	"strings"
)

// minEmbeddedSecretLen is the shortest secret value that is also looked for
// inside longer text. Shorter values ("1234", "yes") turn up in ordinary
// text by chance; a value this long inside a string is almost surely a leak.
// Every value, however short, is refused where it is the whole text.
const minEmbeddedSecretLen = 6

// A SecretInTrailError says a trail holds a secret value in plain text. It
// names where, never the value.
type SecretInTrailError struct {
	Title string
	// Places are where the values sit, such as "step 2, type (line 14): text".
	Places []string
}

func (e *SecretInTrailError) Error() string {
	return fmt.Sprintf("trail %q holds a secret value in %s: a trail holds only references; type ${secret:NAME} or ${user:NAME.password} instead, and leave the element's text out of selectors and assertions",
		e.Title, strings.Join(e.Places, "; "))
}

// CheckNoSecrets refuses a trail that holds any of secretValues (the values
// of the session's secrets and the text it marked sensitive): as typed text,
// in a selector, an assertion, an intent, anywhere. Recording calls it before
// a trail is saved or exported. The error is a *SecretInTrailError.
func CheckNoSecrets(t *Trail, secretValues []string) error {
	var values []string
	for _, v := range secretValues {
		if v != "" {
			values = append(values, v)
		}
	}
	if t == nil || len(values) == 0 {
		return nil
	}
	var places []string
	ForEachText(t, func(place, text string) {
		for _, v := range values {
			if text == v || (len(v) >= minEmbeddedSecretLen && strings.Contains(text, v)) {
				places = append(places, place)
				return
			}
		}
	})
	if len(places) > 0 {
		return &SecretInTrailError{Title: t.Title, Places: places}
	}
	return nil
}

// ForEachText calls fn with every text a trail holds, and where it sits:
// "step 2, type (line 14): selector.name", "params.coupon".
func ForEachText(t *Trail, fn func(place, text string)) {
	walkTexts(reflect.ValueOf(*t), "", "", fn)
}

// walkTexts visits the strings below v. where names the step and action,
// path the field inside them.
func walkTexts(v reflect.Value, where, path string, fn func(place, text string)) {
	switch v.Kind() {
	case reflect.String:
		fn(place(where, path), v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkTexts(v.Elem(), where, path, fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			item := v.Index(i)
			switch {
			case item.Type() == stepType:
				walkTexts(item, fmt.Sprintf("step %d", i+1), "", fn)
			case item.Type().Implements(actionType):
				walkTexts(item, where+", "+actionPlace(item.Interface().(Action), i), "", fn)
			default:
				walkTexts(item, where, fmt.Sprintf("%s[%d]", path, i), fn)
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			p := path + "." + it.Key().String()
			fn(place(where, p), it.Key().String())
			walkTexts(it.Value(), where, p, fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			switch {
			case f.Type == originType || (v.Type() == trailType && f.Name == "File"):
			case f.Name == "Steps" || f.Name == "Actions":
				walkTexts(v.Field(i), where, path, fn)
			case v.Type() == trailType && f.Name == "Title":
				walkTexts(v.Field(i), where, "trail", fn)
			default:
				walkTexts(v.Field(i), where, joinPath(path, lowerFirst(f.Name)), fn)
			}
		}
	}
}

var actionType = reflect.TypeFor[Action]()

func actionPlace(a Action, i int) string {
	if a.SourceLine() > 0 {
		return fmt.Sprintf("%s (line %d)", a.Kind(), a.SourceLine())
	}
	return fmt.Sprintf("action %d (%s)", i+1, a.Kind())
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func place(where, path string) string {
	switch {
	case where == "":
		return path
	case path == "":
		return where
	}
	return where + ": " + path
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
