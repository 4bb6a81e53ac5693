package redact

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The forms below are the encodings the leak scanner looks for (with the
// JSON, UTF-16 and base64 forms storage.SecretForms adds); redaction does
// not need them, as valuePattern matches every mixture of them.

// urlEncoder is one way of writing text inside a URL: which ASCII
// characters it leaves as they are, and whether a space becomes +.
type urlEncoder struct {
	keep  string
	plus  bool
	lower bool
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

var urlEncoders = []urlEncoder{
	{keep: alnum + "*-._", plus: true},              // HTML forms (application/x-www-form-urlencoded)
	{keep: alnum + "-_.~", plus: true},              // Go's url.QueryEscape
	{keep: alnum + "-_.!~*'()"},                     // JavaScript's encodeURIComponent
	{keep: alnum + "-_.!~*'();,/?:@&=+$#"},          // JavaScript's encodeURI
	{keep: alnum + "-_.~!$&'()*+,;=:@/"},            // a URL's path, as browsers send it
	{keep: alnum + "*-._", plus: true, lower: true}, // the same in lower-case hex
	{keep: alnum + "-_.~", plus: true, lower: true},
	{keep: alnum + "-_.!~*'()", lower: true},
}

// URLEncodings returns s as URL encoders write it: as a form or query
// value (a space as +) and as a URL component or path (a space as %20),
// with upper- and lower-case hex. Forms equal to s are left out.
func URLEncodings(s string) []string {
	var out []string
	for _, e := range urlEncoders {
		out = appendNew(out, s, e.encode(s))
	}
	return out
}

func (e urlEncoder) encode(s string) string {
	hex := "%%%02X"
	if e.lower {
		hex = "%%%02x"
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' && e.plus:
			b.WriteByte('+')
		case c < utf8.RuneSelf && strings.IndexByte(e.keep, c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, hex, c)
		}
	}
	return b.String()
}

// HTMLEscapes returns s as HTML escapers write it: a text node serialised
// by a browser (&, <, > and no-break spaces), an attribute value (&, ", and
// no-break spaces), Go's html.EscapeString (&#39; and &#34;), the common
// named form (&quot;), and those with every non-ASCII character as a
// decimal or hex reference. Forms equal to s are left out.
func HTMLEscapes(s string) []string {
	text := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace(s)
	attr := strings.NewReplacer("&", "&amp;", `"`, "&quot;", "\u00a0", "&nbsp;").Replace(s)
	goEsc := strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;").Replace(s)
	named := strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
	var out []string
	for _, f := range []string{text, attr, goEsc, named} {
		out = appendNew(out, s, f)
		out = appendNew(out, s, numericRefs(f, "&#%d;"))
		out = appendNew(out, s, numericRefs(f, "&#x%x;"))
	}
	return out
}

// numericRefs writes every non-ASCII character of s as a character
// reference in format.
func numericRefs(s, format string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		fmt.Fprintf(&b, format, r)
	}
	return b.String()
}

func appendNew(out []string, s, f string) []string {
	if f == s {
		return out
	}
	for _, o := range out {
		if o == f {
			return out
		}
	}
	return append(out, f)
}
