package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// TraceMode says which trails get a trace page (--trace).
type TraceMode string

const (
	// TraceRetainOnFailure keeps the page of every trail that failed at
	// least once: failed and flaky trails. The default.
	TraceRetainOnFailure TraceMode = "retain-on-failure"
	// TraceOn writes a page for every trail that ran.
	TraceOn TraceMode = "on"
	// TraceOff writes none.
	TraceOff TraceMode = "off"
)

// DefaultResultsDir is where trace pages go without --results.
const DefaultResultsDir = "trailpin-results"

// TraceFile and ScreenshotFile are the names inside a trail's results
// folder.
const (
	TraceFile      = "trace.md"
	ScreenshotFile = "screenshot.png"
)

// ParseTraceMode reads a --trace value.
func ParseTraceMode(s string) (TraceMode, error) {
	switch m := TraceMode(strings.ToLower(strings.TrimSpace(s))); m {
	case TraceOn, TraceOff, TraceRetainOnFailure:
		return m, nil
	case "":
		return TraceRetainOnFailure, nil
	}
	return "", fmt.Errorf("--trace %q: use on, off or retain-on-failure", s)
}

// Keep reports whether the trail gets a trace page under this mode.
func (m TraceMode) Keep(t TrailRun) bool {
	switch m {
	case TraceOff:
		return false
	case TraceOn:
		return t.Status() != replay.StatusSkipped
	}
	s := t.Status()
	return s == replay.StatusFailed || s == replay.StatusFlaky || s == replay.StatusHealed
}

// TracePath is where the trace page of the trail with this slug goes.
func TracePath(resultsDir, slug string) string {
	return filepath.Join(resultsDir, slug, TraceFile)
}

// ErrBadSlug is returned for a slug that cannot name a results folder.
var ErrBadSlug = errors.New("not a trail slug")

