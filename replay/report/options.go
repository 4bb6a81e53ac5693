package report

import "time"

// An Option adjusts a writer of this package. Each writer reads the options
// that concern it and ignores the others.
type Option func(*settings)

type settings struct {
	redact   Redactor
	terminal bool
	now      func() time.Time
	tick     time.Duration
	width    int
	suite    string
}

// defaultTick is how often a terminal's progress line is redrawn when
// nothing else happens, so the elapsed time keeps moving.
const defaultTick = time.Second

// defaultWidth is the terminal width assumed when none is given: the
// progress line is cut to it so that redrawing in place never wraps.
const defaultWidth = 100

// defaultSuite names the JUnit testsuite of a run.
const defaultSuite = "trailpin"

func newSettings(opts []Option) settings {
	s := settings{now: time.Now, tick: defaultTick, width: defaultWidth, suite: defaultSuite}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// WithRedactor makes the writer pass every string from a result through r.
func WithRedactor(r Redactor) Option { return func(s *settings) { s.redact = r } }

// WithTerminal says whether progress goes to a terminal (redrawn in place)
// or to a log (plain lines). The caller decides, e.g. with
// golang.org/x/term.IsTerminal on the output's file descriptor.
func WithTerminal(isTerminal bool) Option { return func(s *settings) { s.terminal = isTerminal } }

// WithClock replaces time.Now, for tests.
func WithClock(now func() time.Time) Option { return func(s *settings) { s.now = now } }

// WithRedraw sets how often a terminal's progress line is redrawn on its
// own; 0 redraws only when something happens.
func WithRedraw(every time.Duration) Option { return func(s *settings) { s.tick = every } }

// WithWidth sets the terminal width the progress line is cut to.
func WithWidth(columns int) Option {
	return func(s *settings) {
		if columns > 0 {
			s.width = columns
		}
	}
}

// WithSuiteName names the JUnit testsuite (default "trailpin").
func WithSuiteName(name string) Option {
	return func(s *settings) {
		if name != "" {
			s.suite = name
		}
	}
}
