package e2e

import (
	"testing"

	junit "github.com/joshdk/go-junit"
)

// readJUnit reads a JUnit file with go-junit, a parser made for reading
// JUnit reports, independent of the writer.
func readJUnit(t *testing.T, path string) []junit.Suite {
	t.Helper()
	suites, err := junit.IngestFile(path)
	if err != nil {
		t.Fatalf("go-junit cannot read %s: %v", path, err)
	}
	if len(suites) != 1 {
		t.Fatalf("%s holds %d test suites, want 1", path, len(suites))
	}
	return suites
}
