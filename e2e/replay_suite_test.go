package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	junit "github.com/joshdk/go-junit"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/storage"
)

// Tests of host replay as a suite runner: the hand-written trails green
// from files, workers, shards, retries, the circuit breaker, JUnit read
// back by an independent parser, status lines against a hand-written
// golden file, and where runs are stored.

// exampleTitles are the titles of the trails in replay/testdata/trails.
var exampleTitles = []string{"Big page", "Buy two iPhone items with a discount", "Full shopping journey", "Sign in", "Wrong password shows an error"}

// smallTrails writes n one-step trails (help-01 … help-NN) that open the
// shop's help page, and returns their folder.
func smallTrails(t *testing.T, n int) string {
	t.Helper()
	dir := filepath.Join(TempDir(t), "trails")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		trail := fmt.Sprintf("version: 1\ntrail: Help page %02d\napp: shop\nstart: /help\nsteps:\n"+
			"  - intent: The help page opens\n    actions:\n      - assertVisible: {selector: {role: heading, name: Help}}\n", i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("help-%02d.trail.yaml", i)), []byte(trail), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// quickConfig is a project config with a short action timeout, for runs
// whose trails are meant to fail.
func quickConfig(t *testing.T, baseURL, timeout string) string {
	t.Helper()
	path := filepath.Join(TempDir(t), "trailpin.yaml")
	cfg := "apps:\n  shop:\n    baseURL: " + baseURL + "\nreplay:\n  actionTimeout: " + timeout + "\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func caseNames(s junit.Suite) []string {
	var names []string
	for _, c := range s.Tests {
		names = append(names, c.Name)
	}
	sort.Strings(names)
	return names
}

// span is when a JUnit test case ran.
func span(t *testing.T, c junit.Test) (start, end time.Time) {
	t.Helper()
	start, err := time.Parse("2006-01-02T15:04:05.000Z07:00", c.Properties["timestamp"])
	if err != nil {
		t.Fatalf("test case %q has timestamp %q: %v", c.Name, c.Properties["timestamp"], err)
	}
	return start, start.Add(c.Duration)
}

// recordedTrail is the trail the recording test (record_shop_test.go)
// must record from the demo shop, which it compares the saved trail with.
func recordedTrail() string {
	return filepath.Join(RepoRoot(), "e2e", "testdata", "record", "buy-two-iphone-items.trail.yaml")
}

// TestReplaySuiteGreenFromFiles replays the hand-written trails, and the
// trail the recording test records, from their files alone (no database:
// CI is set) and reads the JUnit report back.
func TestReplaySuiteGreenFromFiles(t *testing.T) {
	t.Parallel()
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	dir := TempDir(t)
	junitFile := filepath.Join(dir, "reports", "junit.xml")
	results := filepath.Join(dir, "results")
	data := filepath.Join(dir, "data")
	began := time.Now()
	run := RunHost(t, append(replayEnv(t, true), "CI=true", "XDG_DATA_HOME="+data), nil, "replay", "--headless", "--workers", "3",
		"--base-url", shop.URL, "--junit", junitFile, "--results", results, trailsDir(), recordedTrail())
	// The durations JUnit states must fit in the time the run took as seen
	// from here, however slow a loaded machine made it.
	wall := time.Since(began)
	if run.ExitCode != 0 {
		t.Fatalf("host replay of the hand-written and recorded trails exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	if !strings.Contains(string(run.Stdout), "PASSED: 6 trails in") || !strings.Contains(string(run.Stdout), "6 passed, 0 failed") {
		t.Errorf("the summary does not say 6 passed:\n%s", run.Stdout)
	}
	// Progress to a pipe is plain lines, one per trail started and ended,
	// without terminal codes.
	progress := string(run.Stderr)
	if strings.Contains(progress, "\x1b[") || strings.Count(progress, "] PASS ") != 6 || strings.Count(progress, "] start ") != 6 {
		t.Errorf("progress is not 6 plain start and 6 PASS lines:\n%q", progress)
	}
	suite := readJUnit(t, junitFile)[0]
	if suite.Totals.Tests != 6 || suite.Totals.Failed != 0 || suite.Totals.Skipped != 0 || suite.Totals.Passed != 6 {
		t.Errorf("JUnit totals %+v, want 6 tests, 6 passed", suite.Totals)
	}
	want := append(slices.Clone(exampleTitles), "Buy two iPhone items with a discount") // the recorded one
	sort.Strings(want)
	if got := caseNames(suite); !slices.Equal(got, want) {
		t.Errorf("JUnit test names %q, want %q", got, want)
	}
	var longest time.Duration
	for _, c := range suite.Tests {
		if c.Duration <= 0 || c.Duration > wall {
			t.Errorf("test case %q took %v, in a run of %v", c.Name, c.Duration, wall)
		}
		longest = max(longest, c.Duration)
		if !strings.Contains(c.Classname, "replay.testdata.trails.") && !strings.Contains(c.Classname, "e2e.testdata.record.") || c.Properties["file"] == "" {
			t.Errorf("test case %q: classname %q, file %q", c.Name, c.Classname, c.Properties["file"])
		}
	}
	if took := suiteTime(t, junitFile); took < longest || took > wall {
		t.Errorf("the suite states it took %v; its longest trail took %v, and the run %v", took, longest, wall)
	}
	// Passing trails leave no trace page; CI without --db stores nothing.
	if entries, _ := os.ReadDir(results); len(entries) != 0 {
		t.Errorf("passing trails left %d entries in the results folder", len(entries))
	}
	if _, err := os.Stat(filepath.Join(data, "trailpin", "trailpin.db")); err == nil {
		t.Errorf("with CI set and no --db, the run was stored in the default database")
	}
}

// TestReplaySuiteWorkers: four workers give the same verdicts, classes and
// errors as one, and their JUnit timestamps show trails overlapping.
func TestReplaySuiteWorkers(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	shop := httptest.NewServer(demo.New(demo.Options{Variant: demo.PriceChanged}))
	t.Cleanup(shop.Close)
	cfg := projectConfig(t, shop.URL)
	suites := map[string]junit.Suite{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, workers := range []string{"1", "4"} {
		wg.Go(func() {
			junitFile := filepath.Join(TempDir(t), "junit.xml")
			// The big page is left out (on a loaded machine its 10,000
			// elements can take longer to load than the short timeout), and
			// the journey and the wrong password, which the green run
			// covers, to save time.
			run := RunHost(t, append(replayEnv(t, true), "CI=true"), nil, "replay", "--config", cfg, "--workers", workers,
				"--grep", "discount|Sign in", "--results", filepath.Join(TempDir(t), "results"), "--junit", junitFile, trailsDir())
			if run.ExitCode != 1 {
				t.Errorf("--workers %s against %s exited %d, want 1:\n%s\n%s", workers, demo.PriceChanged, run.ExitCode, run.Stdout, run.Stderr)
				return
			}
			s := readJUnit(t, junitFile)[0]
			mu.Lock()
			suites[workers] = s
			mu.Unlock()
		})
	}
	wg.Wait()
	one, four := suites["1"], suites["4"]
	if len(one.Tests) != 2 || len(four.Tests) != 2 {
		t.Fatalf("JUnit holds %d and %d test cases, want 2 each", len(one.Tests), len(four.Tests))
	}
	verdicts := func(s junit.Suite) map[string]string {
		out := map[string]string{}
		for _, c := range s.Tests {
			v := string(c.Status)
			if c.Error != nil {
				v += " " + c.Error.(junit.Error).Type + ": " + c.Message
			}
			out[c.Name] = v
		}
		return out
	}
	v1, v4 := verdicts(one), verdicts(four)
	if fmt.Sprint(v1) != fmt.Sprint(v4) {
		t.Errorf("--workers 4 gave other results than --workers 1:\n 1: %v\n 4: %v", v1, v4)
	}
	if one.Totals.Failed != 1 || !strings.HasPrefix(v1["Buy two iPhone items with a discount"], "failed app-bug: ") {
		t.Errorf("against %s, want the discount trail failed as app-bug, the others passed: %v", demo.PriceChanged, v1)
	}
	// overlap reports whether two trails ran at once by more than the
	// millisecond rounding of timestamps and times can make up.
	overlap := func(s junit.Suite) bool {
		const slack = 5 * time.Millisecond
		for i, a := range s.Tests {
			for _, b := range s.Tests[i+1:] {
				as, ae := span(t, a)
				bs, be := span(t, b)
				if as.Before(be.Add(-slack)) && bs.Before(ae.Add(-slack)) {
					return true
				}
			}
		}
		return false
	}
	if !overlap(four) {
		t.Errorf("with --workers 4 no two trails overlap in time")
	}
	if overlap(one) {
		t.Errorf("with --workers 1 two trails overlap in time")
	}
}

// TestReplaySuiteShards: shards 1/3, 2/3 and 3/3 together run every trail
// exactly once.
func TestReplaySuiteShards(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	dir := smallTrails(t, 9)
	var mu sync.Mutex
	var all []string
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Go(func() {
			junitFile := filepath.Join(TempDir(t), "junit.xml")
			run := RunHost(t, append(replayEnv(t, false), "CI=true"), nil, "replay", "--base-url", shop.URL,
				"--shard", fmt.Sprintf("%d/3", i), "--junit", junitFile, dir)
			if run.ExitCode != 0 {
				t.Errorf("--shard %d/3 exited %d:\n%s\n%s", i, run.ExitCode, run.Stdout, run.Stderr)
				return
			}
			names := caseNames(readJUnit(t, junitFile)[0])
			if len(names) == 9 {
				t.Errorf("--shard %d/3 ran every trail", i)
			}
			mu.Lock()
			all = append(all, names...)
			mu.Unlock()
		})
	}
	wg.Wait()
	sort.Strings(all)
	var want []string
	for i := 1; i <= 9; i++ {
		want = append(want, fmt.Sprintf("Help page %02d", i))
	}
	if !slices.Equal(all, want) {
		t.Errorf("the three shards ran %q, want each of %q once", all, want)
	}
}

// TestReplaySuiteCircuitBreaker: against an app that answers 500 to
// everything, the run stops after 4 trails fail with env-issue; the rest
// are skipped and the exit code says the run stopped. Each trail stops
// waiting as soon as it sees the 500, not when its action timeout (a long
// one here, as in a real project) runs out.
func TestReplaySuiteCircuitBreaker(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	hits := map[string]int{}
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		http.Error(w, "the app is down", http.StatusInternalServerError)
	}))
	t.Cleanup(down.Close)
	dir := smallTrails(t, 6)
	junitFile := filepath.Join(TempDir(t), "junit.xml")
	// Far longer than a trail takes to start a browser and see the 500 on a
	// busy machine, so that a trail that took this long waited it out.
	const actionTimeout = 3 * time.Minute
	run := RunHost(t, append(replayEnv(t, false), "CI=true"), nil, "replay", "--config", quickConfig(t, down.URL, actionTimeout.String()),
		"--format", "status", "--junit", junitFile, "--results", filepath.Join(TempDir(t), "results"), dir)
	if run.ExitCode != 4 {
		t.Fatalf("host replay against a down app exited %d, want 4:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	suite := readJUnit(t, junitFile)[0]
	if suite.Totals.Failed != 4 || suite.Totals.Skipped != 2 {
		t.Errorf("JUnit totals %+v, want 4 failed and 2 skipped", suite.Totals)
	}
	for _, c := range suite.Tests[:4] {
		if c.Status != junit.StatusFailed || c.Error.(junit.Error).Type != "env-issue" {
			t.Errorf("test case %q: %s %v, want failed env-issue", c.Name, c.Status, c.Error)
		}
		if c.Duration >= actionTimeout {
			t.Errorf("test case %q took %s: it waited out the action timeout (%s) on a page that answered 500", c.Name, c.Duration, actionTimeout)
		}
	}
	if n := strings.Count(string(run.Stdout), "stopped waiting at once"); n != 4 {
		t.Errorf("%d ASSERTION_FAILED lines say the wait stopped at once, want 4:\n%s", n, run.Stdout)
	}
	for _, c := range suite.Tests[4:] {
		if c.Status != junit.StatusSkipped || !strings.Contains(c.Message, "env-issue or auth-blocked") {
			t.Errorf("test case %q: %s %q, want skipped saying why", c.Name, c.Status, c.Message)
		}
	}
	if suite.Properties["stopped"] == "" {
		t.Errorf("the JUnit suite does not say the run stopped: %v", suite.Properties)
	}
	if mu.Lock(); hits["/help"] != 4 {
		t.Errorf("the down app was asked for /help %d times, want 4 (one per trail run)", hits["/help"])
	}
	mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(run.Stdout)), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "RUN_COMPLETED|failed|") {
		t.Errorf("the last status line is %q, want RUN_COMPLETED|failed|…", last)
	}
	if !strings.Contains(string(run.Stderr), "STOPPED 4 trails in a row failed with env-issue or auth-blocked") {
		t.Errorf("the summary does not say the run stopped:\n%s", run.Stderr)
	}
}

