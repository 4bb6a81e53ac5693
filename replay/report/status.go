package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay"
)

// The status line events of docs/ci.md, each the first field of its line.
const (
	EventRoute           = "ROUTE"
	EventStepStart       = "STEP_START"
	EventStepDone        = "STEP_DONE"
	EventAssertionFailed = "ASSERTION_FAILED"
	EventAria            = "ARIA"
	EventRunCompleted    = "RUN_COMPLETED"
)

// MaxAriaBytes caps an ARIA line's payload (after escaping), as docs/ci.md
// fixes: enough for the interactive snapshot of an ordinary page, small
// enough for a log line and for tools that keep one snapshot per route.
const MaxAriaBytes = 8 << 10

// maxSummaryBytes caps a STEP_DONE summary or an ASSERTION_FAILED reason,
// so that a step with many actions or a huge page text stays one readable
// log line.
const maxSummaryBytes = 400

// ariaCutMarker ends an ARIA payload that was cut to MaxAriaBytes. It cannot
// be read as a snapshot line, so a reader knows the snapshot is partial.
const ariaCutMarker = "… cut at 8 KB"

// StatusWriter writes status lines (--format status). One line per event,
// `EVENT|field|field`; the last field of each line is free text and is
// escaped so that a line never holds a raw newline and never a bare `|`:
//
//	\  is written \\
//	|  is written \|
//	newline, carriage return and tab are written \n, \r and \t
//	other control characters are written \xHH
//
// Splitting a line on its first one (ROUTE, ARIA) or two (the others) `|`
// gives the fields; undoing the escapes gives the text. Step ids are
// <trail-slug>-<n>, n counting from 1; a failure before the first step ran
// has the id <trail-slug>-0.
//
// A trail's lines are written in one piece when an attempt at it ends, so
// lines of trails run by several workers never interleave. A retried trail
// writes the lines of each attempt, with the same step ids.
type StatusWriter struct {
	mu     sync.Mutex
	w      io.Writer
	redact Redactor
}

// NewStatusWriter returns a writer of status lines to w. It is safe for use
// by several workers at once.
func NewStatusWriter(w io.Writer, opts ...Option) *StatusWriter {
	s := newSettings(opts)
	return &StatusWriter{w: w, redact: s.redact}
}

// Trail writes the lines of one attempt at a trail. Skipped steps (after
// the failure) write nothing; a trail that was skipped writes nothing.
func (sw *StatusWriter) Trail(res replay.TrailResult) error {
	var b strings.Builder
	sw.trailLines(&b, redacted(res, sw.redact))
	return sw.write(b.String())
}

// Done writes the final RUN_COMPLETED line.
func (sw *StatusWriter) Done(run Run) error {
	run = redacted(run, sw.redact)
	verdict := "passed"
	if !run.Passed() {
		verdict = "failed"
	}
	var b strings.Builder
	sw.line(&b, EventRunCompleted, verdict, screen.ClipBytes(runSummary(run, sw.redact), maxSummaryBytes))
	return sw.write(b.String())
}

func (sw *StatusWriter) write(s string) error {
	if s == "" {
		return nil
	}
	sw.mu.Lock()
	defer sw.mu.Unlock()
	_, err := io.WriteString(sw.w, s)
	if err != nil {
		return fmt.Errorf("writing status lines: %w", err)
	}
	return nil
}

