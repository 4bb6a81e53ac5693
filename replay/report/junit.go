package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage/atomicfile"
)

// The JUnit XML written for --junit has the shape CI tools read best (GitHub
// test reporters, GitLab, Jenkins, Azure, CircleCI):
//
//   - one <testsuites> holding one <testsuite> for the run: a trail file holds
//     one trail, so a suite per file would be a suite per test;
//   - one <testcase> per trail: name is the trail's title; classname is the
//     trail file's path without .trail.yaml, folders joined by dots
//     ("trails.checkout.buy-two"), so tools that group by package group by
//     folder ("trailpin.<slug>" for a trail from the database); file and line
//     name the trail file and the line to look at, which annotating reporters
//     turn into a link;
//   - time is the seconds spent on every attempt; timestamp is when the first
//     attempt started, in UTC with milliseconds, so trails that workers ran
//     side by side show overlapping spans;
//   - a failed trail has <failure type="<class>" message="<error>"> whose body
//     gives the class, error, expected vs actual, the variable to set, the
//     trail file:line and the trace page;
//   - a flaky trail (a failure, then a pass on a retry) is a passing testcase
//     with one <flakyFailure> per failed attempt, as Maven Surefire writes
//     for rerun tests: tools that know the element show the trail as flaky,
//     the others as passed, which is the verdict. Its <system-out> says the
//     same in words;
//   - a trail that did not run (the run stopped) has <skipped message="…">.
//
// Errors are always 0: every trail failure is a <failure> with its class.

