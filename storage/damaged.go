package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrCorrupt is wrapped by every error about a database file that is
// damaged (truncated, overwritten, a disk fault): SQLite cannot read all of
// it, so nothing stored in it can be trusted. Test with errors.Is; errors.As
// with *CorruptError gives the path and the command that moves it aside.
var ErrCorrupt = errors.New("database is damaged")

// maxProblems bounds the problems quick_check is asked to list: the first few
// say what kind of damage it is; the full list helps no one decide anything.
const maxProblems = 10

// What is lost with a damaged database, and what is not: said wherever the
// damage is reported, so nobody moves the file aside without knowing.
const (
	lostWithDatabase = "recordings not saved yet, saved trails never exported to a file, and the run history"
	keptOutside      = "exported trail files (*.trail.yaml) are not in the database and are not affected; `host import` reads them into the new one"
)

// A CorruptError says that the database file at Path is damaged and what to
// do about it. It matches ErrCorrupt with errors.Is.
type CorruptError struct {
	// Path is the database file.
	Path string
	// Problems are quick_check's lines, SQLite's own words about the
	// damage: for the log, not for the person. Empty when a read failed
	// on the damage instead (Unwrap gives its error).
	Problems []string
	// err is the failed read's error, when a read found the damage.
	err error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the database %s is damaged and Trailpin cannot use it (%s). "+
		"Move it aside and a new one is made at the next start: %s. Lost with it: %s; %s",
		e.Path, e.Summary(), e.MoveAside(), lostWithDatabase, keptOutside)
}

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns SQLite's error, when a read found the damage.
func (e *CorruptError) Unwrap() error { return e.err }

// Summary says in a few words how the damage was found.
func (e *CorruptError) Summary() string {
	switch n := len(e.Problems); {
	case n == 0:
		return "SQLite could not read it"
	case n == 1:
		return "SQLite's quick check found a problem"
	case n >= maxProblems:
		return fmt.Sprintf("SQLite's quick check found %d problems or more", n)
	default:
		return fmt.Sprintf("SQLite's quick check found %d problems", n)
	}
}

// Lost says what moving the database aside loses and what it does not.
func (e *CorruptError) Lost() string { return lostWithDatabase + "; " + keptOutside }

// MoveAside is the command that moves the damaged file (and the -wal and
// -shm files SQLite keeps beside it) out of the way, under names that keep
// them together for a recovery attempt (`sqlite3 FILE .recover`). The
// -wal file must move with it: left behind, SQLite would replay it into the
// new database.
func (e *CorruptError) MoveAside() string {
	target := e.Path + ".damaged"
	for i := 2; exists(target); i++ {
		target = fmt.Sprintf("%s.damaged-%d", e.Path, i)
	}
	mv, quote := "mv", shellQuote
	if runtime.GOOS == "windows" {
		mv, quote = "move", func(s string) string { return `"` + s + `"` }
	}
	cmds := []string{fmt.Sprintf("%s %s %s", mv, quote(e.Path), quote(target))}
	for _, suffix := range []string{"-wal", "-shm"} {
		if exists(e.Path + suffix) {
			cmds = append(cmds, fmt.Sprintf("%s %s %s", mv, quote(e.Path+suffix), quote(target+suffix)))
		}
	}
	return strings.Join(cmds, " && ")
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	plain := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@%=", r))
	}) < 0
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// damaged turns SQLite finding the file damaged (SQLITE_CORRUPT; a file
// whose very header is not SQLite's is ErrNotTrailpin instead) into a *CorruptError; any
// other error is returned as it is.
func damaged(path string, err error) error {
	var ce *CorruptError
	var se *sqlite.Error
	if err == nil || errors.As(err, &ce) || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_CORRUPT {
		return err
	}
	return &CorruptError{Path: path, err: err}
}

// WithQuickCheck makes Open read the whole file with SQLite's quick_check
// before using it, so that damage is found at once, with what to do, rather
// than by whichever write first meets a bad page. It costs a read of the
// file: for the long-lived host Chrome starts and for `host doctor`, not for
// every command.
func WithQuickCheck() Option {
	return func(o *options) { o.quickCheck = true }
}

// quickCheck runs PRAGMA quick_check: every page and every record is read,
// without the index cross-checks of integrity_check (which are much slower
// and find nothing that would lose a recording).
func (db *DB) quickCheck(ctx context.Context) error {
	var problems []string
	err := db.retryBusy(ctx, func() error {
		problems = problems[:0]
		rows, err := db.w.QueryContext(ctx, fmt.Sprintf("PRAGMA quick_check(%d)", maxProblems))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s sql.NullString
			if err := rows.Scan(&s); err != nil {
				return err
			}
			if s.String != "ok" {
				problems = append(problems, s.String)
			}
		}
		return rows.Err()
	})
	if err != nil {
		return damaged(db.path, err)
	}
	if len(problems) > 0 {
		return &CorruptError{Path: db.path, Problems: problems}
	}
	return nil
}
