package steps

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
)

// What a recording must never write down: a secret field's value, a value
// marked sensitive (or its first letters), a URL showing one. Secrets are
// typed from references (${secret:NAME}) filled in at replay.

// sensitiveTyped reports whether a typed value is, holds or begins a value
// marked sensitive (a field filled in one keystroke at a time shows every
// prefix of it).
func (b *builder) sensitiveTyped(v string) bool {
	if v == "" {
		return false
	}
	if b.taint.Leaks(v) {
		return true
	}
	low := strings.ToLower(screen.CollapseSpace(v))
	for _, s := range b.taint {
		if len(low) >= minTypedPrefix && strings.HasPrefix(s, low) {
			return true
		}
	}
	return false
}

// minTypedPrefix: a typed value this long that begins a sensitive value is
// taken for it, half typed. Shorter ones ("a", "al") are too common to tell.
const minTypedPrefix = 4

// secretName returns name as a reference name: letters, digits, '_', '-'
// and '.', starting with a letter, digit or '_'; "secret" when nothing is
// left.
func secretName(name string) string {
	var sb strings.Builder
	dash := false
	for _, r := range name {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.')
		switch {
		case ok:
			sb.WriteRune(r)
			dash = r == '-'
		case !dash && sb.Len() > 0:
			sb.WriteByte('-')
			dash = true
		}
	}
	s := strings.TrimRight(strings.TrimLeft(sb.String(), "-."), "-")
	if s == "" {
		return "secret"
	}
	return s
}

// secretEnvName is the environment variable replay reads a secret from
// (docs/trail-format.md, References).
func secretEnvName(name string) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(strings.ToUpper(name))
}

// leaksURL reports whether s, read as a URL, shows a sensitive value once
// its escapes are undone (alice%40example.com).
func (b *builder) leaksURL(s string) bool {
	if !strings.Contains(s, "%") && !strings.Contains(s, "+") {
		return false
	}
	for _, unescape := range []func(string) (string, error){url.PathUnescape, url.QueryUnescape} {
		if u, err := unescape(s); err == nil && b.taint.Leaks(u) {
			return true
		}
	}
	return false
}
