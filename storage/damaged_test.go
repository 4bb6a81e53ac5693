package storage

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// filledDatabase makes a closed database at path whose interactions fill
// many pages after the schema, in rollback-journal mode so the file alone
// holds everything.
func filledDatabase(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 200; i++ {
		if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: i, Kind: "click",
			Payload: []byte(`{"target":"e12","text":"` + strings.Repeat("x", 200) + `"}`)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	rawExec(t, path, "PRAGMA journal_mode = DELETE")
}

// damageDatabase are the ways a database file gets damaged: a copy or a
// disk that stopped half-way, and pages overwritten by something else.
var damageDatabase = map[string]func(t *testing.T, path string){
	"truncated": func(t *testing.T, path string) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(path, fi.Size()/2/4096*4096); err != nil {
			t.Fatal(err)
		}
	},
	"overwritten": func(t *testing.T, path string) {
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, _ := f.Stat()
		// Everything after the first page (the header and the schema).
		garbage := bytes.Repeat([]byte("\xde\xad\xbe\xef"), int(fi.Size()-4096)/4)
		if _, err := f.WriteAt(garbage, 4096); err != nil {
			t.Fatal(err)
		}
	},
}

func TestOpenExplainsADamagedDatabase(t *testing.T) {
	for name, damage := range damageDatabase {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "trailpin.db")
			filledDatabase(t, path)
			damage(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}

			db, err := Open(ctx, path, WithQuickCheck())
			if err == nil {
				db.Close()
				t.Fatalf("Open(%s database, WithQuickCheck) = nil error, want ErrCorrupt", name)
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Open(%s database) = %v, want an error wrapping ErrCorrupt", name, err)
			}
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Path != path {
				t.Fatalf("Open(%s database) = %#v, want a *CorruptError for %s", name, err, path)
			}
			msg := err.Error()
			for _, want := range []string{path, "is damaged", "mv " + path + " " + path + ".damaged",
				"Lost with it: recordings not saved yet", "run history", "exported trail files"} {
				if !strings.Contains(msg, want) {
					t.Errorf("Open(%s database) says\n%s\nwant it to contain %q", name, msg, want)
				}
			}
			if strings.Contains(msg, "malformed") || strings.Contains(msg, "(11)") {
				t.Errorf("Open(%s database) shows SQLite's raw error: %s", name, msg)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Errorf("Open changed the damaged file (%d bytes, was %d): it must be left for a recovery attempt", len(after), len(before))
			}

			if runtime.GOOS == "windows" {
				return
			}
			// The command the message gives does what it says: the damaged
			// file moves aside and the next Open starts a new database.
			if out, err := exec.Command("sh", "-c", ce.MoveAside()).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", ce.MoveAside(), err, out)
			}
			if moved, _ := os.ReadFile(path + ".damaged"); !bytes.Equal(moved, before) {
				t.Errorf("%s did not move the damaged file to %s.damaged", ce.MoveAside(), path)
			}
			db, err = Open(ctx, path, WithQuickCheck())
			if err != nil {
				t.Fatalf("Open after moving the damaged file aside: %v", err)
			}
			db.Close()
		})
	}
}

// A damaged page that opening does not read is found by the first read that
// meets it, and reported the same way.
func TestReadOfADamagedPageIsExplained(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	filledDatabase(t, path)
	// Scribble over the pages of the interactions, in the second half of
	// the file, after the schema.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	for off := fi.Size() / 2 / 4096 * 4096; off < fi.Size(); off += 4096 {
		f.WriteAt(bytes.Repeat([]byte("\xde\xad"), 200), off+100)
	}
	f.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open without a quick check of a file damaged past its schema page: %v", err)
	}
	defer db.Close()
	// Whichever read meets the damage first.
	list, err := db.Sessions(ctx)
	if err == nil && len(list) == 1 {
		_, err = db.Interactions(ctx, list[0].ID)
	}
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "mv ") {
		t.Fatalf("reading a damaged page = %v, want ErrCorrupt saying how to move the file aside", err)
	}
}

func TestQuickCheckPassesAHealthyDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trailpin.db")
	filledDatabase(t, path)
	db, err := Open(context.Background(), path, WithQuickCheck())
	if err != nil {
		t.Fatalf("Open(healthy database, WithQuickCheck) = %v", err)
	}
	db.Close()
}

func TestMoveAsideTakesTheWALAlongAndKeepsEarlierCopies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "my data", "trailpin.db")
	os.MkdirAll(filepath.Dir(path), 0o700)
	for _, name := range []string{path, path + "-wal", path + ".damaged"} {
		os.WriteFile(name, []byte("x"), 0o600)
	}
	got := (&CorruptError{Path: path}).MoveAside()
	q := "'" + filepath.Dir(path) + "/trailpin.db"
	want := "mv " + q + "' " + q + ".damaged-2' && mv " + q + "-wal' " + q + ".damaged-2-wal'"
	if runtime.GOOS != "windows" && got != want {
		t.Errorf("MoveAside() = %s\nwant %s", got, want)
	}
}
