package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/trailpin/trailpin/replay"
)

// runSummary is the run in one line: counts, time, and the trails that
// failed with their class and step.
func runSummary(run Run, redact Redactor) string {
	c := run.Counts()
	var b strings.Builder
	if run.Stopped != "" {
		fmt.Fprintf(&b, "stopped: %s; ", redact.apply(run.Stopped))
	}
	fmt.Fprintf(&b, "%s in %s: %s", plural(c.Total(), "trail"), formatDuration(run.Duration), countsText(c))
	var failed []string
	for _, t := range run.Trails {
		if t.Status() != replay.StatusFailed {
			continue
		}
		failed = append(failed, failureTag(t.Final(), redact))
	}
	if len(failed) > 0 {
		b.WriteString("; failed: " + strings.Join(failed, ", "))
	}
	return b.String()
}

// failureTag names a failed attempt briefly: "checkout (app-bug, step 21)".
func failureTag(res replay.TrailResult, redact Redactor) string {
	var detail []string
	if res.Class != "" {
		detail = append(detail, string(res.Class))
	}
	if st := failedStep(res); st != nil {
		detail = append(detail, fmt.Sprintf("step %d", st.Index))
	} else if failedBeforeFirstStep(res) {
		detail = append(detail, "before its first step")
	}
	tag := redact.apply(res.Slug)
	if len(detail) > 0 {
		tag += " (" + strings.Join(detail, ", ") + ")"
	}
	return tag
}

