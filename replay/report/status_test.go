package report

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/trailpin/trailpin/replay"
)

// TestStatusGolden compares the status lines of a realistic run (a passing
// trail, a failing one, a flaky one with two attempts) with a file written
// by hand from docs/ci.md, byte for byte. -update never touches it.
func TestStatusGolden(t *testing.T) {
	run := sampleRun()
	var out bytes.Buffer
	sw := NewStatusWriter(&out)
	// The order in which the attempts ended: sign-in and the purchase ran
	// side by side; big-page ran after sign-in and was retried.
	for _, res := range []replay.TrailResult{
		run.Trails[0].Attempts[0], run.Trails[1].Attempts[0],
		run.Trails[2].Attempts[0], run.Trails[2].Attempts[1],
	} {
		if err := sw.Trail(res); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Done(run); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/status.golden")
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("status lines differ from testdata/status.golden (written by hand; fix the code, not the file):\n--- got ---\n%s--- want ---\n%s", out.String(), want)
	}
	checkStatusWellFormed(t, out.String())
}

// checkStatusWellFormed checks every line the way a reader would parse it:
// a known event, the right number of fields, each field unescapable.
func checkStatusWellFormed(t *testing.T, out string) {
	t.Helper()
	fields := map[string]int{
		EventRoute: 1, EventAria: 1, EventStepStart: 2, EventStepDone: 2,
		EventAssertionFailed: 2, EventRunCompleted: 2,
	}
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("status output does not end in a newline")
	}
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if strings.ContainsRune(line, '\r') {
			t.Errorf("line %d holds a carriage return: %q", i+1, line)
		}
		event, rest, ok := strings.Cut(line, "|")
		n, known := fields[event]
		if !ok || !known {
			t.Errorf("line %d: unknown event in %q", i+1, line)
			continue
		}
		parts := strings.SplitN(rest, "|", n)
		if len(parts) != n {
			t.Errorf("line %d: %s has %d fields, want %d: %q", i+1, event, len(parts), n, line)
			continue
		}
		last := parts[n-1]
		if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(last, `\\`, ""), `\|`, ""), "|") {
			t.Errorf("line %d: a bare | in the free text: %q", i+1, line)
		}
		if _, err := UnescapeStatus(last); err != nil {
			t.Errorf("line %d: %v: %q", i+1, err, line)
		}
		if event == EventAria && len(last) > MaxAriaBytes {
			t.Errorf("line %d: ARIA payload is %d bytes, more than %d", i+1, len(last), MaxAriaBytes)
		}
	}
}

