package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/trailpin/trailpin/replay"
)

// Terminal control: return to the line's start and clear it, so the live
// line is redrawn in place. Used only when the output is a terminal.
const (
	clearLine = "\r\x1b[2K"
	colorRed  = "\x1b[31m"
	colorGrn  = "\x1b[32m"
	colorYel  = "\x1b[33m"
	colorDim  = "\x1b[2m"
	colorOff  = "\x1b[0m"
)

// Progress shows a run while it happens. On a terminal, one live line at
// the bottom (elapsed time, trails done of all, pass and fail counts, and
// each running trail with its current step) is redrawn in place, and a line
// per finished trail scrolls above it. Elsewhere (a CI log, a pipe) it
// writes plain lines without any terminal codes: one when a trail starts,
// one when an attempt fails and is retried, one when a trail ends.
//
// Its methods are safe to call from several workers at once.
type Progress struct {
	mu      sync.Mutex
	w       io.Writer
	s       settings
	start   time.Time
	total   int
	done    int
	counts  Counts
	running []*runningTrail
	shown   bool // a live line is on the terminal
	closed  bool
	stop    chan struct{}
	ticking sync.WaitGroup
}

type runningTrail struct {
	slug, intent   string
	attempt, steps int
	step           int
}

// NewProgress starts showing a run of total trails on w. On a terminal it
// redraws the live line every second (WithRedraw) until Close.
func NewProgress(w io.Writer, total int, opts ...Option) *Progress {
	s := newSettings(opts)
	p := &Progress{w: w, s: s, start: s.now(), total: total, stop: make(chan struct{})}
	if s.terminal && s.tick > 0 {
		p.ticking.Go(func() {
			t := time.NewTicker(s.tick)
			defer t.Stop()
			for {
				select {
				case <-p.stop:
					return
				case <-t.C:
					p.mu.Lock()
					p.redraw()
					p.mu.Unlock()
				}
			}
		})
	}
	return p
}

// TrailStarted says an attempt at a trail began; steps is how many steps
// the trail has.
func (p *Progress) TrailStarted(slug, title string, attempt, steps int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running = append(p.running, &runningTrail{slug: slug, attempt: attempt, steps: steps})
	if p.s.terminal {
		p.redraw()
		return
	}
	if attempt > 1 {
		p.plain("retry %s (attempt %d)", oneLine(slug), attempt)
	} else {
		p.plain("start %s: %s", oneLine(slug), oneLine(p.s.redact.apply(title)))
	}
}

// StepStarted says a trail's step began (shown on a terminal only).
func (p *Progress) StepStarted(slug string, index int, intent string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r := p.find(slug); r != nil {
		r.step, r.intent = index, p.s.redact.apply(intent)
	}
	p.redraw()
}

// AttemptFailed says an attempt failed and the trail will be tried again.
func (p *Progress) AttemptFailed(res replay.TrailResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.remove(res.Slug)
	res = redacted(res, p.s.redact)
	reason := oneLine(failureReason(res, failedStep(res), nil))
	if p.s.terminal {
		p.above(fmt.Sprintf("  %s↻%s %s attempt %d failed: %s", colorYel, colorOff, oneLine(res.Slug), res.Attempt, reason))
		return
	}
	p.plain("FAIL %s attempt %d, retrying: %s", oneLine(res.Slug), res.Attempt, reason)
}

