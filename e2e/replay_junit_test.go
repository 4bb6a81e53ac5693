package e2e

import (
	"encoding/xml"
	"os"
	"testing"
	"time"

	junit "github.com/joshdk/go-junit"
)

// readJUnit reads a JUnit file with go-junit, a parser made for reading
// JUnit reports, independent of the writer. go-junit counts the test cases
// itself, as a CI's reporter does; the counts and the time the file states
// on its <testsuite> must agree with them.
func readJUnit(t *testing.T, path string) []junit.Suite {
	t.Helper()
	suites, err := junit.IngestFile(path)
	if err != nil {
		t.Fatalf("go-junit cannot read %s: %v", path, err)
	}
	if len(suites) != 1 {
		t.Fatalf("%s holds %d test suites, want 1", path, len(suites))
	}
	h := junitHeader(t, path)
	got := suites[0].Totals
	if h.Tests != got.Tests || h.Failures != got.Failed || h.Skipped != got.Skipped || h.Errors != 0 {
		t.Errorf("%s states tests=%d failures=%d skipped=%d errors=%d, but holds %d test cases: %d failed, %d skipped",
			path, h.Tests, h.Failures, h.Skipped, h.Errors, got.Tests, got.Failed, got.Skipped)
	}
	return suites
}

// suiteHeader is what a <testsuite> element states about itself.
type suiteHeader struct {
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Errors   int     `xml:"errors,attr"`
	Skipped  int     `xml:"skipped,attr"`
	Time     float64 `xml:"time,attr"`
}

// junitHeader reads the attributes of the file's one <testsuite>.
func junitHeader(t *testing.T, path string) suiteHeader {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []suiteHeader `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil || len(doc.Suites) != 1 {
		t.Fatalf("%s: %d <testsuite> elements under the root (%v), want 1", path, len(doc.Suites), err)
	}
	return doc.Suites[0]
}

// suiteTime is the run's wall time the file states.
func suiteTime(t *testing.T, path string) time.Duration {
	return time.Duration(junitHeader(t, path).Time * float64(time.Second))
}
