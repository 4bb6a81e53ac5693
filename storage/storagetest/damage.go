package storagetest

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/storage"
)

// pageSize is SQLite's default page size, which Trailpin's databases use.
const pageSize = 4096

// FilledDatabase makes a closed database at path with one recording whose
// 200 interactions fill many pages after the schema, in rollback-journal
// mode so that the file alone holds everything (as after a clean shutdown).
func FilledDatabase(t testing.TB, path string) {
	t.Helper()
	ctx := context.Background()
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
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec("PRAGMA journal_mode = DELETE"); err != nil {
		t.Fatal(err)
	}
}

// The ways a test damages a database file.
const (
	// Truncated: a copy, or a disk, that stopped half-way.
	Truncated = "truncated"
	// Overwritten: every page after the first (the header and the schema)
	// replaced by something else. Opening with a quick check finds it.
	Overwritten = "overwritten"
	// Scribbled: the pages of the second half of the file, where the
	// interactions sit, scribbled over; the schema is intact, so a plain
	// open succeeds and the first read that meets a damaged page fails.
	Scribbled = "scribbled"
)

// FileDamages are the damages that opening with a quick check must find.
var FileDamages = []string{Truncated, Overwritten}

// Damage damages the closed database file at path the way how says.
func Damage(t testing.TB, path, how string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	half := fi.Size() / 2 / pageSize * pageSize
	switch how {
	case Truncated:
		err = os.Truncate(path, half)
	case Overwritten:
		err = writeAt(path, map[int64][]byte{pageSize: bytes.Repeat([]byte("\xde\xad\xbe\xef"), int(fi.Size()-pageSize)/4)})
	case Scribbled:
		scribbles := map[int64][]byte{}
		for off := half; off < fi.Size(); off += pageSize {
			scribbles[off+100] = bytes.Repeat([]byte("\xde\xad"), 200)
		}
		err = writeAt(path, scribbles)
	default:
		t.Fatalf("storagetest.Damage: no damage %q", how)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func writeAt(path string, at map[int64][]byte) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	for off, b := range at {
		if _, err := f.WriteAt(b, off); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}
