package storage

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// An outside agent's spans are kept with the recording, survive a reopen
// of the database (a host restarted mid-recording), hold a secret's name
// only, and go with their session.
func TestClientSpansKeptWithTheSession(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSession(ctx, NewSession{ID: "r-1", Title: "Sign in"}); err != nil {
		t.Fatal(err)
	}
	want := []ClientSpan{
		{Tab: 7, From: 1, Until: 3, Client: "shop-bot"},
		{Tab: 7, From: 2, Until: 2, Secret: "demo-password"},
	}
	for _, s := range want {
		if err := db.AddClientSpan(ctx, "r-1", s); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.AddClientSpan(ctx, "r-none", want[0]); !errors.Is(err, ErrNotFound) {
		t.Errorf("a span of a session that does not exist: %v, want not found", err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.ClientSpans(ctx, "r-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("spans after a reopen: %+v, want %+v", got, want)
	}
	if other, err := db.ClientSpans(ctx, "r-2"); err != nil || len(other) != 0 {
		t.Errorf("another session's spans: %+v, %v", other, err)
	}
	if _, err := db.w.ExecContext(ctx, "DELETE FROM sessions WHERE id = 'r-1'"); err != nil {
		t.Fatal(err)
	}
	if left, err := db.ClientSpans(ctx, "r-1"); err != nil || len(left) != 0 {
		t.Errorf("spans left after their session was deleted: %+v, %v", left, err)
	}
}