// TrailFinished says the trail's verdict is known.
func (p *Progress) TrailFinished(t TrailRun) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t = redacted(t, p.s.redact)
	p.remove(t.Slug())
	status := t.Status()
	p.counts.add(status)
	p.done++
	final := t.Final()
	slug, took := oneLine(t.Slug()), formatDuration(t.Duration())
	var detail string
	switch status {
	case replay.StatusFailed:
		detail = ": " + oneLine(failureReason(final, failedStep(final), nil))
	case replay.StatusFlaky:
		detail = fmt.Sprintf(": passed on attempt %d", final.Attempt)
	case replay.StatusHealed:
		detail = fmt.Sprintf(": passed with the agent (%s)", plural(healedSteps(final), "step"))
	case replay.StatusSkipped:
		if final.Error != "" {
			detail = ": " + oneLine(final.Error)
		}
	}
	if p.s.terminal {
		mark := map[replay.Status]string{
			replay.StatusPassed:  colorGrn + "✓" + colorOff,
			replay.StatusFailed:  colorRed + "✗" + colorOff,
			replay.StatusFlaky:   colorYel + "~" + colorOff,
			replay.StatusHealed:  colorYel + "✚" + colorOff,
			replay.StatusSkipped: colorDim + "-" + colorOff,
		}[status]
		p.above(fmt.Sprintf("  %s %s %s%s%s%s", mark, slug, colorDim, took, colorOff, detail))
		return
	}
	word := map[replay.Status]string{
		replay.StatusPassed: "PASS", replay.StatusFailed: "FAIL",
		replay.StatusFlaky: "FLAKY", replay.StatusSkipped: "SKIP", replay.StatusHealed: "HEALED",
	}[status]
	p.plain("%s %s %s (%d/%d)%s", word, slug, took, p.done, p.total, detail)
}

// Close stops redrawing and clears the live line. Call it before printing
// the summary.
func (p *Progress) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	if p.shown {
		io.WriteString(p.w, clearLine)
		p.shown = false
	}
	p.mu.Unlock()
	p.ticking.Wait()
}

func (p *Progress) find(slug string) *runningTrail {
	for _, r := range p.running {
		if r.slug == slug {
			return r
		}
	}
	return nil
}

func (p *Progress) remove(slug string) {
	for i, r := range p.running {
		if r.slug == slug {
			p.running = append(p.running[:i], p.running[i+1:]...)
			return
		}
	}
}

func (p *Progress) elapsed() string {
	d := p.s.now().Sub(p.start).Round(time.Second)
	return fmt.Sprintf("%02d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

// plain writes one log line (non-terminal output).
func (p *Progress) plain(format string, args ...any) {
	if p.closed {
		return
	}
	fmt.Fprintf(p.w, "[%s] %s\n", p.elapsed(), fmt.Sprintf(format, args...))
}

// above prints a finished line on a terminal, above the live line.
func (p *Progress) above(line string) {
	if p.closed {
		return
	}
	io.WriteString(p.w, clearLine+line+"\n")
	p.shown = false
	p.redraw()
}

// redraw rewrites the live line on a terminal.
func (p *Progress) redraw() {
	if !p.s.terminal || p.closed {
		return
	}
	c := p.counts
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %d/%d done · %d passed · %d failed", p.elapsed(), p.done, p.total, c.Passed+c.Flaky, c.Failed)
	if c.Flaky > 0 {
		fmt.Fprintf(&b, " (%d flaky)", c.Flaky)
	}
	for _, r := range p.running {
		fmt.Fprintf(&b, " │ %s", oneLine(r.slug))
		if r.step > 0 {
			fmt.Fprintf(&b, " %d/%d %s", r.step, r.steps, oneLine(r.intent))
		}
		if r.attempt > 1 {
			fmt.Fprintf(&b, " (attempt %d)", r.attempt)
		}
	}
	io.WriteString(p.w, clearLine+cutColumns(b.String(), p.s.width-1))
	p.shown = true
}

// cutColumns keeps at most n runes, ending in "…" when it cut, so the live
// line never wraps (a wrapped line cannot be redrawn in place).
func cutColumns(s string, n int) string {
	runes := []rune(s)
	if len(runes) <= n {
		return s
	}
	if n <= 1 {
		return string(runes[:max(n, 0)])
	}
	return string(runes[:n-1]) + "…"
}

// healedSteps counts the steps of an attempt the agent healed.
func healedSteps(res replay.TrailResult) int {
	n := 0
	for _, st := range res.Steps {
		if st.Status == replay.StatusHealed {
			n++
		}
	}
	return n
}