// countsText lists the non-zero counts, passed and failed always.
func countsText(c Counts) string {
	parts := []string{fmt.Sprintf("%d passed", c.Passed), fmt.Sprintf("%d failed", c.Failed)}
	if c.Healed > 0 {
		parts = append(parts, fmt.Sprintf("%d healed", c.Healed))
	}
	if c.Flaky > 0 {
		parts = append(parts, fmt.Sprintf("%d flaky", c.Flaky))
	}
	if c.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", c.Skipped))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// formatDuration writes a duration the way a person reads a test time:
// 0.42s, 12.3s, 2m05s.
func formatDuration(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// WriteSummary prints the end of a run for a person: the counts, then each
// failed trail with its class, error, the trail line to look at and its
// trace page, then each flaky trail with the failure it recovered from.
func WriteSummary(w io.Writer, run Run, opts ...Option) error {
	s := newSettings(opts)
	r := s.redact
	run = redacted(run, r)
	var b strings.Builder
	for _, t := range run.Trails {
		switch t.Status() {
		case replay.StatusFailed:
			res := t.Final()
			fmt.Fprintf(&b, "FAILED %s — %s\n", r.apply(res.Slug), oneLine(r.apply(res.Title)))
			writeFailureDetail(&b, res, r)
			if p := run.Traces[res.Slug]; p != "" {
				fmt.Fprintf(&b, "  trace:    %s\n", r.apply(p))
			}
		case replay.StatusHealed:
			res := t.Final()
			word := "HEALED"
			if run.FailOnHeal {
				word = "HEALED (counted as failed: --fail-on-heal)"
			}
			fmt.Fprintf(&b, "%s %s — %s\n", word, r.apply(res.Slug), oneLine(r.apply(res.Title)))
			writeHeals(&b, res, r)
			if p := run.Traces[res.Slug]; p != "" {
				fmt.Fprintf(&b, "  trace:    %s\n", r.apply(p))
			}
		case replay.StatusFlaky:
			failed, _ := t.Failed()
			fmt.Fprintf(&b, "FLAKY  %s — passed on attempt %d of %d; attempt %d failed: %s\n",
				r.apply(t.Slug()), t.Final().Attempt, len(t.Attempts), failed.Attempt,
				oneLine(failureReason(failed, failedStep(failed), r)))
			if p := run.Traces[t.Slug()]; p != "" {
				fmt.Fprintf(&b, "  trace:    %s\n", r.apply(p))
			}
		}
	}
	if run.Stopped != "" {
		fmt.Fprintf(&b, "STOPPED %s\n", oneLine(r.apply(run.Stopped)))
	}
	verdict := "PASSED"
	if !run.Passed() {
		verdict = "FAILED"
	}
	c := run.Counts()
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s: %s in %s: %s\n", verdict, plural(c.Total(), "trail"), formatDuration(run.Duration), countsText(c))
	if share := run.HealedShare(); share != "" {
		fmt.Fprintf(&b, "%s\n", share)
	}
	_, err := io.WriteString(w, "\n"+b.String())
	if err != nil {
		return fmt.Errorf("writing the run summary: %w", err)
	}
	return nil
}

// writeHeals writes the indented lines under a healed trail: each healed
// step, what the agent did instead of the recording, and what became of
// the new flow.
func writeHeals(b *strings.Builder, res replay.TrailResult, r Redactor) {
	for _, st := range res.Steps {
		h := st.Heal
		if st.Status != replay.StatusHealed || h == nil {
			continue
		}
		fmt.Fprintf(b, "  step:     %d, %s (%s)\n", st.Index, oneLine(r.apply(st.Intent)), HealCause(st))
		fmt.Fprintf(b, "  agent:    %s\n", oneLine(r.apply(HealDid(h))))
		if h.Check != "" {
			fmt.Fprintf(b, "  checked:  %s\n", oneLine(r.apply(h.Check)))
		}
		if h.Uncertain != "" {
			fmt.Fprintf(b, "  unsure:   %s\n", oneLine(r.apply(h.Uncertain)))
		}
		fmt.Fprintf(b, "  flow:     %s\n", oneLine(r.apply(HealDecision(h))))
		fmt.Fprintf(b, "  model:    %d calls, %d prompt + %d completion tokens\n", h.Calls, h.PromptTokens, h.CompletionTokens)
	}
}

// HealCause says why the agent took the step: the hand-off record, a
// miss, or a step only the agent performs.
func HealCause(st replay.StepResult) string {
	h := st.Heal
	switch h.Cache {
	case replay.CacheHandOff:
		return fmt.Sprintf("hand-off: replay stopped (%s) after %d of %d recorded actions", h.Stopped, h.Replayed, len(st.Actions))
	case replay.CacheMiss:
		return fmt.Sprintf("miss: replay stopped (%s) before acting", h.Stopped)
	}
	return "performed by the agent"
}

// HealDid is what the agent did, in words.
func HealDid(h *replay.Heal) string {
	if len(h.Did) == 0 {
		return "nothing: " + h.Summary
	}
	return strings.Join(h.Did, "; ")
}

// HealDecision says what became of a healed flow.
func HealDecision(h *replay.Heal) string {
	d := h.Decision
	if d == "" {
		d = "undecided"
	}
	if h.Reason != "" {
		return d + ": " + h.Reason
	}
	return d
}

// writeFailureDetail writes the indented lines under a failed trail.
func writeFailureDetail(b *strings.Builder, res replay.TrailResult, r Redactor) {
	if res.Class != "" {
		fmt.Fprintf(b, "  class:    %s\n", res.Class)
	}
	msg := res.Error
	if st := failedStep(res); st != nil {
		if st.Error != "" {
			msg = st.Error
		}
		fmt.Fprintf(b, "  step:     %d, %s\n", st.Index, oneLine(r.apply(st.Intent)))
	} else if failedBeforeFirstStep(res) {
		fmt.Fprintf(b, "  step:     none: %s\n", beforeFirstStep)
	}
	if msg != "" {
		fmt.Fprintf(b, "  error:    %s\n", oneLine(r.apply(msg)))
	}
	if res.Expected != "" || res.Actual != "" {
		fmt.Fprintf(b, "  expected: %q\n  actual:   %q\n", r.apply(res.Expected), r.apply(res.Actual))
	}
	if res.Missing != "" {
		fmt.Fprintf(b, "  set:      %s\n", oneLine(r.apply(res.Missing)))
	}
	if loc := lookAt(res, r); loc != "" {
		fmt.Fprintf(b, "  look at:  %s\n", loc)
	}
}

// oneLine keeps text on one terminal line: line breaks become " ⏎ " and
// other control characters are dropped (an app's text must not move the
// cursor or change colours).
func oneLine(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n':
			b.WriteString(" ⏎ ")
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
