package storage

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/golden"
	_ "modernc.org/sqlite"
)

func openTest(t testing.TB, opts ...Option) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "data", "trailpin.db"), opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "nested", "trailpin")
	path := filepath.Join(dir, "trailpin.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	defer db.Close()
	if _, err := db.CreateSession(ctx, NewSession{Title: "force a WAL write"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		mode os.FileMode
	}{{dir, dirMode}, {path, fileMode}, {path + "-wal", fileMode}, {path + "-shm", fileMode}} {
		fi, err := os.Stat(c.path)
		if err != nil {
			t.Fatalf("Stat(%q): %v", c.path, err)
		}
		if got := fi.Mode().Perm(); got != c.mode {
			t.Errorf("mode of %s = %v, want %v", c.path, got, c.mode)
		}
	}
}

func TestOpenSettings(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	for _, c := range []struct {
		pragma string
		want   string
	}{
		{"journal_mode", "wal"},
		{"foreign_keys", "1"},
		{"synchronous", "1"}, // NORMAL
		{"busy_timeout", "5000"},
		{"secure_delete", "1"},
	} {
		var got string
		if err := db.w.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", c.pragma, err)
		}
		if got != c.want {
			t.Errorf("PRAGMA %s = %q, want %q", c.pragma, got, c.want)
		}
	}
	var readOnly string
	if err := db.r.QueryRowContext(ctx, "PRAGMA query_only").Scan(&readOnly); err != nil || readOnly != "1" {
		t.Errorf("reader PRAGMA query_only = %q, %v; want 1", readOnly, err)
	}
}

func TestOpenPathWithSpecialCharacters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a dir?x=1#frag%20", "trail pin.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open(%q): %v", path, err)
	}
	db.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database is not at %q: %v", path, err)
	}
}

func TestMigrationsFromEmptyAndReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := db.SchemaVersion(ctx); err != nil || v != len(migrations) {
		t.Fatalf("SchemaVersion() = %d, %v; want %d", v, err, len(migrations))
	}
	s, err := db.CreateSession(ctx, NewSession{Title: "kept across reopen"})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	if v, err := db.SchemaVersion(ctx); err != nil || v != len(migrations) {
		t.Fatalf("SchemaVersion() after reopen = %d, %v; want %d", v, err, len(migrations))
	}
	got, err := db.Session(ctx, s.ID)
	if err != nil || got.Title != s.Title {
		t.Fatalf("Session(%q) after reopen = %+v, %v; want title %q", s.ID, got, err, s.Title)
	}
	checkIntegrity(t, ctx, db)
}

// TestMigrationsApplyInOrder runs a longer, made-up history: each migration
// is its own transaction, and one that fails leaves the database at the
// version before it.
func TestMigrationsApplyInOrder(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	history := append(append([]migration{}, migrations...),
		migration{version: len(migrations) + 1, name: "add a column", sql: "ALTER TABLE sessions ADD COLUMN note TEXT NOT NULL DEFAULT ''"},
		migration{version: len(migrations) + 2, name: "broken", sql: "CREATE TABLE half (x INTEGER); CREATE TABLE oops ("},
	)
	err = db.migrate(ctx, history)
	if err == nil || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("migrate with a broken migration = %v, want an error naming it", err)
	}
	if v, err := db.SchemaVersion(ctx); err != nil || v != len(migrations)+1 {
		t.Errorf("SchemaVersion() = %d, %v; want %d (the migration before the broken one)", v, err, len(migrations)+1)
	}
	var n int
	if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = 'half'").Scan(&n); err != nil || n != 0 {
		t.Errorf("table from the failed migration: count %d, %v; want it rolled back", n, err)
	}
	if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'note'").Scan(&n); err != nil || n != 1 {
		t.Errorf("column from the applied migration: count %d, %v; want 1", n, err)
	}
}

func TestOpenRefuses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
		want  error
	}{
		{"newer schema", func(t *testing.T, path string) {
			db, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			rawExec(t, path, "PRAGMA user_version = 99")
		}, ErrNewerSchema},
		{"another program's database", func(t *testing.T, path string) {
			rawExec(t, path, "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)")
		}, ErrNotTrailpin},
		{"another application id", func(t *testing.T, path string) {
			rawExec(t, path, "PRAGMA application_id = 1234")
		}, ErrNotTrailpin},
		{"not a database", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("this is a text file, not SQLite\n", 200)), 0o600); err != nil {
				t.Fatal(err)
			}
		}, ErrNotTrailpin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			tt.setup(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			db, err := Open(ctx, path)
			if err == nil {
				db.Close()
				t.Fatalf("Open(%s) succeeded, want an error wrapping %v", tt.name, tt.want)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open(%s) = %v, want an error wrapping %v", tt.name, err, tt.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			after, _ := os.ReadFile(path)
			if string(before) != string(after) {
				t.Errorf("Open(%s) changed the file it refused", tt.name)
			}
		})
	}
}

// rawExec runs one statement on the file with no Trailpin logic in between.
func rawExec(t *testing.T, path, stmt string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// TestSchemaGolden pins the schema: a change to it must come with a new
// migration, and shows up here as a diff to review.
func TestSchemaGolden(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	rows, err := db.r.QueryContext(ctx, "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY type DESC, name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, stmt string
		if err := rows.Scan(&typ, &name, &stmt); err != nil {
			t.Fatal(err)
		}
		b.WriteString("-- " + typ + " " + name + "\n" + stmt + ";\n\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	golden.CheckString(t, filepath.Join("testdata", "schema.sql"), b.String())
	if t.Failed() {
		t.Log("a change to the schema comes with a new migration: add one, rewrite the golden file and review the diff")
	}
}

// TestWriteWaitsOutALongLock holds the write lock from another connection
// for longer than the busy timeout: the write must retry, not fail, and
// succeed once the lock is released.
func TestWriteWaitsOutALongLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	db, err := Open(ctx, path, withBusyTimeout(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}

	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	done := make(chan error, 1)
	go func() {
		_, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: clickPayload(1)}, nil)
		done <- err
	}()
	// Keep the lock until the writer has given up on SQLite's own wait at
	// least twice.
	deadline := time.Now().Add(maxBusyWait / 2)
	for db.retries.Load() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the write never retried while the lock was held")
		}
		select {
		case err := <-done:
			t.Fatalf("AppendInteraction returned %v while another connection held the write lock", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("AppendInteraction after the lock was released: %v", err)
	}
	if list, _ := db.Interactions(ctx, s.ID); len(list) != 1 {
		t.Errorf("%d interactions stored, want 1", len(list))
	}
}

// TestFirstOpensAtOnce opens a new database from many connections at once,
// as twenty `host replay --db` processes starting together do: every Open
// must succeed, none may take the file for another program's while another
// applies the first migration.
func TestFirstOpensAtOnce(t *testing.T) {
	const opens = 20
	for round := range 20 {
		path := filepath.Join(t.TempDir(), "trailpin.db")
		errs := make(chan error, opens)
		start := make(chan struct{})
		for range opens {
			go func() {
				<-start
				db, err := Open(context.Background(), path)
				if err == nil {
					err = db.Close()
				}
				errs <- err
			}()
		}
		close(start)
		for range opens {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: one of %d Opens at once of a new database: %v", round, opens, err)
			}
		}
	}
}
