package storage

import (
	"context"
	"errors"
	"testing"
)

func TestSetSessionProjectAndDiscard(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, NewSession{ID: "rec-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetSessionProject(ctx, s.ID, "/src/shop", "shop"); err != nil {
		t.Fatal(err)
	}
	got, err := db.Session(ctx, s.ID)
	if err != nil || got.ProjectDir != "/src/shop" || got.App != "shop" {
		t.Fatalf("Session = %+v, %v; want the project and app set", got, err)
	}
	if err := db.SetSessionProject(ctx, "nope", "/x", "y"); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetSessionProject(unknown) = %v, want ErrNotFound", err)
	}

	screen := shopScreen(200, 1)
	if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: clickPayload(1)}, screen); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: 2, Kind: "click", Payload: clickPayload(2)}, nil); err != nil {
		t.Fatal(err)
	}
	h, err := db.InteractionScreen(ctx, s.ID, 1)
	if err != nil || h.IsZero() {
		t.Fatalf("InteractionScreen(1) = %v, %v; want the screen's hash", h, err)
	}
	if back, err := db.Screen(ctx, h); err != nil || back.URL != screen.URL {
		t.Fatalf("the hash names another screen: %v", err)
	}
	if h, err := db.InteractionScreen(ctx, s.ID, 2); err != nil || !h.IsZero() {
		t.Errorf("InteractionScreen(2) = %v, %v; want zero", h, err)
	}
	if _, err := db.InteractionScreen(ctx, s.ID, 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("InteractionScreen(3) = %v, want ErrNotFound", err)
	}

	deleted, err := db.DiscardSession(ctx, s.ID)
	if err != nil || !deleted {
		t.Fatalf("DiscardSession = %v, %v", deleted, err)
	}
	if n := countRows(t, db, "screens"); n != 0 {
		t.Errorf("%d screens left after discarding their only session", n)
	}
	if n := countRows(t, db, "interactions"); n != 0 {
		t.Errorf("%d interactions left", n)
	}
	if deleted, err := db.DiscardSession(ctx, s.ID); err != nil || deleted {
		t.Errorf("DiscardSession again = %v, %v; want false, nil", deleted, err)
	}

	saved, _ := db.CreateSession(ctx, NewSession{ID: "rec-2"})
	if _, err := db.SaveTrail(ctx, TrailInput{Slug: "t", Title: "T", App: "shop", Content: []byte("version: 1\n"), SessionID: saved.ID}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DiscardSession(ctx, saved.ID); !errors.Is(err, ErrConflict) {
		t.Errorf("DiscardSession(saved) = %v, want ErrConflict", err)
	}
}