func (sw *StatusWriter) trailLines(b *strings.Builder, res replay.TrailResult) {
	var ran []replay.StepResult
	for _, st := range res.Steps {
		// A step that never started (the trail failed before it, say on a
		// missing secret the engine charges to the step that uses it) has
		// no path and no start: it writes no lines of its own.
		if st.Status != replay.StatusSkipped && st.Status != "" && started(st) {
			ran = append(ran, st)
		}
	}
	if len(ran) == 0 {
		if res.Status == replay.StatusFailed {
			sw.line(b, EventAssertionFailed, stepID(res.Slug, 0), screen.ClipBytes(failureReason(res, nil, sw.redact), maxSummaryBytes))
		}
		return
	}
	for i, st := range ran {
		if i == 0 || st.Path != ran[i-1].Path {
			sw.line(b, EventRoute, sw.redact.apply(st.Path))
		}
		id := stepID(res.Slug, st.Index)
		sw.line(b, EventStepStart, id, screen.ClipBytes(sw.redact.apply(st.Intent), maxSummaryBytes))
		if st.Status == replay.StatusFailed {
			sw.line(b, EventAssertionFailed, id, screen.ClipBytes(failureReason(res, &ran[i], sw.redact), maxSummaryBytes))
		} else {
			sw.line(b, EventStepDone, id, screen.ClipBytes(stepSummary(st, sw.redact), maxSummaryBytes))
		}
		if i == len(ran)-1 || ran[i+1].Path != st.Path {
			b.WriteString(EventAria + "|" + escapeAria(sw.redact.apply(st.Aria), MaxAriaBytes) + "\n")
		}
	}
}

// line writes one status line; every field after the event is escaped.
func (sw *StatusWriter) line(b *strings.Builder, event string, fields ...string) {
	b.WriteString(event)
	for _, f := range fields {
		b.WriteByte('|')
		b.WriteString(escapeStatus(f))
	}
	b.WriteByte('\n')
}

func stepID(slug string, n int) string { return slug + "-" + strconv.Itoa(n) }

// stepSummary says what a step did: its actions' summaries in order.
func stepSummary(st replay.StepResult, redact Redactor) string {
	var parts []string
	for _, a := range st.Actions {
		if s := redact.apply(a.Summary); s != "" {
			parts = append(parts, s)
		}
	}
	if st.Status == replay.StatusHealed && st.Heal != nil {
		// What the agent did instead of the rest of the recording.
		if st.Heal.Cache != replay.CacheHandOff {
			parts = nil
		} else if len(parts) > st.Heal.Replayed {
			parts = parts[:st.Heal.Replayed]
		}
		parts = append(parts, "the agent: "+redact.apply(HealDid(st.Heal)))
		return "healed: " + strings.Join(parts, "; ")
	}
	if len(parts) == 0 {
		return "done"
	}
	return strings.Join(parts, "; ")
}

// failureReason is one sentence for a failed step (or a trail that failed
// before its first step): the class, the error, expected vs actual, the
// variable to set, and the trail line to look at.
func failureReason(res replay.TrailResult, st *replay.StepResult, redact Redactor) string {
	msg := res.Error
	if st != nil && st.Error != "" {
		msg = st.Error
	}
	msg = redact.apply(msg)
	if msg == "" {
		msg = "failed"
	}
	var b strings.Builder
	if res.Class != "" {
		b.WriteString(string(res.Class) + ": ")
	}
	b.WriteString(msg)
	exp, act := redact.apply(res.Expected), redact.apply(res.Actual)
	if (exp != "" || act != "") && !(strings.Contains(msg, exp) && strings.Contains(msg, act)) {
		fmt.Fprintf(&b, "; expected %q, the page shows %q", exp, act)
	}
	if m := redact.apply(res.Missing); m != "" && !strings.Contains(msg, m) {
		fmt.Fprintf(&b, "; set %s", m)
	}
	if loc := lookAt(res, redact); loc != "" {
		b.WriteString(" (" + loc + ")")
	}
	return b.String()
}

// lookAt is file:line of the trail line to look at first, or "".
func lookAt(res replay.TrailResult, redact Redactor) string {
	file, line := redact.apply(res.File), failingLine(res)
	switch {
	case file == "" && line == 0:
		return ""
	case line == 0:
		return file
	case file == "":
		return "line " + strconv.Itoa(line)
	}
	return file + ":" + strconv.Itoa(line)
}

// failingLine is the line the result names, else the failed action's, else
// the failed step's.
func failingLine(res replay.TrailResult) int {
	if res.Line > 0 {
		return res.Line
	}
	for _, st := range res.Steps {
		if st.Status != replay.StatusFailed {
			continue
		}
		for _, a := range st.Actions {
			if a.Status == replay.StatusFailed && a.Line > 0 {
				return a.Line
			}
		}
		return st.Line
	}
	return 0
}

