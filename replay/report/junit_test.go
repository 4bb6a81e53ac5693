package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	junit "github.com/joshdk/go-junit"

	"github.com/trailpin/trailpin/e2e/golden"
	"github.com/trailpin/trailpin/replay"
)

func TestJUnitGolden(t *testing.T) {
	var out bytes.Buffer
	if err := WriteJUnit(&out, sampleRun()); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "junit.golden.xml"), out.Bytes())
}

// TestJUnitReadBack reads the XML with go-junit, a parser written for JUnit
// reports by others, and checks what a CI tool would show.
func TestJUnitReadBack(t *testing.T) {
	var out bytes.Buffer
	if err := WriteJUnit(&out, sampleRun()); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.Ingest(out.Bytes())
	if err != nil {
		t.Fatalf("go-junit cannot read the report: %v", err)
	}
	if len(suites) != 1 {
		t.Fatalf("go-junit found %d suites, want 1", len(suites))
	}
	s := suites[0]
	if s.Name != "trailpin" {
		t.Errorf("suite name = %q, want trailpin", s.Name)
	}
	want := junit.Totals{Tests: 3, Passed: 2, Failed: 1, Duration: ms(1840 + 4210 + 11100 + 2300)}
	if s.Totals != want {
		t.Errorf("totals = %+v, want %+v", s.Totals, want)
	}
	cases := []struct {
		name, classname string
		status          junit.Status
		duration        time.Duration
		started         time.Time
		message, typ    string
		body            []string
	}{
		{"Sign in", "trails.sign-in", junit.StatusPassed, ms(1840), at(100), "", "", nil},
		{"Buy two iPhone items with a discount", "trails.buy-two-iphone-items-with-a-discount", junit.StatusFailed, ms(4210), at(105),
			`assertVisible {text: "$763.20"}: no visible node reads "$763.20"; the total reads "$790.20"`, "app-bug",
			[]string{"class: app-bug", "step 5: The total is $763.20", `expected: "$763.20"`, `actual: "$790.20"`,
				"at: trails/buy-two-iphone-items-with-a-discount.trail.yaml:52",
				"trace: trailpin-results/buy-two-iphone-items-with-a-discount/trace.md"}},
		{"Big page", "trails.big-page", junit.StatusPassed, ms(11100 + 2300), at(1950), "", "", nil},
	}
	if len(s.Tests) != len(cases) {
		t.Fatalf("go-junit found %d test cases, want %d", len(s.Tests), len(cases))
	}
	for i, want := range cases {
		got := s.Tests[i]
		t.Run(want.name, func(t *testing.T) {
			if got.Name != want.name || got.Classname != want.classname {
				t.Errorf("test case = %q (%q), want %q (%q)", got.Name, got.Classname, want.name, want.classname)
			}
			if got.Status != want.status {
				t.Errorf("status = %s, want %s", got.Status, want.status)
			}
			if got.Duration != want.duration {
				t.Errorf("duration = %v, want %v", got.Duration, want.duration)
			}
			started, err := time.Parse(time.RFC3339Nano, got.Properties["timestamp"])
			if err != nil || !started.Equal(want.started) {
				t.Errorf("timestamp = %q (%v), want %v", got.Properties["timestamp"], err, want.started)
			}
			if want.status != junit.StatusFailed {
				return
			}
			var jerr junit.Error
			if e, ok := got.Error.(junit.Error); ok {
				jerr = e
			}
			if got.Message != want.message || jerr.Type != want.typ {
				t.Errorf("failure = %q (type %q), want %q (type %q)", got.Message, jerr.Type, want.message, want.typ)
			}
			for _, line := range want.body {
				if !strings.Contains(jerr.Body, line) {
					t.Errorf("failure body lacks %q:\n%s", line, jerr.Body)
				}
			}
		})
	}
	if flaky := s.Tests[2].SystemOut; !strings.Contains(flaky, "flaky: passed on attempt 2 of 2") ||
		!strings.Contains(flaky, "attempt 1 failed: selector-drift") {
		t.Errorf("the flaky trail's system-out does not say it was flaky:\n%s", flaky)
	}
	if !bytes.Contains(out.Bytes(), []byte(`<flakyFailure message="tap {role: button, name: Continue}: no button &#34;Continue&#34; appeared within 10s" type="selector-drift">`)) {
		t.Errorf("the flaky trail has no flakyFailure element:\n%s", out.String())
	}
}

