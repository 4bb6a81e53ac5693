package storage_test

import (
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
)

func init() {
	storage.IntegrityCheckForTest = storagetest.IntegrityCheck
	storage.ScanFilesForTest = func(paths []string, secret string) ([]string, error) {
		leaks, err := storagetest.ScanFiles(paths, secret)
		var found []string
		for _, l := range leaks {
			found = append(found, l.String())
		}
		return found, err
	}
}