// TestReplaySuiteRetries: a trail that fails once and then passes is
// flaky: the run passes, JUnit marks it, and its trace page is kept.
func TestReplaySuiteRetries(t *testing.T) {
	t.Parallel()
	shop := demo.New(demo.Options{})
	var mu sync.Mutex
	first := true
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fail := first && r.URL.Path == "/help"
		if fail {
			first = false
		}
		mu.Unlock()
		if fail {
			http.Error(w, "a hiccup", http.StatusServiceUnavailable)
			return
		}
		shop.ServeHTTP(w, r)
	}))
	t.Cleanup(flaky.Close)
	dir := smallTrails(t, 1)
	junitFile := filepath.Join(TempDir(t), "junit.xml")
	results := filepath.Join(TempDir(t), "results")
	run := RunHost(t, append(replayEnv(t, false), "CI=true"), nil, "replay", "--config", quickConfig(t, flaky.URL, "2s"),
		"--retries", "2", "--junit", junitFile, "--results", results, dir)
	if run.ExitCode != 0 {
		t.Fatalf("a flaky trail with --retries 2 exited %d, want 0:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	if out := string(run.Stdout); !strings.Contains(out, "FLAKY  help-01 — passed on attempt 2 of 2; attempt 1 failed: env-issue") ||
		!strings.Contains(out, "1 flaky") {
		t.Errorf("the summary does not report the trail as flaky:\n%s", out)
	}
	if !strings.Contains(string(run.Stderr), "FAIL help-01 attempt 1, retrying") {
		t.Errorf("progress does not say the first attempt failed:\n%s", run.Stderr)
	}
	xml, err := os.ReadFile(junitFile)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(xml), "<flakyFailure"); n != 1 {
		t.Errorf("JUnit has %d flakyFailure elements, want 1:\n%s", n, xml)
	}
	if c := readJUnit(t, junitFile)[0].Tests[0]; c.Status != junit.StatusPassed {
		t.Errorf("the flaky trail is %s in JUnit, want passed", c.Status)
	}
	if _, err := os.Stat(report.TracePath(results, "help-01")); err != nil {
		t.Errorf("the flaky trail's trace page was not kept: %v", err)
	}
}

