package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

const (
	// busyTimeout is how long SQLite itself waits for another connection's
	// lock before a statement fails with SQLITE_BUSY. Several host processes
	// may share one database (Chrome can start more than one host), and a
	// writer holds the lock only for one short transaction.
	busyTimeout = 5 * time.Second

	// maxBusyWait bounds the retries of a whole transaction that still
	// failed with SQLITE_BUSY or SQLITE_LOCKED after busyTimeout: long
	// enough to ride out a large prune or checkpoint in another process, short
	// enough that a stuck lock surfaces as an error instead of a hang.
	maxBusyWait = 30 * time.Second

	// firstRetryDelay and maxRetryDelay shape the backoff between whole
	// transaction retries; jitter keeps two processes from retrying in step.
	firstRetryDelay = 10 * time.Millisecond
	maxRetryDelay   = 500 * time.Millisecond

	// readConns is the size of the reader pool. WAL lets readers run beside
	// the one writer; the host rarely has more than a couple of readers.
	readConns = 4

	// dirMode and fileMode keep recordings private to the user: screens and
	// interactions show whatever the recorded app showed.
	dirMode  = 0o700
	fileMode = 0o600
)

// synchronousMode is the durability of a commit. In WAL mode NORMAL writes
// every committed transaction to the WAL file before the commit returns, so a
// commit survives the host process being killed (SIGKILL, a crash, Chrome
// closing the port): the operating system holds the written pages. It does not
// fsync at each commit, so a power loss or kernel crash may roll back the last
// transactions (never corrupt the file). That matches what an acknowledgement
// promises the extension: the extension keeps unacknowledged interactions in
// memory, so it loses them on a power loss too, and a crash of either process
// loses nothing. FULL would add an fsync to every interaction for a failure
// the rest of the pipeline does not survive anyway; see
// BenchmarkAppendInteraction for the measured cost.
const synchronousMode = "NORMAL"

// ErrNotFound is wrapped by every error about a session, screen, trail or run
// that does not exist; test with errors.Is.
var ErrNotFound = errors.New("not found")

// ErrConflict is wrapped when a write contradicts what is stored, such as a
// re-sent interaction whose content differs from the stored one.
var ErrConflict = errors.New("conflict")

// ErrInvalid is wrapped when the caller's input cannot be stored as given.
var ErrInvalid = errors.New("invalid input")

// A DB is an open Trailpin database: recordings in progress (sessions, their
// interactions and screens), saved trails with their versions, and replay
// runs for reports. It is safe for concurrent use, and several processes may
// open the same file (Chrome can start more than one host).
//
// Every write is one transaction that is committed when the method returns.
// A DB stores what it is given and decides nothing about it: trail content is
// opaque YAML, interaction payloads are opaque JSON. It never stores a secret
// value: callers redact before they store, and the Redactor given to Open is
// the last check.
type DB struct {
	path string
	// w writes: one connection whose transactions begin IMMEDIATE, so a
	// write transaction takes the write lock up front (and waits for it)
	// instead of failing when a read inside it upgrades.
	w *sql.DB
	// r reads: a small pool of query-only connections.
	r       *sql.DB
	redact  Redactor
	now     func() time.Time
	screens *screenCodec
	// retries counts transactions retried because the database was busy;
	// tests read it to know the retry path ran.
	retries atomic.Int64
}

// An Option changes how Open opens a database.
type Option func(*options)

type options struct {
	redact      Redactor
	synchronous string
	busyTimeout time.Duration
	quickCheck  bool
}

// WithRedactor sets the last line of defence against secrets: every text the
// database stores (interaction payloads, screens, trail content, titles,
// errors) passes through r first. Callers redact before they store; r catches
// what they missed.
func WithRedactor(r Redactor) Option {
	return func(o *options) { o.redact = r }
}

// withBusyTimeout overrides busyTimeout; tests use it to reach the retry
// path without waiting seconds.
func withBusyTimeout(d time.Duration) Option {
	return func(o *options) { o.busyTimeout = d }
}

// withSynchronous overrides synchronousMode; benchmarks use it to measure
// what FULL would cost.
func withSynchronous(mode string) Option {
	return func(o *options) { o.synchronous = mode }
}