// TestJUnitShowsOverlap checks that the spans of trails run side by side
// overlap in the report, and that those run one after the other do not.
func TestJUnitShowsOverlap(t *testing.T) {
	var out bytes.Buffer
	if err := WriteJUnit(&out, sampleRun()); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.Ingest(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	type span struct{ from, to time.Time }
	spans := map[string]span{}
	for _, tc := range suites[0].Tests {
		from, err := time.Parse(time.RFC3339Nano, tc.Properties["timestamp"])
		if err != nil {
			t.Fatalf("%s: timestamp %q: %v", tc.Name, tc.Properties["timestamp"], err)
		}
		spans[tc.Name] = span{from, from.Add(tc.Duration)}
	}
	overlap := func(a, b span) bool { return a.from.Before(b.to) && b.from.Before(a.to) }
	if !overlap(spans["Sign in"], spans["Buy two iPhone items with a discount"]) {
		t.Errorf("the two trails that ran at once do not overlap: %v", spans)
	}
	if overlap(spans["Sign in"], spans["Big page"]) {
		t.Errorf("trails run one after the other overlap: %v", spans)
	}
}

func TestJUnitSkippedAndStopped(t *testing.T) {
	run := Run{
		Started: runStart, Duration: ms(3000), Stopped: "4 trails in a row failed with env-issue",
		Trails: []TrailRun{
			{Attempts: []replay.TrailResult{{Slug: "a", Title: "A", Status: replay.StatusFailed, Class: replay.ClassEnvIssue, Error: "the app answered 502", Started: at(0), Duration: ms(100)}}},
			{Attempts: []replay.TrailResult{{Slug: "b", Title: "B", Status: replay.StatusSkipped, Error: "not run: the run stopped"}}},
		},
	}
	var out bytes.Buffer
	if err := WriteJUnit(&out, run); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.Ingest(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := suites[0].Totals, (junit.Totals{Tests: 2, Failed: 1, Skipped: 1, Duration: ms(100)}); got != want {
		t.Errorf("totals = %+v, want %+v", got, want)
	}
	if got := suites[0].Tests[1]; got.Status != junit.StatusSkipped || got.Message != "not run: the run stopped" {
		t.Errorf("skipped trail = %s %q", got.Status, got.Message)
	}
	if got := suites[0].Tests[0].Classname; got != "trailpin.a" {
		t.Errorf("classname of a trail from the database = %q, want trailpin.a", got)
	}
	if got := suites[0].Properties["stopped"]; got != run.Stopped {
		t.Errorf("suite property stopped = %q, want %q", got, run.Stopped)
	}
}

// TestJUnitHostileText puts what an app can show into every place app text
// reaches: the XML must stay well-formed and keep the text.
func TestJUnitHostileText(t *testing.T) {
	res := buyWithDiscount()
	hostile := "]]> <script>alert(1)</script> & \"quotes\" \x1b[31mred\x00 <!-- c -->"
	res.Title = "Title " + hostile
	res.Error = "Error " + hostile
	res.Expected = hostile
	run := Run{Started: runStart, Trails: []TrailRun{{Attempts: []replay.TrailResult{res}}}}
	var out bytes.Buffer
	if err := WriteJUnit(&out, run); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.Ingest(out.Bytes())
	if err != nil {
		t.Fatalf("the XML does not parse: %v\n%s", err, out.String())
	}
	tc := suites[0].Tests[0]
	if !strings.Contains(tc.Name, "<script>alert(1)</script> & \"quotes\"") || !strings.Contains(tc.Message, "]]>") {
		t.Errorf("app text was lost: name %q, message %q", tc.Name, tc.Message)
	}
	if bytes.Contains(out.Bytes(), []byte("\x1b")) || bytes.Contains(out.Bytes(), []byte("\x00")) {
		t.Errorf("control characters reached the XML")
	}
}

func TestWriteJUnitFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reports", "junit.xml")
	if err := WriteJUnitFile(path, sampleRun()); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.IngestFile(path)
	if err != nil || len(suites) != 1 || suites[0].Totals.Tests != 3 {
		t.Fatalf("reading %s back: %v, %+v", path, err, suites)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the report folder holds %d files, want only junit.xml (no temporary file left)", len(entries))
	}
}

// TestJUnitRedactorKeepsTimes: redacting a run keeps its times, which
// have no exported fields to copy one by one.
func TestJUnitRedactorKeepsTimes(t *testing.T) {
	start := time.Date(2026, 12, 1, 17, 0, 0, 123e6, time.UTC)
	run := Run{Started: start, Duration: time.Second, Trails: []TrailRun{{Attempts: []replay.TrailResult{
		{Slug: "a", Title: "A hunter2", Attempt: 1, Status: replay.StatusPassed, Started: start, Duration: time.Second},
	}}}}
	var b strings.Builder
	if err := WriteJUnit(&b, run, WithRedactor(strings.NewReplacer("hunter2", "[secret]").Replace)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name="A [secret]"`, `timestamp="2026-12-01T17:00:00.123Z"`} {
		if strings.Count(b.String(), want) == 0 {
			t.Errorf("JUnit lacks %s:\n%s", want, b.String())
		}
	}
}
