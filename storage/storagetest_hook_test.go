package storage

import (
	"context"
	"testing"
)

// This package's own tests cannot import storagetest, which imports
// storage; storagetest_link_test.go, an external test file, hands them its
// checks through these.
var (
	IntegrityCheckForTest func(ctx context.Context, path string) error
	ScanFilesForTest      func(paths []string, secret string) ([]string, error)
)

// checkIntegrity fails the test when db fails SQLite's integrity or
// foreign-key check.
func checkIntegrity(t testing.TB, ctx context.Context, db *DB) {
	t.Helper()
	if err := IntegrityCheckForTest(ctx, db.Path()); err != nil {
		t.Fatal(err)
	}
}