// Open opens the database at path, creating it (and its directory, private to
// the user) when missing, and brings its schema up to date. A database written
// by a newer Trailpin, or a file that is not a Trailpin database, is refused
// and left untouched. A damaged file is refused with a *CorruptError (see
// ErrCorrupt) that says how to move it aside; WithQuickCheck finds damage
// anywhere in the file, not only in the pages opening reads.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	o := options{synchronous: synchronousMode, busyTimeout: busyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, fmt.Errorf("opening database: %w: empty path", ErrInvalid)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", path, err)
	}
	if err := createPrivate(abs); err != nil {
		return nil, fmt.Errorf("opening database %s: %w", abs, err)
	}
	codec, err := newScreenCodec()
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", abs, err)
	}
	db := &DB{path: abs, redact: o.redact, now: time.Now, screens: codec}
	if db.redact == nil {
		db.redact = func(b []byte) []byte { return b }
	}
	db.w, err = sql.Open("sqlite", dsn(abs, url.Values{
		"_pragma": {
			fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()),
			"foreign_keys(1)",
			// A pruned recording or deleted trail is overwritten, not
			// left readable in free pages: it shows whatever the
			// recorded app showed.
			"secure_delete(1)",
			"synchronous(" + o.synchronous + ")",
		},
		"_txlock": {"immediate"},
	}))
	if err != nil {
		return nil, fmt.Errorf("opening database %s: %w", abs, err)
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxLifetime(0)
	db.w.SetConnMaxIdleTime(0)
	if o.quickCheck {
		// Before any migration writes into it. Other errors (a file that
		// is not a database at all) are prepare's to explain.
		if err := db.quickCheck(ctx); errors.Is(err, ErrCorrupt) {
			db.w.Close()
			return nil, err
		}
	}
	if err := db.prepare(ctx, migrations); err != nil {
		db.w.Close()
		if err := damaged(abs, err); errors.Is(err, ErrCorrupt) {
			return nil, err
		}
		return nil, fmt.Errorf("opening database %s: %w", abs, err)
	}
	db.r, err = sql.Open("sqlite", dsn(abs, url.Values{
		"_pragma": {
			fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()),
			"query_only(1)",
		},
	}))
	if err != nil {
		db.w.Close()
		return nil, fmt.Errorf("opening database %s: %w", abs, err)
	}
	db.r.SetMaxOpenConns(readConns)
	db.r.SetMaxIdleConns(readConns)
	return db, nil
}

// createPrivate creates the database's directory and file with user-only
// permissions before SQLite opens it; SQLite gives the -wal and -shm files
// the permissions of the database file.
func createPrivate(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), dirMode); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return err
	}
	return f.Close()
}

// dsn builds a file: URI so that any path (with '?', '#' or '%') reaches
// SQLite intact.
func dsn(path string, q url.Values) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter: file:///C:/…
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

// Path is the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// Close closes the database. SQLite checkpoints the WAL into the main file
// when the last connection to it closes.
func (db *DB) Close() error {
	var errs []error
	if db.r != nil {
		errs = append(errs, db.r.Close())
	}
	errs = append(errs, db.w.Close())
	return errors.Join(errs...)
}

// write runs fn in a write transaction and commits it, retrying the whole
// transaction while another connection holds the lock. fn may run more than
// once, so it must only touch tx. When write returns nil the transaction is
// committed: in WAL mode it is in the -wal file and survives the process
// being killed.
func (db *DB) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return damaged(db.path, db.retryBusy(ctx, func() error {
		tx, err := db.w.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(tx); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}))
}

// read runs fn against the reader pool, retrying while the database is
// busy (a reader can meet SQLITE_BUSY while another process recovers the WAL).
func (db *DB) read(ctx context.Context, fn func(q *sql.DB) error) error {
	return damaged(db.path, db.retryBusy(ctx, func() error { return fn(db.r) }))
}

// retryBusy runs fn until it does not fail with SQLITE_BUSY or
// SQLITE_LOCKED, backing off between attempts, for up to maxBusyWait.
func (db *DB) retryBusy(ctx context.Context, fn func() error) error {
	deadline := time.Now().Add(maxBusyWait)
	delay := firstRetryDelay
	for {
		err := fn()
		if !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		db.retries.Add(1)
		jittered := delay/2 + rand.N(delay)
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(jittered):
		}
		delay = min(delay*2, maxRetryDelay)
	}
}

// isBusy reports whether err is SQLite saying another connection holds a
// lock (SQLITE_BUSY, SQLITE_LOCKED and their extended codes).
func isBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return true
	}
	return false
}

// Checkpoint copies the WAL into the main file and truncates the WAL, so the
// file alone holds everything. Readers in other processes can keep it from
// completing; it then returns without error after doing what it could.
func (db *DB) Checkpoint(ctx context.Context) error {
	return db.retryBusy(ctx, func() error {
		_, err := db.w.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
		return err
	})
}

// nowMillis is the current time in Unix milliseconds, the unit of every time
// column.
func (db *DB) nowMillis() int64 { return db.now().UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms) }

func fromNullMillis(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return time.UnixMilli(ms.Int64)
}

// sqliteConstraintForeignKey is SQLITE_CONSTRAINT_FOREIGNKEY: a row refers
// to a row that does not exist.
const sqliteConstraintForeignKey = sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY

// invalidf returns an error wrapping ErrInvalid.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}
