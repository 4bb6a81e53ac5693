package storagetest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"

	"github.com/trailpin/trailpin/storage"
)

// A Leak is one place where a secret, or a part of one, was found. It never
// holds the secret itself, so it can be printed in a test failure or a log.
type Leak struct {
	// Where is the file, or "table.column row N" for a decompressed value.
	Where  string
	Offset int64
	// Form says how the secret appeared (SecretForm.Form): "as typed",
	// "JSON-escaped", "UTF-16LE", "UTF-16BE", "base64 (alignment K)",
	// "base64url (alignment K)", each with ", prefix of N characters" when
	// only a prefix was found.
	Form string
}

func (l Leak) String() string {
	return fmt.Sprintf("%s at byte %d: the secret %s", l.Where, l.Offset, l.Form)
}

// ScanFiles looks for secret, in the forms a leak takes, in the bytes of each
// file (a missing file holds nothing). For a database pass the file, its
// -wal and its -shm; ScanDatabase also looks inside compressed screens.
func ScanFiles(paths []string, secret string) ([]Leak, error) {
	if secret == "" {
		return nil, errors.New("scanning for a secret: the secret is empty")
	}
	needles := storage.SecretForms(secret)
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
func scanBytes(where string, b []byte, needles []storage.SecretForm) []Leak {
	var leaks []Leak
	var covered []int64
	for _, n := range needles {
		i := bytes.Index(b, n.Bytes)
		if i < 0 || slices.Contains(covered, int64(i)) {
			continue
		}
		covered = append(covered, int64(i))
		leaks = append(leaks, Leak{Where: where, Offset: int64(i), Form: n.Form})
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
	db, err := storage.Open(ctx, path)
	if err != nil {
		return leaks, fmt.Errorf("scanning %s for a secret: %w", path, err)
	}
	defer db.Close()
	q, err := sql.Open("sqlite", fileURL(db.Path(), url.Values{"_pragma": {"busy_timeout(10000)"}}))
	if err != nil {
		return leaks, fmt.Errorf("scanning %s for a secret: %w", path, err)
	}
	defer q.Close()
	more, err := scanValues(ctx, db, q, storage.SecretForms(secret))
	if err != nil {
		return leaks, fmt.Errorf("scanning %s for a secret: %w", path, err)
	}
	return append(leaks, more...), nil
}

// scanValues searches every text and blob value of every table, and every
// screen decoded by db.
func scanValues(ctx context.Context, db *storage.DB, q *sql.DB, needles []storage.SecretForm) ([]Leak, error) {
	tables, err := tableNames(ctx, q)
	if err != nil {
		return nil, err
	}
	var leaks []Leak
	for _, table := range tables {
		more, err := scanTable(ctx, db, q, table, needles)
		if err != nil {
			return leaks, err
		}
		leaks = append(leaks, more...)
	}
	return leaks, nil
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

func scanTable(ctx context.Context, db *storage.DB, q *sql.DB, table string, needles []storage.SecretForm) ([]Leak, error) {
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
	type screen struct {
		id   int64
		hash storage.ScreenHash
	}
	var screens []screen
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
		for i, v := range vals[1:] {
			if h, ok := v.([]byte); ok && table == "screens" && cols[i+1] == "hash" && len(h) == len(storage.ScreenHash{}) {
				screens = append(screens, screen{rowid, storage.ScreenHash(h)})
			}
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
	for _, s := range screens {
		raw, err := db.ScreenJSON(ctx, s.hash)
		if err != nil {
			return nil, err
		}
		leaks = append(leaks, scanBytes(fmt.Sprintf("screens.data row %d (decompressed)", s.id), raw, needles)...)
	}
	return leaks, nil
}
