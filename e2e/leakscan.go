package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
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
// The forms (storage.SecretForms): the value as typed; JSON-escaped (Go's
// default with <, >, & escaped, without, with every non-ASCII character as
// \uXXXX, and with "\/"); URL-encoded (+ or %20 for a space, hex in either
// case); HTML-escaped (named and numeric references); UTF-16LE and UTF-16BE; base64 with the standard and the URL
// alphabet at each of the three alignments a value can have inside a longer
// encoded text. Each form is also looked for with every prefix of the
// secret longer than MinLeakPrefix-1 characters, which finds a field saved
// keystroke by keystroke.

// MinLeakPrefix is the shortest prefix of a secret that counts as a leak.
const MinLeakPrefix = storage.MinLeakPrefix

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

// FindSecretLeaks searches every source for secret in the forms listed
// above and returns where it was found: at each place the most complete
// form only.
func FindSecretLeaks(secret string, sources ...LeakSource) ([]SecretLeak, error) {
	if len([]rune(secret)) < MinLeakPrefix {
		return nil, fmt.Errorf("scanning for a secret: a secret of %d characters is too short to tell from ordinary text; use at least %d", len([]rune(secret)), MinLeakPrefix)
	}
	needles := storage.SecretForms(secret)
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
			found, err := storagetest.ScanDatabase(context.Background(), src.Path, secret)
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
func scanLeaks(where string, b []byte, needles []storage.SecretForm) []SecretLeak {
	var leaks []SecretLeak
	covered := map[int]bool{}
	for _, n := range needles {
		for off := 0; off < len(b); {
			i := bytes.Index(b[off:], n.Bytes)
			if i < 0 {
				break
			}
			at := off + i
			if !covered[at] {
				covered[at] = true
				leaks = append(leaks, SecretLeak{Where: where, Offset: at, Form: n.Form})
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
