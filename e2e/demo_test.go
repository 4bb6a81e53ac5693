package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/replay/report"
)

// TestDemoCommand: `host demo` serves the demo shop, replays its example
// trails (the flows of host/demo/FLOWS.md) green, and says where the trace
// pages are. (A variant's failures are explained by the same run of
// replay that TestReplayVariants checks.)
func TestDemoCommand(t *testing.T) {
	t.Parallel()
	titles := []string{"Big page", "Buy two iPhone items with a discount", "Full shopping journey", "Sign in", "Wrong password shows an error"}
	t.Run("normal", func(t *testing.T) {
		t.Parallel()
		dir := TempDir(t)
		results := filepath.Join(dir, "results")
		junitFile := filepath.Join(dir, "junit.xml")
		run := RunHost(t, replayEnv(t, false), nil, "demo", "--results", results, "--junit", junitFile)
		out := string(run.Stdout)
		if run.ExitCode != 0 {
			t.Fatalf("host demo exited %d:\n%s\n%s", run.ExitCode, out, run.Stderr)
		}
		for _, want := range []string{"PASSED: 5 trails in", "Trace pages (5) are in " + results, "host demo --variant"} {
			if !strings.Contains(out, want) {
				t.Errorf("host demo's report lacks %q:\n%s", want, out)
			}
		}
		if !strings.Contains(string(run.Stderr), "Serving the demo shop at http://127.0.0.1:") {
			t.Errorf("host demo does not say where the shop is:\n%s", run.Stderr)
		}
		suite := readJUnit(t, junitFile)[0]
		if got := caseNames(suite); strings.Join(got, "|") != strings.Join(titles, "|") || suite.Totals.Passed != 5 {
			t.Errorf("JUnit: %v passed %d, want %v all passed", got, suite.Totals.Passed, titles)
		}
		for _, slug := range []string{"sign-in", "full-shopping-journey", "big-page"} {
			page, err := os.ReadFile(report.TracePath(results, slug))
			if err != nil || !strings.Contains(string(page), "- Result: **passed**") {
				t.Errorf("trace page of %s: %v\n%.300s", slug, err, page)
			}
		}
	})
	t.Run("an unknown variant", func(t *testing.T) {
		t.Parallel()
		run := RunHost(t, replayEnv(t, false), nil, "demo", "--variant", "broken")
		if run.ExitCode != 2 || !strings.Contains(string(run.Stderr), "control-removed") {
			t.Errorf("host demo --variant broken exited %d with %q, want 2 and the variants to choose from", run.ExitCode, run.Stderr)
		}
	})
}