// TestReplaySuiteDatabase: runs are stored locally by default; with CI set
// only when --db is given; and trails saved in the database replay by name.
func TestReplaySuiteDatabase(t *testing.T) {
	t.Parallel()
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	dir := smallTrails(t, 1)
	trail := filepath.Join(dir, "help-01.trail.yaml")
	home := TempDir(t)
	data := filepath.Join(home, "data")
	defaultDB := filepath.Join(data, "trailpin", "trailpin.db")
	env := func(more ...string) []string {
		return append(append(replayEnv(t, false), "XDG_DATA_HOME="+data), more...)
	}

	// With CI set and no --db: nothing stored.
	if run := RunHost(t, env("CI=true"), nil, "replay", "--base-url", shop.URL, trail); run.ExitCode != 0 {
		t.Fatalf("CI run exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	if _, err := os.Stat(defaultDB); err == nil {
		t.Fatalf("with CI set and no --db, the run was stored in %s", defaultDB)
	}

	// Locally: stored in the default database.
	if run := RunHost(t, env(), nil, "replay", "--base-url", shop.URL, trail); run.ExitCode != 0 {
		t.Fatalf("local run exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	checkStoredRun(t, defaultDB, false, trail, 0)

	// With CI set and --db: stored there; a trail saved in it replays by
	// its name, and the result names the trail's id.
	given := filepath.Join(home, "ci.db")
	if run := RunHost(t, env("CI=true"), nil, "import", "--db", given, trail); run.ExitCode != 0 {
		t.Fatalf("host import exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	run := RunHost(t, env("CI=true"), nil, "replay", "--db", given, "--base-url", shop.URL, "Help page 01")
	if run.ExitCode != 0 {
		t.Fatalf("replaying a saved trail by its title exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	checkStoredRun(t, given, true, "", 1)
}

// checkStoredRun checks the database at path holds one finished run with
// one passed attempt at the help trail, with its step.
func checkStoredRun(t *testing.T, path string, ci bool, source string, trailID int64) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, err := db.Runs(ctx, 10)
	if err != nil || len(runs) != 1 {
		t.Fatalf("%s holds runs %+v (%v), want 1", path, runs, err)
	}
	r := runs[0]
	if r.Status != storage.RunPassed || r.CI != ci || r.FinishedAt.IsZero() || !strings.HasPrefix(r.Args, "replay ") {
		t.Errorf("stored run %+v, want passed, finished, CI %v", r, ci)
	}
	results, err := db.TrailResults(ctx, r.ID)
	if err != nil || len(results) != 1 {
		t.Fatalf("run %d holds trail results %+v (%v), want 1", r.ID, results, err)
	}
	tr := results[0]
	if tr.Slug != "help-01" && tr.Slug != "help-page-01" {
		t.Errorf("stored slug %q", tr.Slug)
	}
	if tr.Status != storage.TrailPassed || tr.Title != "Help page 01" || tr.Source != source || tr.Attempt != 1 || tr.Duration <= 0 {
		t.Errorf("stored trail result %+v", tr)
	}
	if (trailID != 0) != (tr.TrailID != 0) {
		t.Errorf("stored trail id %d, want one only for a trail from the database", tr.TrailID)
	}
	if len(tr.Steps) != 1 || tr.Steps[0].Status != storage.StepPassed || tr.Steps[0].Intent != "The help page opens" ||
		tr.Steps[0].ActionsPerformed != 1 || tr.Steps[0].ActionsTotal != 1 || tr.Steps[0].CacheDecision != "hit" {
		t.Errorf("stored steps %+v", tr.Steps)
	}
}

// durationRE matches the run's durations in status lines.
var durationRE = regexp.MustCompile(`\d+(\.\d+)?(ms|s|m\d+s)\b`)

// TestReplayStatusLinesGolden checks --format status against a golden
// file written by hand from docs/ci.md: a trail that passes, then one that
// fails before its first step (no secret). Durations read <d>.
func TestReplayStatusLinesGolden(t *testing.T) {
	t.Parallel()
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	run := RunHost(t, append(replayEnv(t, false), "CI=true"), nil, "replay", "--format", "status", "--base-url", shop.URL,
		"--results", filepath.Join(TempDir(t), "results"),
		trailFile("wrong-password-shows-an-error.trail.yaml"), trailFile("sign-in.trail.yaml"))
	if run.ExitCode != 1 {
		t.Fatalf("exited %d, want 1:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	got := strings.ReplaceAll(string(run.Stdout), trailsDir(), "<trails>")
	got = durationRE.ReplaceAllString(got, "<d>")
	want, err := os.ReadFile(filepath.Join(RepoRoot(), "e2e", "testdata", "replay", "status.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("status lines differ from e2e/testdata/replay/status.golden:\n--- got\n%s\n--- want\n%s", got, want)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(run.Stdout)), "\n") {
		if _, _, err := report.ParseStatusLine(line); err != nil {
			t.Error(err)
		}
	}
}
