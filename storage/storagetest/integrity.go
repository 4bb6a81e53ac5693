package storagetest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// An IntegrityError lists what PRAGMA integrity_check and
// PRAGMA foreign_key_check found wrong.
type IntegrityError struct {
	Path     string
	Problems []string
}

func (e *IntegrityError) Error() string {
	return fmt.Sprintf("database %s failed its integrity check (%d problems): %s",
		e.Path, len(e.Problems), strings.Join(e.Problems, "; "))
}

// IntegrityCheck runs SQLite's integrity and foreign-key checks on the
// database at path, on a connection of its own (the database may be open
// elsewhere). It returns nil when both are clean and an *IntegrityError
// listing the problems otherwise.
func IntegrityCheck(ctx context.Context, path string) error {
	q, err := sql.Open("sqlite", fileURL(path, url.Values{"_pragma": {"busy_timeout(10000)"}}))
	if err != nil {
		return fmt.Errorf("checking integrity of %s: %w", path, err)
	}
	defer q.Close()
	var problems []string
	err = func() error {
		rows, err := q.QueryContext(ctx, "PRAGMA integrity_check")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			if s != "ok" {
				problems = append(problems, s)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		fk, err := q.QueryContext(ctx, "PRAGMA foreign_key_check")
		if err != nil {
			return err
		}
		defer fk.Close()
		for fk.Next() {
			var table, parent string
			var rowid sql.NullInt64
			var fkid int64
			if err := fk.Scan(&table, &rowid, &parent, &fkid); err != nil {
				return err
			}
			problems = append(problems, fmt.Sprintf("row %d of %s refers to a missing row of %s", rowid.Int64, table, parent))
		}
		return fk.Err()
	}()
	if isCorrupt(err) {
		// SQLite can give up on a page it cannot parse instead of listing it.
		problems = append(problems, err.Error())
	} else if err != nil {
		return fmt.Errorf("checking integrity of %s: %w", path, err)
	}
	if len(problems) > 0 {
		return &IntegrityError{Path: path, Problems: problems}
	}
	return nil
}

// isCorrupt reports whether err is SQLite finding the file damaged.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// fileURL is the file: URL the sqlite driver opens path with.
func fileURL(path string, q url.Values) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter: file:///C:/…
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}
