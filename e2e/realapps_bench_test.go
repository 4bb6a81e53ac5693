package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestRealAppReplayBesidePlaywright measures, for each app of the real-app
// corpus, the replay of its recorded trail (`host replay`, the whole
// process) beside the same flow written as a Playwright script (the flow's
// actions and its own waits, with Playwright's auto-waiting; the script
// reads nothing else of the page), both on the same served app and the same
// /usr/bin/chromium, alternating, one warm-up pair first. The trail does
// more than the script: it checks each step's recorded end and the values
// the person asserted. It is a measurement, run by hand
// (docs/performance.md):
//
//	TRAILPIN_BENCH_REALAPPS=3 go test ./e2e -run TestRealAppReplayBesidePlaywright -v -count=1 -timeout 90m
//
// The value is the number of timed pairs per app; TRAILPIN_BENCH_APPS
// (todomvc,uikit…) picks apps. Each app prints one BENCH line: the median,
// min and max of each tool and the ratio of the medians. With
// TRAILPIN_BENCH_KEEP=DIR, each app's recorded trail and the trace page of one
// more replay, untimed and with --trace on (each step and action with its
// time), are kept in DIR as <app>.trail.yaml and <app>.trace.md: where the
// replay's time goes.
func TestRealAppReplayBesidePlaywright(t *testing.T) {
	runs, err := strconv.Atoi(os.Getenv("TRAILPIN_BENCH_REALAPPS"))
	if err != nil || runs < 1 {
		t.Skip("a measurement run by hand: set TRAILPIN_BENCH_REALAPPS to the number of timed runs per app")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("the Playwright script needs node: %v", err)
	}
	corpus := []struct {
		app  *realApp
		flow []flowAct
	}{
		{todoMVC, todoFlow}, {sbAdmin, sbAdminFlow}, {swaggerUI, swaggerFlow},
		{uikit, uikitFlow}, {jsonEditor, jsonEditorFlow}, {awesomplete, awesompleteFlow},
	}
	var only []string
	if v := os.Getenv("TRAILPIN_BENCH_APPS"); v != "" {
		only = strings.Split(v, ",")
	}
	var lines []string
	for _, c := range corpus {
		a := c.app
		if only != nil && !slices.Contains(only, a.name) {
			continue
		}
		t.Run(a.name, func(t *testing.T) {
			srv := serveApp(t, a, serveOptions{})
			rec := recordRealApp(t, a, srv.URL, c.flow)
			var trailpin, playwright []float64
			for i := 0; i <= runs; i++ {
				// Alternate which tool goes first: the second of a pair
				// finds the page cache and the CPU in another state.
				order := []func(){
					func() {
						run := replayOn(t, a, rec.path, srv.URL)
						if run.ExitCode != 0 {
							t.Fatalf("%s: the recorded trail failed on the unchanged app (exit %d):\n%s\n%s", a.name, run.ExitCode, run.Stdout, run.traces)
						}
						if i > 0 {
							trailpin = append(trailpin, float64(run.Elapsed.Milliseconds()))
						}
					},
					func() {
						// The plain Playwright script of the flow: it reads nothing back.
						_, took, err := runFlow(t, node, srv.URL+a.start, c.flow, nil, "TRAILPIN_FLOW_BENCH=1")
						if err != nil {
							t.Fatalf("%s: the Playwright script of the flow failed: %v", a.name, err)
						}
						if i > 0 {
							playwright = append(playwright, float64(took.Milliseconds()))
						}
					},
				}
				if i%2 == 1 {
					order[0], order[1] = order[1], order[0]
				}
				for _, f := range order {
					f()
				}
			}
			if dir := os.Getenv("TRAILPIN_BENCH_KEEP"); dir != "" {
				keepBenchTrace(t, dir, a, rec.path, srv.URL)
			}
			tp, pw := percentile(trailpin, 50), percentile(playwright, 50)
			line := fmt.Sprintf("BENCH %s: %d steps; trailpin %.2f s (%.2f to %.2f), playwright %.2f s (%.2f to %.2f), ratio %.2f",
				a.name, len(rec.trail.Steps), tp/1000, slices.Min(trailpin)/1000, slices.Max(trailpin)/1000,
				pw/1000, slices.Min(playwright)/1000, slices.Max(playwright)/1000, tp/pw)
			t.Log(line)
			lines = append(lines, line)
		})
	}
	t.Logf("load average at the end: %s\n%s", loadAverage(), strings.Join(lines, "\n"))
}

// keepBenchTrace copies the app's recorded trail into dir and replays it
// once more with --trace on, keeping its trace page beside it.
func keepBenchTrace(t *testing.T, dir string, a *realApp, trailPath, base string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(trailPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, a.name+".trail.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	run := replayOn(t, a, trailPath, base, "--trace", "on")
	if run.ExitCode != 0 {
		t.Fatalf("%s: the traced replay failed (exit %d):\n%s\n%s", a.name, run.ExitCode, run.Stdout, run.traces)
	}
	pages, _ := filepath.Glob(filepath.Join(run.results, "*", "trace.md"))
	if len(pages) != 1 {
		t.Fatalf("%s: the traced replay wrote %d trace pages in %s, want 1", a.name, len(pages), run.results)
	}
	page, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, a.name+".trace.md"), page, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: trail and trace page kept in %s", a.name, dir)
}

// loadAverage is the machine's load average over the last minute, five
// and fifteen, as /proc/loadavg says it.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
