package report

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/golden"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

func TestSummaryGolden(t *testing.T) {
	stopped := sampleRun()
	stopped.Stopped = "4 trails in a row failed with env-issue or auth-blocked: the app looks down"
	stopped.Trails = append(stopped.Trails, TrailRun{Attempts: []replay.TrailResult{{Slug: "checkout", Status: replay.StatusSkipped}}})
	for _, tt := range []struct {
		name string
		run  Run
	}{
		{"summary.golden", sampleRun()},
		{"summary-stopped.golden", stopped},
		{"summary-passed.golden", Run{Duration: 90 * time.Second, Trails: sampleRun().Trails[:1]}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := WriteSummary(&out, tt.run); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", tt.name), out.Bytes())
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0.00s"},
		{423 * time.Millisecond, "0.42s"},
		{9990 * time.Millisecond, "9.99s"},
		{12345 * time.Millisecond, "12.3s"},
		{125 * time.Second, "2m05s"},
	}
	for _, tt := range tests {
		if got := formatDuration(tt.d); got != tt.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestRunCounts(t *testing.T) {
	flakyByEngine := TrailRun{Attempts: []replay.TrailResult{
		{Status: replay.StatusFailed}, {Status: replay.StatusFlaky},
	}}
	flakyByReport := TrailRun{Attempts: []replay.TrailResult{
		{Status: replay.StatusFailed}, {Status: replay.StatusPassed},
	}}
	failedTwice := TrailRun{Attempts: []replay.TrailResult{{Status: replay.StatusFailed}, {Status: replay.StatusFailed}}}
	run := Run{Trails: []TrailRun{flakyByEngine, flakyByReport, failedTwice, {}}}
	if got, want := run.Counts(), (Counts{Flaky: 2, Failed: 1, Skipped: 1}); got != want {
		t.Errorf("Counts() = %+v, want %+v", got, want)
	}
	if run.Passed() {
		t.Errorf("a run with a failed trail passed")
	}
	if !(Run{Trails: []TrailRun{flakyByEngine}}).Passed() {
		t.Errorf("a run whose only trail is flaky did not pass")
	}
	if (Run{Stopped: "circuit breaker"}).Passed() {
		t.Errorf("a stopped run passed")
	}
}

func TestGroup(t *testing.T) {
	got := Group([]replay.TrailResult{
		{Slug: "a", Attempt: 1}, {Slug: "b", Attempt: 1}, {Slug: "a", Attempt: 2},
	})
	if len(got) != 2 || got[0].Slug() != "a" || len(got[0].Attempts) != 2 || got[0].Final().Attempt != 2 || got[1].Slug() != "b" {
		t.Errorf("Group() = %+v", got)
	}
}

func TestRunExitCode(t *testing.T) {
	run := sampleRun()
	if got := run.ExitCode(); got != exitcode.Failed {
		t.Errorf("ExitCode() of a run with a failed trail = %d, want %d", got, exitcode.Failed)
	}
	run.Trails = []TrailRun{run.Trails[0], run.Trails[2]}
	if got := run.ExitCode(); got != exitcode.Passed {
		t.Errorf("ExitCode() of a run with passed and flaky trails = %d, want %d", got, exitcode.Passed)
	}
	run.Stopped = "circuit breaker"
	if got := run.ExitCode(); got != exitcode.Stopped {
		t.Errorf("ExitCode() of a stopped run = %d, want %d", got, exitcode.Stopped)
	}
}
