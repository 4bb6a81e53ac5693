package redact

import (
	"fmt"
	"strings"
)

// MinInside is the shortest value, in characters, that is replaced inside
// longer text. A shorter value ("x", "42") turns up in ordinary words, URLs
// and numbers by chance, and replacing it there would mangle them: it is
// replaced only where it is a whole value, the whole text or a whole quoted
// string ("x" in JSON or in a message), and can show inside other text.
const MinInside = 4

// TooShort returns the names of the secrets whose values are shorter than
// MinInside characters, in the order given.
func TooShort(secrets []Secret) []string {
	var names []string
	for _, s := range secrets {
		if s.Value != "" && !long(s.Value) {
			names = append(names, s.Name)
		}
	}
	return names
}

// ShortNotice says, once at start, what a secret too short to redact inside
// text means for the outputs; "" when there is none. secrets names them as
// the reader knows them (${secret:pin}).
func ShortNotice(secrets []string) string {
	switch len(secrets) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("the value of %s is shorter than %d characters: it is redacted only where it is a whole value (a typed field, a quoted string), not inside other text, so page text, URLs and logs that contain it can show it; give it a value of at least %d characters", secrets[0], MinInside, MinInside)
	default:
		return fmt.Sprintf("the values of %s are shorter than %d characters: each is redacted only where it is a whole value (a typed field, a quoted string), not inside other text, so page text, URLs and logs that contain them can show them; give each a value of at least %d characters", strings.Join(secrets, ", "), MinInside, MinInside)
	}
}

func long(v string) bool { return len([]rune(v)) >= MinInside }
