package storage

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"unicode/utf16"
)

// minLeakPrefix is the shortest prefix of a secret that counts as a leak: a
// field saved keystroke by keystroke leaks "hunt", "hunte", … of "hunter2".
// Three characters or fewer match ordinary text too often to mean anything.
const minLeakPrefix = 4

// A Leak is one place where a secret, or a part of one, was found. It never
// holds the secret itself, so it can be printed in a test failure or a log.
type Leak struct {
	// Where is the file, or "table.column row N" for a decompressed value.
	Where  string
	Offset int64
	// Form says how the secret appeared: "as typed", "JSON-escaped",
	// "UTF-16LE", "UTF-16BE", "base64", "base64url", each with
	// "prefix of N characters" when only a prefix was found.
	Form string
}

func (l Leak) String() string {
	return fmt.Sprintf("%s at byte %d: the secret %s", l.Where, l.Offset, l.Form)
}

// A needle is one byte string to look for and how to describe finding it.
type needle struct {
	b    []byte
	form string
}

// secretNeedles lists the forms a secret can leak in: the value as typed,
// JSON-escaped, UTF-16 (both byte orders) and base64 (standard and URL
// alphabets, at each of the three alignments inside a longer encoding); and
// every prefix longer than minLeakPrefix-1 characters as typed, JSON-escaped
// and UTF-16.
func secretNeedles(secret string) []needle {
	var out []needle
	seen := map[string]bool{}
	add := func(b []byte, form string) {
		if len(b) == 0 || seen[string(b)] {
			return
		}
		seen[string(b)] = true
		out = append(out, needle{b, form})
	}
	runes := []rune(secret)
	for n := len(runes); n >= 1; n-- {
		if n < minLeakPrefix && n < len(runes) {
			break
		}
		p := string(runes[:n])
		form := ""
		if n < len(runes) {
			form = fmt.Sprintf(", prefix of %d characters", n)
		}
		for i, f := range jsonForms(p) {
			name := "as typed"
			if i > 0 {
				name = "JSON-escaped"
			}
			add([]byte(f), name+form)
		}
		add(utf16Bytes(p, false), "UTF-16LE"+form)
		add(utf16Bytes(p, true), "UTF-16BE"+form)
	}
	for _, enc := range []struct {
		name string
		e    *base64.Encoding
	}{{"base64", base64.RawStdEncoding}, {"base64url", base64.RawURLEncoding}} {
		for _, b := range base64Runs(enc.e, []byte(secret)) {
			add(b, enc.name)
		}
	}
	return out
}

func utf16Bytes(s string, bigEndian bool) []byte {
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

// base64Runs returns the characters that encoding s yields whatever bytes
// surround it, for each of the three positions s can start at relative to a
// 3-byte group of a longer encoded text.
func base64Runs(enc *base64.Encoding, s []byte) [][]byte {
	var runs [][]byte
	for k := range 3 {
		padded := append(make([]byte, k), s...)
		text := enc.EncodeToString(padded)
		// Character i covers bits [6i, 6i+6); keep those inside s.
		first := (8*k + 5) / 6
		last := (8 * (k + len(s))) / 6
		if first < last && last <= len(text) {
			runs = append(runs, []byte(text[first:last]))
		}
	}
	return runs
}

// ScanFiles looks for secret, in the forms a leak takes, in the bytes of each
// file (a missing file holds nothing). For a database pass the file, its
// -wal and its -shm; ScanDatabase also looks inside compressed screens.
func ScanFiles(paths []string, secret string) ([]Leak, error) {
	if secret == "" {
		return nil, errors.New("scanning for a secret: the secret is empty")
	}
	needles := secretNeedles(secret)
	var leaks []Leak
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return leaks, fmt.Errorf("scanning %s for a secret: %w", p, err)
		}
		leaks = append(leaks, scanBytes(p, b, needles)...)
	}
	return leaks, nil
}

// scanBytes reports the first place each needle occurs in b, preferring the
// most complete form: once a longer form matched at a place, its prefixes
// there are not reported again.
func scanBytes(where string, b []byte, needles []needle) []Leak {
	var leaks []Leak
	var covered []int64
	for _, n := range needles {
		i := bytes.Index(b, n.b)
		if i < 0 || slices.Contains(covered, int64(i)) {
			continue
		}
		covered = append(covered, int64(i))
		leaks = append(leaks, Leak{Where: where, Offset: int64(i), Form: n.form})
	}
	return leaks
}

// ScanDatabase looks for secret in the database at path: in the raw bytes of
// the file, its -wal and -shm (ScanFiles), and in every stored value read back
// through SQL with screens decompressed, which finds what compression or a
// page boundary hides from a byte search. Deleted rows are overwritten in the
// file (secure_delete), but their pages can stay in the -wal until the next
// checkpoint; the raw search sees those, though not through a screen's
// compression.
func ScanDatabase(ctx context.Context, path, secret string) ([]Leak, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("scanning database for a secret: %w", err)
	}
	leaks, err := ScanFiles([]string{path, path + "-wal", path + "-shm"}, secret)
	if err != nil {
		return leaks, err
	}
	db, err := Open(ctx, path)
	if err != nil {
		return leaks, fmt.Errorf("scanning %s for a secret: %w", path, err)
	}
	defer db.Close()
	more, err := db.scanValues(ctx, secretNeedles(secret))
	if err != nil {
		return leaks, fmt.Errorf("scanning %s for a secret: %w", path, err)
	}
	return append(leaks, more...), nil
}

// scanValues searches every text and blob value of every table, decoding
// screens first.
func (db *DB) scanValues(ctx context.Context, needles []needle) ([]Leak, error) {
	var leaks []Leak
	err := db.read(ctx, func(q *sql.DB) error {
		leaks = leaks[:0]
		tables, err := tableNames(ctx, q)
		if err != nil {
			return err
		}
		for _, table := range tables {
			more, err := db.scanTable(ctx, q, table, needles)
			if err != nil {
				return err
			}
			leaks = append(leaks, more...)
		}
		return nil
	})
	return leaks, err
}

func tableNames(ctx context.Context, q *sql.DB) ([]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

func (db *DB) scanTable(ctx context.Context, q *sql.DB, table string, needles []needle) ([]Leak, error) {
	rows, err := q.QueryContext(ctx, fmt.Sprintf("SELECT rowid AS _r, * FROM %q", table))
	if err != nil {
		// WITHOUT ROWID tables have no rowid; number their rows instead.
		rows, err = q.QueryContext(ctx, fmt.Sprintf("SELECT 0 AS _r, * FROM %q", table))
		if err != nil {
			return nil, err
		}
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var leaks []Leak
	var screenIDs []int64
	for n := int64(1); rows.Next(); n++ {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		rowid, _ := vals[0].(int64)
		if rowid == 0 {
			rowid = n
		}
		if table == "screens" {
			screenIDs = append(screenIDs, rowid)
		}
		for i, v := range vals[1:] {
			var b []byte
			switch v := v.(type) {
			case string:
				b = []byte(v)
			case []byte:
				b = v
			default:
				continue
			}
			where := fmt.Sprintf("%s.%s row %d", table, cols[i+1], rowid)
			leaks = append(leaks, scanBytes(where, b, needles)...)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for _, id := range screenIDs {
		raw, err := db.screenJSON(ctx, q, id)
		if err != nil {
			return nil, err
		}
		leaks = append(leaks, scanBytes(fmt.Sprintf("screens.data row %d (decompressed)", id), raw, needles)...)
	}
	return leaks, nil
}
