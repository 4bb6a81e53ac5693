package storage_test

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

	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
)

func TestOpenExplainsADamagedDatabase(t *testing.T) {
	for _, name := range storagetest.FileDamages {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "trailpin.db")
			storagetest.FilledDatabase(t, path)
			storagetest.Damage(t, path, name)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}

			db, err := storage.Open(ctx, path, storage.WithQuickCheck())
			if err == nil {
				db.Close()
				t.Fatalf("storage.Open(%s database, storage.WithQuickCheck) = nil error, want storage.ErrCorrupt", name)
			}
			if !errors.Is(err, storage.ErrCorrupt) {
				t.Fatalf("storage.Open(%s database) = %v, want an error wrapping storage.ErrCorrupt", name, err)
			}
			var ce *storage.CorruptError
			if !errors.As(err, &ce) || ce.Path != path {
				t.Fatalf("storage.Open(%s database) = %#v, want a *storage.CorruptError for %s", name, err, path)
			}
			msg := err.Error()
			for _, want := range []string{path, "is damaged", "mv " + path + " " + path + ".damaged",
				"Lost with it: recordings not saved yet", "run history", "exported trail files"} {
				if !strings.Contains(msg, want) {
					t.Errorf("storage.Open(%s database) says\n%s\nwant it to contain %q", name, msg, want)
				}
			}
			if strings.Contains(msg, "malformed") || strings.Contains(msg, "(11)") {
				t.Errorf("storage.Open(%s database) shows SQLite's raw error: %s", name, msg)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(before, after) {
				t.Errorf("storage.Open changed the damaged file (%d bytes, was %d): it must be left for a recovery attempt", len(after), len(before))
			}

			if runtime.GOOS == "windows" {
				return
			}
			// The command the message gives does what it says: the damaged
			// file moves aside and the next storage.Open starts a new database.
			if out, err := exec.Command("sh", "-c", ce.MoveAside()).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", ce.MoveAside(), err, out)
			}
			if moved, _ := os.ReadFile(path + ".damaged"); !bytes.Equal(moved, before) {
				t.Errorf("%s did not move the damaged file to %s.damaged", ce.MoveAside(), path)
			}
			db, err = storage.Open(ctx, path, storage.WithQuickCheck())
			if err != nil {
				t.Fatalf("storage.Open after moving the damaged file aside: %v", err)
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
	storagetest.FilledDatabase(t, path)
	storagetest.Damage(t, path, storagetest.Scribbled)
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatalf("storage.Open without a quick check of a file damaged past its schema page: %v", err)
	}
	defer db.Close()
	// Whichever read meets the damage first.
	list, err := db.Sessions(ctx)
	if err == nil && len(list) == 1 {
		_, err = db.Interactions(ctx, list[0].ID)
	}
	if !errors.Is(err, storage.ErrCorrupt) || !strings.Contains(err.Error(), "mv ") {
		t.Fatalf("reading a damaged page = %v, want storage.ErrCorrupt saying how to move the file aside", err)
	}
}

func TestQuickCheckPassesAHealthyDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trailpin.db")
	storagetest.FilledDatabase(t, path)
	db, err := storage.Open(context.Background(), path, storage.WithQuickCheck())
	if err != nil {
		t.Fatalf("storage.Open(healthy database, storage.WithQuickCheck) = %v", err)
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
	got := (&storage.CorruptError{Path: path}).MoveAside()
	q := "'" + filepath.Dir(path) + "/trailpin.db"
	want := "mv " + q + "' " + q + ".damaged-2' && mv " + q + "-wal' " + q + ".damaged-2-wal'"
	if runtime.GOOS != "windows" && got != want {
		t.Errorf("MoveAside() = %s\nwant %s", got, want)
	}
}