type junitSuites struct {
	XMLName   xml.Name     `xml:"testsuites"`
	Name      string       `xml:"name,attr"`
	Tests     int          `xml:"tests,attr"`
	Failures  int          `xml:"failures,attr"`
	Errors    int          `xml:"errors,attr"`
	Skipped   int          `xml:"skipped,attr"`
	Time      string       `xml:"time,attr"`
	Timestamp string       `xml:"timestamp,attr,omitempty"`
	Suites    []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  *junitText      `xml:"system-out"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitProperties is a testcase's properties element, left out when
// there are none.
type junitProperties struct {
	List []junitProperty `xml:"property"`
}

type junitCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	File      string `xml:"file,attr,omitempty"`
	Line      int    `xml:"line,attr,omitempty"`
	Time      string `xml:"time,attr"`
	Timestamp string `xml:"timestamp,attr,omitempty"`
	// Properties: a property per step the agent took part in.
	Properties *junitProperties `xml:"properties"`
	Failure    *junitFailure    `xml:"failure"`
	Flaky      []junitFailure   `xml:"flakyFailure"`
	Skipped    *junitSkipped    `xml:"skipped"`
	SystemOut  *junitText       `xml:"system-out"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",innerxml"`
}

// junitText is element text written with its line breaks kept (the
// encoder's own escaping writes them as &#xA;, which is valid but hard to
// read in a CI log).
type junitText struct {
	Text string `xml:",innerxml"`
}

func newJUnitText(s string) *junitText {
	if s == "" {
		return nil
	}
	return &junitText{Text: xmlText(s)}
}

// xmlText escapes text for an element's content: markup characters become
// entities and characters XML 1.0 cannot hold become U+FFFD.
func xmlText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000:
			b.WriteRune(r)
		default:
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}

type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

// junitTimestamp is how times are written: UTC, with milliseconds, so that
// trails running at once visibly overlap.
const junitTimestamp = "2006-01-02T15:04:05.000Z07:00"

// WriteJUnit writes the run as JUnit XML (see the shape above).
func WriteJUnit(w io.Writer, run Run, opts ...Option) error {
	s := newSettings(opts)
	doc := buildJUnit(redacted(run, s.redact), s)
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encoding JUnit XML: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	return nil
}

// WriteJUnitFile writes the run's JUnit XML to path atomically, making its
// folder when needed.
func WriteJUnitFile(path string, run Run, opts ...Option) error {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, run, opts...); err != nil {
		return err
	}
	if err := writeFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("writing --junit %s: %w", path, err)
	}
	return nil
}

func buildJUnit(run Run, s settings) junitSuites {
	r := s.redact
	c := run.Counts()
	failures := c.Failed
	if run.FailOnHeal {
		failures += c.Healed
	}
	secs := seconds(run.Duration)
	ts := ""
	if !run.Started.IsZero() {
		ts = run.Started.UTC().Format(junitTimestamp)
	}
	suite := junitSuite{
		Name: s.suite, Tests: c.Total(), Failures: failures, Skipped: c.Skipped,
		Time: secs, Timestamp: ts,
	}
	if c.Flaky > 0 {
		suite.Properties = append(suite.Properties, junitProperty{Name: "flaky", Value: strconv.Itoa(c.Flaky)})
	}
	if c.Healed > 0 {
		suite.Properties = append(suite.Properties, junitProperty{Name: "healed", Value: strconv.Itoa(c.Healed)})
	}
	if a := run.Agent(); a.Steps > 0 {
		suite.Properties = append(suite.Properties,
			junitProperty{Name: "model.calls", Value: strconv.Itoa(a.Calls)},
			junitProperty{Name: "model.promptTokens", Value: strconv.Itoa(a.PromptTokens)},
			junitProperty{Name: "model.completionTokens", Value: strconv.Itoa(a.CompletionTokens)})
	}
	if run.Stopped != "" {
		suite.Properties = append(suite.Properties, junitProperty{Name: "stopped", Value: r.apply(run.Stopped)})
		suite.SystemOut = newJUnitText("The run stopped early: " + r.apply(run.Stopped))
	}
	for _, t := range run.Trails {
		tc := junitTestcase(t, run.Traces[t.Slug()], r)
		if run.FailOnHeal && t.Status() == replay.StatusHealed {
			tc.Failure = &junitFailure{Message: "healed by the agent, and --fail-on-heal counts a healed trail as failed", Type: "healed"}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	return junitSuites{
		Name: s.suite, Tests: c.Total(), Failures: failures, Skipped: c.Skipped,
		Time: secs, Timestamp: ts, Suites: []junitSuite{suite},
	}
}

func junitTestcase(t TrailRun, trace string, r Redactor) junitCase {
	final := t.Final()
	tc := junitCase{
		Name:      r.apply(final.Title),
		Classname: classname(final, r),
		File:      r.apply(final.File),
		Time:      seconds(t.Duration()),
	}
	if tc.Name == "" {
		tc.Name = r.apply(final.Slug)
	}
	if st := t.Started(); !st.IsZero() {
		tc.Timestamp = st.UTC().Format(junitTimestamp)
	}
	var out []string
	if props := junitHeals(final, r); len(props) > 0 {
		tc.Properties = &junitProperties{List: props}
	}
	switch t.Status() {
	case replay.StatusHealed:
		out = append(out, "healed: passed with the agent")
		if trace != "" {
			out = append(out, "trace: "+r.apply(trace))
		}
	case replay.StatusFailed:
		f := junitFailureOf(final, trace, r)
		tc.Failure = &f
		tc.Line = failingLine(final)
	case replay.StatusFlaky:
		for _, a := range t.Attempts {
			if a.Status == replay.StatusFailed {
				tc.Flaky = append(tc.Flaky, junitFailureOf(a, "", r))
				out = append(out, fmt.Sprintf("attempt %d failed: %s", a.Attempt, failureReason(a, failedStep(a), r)))
			}
		}
		out = append(out, fmt.Sprintf("flaky: passed on attempt %d of %d", final.Attempt, len(t.Attempts)))
		if trace != "" {
			out = append(out, "trace: "+r.apply(trace))
		}
	case replay.StatusSkipped:
		msg := r.apply(final.Error)
		if msg == "" {
			msg = "not run"
		}
		tc.Skipped = &junitSkipped{Message: msg}
	}
	tc.SystemOut = newJUnitText(strings.Join(out, "\n"))
	return tc
}

// junitHeals is a property per step the agent took part in
// (healed.step.N: what it did and what became of the flow), and what its
// model calls cost.
func junitHeals(res replay.TrailResult, r Redactor) []junitProperty {
	var props []junitProperty
	calls, prompt, completion := 0, 0, 0
	for _, st := range res.Steps {
		h := st.Heal
		if h == nil {
			continue
		}
		name := fmt.Sprintf("agent.step.%d", st.Index)
		if st.Status == replay.StatusHealed {
			name = fmt.Sprintf("healed.step.%d", st.Index)
		}
		props = append(props, junitProperty{Name: name, Value: r.apply(fmt.Sprintf("%s; the agent: %s; flow %s",
			HealCause(st), HealDid(h), HealDecision(h)))})
		calls, prompt, completion = calls+h.Calls, prompt+h.PromptTokens, completion+h.CompletionTokens
	}
	if len(props) > 0 {
		props = append(props, junitProperty{Name: "model.calls", Value: strconv.Itoa(calls)},
			junitProperty{Name: "model.promptTokens", Value: strconv.Itoa(prompt)},
			junitProperty{Name: "model.completionTokens", Value: strconv.Itoa(completion)})
	}
	return props
}

// junitFailureOf is the failure element for a failed attempt.
func junitFailureOf(res replay.TrailResult, trace string, r Redactor) junitFailure {
	msg := res.Error
	if st := failedStep(res); st != nil && st.Error != "" && msg == "" {
		msg = st.Error
	}
	msg = r.apply(msg)
	var body []string
	if res.Class != "" {
		body = append(body, "class: "+string(res.Class))
	}
	if st := failedStep(res); st != nil {
		body = append(body, fmt.Sprintf("step %d: %s", st.Index, r.apply(st.Intent)))
	} else if failedBeforeFirstStep(res) {
		body = append(body, "step: none: "+beforeFirstStep)
	}
	if msg != "" {
		body = append(body, "error: "+msg)
	}
	if res.Expected != "" || res.Actual != "" {
		body = append(body, fmt.Sprintf("expected: %q", r.apply(res.Expected)), fmt.Sprintf("actual: %q", r.apply(res.Actual)))
	}
	if res.Missing != "" {
		body = append(body, "set: "+r.apply(res.Missing))
	}
	if loc := lookAt(res, r); loc != "" {
		body = append(body, "at: "+loc)
	}
	if trace != "" {
		body = append(body, "trace: "+r.apply(trace))
	}
	return junitFailure{Message: msg, Type: string(res.Class), Body: xmlText(strings.Join(body, "\n"))}
}

// classname is the trail file's path without its extension, folders joined
// by dots; for a trail without a file, trailpin.<slug>.
func classname(res replay.TrailResult, r Redactor) string {
	file := r.apply(res.File)
	if file == "" {
		return "trailpin." + r.apply(res.Slug)
	}
	p := filepath.ToSlash(filepath.Clean(file))
	p = strings.TrimSuffix(p, trail.TrailFileExt)
	p = strings.TrimLeft(strings.TrimPrefix(p, "./"), "/")
	for strings.HasPrefix(p, "../") {
		p = strings.TrimPrefix(p, "../")
	}
	return strings.ReplaceAll(p, "/", ".")
}

// seconds writes a duration as JUnit does: seconds with three decimals.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

// writeFileAtomic writes data to path atomically (see atomicfile), making
// its folder first, so a reader never sees half a report.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