// failedStep returns the step that failed, or nil: also when the trail
// failed before its first step started (a start page that did not load, a
// missing secret, which the engine charges to the step that uses it).
func failedStep(res replay.TrailResult) *replay.StepResult {
	for i := range res.Steps {
		if res.Steps[i].Status == replay.StatusFailed {
			if !started(res.Steps[i]) {
				return nil
			}
			return &res.Steps[i]
		}
	}
	return nil
}

// started reports whether a step began to run: it has a path or a start.
func started(st replay.StepResult) bool {
	return st.Path != "" || !st.Started.IsZero()
}

// failedBeforeFirstStep reports a failed attempt at a trail with steps in
// which no step started.
func failedBeforeFirstStep(res replay.TrailResult) bool {
	if res.Status != replay.StatusFailed || len(res.Steps) == 0 {
		return false
	}
	for _, st := range res.Steps {
		if st.Status != replay.StatusSkipped && st.Status != "" && started(st) {
			return false
		}
	}
	return true
}

// beforeFirstStep is how reports say where such a failure happened.
const beforeFirstStep = "the trail failed before its first step"

// escapeStatus escapes one field of a status line (see StatusWriter).
func escapeStatus(s string) string {
	var b strings.Builder
	writeStatusEscaped(&b, s)
	return b.String()
}

func writeStatusEscaped(b *strings.Builder, s string) {
	s = strings.ToValidUTF8(s, "\uFFFD")
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '|':
			b.WriteString(`\|`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
}

// UnescapeStatus undoes the escaping of a status line field; it is what a
// reader of status lines does after splitting a line.
func UnescapeStatus(field string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(field) {
			return "", fmt.Errorf("status field ends in a lone backslash")
		}
		i++
		switch field[i] {
		case '\\', '|':
			b.WriteByte(field[i])
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x':
			if i+2 >= len(field) {
				return "", fmt.Errorf("status field has a short \\x escape")
			}
			v, err := strconv.ParseUint(field[i+1:i+3], 16, 8)
			if err != nil {
				return "", fmt.Errorf("status field has a bad \\x escape %q", field[i+1:i+3])
			}
			b.WriteByte(byte(v))
			i += 2
		default:
			return "", fmt.Errorf("status field has an unknown escape \\%c", field[i])
		}
	}
	return b.String(), nil
}

// escapeAria escapes a snapshot for an ARIA line and keeps at most max
// bytes of it: whole snapshot lines, then a marker when some were cut.
func escapeAria(snapshot string, max int) string {
	snapshot = strings.TrimRight(snapshot, "\n")
	full := escapeStatus(snapshot)
	if len(full) <= max {
		return full
	}
	marker := `\n` + escapeStatus(ariaCutMarker)
	var b strings.Builder
	for i, ln := range strings.Split(snapshot, "\n") {
		esc := escapeStatus(ln)
		sep := ""
		if i > 0 {
			sep = `\n`
		}
		if b.Len()+len(sep)+len(esc)+len(marker) > max {
			if i == 0 {
				// A first line longer than the cap: keep what fits of it.
				b.WriteString(cutEscaped(esc, max-len(marker)))
			}
			break
		}
		b.WriteString(sep + esc)
	}
	b.WriteString(marker)
	return b.String()
}

// cutEscaped cuts escaped text to at most n bytes without splitting an
// escape sequence or a rune.
func cutEscaped(esc string, n int) string {
	end := 0
	for i := 0; i < len(esc) && i <= n; {
		size := 1
		switch {
		case esc[i] == '\\' && i+1 < len(esc) && esc[i+1] == 'x':
			size = 4
		case esc[i] == '\\':
			size = 2
		default:
			_, size = utf8.DecodeRuneInString(esc[i:])
		}
		if i+size > n {
			break
		}
		i += size
		end = i
	}
	return esc[:end]
}
