package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/trailpin/trailpin/storage"
)

// The leak scanner: tests that type a secret look for it, in every form a
// leak takes, in everything the product wrote (the SQLite database with its
// -wal and -shm, exported trails, logs, the native messages both ways).
//
//	e2e.CheckNoSecretLeaks(t, password,
//		e2e.LeakDatabase(dbPath)...,
//		e2e.LeakFile(exported), e2e.LeakFile(hostLog),
//		e2e.LeakBytes("host replies", proc.Received.Bytes()))
//
// The forms: the value as typed; JSON-escaped (Go's default with <, >, &
// escaped, without, with every non-ASCII character as \uXXXX, and with
// "\/"); UTF-16LE and UTF-16BE; base64 with the standard and the URL
// alphabet at each of the three alignments a value can have inside a longer
// encoded text. Each form is also looked for with every prefix of the
// secret longer than MinLeakPrefix-1 characters, which finds a field saved
// keystroke by keystroke.

// MinLeakPrefix is the shortest prefix of a secret that counts as a leak:
// three characters or fewer match ordinary text too often to mean anything.
const MinLeakPrefix = 4

// A LeakSource is something to search: bytes with a name for the report.
type LeakSource struct {
	Name string
	Data []byte
	// Path, when set and Data is nil, is read when scanning; a missing file
	// holds nothing.
	Path string
	// db, when set, is a SQLite database whose values are also read back
	// through SQL with screens decompressed.
	db bool
}

// LeakBytes is a blob to search, such as the native messages a test
// captured.
func LeakBytes(name string, b []byte) LeakSource { return LeakSource{Name: name, Data: b} }

// LeakFile is a file to search (an export, a log); a missing file holds
// nothing.
func LeakFile(path string) LeakSource { return LeakSource{Name: path, Path: path} }

// LeakDatabase is a SQLite database: the file, its -wal and its -shm, and
// its stored values decompressed (which a byte search cannot see inside
// zstd).
func LeakDatabase(path string) []LeakSource {
	return []LeakSource{
		{Name: path, Path: path, db: true},
		{Name: path + "-wal", Path: path + "-wal"},
		{Name: path + "-shm", Path: path + "-shm"},
	}
}

// A SecretLeak is one place a secret (or a prefix of it) was found. It never
// holds the secret.
type SecretLeak struct {
	Where  string
	Offset int
	// Form says how: "as typed", "JSON-escaped", "UTF-16LE", "base64url
	// (alignment 2)", … with ", prefix of N characters" for a prefix.
	Form string
}

func (l SecretLeak) String() string {
	return fmt.Sprintf("%s at byte %d: the secret %s", l.Where, l.Offset, l.Form)
}

type leakNeedle struct {
	b    []byte
	form string
	// runes is how many characters of the secret it holds.
	runes int
}

// leakNeedles lists the byte strings FindSecretLeaks looks for, longest
// (most complete) first, with the form each stands for.
func leakNeedles(secret string) []leakNeedle {
	var out []leakNeedle
	seen := map[string]bool{}
	add := func(b []byte, form string, n int) {
		if len(b) == 0 || seen[string(b)] {
			return
		}
		seen[string(b)] = true
		out = append(out, leakNeedle{b, form, n})
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
		add(utf16Of(p, false), "UTF-16LE"+suffix, n)
		add(utf16Of(p, true), "UTF-16BE"+suffix, n)
		std := base64Alignments(base64.RawStdEncoding, []byte(p))
		url := base64Alignments(base64.RawURLEncoding, []byte(p))
		for k := range 3 {
			add(std[k], fmt.Sprintf("base64 (alignment %d)%s", k, suffix), n)
			// Identical in both alphabets when no + or / is involved;
			// then it was reported as base64 above.
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

// FindSecretLeaks searches every source for secret in the forms listed
// above and returns where it was found: at each place the most complete
// form only.
func FindSecretLeaks(secret string, sources ...LeakSource) ([]SecretLeak, error) {
	if len([]rune(secret)) < MinLeakPrefix {
		return nil, fmt.Errorf("scanning for a secret: a secret of %d characters is too short to tell from ordinary text; use at least %d", len([]rune(secret)), MinLeakPrefix)
	}
	needles := leakNeedles(secret)
	var leaks []SecretLeak
	for _, src := range sources {
		data := src.Data
		if data == nil && src.Path != "" {
			b, err := os.ReadFile(src.Path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return leaks, fmt.Errorf("scanning %s: %w", src.Path, err)
			}
			data = b
		}
		leaks = append(leaks, scanLeaks(src.Name, data, needles)...)
		if src.db {
			found, err := storage.ScanDatabase(context.Background(), src.Path, secret)
			if err != nil {
				return leaks, err
			}
			for _, l := range found {
				leaks = append(leaks, SecretLeak{Where: l.Where, Offset: int(l.Offset), Form: l.Form})
			}
		}
	}
	return dedupeLeaks(leaks), nil
}

// scanLeaks reports every place a needle occurs in b, a place once, with
// the most complete form found there.
func scanLeaks(where string, b []byte, needles []leakNeedle) []SecretLeak {
	var leaks []SecretLeak
	covered := map[int]bool{}
	for _, n := range needles {
		for off := 0; off < len(b); {
			i := bytes.Index(b[off:], n.b)
			if i < 0 {
				break
			}
			at := off + i
			if !covered[at] {
				covered[at] = true
				leaks = append(leaks, SecretLeak{Where: where, Offset: at, Form: n.form})
			}
			off = at + 1
		}
	}
	return leaks
}

func dedupeLeaks(in []SecretLeak) []SecretLeak {
	seen := map[SecretLeak]bool{}
	out := in[:0]
	for _, l := range in {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// CheckNoSecretLeaks fails the test, listing every place, when secret is
// found in any of the sources.
func CheckNoSecretLeaks(t testing.TB, secret string, sources ...LeakSource) {
	t.Helper()
	leaks, err := FindSecretLeaks(secret, sources...)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) == 0 {
		return
	}
	const maxListed = 20
	var b strings.Builder
	for i, l := range leaks {
		if i == maxListed {
			fmt.Fprintf(&b, "\n  … and %d more", len(leaks)-maxListed)
			break
		}
		b.WriteString("\n  " + l.String())
	}
	t.Errorf("the secret leaked in %d places:%s", len(leaks), b.String())
}
