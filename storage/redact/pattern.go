package redact

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// valuePattern is a regular expression for value in every form an output
// can hold it in, character by character: each character as typed,
// JSON-escaped, URL-encoded or HTML-escaped (ASCII letters and digits, which
// no encoder escapes, as typed only). Any mixture matches, so one
// pattern covers every encoder's choices (which characters it escapes, in
// which case) and decodes to value alone: it never matches other text.
func valuePattern(value string) string {
	var b strings.Builder
	for _, r := range value {
		b.WriteString(runePattern(r))
	}
	return b.String()
}

// htmlAmp starts a character reference: & as typed or JSON-escaped by an
// encoder that escapes HTML (Go's default writes \u0026).
const htmlAmp = `(?:&|\\u0026)`

// namedRefs are the named character references HTML escapers write.
var namedRefs = map[rune][]string{
	'&': {"amp"}, '<': {"lt"}, '>': {"gt"}, '"': {"quot"}, '\'': {"apos"}, '\u00a0': {"nbsp"},
}

// jsonShort are the two-character escapes a JSON string can hold.
var jsonShort = map[rune]string{
	'"': `\"`, '\\': `\\`, '/': `\/`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`,
}

func runePattern(r rune) string {
	if alnumRune(r) {
		// No encoder escapes an ASCII letter or digit: the value's runs of
		// them are searched for as typed (Redactor's anchor).
		return string(r)
	}
	alts := []string{regexp.QuoteMeta(string(r))}
	if e, ok := jsonShort[r]; ok {
		alts = append(alts, regexp.QuoteMeta(e))
	}
	// JSON: \uXXXX, a surrogate pair beyond the BMP, hex in either case.
	var u strings.Builder
	for _, unit := range utf16.Encode([]rune{r}) {
		fmt.Fprintf(&u, `\\u(?i:%04x)`, unit)
	}
	alts = append(alts, u.String())
	// URL: every byte of the UTF-8 encoding as %XX; a space as + too.
	var p strings.Builder
	buf := make([]byte, utf8.RuneLen(r))
	utf8.EncodeRune(buf, r)
	for _, c := range buf {
		fmt.Fprintf(&p, `%%(?i:%02x)`, c)
	}
	alts = append(alts, p.String())
	if r == ' ' {
		alts = append(alts, `\+`)
	}
	// HTML: decimal and hex character references, with leading zeros or
	// not, and the named ones escapers use.
	alts = append(alts, fmt.Sprintf(`%s#0{0,3}%d;`, htmlAmp, r), fmt.Sprintf(`%s#[xX]0{0,3}(?i:%x);`, htmlAmp, r))
	for _, n := range namedRefs[r] {
		alts = append(alts, htmlAmp+n+";")
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}
