package storagetest

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/trailpin/trailpin/storage"
)

func TestIntegrityCheckFindsCorruption(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	FilledDatabase(t, path)
	if err := IntegrityCheck(ctx, path); err != nil {
		t.Fatalf("IntegrityCheck() on a healthy database = %v", err)
	}
	Damage(t, path, Scribbled)
	db, err := storage.Open(ctx, path)
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
