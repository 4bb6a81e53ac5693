package redact

import (
	"strings"
	"testing"
)

// FuzzRedactor: whatever the text and the value, redacting never panics,
// leaves no piece of the text between placeholders holding the value as
// typed (for a value long enough to be redacted inside text), and changes
// nothing the second time.
func FuzzRedactor(f *testing.F) {
	f.Add(`p@ss w+rd/é&co`, `{"note":"p@ss w+rd/é&co","url":"/?q=p%40ss+w%2Brd%2F%C3%A9%26co"}`)
	f.Add("hunter22", "hunter22hunter22 <b>hunter&#50;2</b>")
	f.Add("x", `{"x":"x","y":["x","xx"]}`)
	f.Add("ab-ab", "ab-ab-ab%2dab")
	f.Add("%%%%", "%25%%25%")
	f.Fuzz(func(t *testing.T, value, text string) {
		r := New([]Secret{{Name: "s", Value: value}}, reportPlaceholder)
		if r == nil {
			if value != "" && !disabled {
				t.Fatalf("New(%q) = nil", value)
			}
			return
		}
		once := r.String(text)
		if long(value) {
			for _, piece := range strings.Split(once, "[secret:s]") {
				if strings.Contains(piece, value) {
					t.Fatalf("String(%q) = %q: %q still holds the value %q", text, once, piece, value)
				}
			}
		}
		if twice := r.String(once); twice != once {
			t.Fatalf("redacting %q again changed it: %q, then %q", text, once, twice)
		}
	})
}
