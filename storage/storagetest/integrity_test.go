package storagetest

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/storage"
)

func TestIntegrityCheckFindsCorruption(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSession(ctx, storage.NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 200; i++ {
		if _, err := db.AppendInteraction(ctx, storage.Interaction{SessionID: s.ID, Seq: i, Kind: "click",
			Payload: []byte(`{"target":"e12","text":"` + strings.Repeat("x", 200) + `"}`)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := IntegrityCheck(ctx, path); err != nil {
		t.Fatalf("IntegrityCheck() on a healthy database = %v", err)
	}
	db.Close()

	// Scribble over the pages of the interactions, which were written after
	// the schema and so sit in the second half of the file.
	q, err := sql.Open("sqlite", fileURL(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Exec("PRAGMA journal_mode = DELETE"); err != nil {
		t.Fatal(err)
	}
	q.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	const pageSize = 4096
	for off := fi.Size() / 2 / pageSize * pageSize; off < fi.Size(); off += 2 * pageSize {
		f.WriteAt([]byte(strings.Repeat("\xde\xad", 200)), off+100)
	}
	f.Close()

	db, err = storage.Open(ctx, path)
	if err != nil {
		t.Fatalf("Open of a file damaged past its schema page: %v", err)
	}
	defer db.Close()
	err = IntegrityCheck(ctx, path)
	var ie *IntegrityError
	if !errors.As(err, &ie) || len(ie.Problems) == 0 {
		t.Fatalf("IntegrityCheck() on a damaged file = %v, want an *IntegrityError", err)
	}
}
