package storage

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/storage/redact"
)

// testSecret has characters JSON escapes (" and \ always, < and > as HTML),
// and one outside ASCII so UTF-16 differs from Latin-1.
const testSecret = `Tr41l"p\ss<w0rd>é`

// Every whole form the scanner looks for that text can take in an output
// (all but UTF-16 and base64, which only files and blobs hold) is one the
// redactor replaces: the scanner and the redactor agree on what a leak is.
func TestRedactorReplacesEveryScannedForm(t *testing.T) {
	for _, secret := range []string{testSecret, `p@ss w+rd/é`} {
		r := redact.New([]redact.Secret{{Name: "pw", Value: secret}}, SecretReference)
		if r == nil {
			t.Skip("built with trailpin_noredact: nothing is redacted")
		}
		n := 0
		for _, f := range SecretForms(secret) {
			if f.Runes != len([]rune(secret)) || strings.HasPrefix(f.Form, "UTF-16") || strings.HasPrefix(f.Form, "base64") {
				continue
			}
			n++
			in := "at " + string(f.Bytes) + "."
			if got, want := r.String(in), "at ${secret:pw}."; got != want {
				t.Errorf("redacting the %s form: String(%q) = %q, want %q", f.Form, in, got, want)
			}
		}
		if n < 10 {
			t.Errorf("only %d whole forms of %q listed", n, secret)
		}
	}
}
