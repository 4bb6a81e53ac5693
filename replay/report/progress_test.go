package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// fakeClock advances only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

// playRun feeds the sample run to a Progress the way two workers would.
func playRun(p *Progress, clock *fakeClock) {
	run := sampleRun()
	p.TrailStarted("sign-in", "Sign in", 1, 3)
	p.TrailStarted("buy-two-iphone-items-with-a-discount", "Buy two iPhone items with a discount", 1, 6)
	p.StepStarted("sign-in", 1, "Open the sign-in page")
	p.StepStarted("buy-two-iphone-items-with-a-discount", 1, "Sign in")
	clock.advance(2 * time.Second)
	p.TrailFinished(run.Trails[0])
	p.TrailStarted("big-page", "Big page", 1, 2)
	p.StepStarted("big-page", 2, "Continue once the button appears")
	clock.advance(3 * time.Second)
	p.TrailFinished(run.Trails[1])
	clock.advance(8 * time.Second)
	p.AttemptFailed(run.Trails[2].Attempts[0])
	p.TrailStarted("big-page", "Big page", 2, 2)
	clock.advance(2 * time.Second)
	p.TrailFinished(run.Trails[2])
	p.Close()
}

func TestProgressPlain(t *testing.T) {
	clock := &fakeClock{t: runStart}
	var out bytes.Buffer
	p := NewProgress(&out, 3, WithTerminal(false), WithClock(clock.now))
	playRun(p, clock)
	want := `[00:00] start sign-in: Sign in
[00:00] start buy-two-iphone-items-with-a-discount: Buy two iPhone items with a discount
[00:02] PASS sign-in 1.84s (1/3)
[00:02] start big-page: Big page
[00:05] FAIL buy-two-iphone-items-with-a-discount 4.21s (2/3): app-bug: no visible node reads "$763.20"; the total reads "$790.20" (trails/buy-two-iphone-items-with-a-discount.trail.yaml:52)
[00:13] FAIL big-page attempt 1, retrying: selector-drift: tap {role: button, name: Continue}: no button "Continue" appeared within 10s (trails/big-page.trail.yaml:15)
[00:13] retry big-page (attempt 2)
[00:15] PASS big-page 13.4s (3/3)
`
	// A flaky trail's line says so.
	want = strings.Replace(want, "PASS big-page 13.4s (3/3)", "FLAKY big-page 13.4s (3/3): passed on attempt 2", 1)
	if out.String() != want {
		t.Errorf("plain progress:\n%s\nwant:\n%s", out.String(), want)
	}
	if strings.Contains(out.String(), "\x1b") || strings.Contains(out.String(), "\r") {
		t.Errorf("plain progress holds terminal codes: %q", out.String())
	}
}

func TestProgressTerminal(t *testing.T) {
	clock := &fakeClock{t: runStart}
	var out bytes.Buffer
	p := NewProgress(&out, 3, WithTerminal(true), WithClock(clock.now), WithRedraw(0), WithWidth(200))
	playRun(p, clock)
	got := out.String()
	for _, want := range []string{
		"[00:00] 0/3 done · 0 passed · 0 failed │ sign-in 1/3 Open the sign-in page │ buy-two-iphone-items-with-a-discount 1/6 Sign in",
		clearLine + "  " + colorGrn + "✓" + colorOff + " sign-in",
		"[00:02] 1/3 done · 1 passed · 0 failed │ buy-two-iphone-items-with-a-discount 1/6 Sign in │ big-page 2/2 Continue once the button appears",
		colorRed + "✗" + colorOff + " buy-two-iphone-items-with-a-discount",
		"big-page attempt 1 failed: selector-drift",
		"[00:13] 2/3 done · 1 passed · 1 failed │ big-page (attempt 2)",
		colorYel + "~" + colorOff + " big-page",
		"[00:15] 3/3 done · 2 passed · 1 failed (1 flaky)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("terminal progress lacks %q:\n%q", want, got)
		}
	}
	if !strings.HasSuffix(got, clearLine) {
		t.Errorf("Close left the live line on screen: ends %q", got[max(0, len(got)-40):])
	}
	// Every redraw of the live line fits the width, so it never wraps.
	for _, seg := range strings.Split(got, clearLine) {
		line, _, _ := strings.Cut(seg, "\n")
		if n := utf8.RuneCountInString(line); n >= 200 && !strings.Contains(line, "\x1b") {
			t.Errorf("a line of %d columns in a 200-column terminal: %q", n, line)
		}
	}
}

func TestProgressNarrowTerminal(t *testing.T) {
	var out bytes.Buffer
	p := NewProgress(&out, 1, WithTerminal(true), WithRedraw(0), WithWidth(40))
	p.TrailStarted("a-trail-with-a-long-name", "T", 1, 9)
	p.StepStarted("a-trail-with-a-long-name", 3, "A step whose intent is long")
	p.Close()
	for _, seg := range strings.Split(out.String(), clearLine) {
		if n := utf8.RuneCountInString(seg); n > 39 {
			t.Errorf("a live line of %d columns in a 40-column terminal: %q", n, seg)
		}
	}
	if !strings.Contains(out.String(), "…") {
		t.Errorf("the live line was not cut: %q", out.String())
	}
}

func TestProgressTerminalTicks(t *testing.T) {
	var out syncBuffer
	p := NewProgress(&out, 1, WithTerminal(true), WithRedraw(time.Millisecond))
	p.TrailStarted("slow", "Slow", 1, 1)
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(out.String(), clearLine) < 5 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	p.Close()
	if n := strings.Count(out.String(), clearLine); n < 5 {
		t.Errorf("the live line was redrawn %d times on its own, want at least 5", n)
	}
	after := out.String()
	time.Sleep(20 * time.Millisecond)
	if out.String() != after {
		t.Errorf("progress kept drawing after Close")
	}
}

func TestCutColumns(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"a longer line", 6, "a lon…"},
		{"ünïcödé text", 5, "ünïc…"},
	}
	for _, tt := range tests {
		if got := cutColumns(tt.in, tt.n); got != tt.want {
			t.Errorf("cutColumns(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