func checkSlug(slug string) error {
	if slug == "" || slug == "." || slug == ".." || strings.ContainsAny(slug, `/\`+"\x00") {
		return fmt.Errorf("results folder for %q: %w", slug, ErrBadSlug)
	}
	return nil
}

// WriteTrace writes the trail's trace page, <resultsDir>/<slug>/trace.md,
// with the screenshot at failure beside it (screenshot.png; an earlier
// failed attempt's is screenshot-attempt-N.png). Files are written
// atomically. It returns the page's path.
func WriteTrace(resultsDir string, t TrailRun, redact Redactor) (string, error) {
	t = redacted(t, redact)
	slug := t.Slug()
	if err := checkSlug(slug); err != nil {
		return "", err
	}
	dir := filepath.Join(resultsDir, slug)
	explain, _ := t.Failed()
	for _, a := range t.Attempts {
		if a.Failure == nil || len(a.Failure.Screenshot) == 0 {
			continue
		}
		name := screenshotName(a, explain)
		if err := writeFileAtomic(filepath.Join(dir, name), a.Failure.Screenshot); err != nil {
			return "", fmt.Errorf("writing the screenshot of %s: %w", slug, err)
		}
	}
	path := filepath.Join(dir, TraceFile)
	if err := writeFileAtomic(path, RenderTrace(t, redact)); err != nil {
		return "", fmt.Errorf("writing the trace page of %s: %w", slug, err)
	}
	return path, nil
}

// RemoveTrace removes a trace page and screenshots left in the trail's
// results folder by an earlier run (so a trail that passes now has no stale
// page), and the folder when nothing else is in it. Other files are kept.
func RemoveTrace(resultsDir, slug string) error {
	if err := checkSlug(slug); err != nil {
		return err
	}
	dir := filepath.Join(resultsDir, slug)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("removing the old trace of %s: %w", slug, err)
	}
	for _, e := range entries {
		name := e.Name()
		if name == TraceFile || name == ScreenshotFile ||
			(strings.HasPrefix(name, "screenshot-attempt-") && strings.HasSuffix(name, ".png")) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("removing the old trace of %s: %w", slug, err)
			}
		}
	}
	_ = os.Remove(dir) // only succeeds when empty
	return nil
}

// screenshotName is the file of an attempt's screenshot: screenshot.png for
// the attempt that explains the failure.
func screenshotName(a, explain replay.TrailResult) string {
	if a.Attempt == explain.Attempt {
		return ScreenshotFile
	}
	return "screenshot-attempt-" + strconv.Itoa(a.Attempt) + ".png"
}

// classMeaning says what each failure class means, for the trace page.
var classMeaning = map[replay.FailureClass]string{
	replay.ClassEnvIssue:        "the app or the browser failed (a 5xx answer, a crash): look at the environment before the trail",
	replay.ClassAuthBlocked:     "the app refused access (401 or 403) or sent the trail to its login page",
	replay.ClassSelectorDrift:   "a selector matched nothing, or more than one element: the page changed under the trail",
	replay.ClassAppBug:          "the app showed something other than what the trail expects",
	replay.ClassMissingTestData: "the trail needs a value that was not provided",
	replay.ClassAgentMisread:    "the agent could not tell what it saw",
}

// RenderTrace returns the trace page of a trail: what failed and where to
// look first, then every attempt with every step, its actions (the node
// each landed on, what each assertion read while it waited), what changed
// on the screen and what the app did meanwhile, and the screen at failure.
func RenderTrace(t TrailRun, redact Redactor) []byte {
	t = redacted(t, redact)
	p := tracePage{r: redact, t: t}
	p.explain, p.failed = t.Failed()
	p.header()
	if p.failed {
		p.whatFailed()
	}
	for _, a := range t.Attempts {
		p.attempt(a)
	}
	return []byte(p.b.String())
}

type tracePage struct {
	b       strings.Builder
	r       Redactor
	t       TrailRun
	explain replay.TrailResult
	failed  bool
}

func (p *tracePage) text(s string) string { return mdText(p.r.apply(s)) }
func (p *tracePage) code(s string) string { return codeSpan(p.r.apply(s), false) }
func (p *tracePage) cell(s string) string { return codeSpan(p.r.apply(s), true) }

func (p *tracePage) line(format string, args ...any) {
	fmt.Fprintf(&p.b, format, args...)
	p.b.WriteByte('\n')
}

func (p *tracePage) header() {
	final := p.t.Final()
	title := final.Title
	if title == "" {
		title = final.Slug
	}
	p.line("# Trace: %s", p.text(title))
	p.line("")
	if final.File != "" {
		p.line("- Trail file: %s", p.code(final.File))
	}
	p.line("- Slug: %s", p.code(final.Slug))
	status := p.t.Status()
	result := fmt.Sprintf("**%s**", status)
	if status == replay.StatusFailed && final.Class != "" {
		result += " (" + string(final.Class) + ")"
	}
	if n := len(p.t.Attempts); n > 1 {
		result += fmt.Sprintf(" after %d attempts", n)
	}
	p.line("- Result: %s", result)
	p.line("- Started: %s · took %s", formatClock(p.t.Started()), formatDuration(p.t.Duration()))
	if p.failed {
		if loc := lookAt(p.explain, p.r); loc != "" {
			p.line("- Look first at: %s", codeSpan(loc, false))
		}
	}
	for _, n := range final.Notes {
		p.line("- Note: %s", p.text(n))
	}
	p.line("")
}

func (p *tracePage) whatFailed() {
	res := p.explain
	p.line("## What failed")
	p.line("")
	if p.t.Status() == replay.StatusFlaky {
		p.line("The trail passed on attempt %d after attempt %d failed; this is that failure.", p.t.Final().Attempt, res.Attempt)
		p.line("")
	}
	msg := res.Error
	st := failedStep(res)
	if msg == "" && st != nil {
		msg = st.Error
	}
	if msg == "" {
		msg = "failed"
	}
	p.line("**Error:** %s", p.text(msg))
	p.line("")
	if res.Class != "" {
		p.line("- Class: `%s`: %s", res.Class, classMeaning[res.Class])
	}
	if st != nil {
		p.line("- Step %d: %s", st.Index, p.text(st.Intent))
		if st.Stopped != "" {
			p.line("- Replay stopped: `%s` after %d of %d recorded actions", st.Stopped, st.Performed, len(st.Actions))
		}
	} else if failedBeforeFirstStep(res) {
		p.line("- Step: none: %s", beforeFirstStep)
	}
	if res.Expected != "" || res.Actual != "" {
		p.line("- Expected: %s", p.code(res.Expected))
		p.line("- Actual: %s", p.code(res.Actual))
	}
	if res.Missing != "" {
		p.line("- Missing: set %s", p.code(res.Missing))
	}
	if res.Failure != nil {
		p.line("- The screen at failure is under [Screen at failure (attempt %d)](#screen-at-failure-attempt-%d).", res.Attempt, res.Attempt)
	}
	p.line("")
}

func (p *tracePage) attempt(a replay.TrailResult) {
	p.line("## Attempt %d of %d: %s", a.Attempt, len(p.t.Attempts), a.Status)
	p.line("")
	p.line("Started %s · took %s", formatClock(a.Started), formatDuration(a.Duration))
	p.line("")
	if before := logOf(a, 0); len(before) > 0 {
		p.line("Before the first step:")
		p.line("")
		p.logList(a, before, "")
		p.line("")
	}
	switch {
	case failedBeforeFirstStep(a):
		p.line("No step ran: %s: %s", beforeFirstStep, p.text(a.Error))
		p.line("")
	case len(a.Steps) == 0 && a.Status == replay.StatusFailed:
		p.line("No step ran: %s", p.text(a.Error))
		p.line("")
	}
	for _, st := range a.Steps {
		p.step(a, st)
	}
	if a.Failure != nil {
		p.screen(a)
	}
}

func (p *tracePage) step(a replay.TrailResult, st replay.StepResult) {
	if st.Status == replay.StatusSkipped || st.Status == "" || !started(st) {
		p.line("### Step %d: %s (skipped)", st.Index, p.text(st.Intent))
		p.line("")
		return
	}
	p.line("### Step %d: %s (%s in %s)", st.Index, p.text(st.Intent), st.Status, formatDuration(st.Duration))
	p.line("")
	where := "- Started on " + p.code(st.Path)
	if st.Line > 0 {
		where += fmt.Sprintf(" · line %d", st.Line)
	}
	p.line("%s · model calls: %s · cache: %s", where, modelCalls(st.ModelCalls), cacheDecision(p.r.apply(st.Cache)))
	if st.Stopped != "" {
		p.line("- Stopped: `%s` after %d of %d recorded actions", st.Stopped, st.Performed, len(st.Actions))
	}
	if st.Error != "" {
		p.line("- Error: %s", p.text(st.Error))
	}
	if h := st.Heal; h != nil {
		p.heal(st, h)
	}
	if len(st.Actions) > 0 {
		p.line("- Actions:")
		for i, act := range st.Actions {
			p.action(i+1, act)
		}
	}
	if len(st.Changes) > 0 {
		p.line("- Changed on screen:")
		for _, c := range st.Changes {
			p.line("  - %s", p.code(c))
		}
	}
	if entries := logOf(a, st.Index); len(entries) > 0 {
		p.line("- The app meanwhile:")
		p.logList(a, entries, "  ")
	}
	p.line("")
}

func (p *tracePage) action(n int, act replay.ActionResult) {
	head := fmt.Sprintf("  %d. `%s`", n, act.Kind)
	if act.Line > 0 {
		head += fmt.Sprintf(" (line %d)", act.Line)
	}
	head += fmt.Sprintf(" %s in %s", act.Status, formatDuration(act.Duration))
	if act.Summary != "" {
		head += ": " + p.text(act.Summary)
	}
	p.line("%s", head)
	if act.Landed != "" {
		p.line("     - landed on %s", p.code(act.Landed))
	}
	for _, r := range act.Reads {
		p.line("     - read %s", p.code(r))
	}
	if act.Error != "" {
		p.line("     - error: %s", p.text(act.Error))
	}
	if act.Change != nil {
		p.changeEvidence(act.Change)
	}
}

// changeEvidence shows what an assertChange checked and the diff it read,
// one change a line as the diff writes it.
func (p *tracePage) changeEvidence(e *assertchange.Evidence) {
	head := "     - evidence: " + e.Source
	if e.DiffID != "" {
		head += " diff " + p.code(e.DiffID)
	}
	if e.BaselineURL != "" {
		head += ", baseline " + p.code(e.BaselineURL)
	}
	if e.Navigated {
		head += ", navigated to " + p.code(e.URL)
	}
	if e.Attempts > 1 {
		head += fmt.Sprintf(", %d captures", e.Attempts)
	}
	p.line("%s", head)
	if e.Error != nil {
		p.line("       - %s: %s", p.code(e.Error.Code), p.text(e.Error.Message))
		return
	}
	for _, c := range e.Checks {
		mark := "passed"
		if !c.Pass {
			mark = "FAILED"
		}
		p.line("       - %s %s: %s", mark, p.code(c.Check), p.text(c.Detail))
	}
	if len(e.Lines) == 0 {
		p.line("       - changes: none")
		return
	}
	p.line("       - changes (%d):", len(e.Lines))
	for _, l := range e.Lines {
		p.line("         - %s", p.code(l))
	}
}

func logOf(a replay.TrailResult, step int) []replay.LogEntry {
	var out []replay.LogEntry
	for _, e := range a.Log {
		if e.Step == step {
			out = append(out, e)
		}
	}
	return out
}

func (p *tracePage) logList(a replay.TrailResult, entries []replay.LogEntry, indent string) {
	for _, e := range entries {
		item := fmt.Sprintf("%s- %s %s", indent, offset(e.Time, a.Started), e.Kind)
		if e.Level != "" {
			item += " " + p.code(e.Level)
		}
		if e.Text != "" {
			item += ": " + p.code(e.Text)
		}
		if e.URL != "" && e.URL != e.Text {
			item += " at " + p.code(e.URL)
		}
		p.line("%s", item)
	}
}

func (p *tracePage) screen(a replay.TrailResult) {
	f := a.Failure
	p.line("### Screen at failure (attempt %d)", a.Attempt)
	p.line("")
	p.line("- URL: %s", p.code(f.URL))
	if len(f.Screenshot) > 0 {
		p.line("- Screenshot: ![The screen at failure](%s)", screenshotName(a, p.explain))
	} else {
		p.line("- Screenshot: none was taken")
	}
	p.line("")
	if f.Snapshot != "" {
		p.line("Snapshot:")
		p.line("")
		fencedBlock(&p.b, "text", p.r.apply(f.Snapshot))
		p.line("")
	}
	if len(f.Closest) > 0 {
		p.line("Nodes closest to what the selector asked for:")
		p.line("")
		p.line("| # | Score | Node | What differs |")
		p.line("|--:|--:|---|---|")
		for i, c := range f.Closest {
			node := c.Line
			if node == "" {
				node = c.Ref
			}
			p.line("| %d | %.2f | %s | %s |", i+1, c.Score, p.cell(node), p.text(c.Why))
		}
		p.line("")
	}
}

// heal writes the agent's part of a step: why it took over, its verdict,
// the check after it, what became of the flow, and each of its turns.
func (p *tracePage) heal(st replay.StepResult, h *replay.Heal) {
	p.line("- Agent: %s · verdict `%s`: %s", p.text(HealCause(st)), h.Verdict, p.text(h.Summary))
	p.line("- Model: %d calls, %d prompt + %d completion tokens, %s waiting", h.Calls, h.PromptTokens, h.CompletionTokens, formatDuration(h.Latency))
	if h.Check != "" {
		p.line("- Checked after it: %s", p.text(h.Check))
	}
	if h.Uncertain != "" {
		p.line("- The action replay was unsure of: %s", p.text(h.Uncertain))
	}
	p.line("- Healed flow: %s", p.text(HealDecision(h)))
	for _, why := range h.Refused {
		p.line("- Refused: %s", p.text(why))
	}
	if len(h.OffOrigins) > 0 {
		p.line("- Left the app's origins for: %s", p.text(strings.Join(h.OffOrigins, ", ")))
	}
	if len(h.Turns) == 0 {
		return
	}
	p.line("- The agent's turns:")
	for i, turn := range h.Turns {
		call := "no usable answer"
		if turn.Tool != "" {
			call = p.code(turn.Tool + " " + string(turn.Arguments))
		}
		p.line("  %d. %s → %s (%d requests, %s)", i+1, call, p.text(turn.Result), turn.Usage.Calls(), formatDuration(turn.Usage.Latency()))
		p.line("")
		p.line("     <details><summary>what it saw</summary>")
		p.line("")
		var b strings.Builder
		fencedBlock(&b, "text", p.r.apply(turn.Saw))
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			p.line("     %s", l)
		}
		p.line("")
		p.line("     </details>")
		p.line("")
	}
}

func modelCalls(n int) string {
	if n == 0 {
		return "none"
	}
	return strconv.Itoa(n)
}

func cacheDecision(s string) string {
	if s == "" || s == "none" {
		return "none"
	}
	return mdText(s)
}

// formatClock writes a time of day in UTC with milliseconds.
func formatClock(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02 15:04:05.000 UTC")
}

// offset writes when something happened, from the attempt's start.
func offset(t, start time.Time) string {
	if t.IsZero() || start.IsZero() {
		return "+?"
	}
	return "+" + formatDuration(t.Sub(start))
}
