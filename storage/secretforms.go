package storage

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/trailpin/trailpin/storage/redact"
)

// MinLeakPrefix is the shortest prefix of a secret that counts as a leak: a
// field saved keystroke by keystroke leaks "hunt", "hunte", … of "hunter2".
// Three characters or fewer match ordinary text too often to mean anything.
const MinLeakPrefix = 4

// A SecretForm is one byte string a secret can leak as, and how to describe
// finding it. It never names the secret itself.
type SecretForm struct {
	Bytes []byte
	// Form is "as typed", "JSON-escaped", "URL-encoded", "HTML-escaped",
	// "UTF-16LE", "UTF-16BE", "base64 (alignment K)" or "base64url
	// (alignment K)", with ", prefix of N characters" when it holds only a
	// prefix.
	Form string
	// Runes is how many characters of the secret it holds.
	Runes int
}

// SecretForms lists the forms secret can leak in, longest (most complete)
// first: the value as typed; JSON-escaped (with <, >, & escaped or not, with
// every non-ASCII character as \uXXXX in either case, and with "\/");
// URL-encoded (as a form or query value with + for a space, as a URL
// component or path with %20, hex in either case: redact.URLEncodings);
// HTML-escaped (a text node, an attribute, named and numeric references:
// redact.HTMLEscapes); UTF-16LE and UTF-16BE; base64 with the standard and the URL alphabet at
// each of the three alignments a value can have inside a longer encoded
// text. Each form is listed for every prefix of the secret longer than
// MinLeakPrefix-1 characters too, which finds a field saved keystroke by
// keystroke. Both the database scan here and the e2e leak scanner search
// for exactly these.
func SecretForms(secret string) []SecretForm {
	var out []SecretForm
	seen := map[string]bool{}
	add := func(b []byte, form string, n int) {
		if len(b) == 0 || seen[string(b)] {
			return
		}
		seen[string(b)] = true
		out = append(out, SecretForm{b, form, n})
	}
	runes := []rune(secret)
	for n := len(runes); n >= 1; n-- {
		if n < MinLeakPrefix && n < len(runes) {
			break
		}
		p := string(runes[:n])
		suffix := ""
		if n < len(runes) {
			suffix = fmt.Sprintf(", prefix of %d characters", n)
		}
		add([]byte(p), "as typed"+suffix, n)
		for _, f := range jsonEscapes(p) {
			add([]byte(f), "JSON-escaped"+suffix, n)
		}
		for _, f := range redact.URLEncodings(p) {
			add([]byte(f), "URL-encoded"+suffix, n)
		}
		for _, f := range redact.HTMLEscapes(p) {
			add([]byte(f), "HTML-escaped"+suffix, n)
		}
		add(utf16Of(p, false), "UTF-16LE"+suffix, n)
		add(utf16Of(p, true), "UTF-16BE"+suffix, n)
		std := base64Alignments(base64.RawStdEncoding, []byte(p))
		url := base64Alignments(base64.RawURLEncoding, []byte(p))
		for k := range 3 {
			add(std[k], fmt.Sprintf("base64 (alignment %d)%s", k, suffix), n)
			// Identical in both alphabets when no + or / is involved;
			// then it was listed as base64 above.
			add(url[k], fmt.Sprintf("base64url (alignment %d)%s", k, suffix), n)
		}
	}
	return out
}

// jsonEscapes are the ways JSON encoders write s inside a string: with or
// without <, >, & escaped, with or without "\/", with non-ASCII characters
// as they are or as \uXXXX escapes in lower or upper case.
func jsonEscapes(s string) []string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	plain := strings.TrimSuffix(b.String(), "\n")
	plain = plain[1 : len(plain)-1]
	html, _ := json.Marshal(s)
	var forms []string
	for _, base := range []string{plain, string(html[1 : len(html)-1]), strings.ReplaceAll(plain, "/", `\/`)} {
		ascii := asciiEscapes(base)
		forms = append(forms, base, ascii, upperHexEscapes(ascii))
	}
	return forms
}

// asciiEscapes writes every non-ASCII character of s as \uXXXX (UTF-16).
func asciiEscapes(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
			continue
		}
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}

// upperHexEscapes writes the hex digits of \uXXXX escapes in upper case, as
// some encoders do.
func upperHexEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+6 <= len(s) && s[i+1] == 'u' {
			b.WriteString(`\u` + strings.ToUpper(s[i+2:i+6]))
			i += 5
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func utf16Of(s string, bigEndian bool) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b = append(b, byte(u>>8), byte(u))
		} else {
			b = append(b, byte(u), byte(u>>8))
		}
	}
	return b
}

// base64Alignments returns, for each of the three positions s can start at
// relative to a 3-byte group of a longer encoded text, the characters that
// encode s alone whatever bytes surround it.
func base64Alignments(enc *base64.Encoding, s []byte) [][]byte {
	runs := make([][]byte, 0, 3)
	for k := range 3 {
		text := enc.EncodeToString(append(make([]byte, k), s...))
		// Character i covers bits [6i, 6i+6); keep those inside s.
		first := (8*k + 5) / 6
		last := (8 * (k + len(s))) / 6
		if first < last && last <= len(text) {
			runs = append(runs, []byte(text[first:last]))
		} else {
			runs = append(runs, nil)
		}
	}
	return runs
}