func TestEscapeStatus(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a|b", `a\|b`},
		{"two\nlines", `two\nlines`},
		{"cr\r\nlf", `cr\r\nlf`},
		{`back\slash`, `back\\slash`},
		{`\n is not a newline`, `\\n is not a newline`},
		{"tab\there", `tab\there`},
		{"bell\a esc\x1b[31m", `bell\x07 esc\x1b[31m`},
		{"del\x7f", `del\x7f`},
		{"bad \xff utf-8", "bad \uFFFD utf-8"},
		{"“quotes” and ünïcode", "“quotes” and ünïcode"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := escapeStatus(tt.in); got != tt.want {
				t.Errorf("escapeStatus(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestUnescapeStatusErrors(t *testing.T) {
	for _, in := range []string{`ends in \`, `bad \q`, `short \x1`, `bad hex \xzz`} {
		if got, err := UnescapeStatus(in); err == nil {
			t.Errorf("UnescapeStatus(%q) = %q, want an error", in, got)
		}
	}
}

func FuzzStatusEscapeRoundTrip(f *testing.F) {
	for _, s := range []string{"", "a|b", "x\ny", `\|\\`, "\x00\x1f\x7f", "é|\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		esc := escapeStatus(s)
		if strings.ContainsAny(esc, "\n\r") {
			t.Fatalf("escapeStatus(%q) = %q holds a line break", s, esc)
		}
		got, err := UnescapeStatus(esc)
		if err != nil {
			t.Fatalf("UnescapeStatus(escapeStatus(%q)): %v", s, err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); got != want {
			t.Fatalf("UnescapeStatus(escapeStatus(%q)) = %q, want %q", s, got, want)
		}
	})
}

func TestEscapeAriaCap(t *testing.T) {
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf(`- button "Row %d | details \ more" [ref=e%d]`, i, i))
	}
	big := strings.Join(lines, "\n")
	tests := []struct {
		name     string
		snapshot string
		cut      bool
	}{
		{"small", "- button \"OK\" [ref=e1]\n- link \"Help\" [ref=e2]\n", false},
		{"exactly the cap", strings.Repeat("a", MaxAriaBytes), false},
		{"many lines", big, true},
		{"one huge line", strings.Repeat(`x\`, MaxAriaBytes), true},
		{"huge line of control characters", strings.Repeat("\x01", MaxAriaBytes), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := escapeAria(tt.snapshot, MaxAriaBytes)
			if len(got) > MaxAriaBytes {
				t.Errorf("escapeAria gave %d bytes, more than %d", len(got), MaxAriaBytes)
			}
			if cut := strings.HasSuffix(got, escapeStatus(ariaCutMarker)); cut != tt.cut {
				t.Errorf("escapeAria cut = %v, want %v", cut, tt.cut)
			}
			text, err := UnescapeStatus(got)
			if err != nil {
				t.Fatalf("the payload does not unescape: %v", err)
			}
			if !tt.cut {
				if want := strings.TrimRight(tt.snapshot, "\n"); text != want {
					t.Errorf("escapeAria changed an uncut snapshot: %q", text)
				}
				return
			}
			kept := strings.Split(strings.TrimSuffix(text, "\n"+ariaCutMarker), "\n")
			if tt.name == "many lines" {
				if len(kept) < 100 {
					t.Errorf("kept %d lines of %d, want most of 8 KB", len(kept), len(lines))
				}
				for i, ln := range kept {
					if ln != lines[i] {
						t.Fatalf("kept line %d = %q, want the whole line %q", i, ln, lines[i])
					}
				}
			}
		})
	}
}

func TestStatusFailureBeforeFirstStep(t *testing.T) {
	var out bytes.Buffer
	res := replay.TrailResult{
		File: "trails/checkout.trail.yaml", Slug: "checkout", Status: replay.StatusFailed,
		Class: replay.ClassMissingTestData, Line: 12,
		Error:   "the secret demo-password is not set",
		Missing: "TRAILPIN_SECRET_DEMO_PASSWORD",
		Steps:   []replay.StepResult{{Index: 1, Intent: "Sign in", Status: replay.StatusSkipped}},
	}
	if err := NewStatusWriter(&out).Trail(res); err != nil {
		t.Fatal(err)
	}
	want := "ASSERTION_FAILED|checkout-0|missing-test-data: the secret demo-password is not set; set TRAILPIN_SECRET_DEMO_PASSWORD (trails/checkout.trail.yaml:12)\n"
	if out.String() != want {
		t.Errorf("status lines = %q, want %q", out.String(), want)
	}
}

func TestStatusSkippedTrailWritesNothing(t *testing.T) {
	var out bytes.Buffer
	sw := NewStatusWriter(&out)
	if err := sw.Trail(replay.TrailResult{Slug: "later", Status: replay.StatusSkipped}); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("a skipped trail wrote %q", out.String())
	}
}

func TestStatusRunCompleted(t *testing.T) {
	passed := TrailRun{Attempts: []replay.TrailResult{{Slug: "a", Status: replay.StatusPassed}}}
	failed := TrailRun{Attempts: []replay.TrailResult{{Slug: "b", Status: replay.StatusFailed, Class: replay.ClassEnvIssue}}}
	skipped := TrailRun{Attempts: []replay.TrailResult{{Slug: "c", Status: replay.StatusSkipped}}}
	tests := []struct {
		name string
		run  Run
		want string
	}{
		{"all passed", Run{Duration: ms(1234), Trails: []TrailRun{passed}},
			"RUN_COMPLETED|passed|1 trail in 1.23s: 1 passed, 0 failed\n"},
		{"no trails", Run{}, "RUN_COMPLETED|passed|0 trails in 0.00s: 0 passed, 0 failed\n"},
		{"stopped by the circuit breaker", Run{Duration: ms(75000), Trails: []TrailRun{failed, skipped},
			Stopped: "4 trails in a row failed with env-issue or auth-blocked"},
			"RUN_COMPLETED|failed|stopped: 4 trails in a row failed with env-issue or auth-blocked; 2 trails in 1m15s: 0 passed, 1 failed, 1 skipped; failed: b (env-issue)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := NewStatusWriter(&out).Done(tt.run); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.want {
				t.Errorf("Done() wrote %q, want %q", out.String(), tt.want)
			}
		})
	}
}

// TestStatusWorkersDoNotInterleave writes many trails from many goroutines
// and checks that each trail's lines came out in one block.
func TestStatusWorkersDoNotInterleave(t *testing.T) {
	var out bytes.Buffer
	sw := NewStatusWriter(&out)
	var wg sync.WaitGroup
	const trails = 16
	for w := range trails {
		wg.Go(func() {
			res := signIn()
			res.Slug = fmt.Sprintf("trail%02d", w)
			if err := sw.Trail(res); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var order []string
	for line := range strings.SplitSeq(strings.TrimSuffix(out.String(), "\n"), "\n") {
		event, rest, _ := strings.Cut(line, "|")
		if event != EventStepStart {
			continue
		}
		slug := rest[:len("trail00")]
		if len(order) == 0 || order[len(order)-1] != slug {
			order = append(order, slug)
		}
	}
	if len(order) != trails {
		t.Errorf("trails appear in %d blocks, want %d (one each): %v", len(order), trails, order)
	}
}

func TestStatusRedacts(t *testing.T) {
	const secret = "hunter2secret"
	res := buyWithDiscount()
	res.Steps[1].Intent = "Search for " + secret
	res.Steps[2].Aria = "- textbox \"Password\": " + secret
	res.Error = "typed " + secret
	res.Steps[4].Error = ""
	var plain, redacted bytes.Buffer
	NewStatusWriter(&plain).Trail(res)
	NewStatusWriter(&redacted, WithRedactor(func(s string) string { return strings.ReplaceAll(s, secret, "${secret:pw}") })).Trail(res)
	if !strings.Contains(plain.String(), secret) {
		t.Fatalf("the planted secret does not reach the lines without a redactor; the test proves nothing")
	}
	if strings.Contains(redacted.String(), secret) {
		t.Errorf("a secret reached the status lines:\n%s", redacted.String())
	}
}

func TestParseStatusLine(t *testing.T) {
	tests := []struct {
		line   string
		event  string
		fields []string
		bad    bool
	}{
		{`ROUTE|/products?q=a\|b`, EventRoute, []string{"/products?q=a|b"}, false},
		{`STEP_START|checkout-3|Type \"x\"\nthen Enter`, EventStepStart, []string{"checkout-3", `Type \"x"` + "\nthen Enter"}, true},
		{`STEP_START|checkout-3|Type "x"\nthen Enter`, EventStepStart, []string{"checkout-3", "Type \"x\"\nthen Enter"}, false},
		{`ASSERTION_FAILED|checkout-0|missing-test-data: set X`, EventAssertionFailed, []string{"checkout-0", "missing-test-data: set X"}, false},
		{`ARIA|- button "A" [ref=e1]\n- link "B\\C" [ref=e2]`, EventAria, []string{"- button \"A\" [ref=e1]\n- link \"B\\C\" [ref=e2]"}, false},
		{`RUN_COMPLETED|passed|1 trail in 1.00s: 1 passed, 0 failed`, EventRunCompleted, []string{"passed", "1 trail in 1.00s: 1 passed, 0 failed"}, false},
		{`RUN_COMPLETED|maybe|x`, "", nil, true},
		{`STEP_DONE|only-id`, "", nil, true},
		{`HELLO|x`, "", nil, true},
		{`no bar`, "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			event, fields, err := ParseStatusLine(tt.line)
			if tt.bad {
				if err == nil {
					t.Errorf("ParseStatusLine(%q) = %s %q, want an error", tt.line, event, fields)
				}
				return
			}
			if err != nil || event != tt.event || !slices.Equal(fields, tt.fields) {
				t.Errorf("ParseStatusLine(%q) = %s %q, %v; want %s %q", tt.line, event, fields, err, tt.event, tt.fields)
			}
		})
	}
}

// TestStatusGoldenParses reads the golden run back with ParseStatusLine.
func TestStatusGoldenParses(t *testing.T) {
	src, err := os.ReadFile("testdata/status.golden")
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for line := range strings.SplitSeq(strings.TrimSuffix(string(src), "\n"), "\n") {
		event, _, err := ParseStatusLine(line)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, event)
	}
	if events[len(events)-1] != EventRunCompleted {
		t.Errorf("the last line is %s, want RUN_COMPLETED", events[len(events)-1])
	}
}

func FuzzParseStatusLine(f *testing.F) {
	f.Add(`STEP_START|a-1|x\|y`)
	f.Add(`ARIA|\x00\\`)
	f.Add(`RUN_COMPLETED|failed|z`)
	f.Fuzz(func(t *testing.T, line string) {
		event, fields, err := ParseStatusLine(line)
		if err != nil {
			return
		}
		// What parses writes back to a line that parses to the same.
		var b strings.Builder
		NewStatusWriter(&b).line(&b, event, fields...)
		event2, fields2, err := ParseStatusLine(strings.TrimSuffix(b.String(), "\n"))
		if err != nil || event2 != event || !slices.Equal(fields2, fields) {
			if slices.ContainsFunc(fields, func(f string) bool { return !utf8.ValidString(f) }) {
				return // invalid UTF-8 is replaced on writing (field by field: two halves can join into a valid rune)
			}
			t.Fatalf("ParseStatusLine(%q) = %s %q; written back and parsed: %s %q, %v", line, event, fields, event2, fields2, err)
		}
	})
}

// TestStatusFailureBeforeTheFirstStep: a missing secret, charged by the
// engine to the step that uses it, fails before any step starts: one
// ASSERTION_FAILED line with step 0, and no ROUTE, STEP_START or ARIA.
func TestStatusFailureBeforeTheFirstStep(t *testing.T) {
	res := replay.TrailResult{Slug: "sign-in", File: "trails/sign-in.trail.yaml", Status: replay.StatusFailed,
		Class: replay.ClassMissingTestData, Error: "${secret:pw} has no value: set TRAILPIN_SECRET_PW", Line: 9,
		Steps: []replay.StepResult{
			{Index: 1, Intent: "Sign in", Status: replay.StatusFailed, Stopped: replay.StopMissingData, Error: "${secret:pw} has no value: set TRAILPIN_SECRET_PW"},
			{Index: 2, Intent: "See the products", Status: replay.StatusSkipped},
		}}
	var b strings.Builder
	if err := NewStatusWriter(&b).Trail(res); err != nil {
		t.Fatal(err)
	}
	want := "ASSERTION_FAILED|sign-in-0|missing-test-data: ${secret:pw} has no value: set TRAILPIN_SECRET_PW (trails/sign-in.trail.yaml:9)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}

	// The summary, the trace page and JUnit say the same as the status
	// line: no step ran, not that step 1 failed.
	run := Run{Duration: ms(10), Trails: []TrailRun{{Attempts: []replay.TrailResult{res}}}}
	var summary, status, junitXML strings.Builder
	if err := WriteSummary(&summary, run); err != nil {
		t.Fatal(err)
	}
	if err := NewStatusWriter(&status).Done(run); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(&junitXML, run); err != nil {
		t.Fatal(err)
	}
	page := string(RenderTrace(run.Trails[0], nil))
	for _, c := range []struct{ what, text, want string }{
		{"summary", summary.String(), "  step:     none: the trail failed before its first step\n"},
		{"RUN_COMPLETED", status.String(), "failed: sign-in (missing-test-data, before its first step)"},
		{"JUnit", junitXML.String(), "step: none: the trail failed before its first step"},
		{"trace page", page, "- Step: none: the trail failed before its first step\n"},
		{"trace page", page, "No step ran: the trail failed before its first step: "},
		{"trace page", page, "### Step 1: Sign in (skipped)\n"},
	} {
		if !strings.Contains(c.text, c.want) {
			t.Errorf("the %s lacks %q:\n%s", c.what, c.want, c.text)
		}
	}
	for _, c := range []struct{ what, text string }{{"summary", summary.String()}, {"RUN_COMPLETED", status.String()},
		{"JUnit", junitXML.String()}, {"trace page", page}} {
		if strings.Contains(c.text, "step 1") || strings.Contains(c.text, "Step 1: Sign in\n") || strings.Contains(c.text, "1, Sign in") {
			t.Errorf("the %s says step 1 failed:\n%s", c.what, c.text)
		}
	}
}
