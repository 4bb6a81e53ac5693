package report

import (
	"fmt"
	"time"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// A Run is one `host replay` invocation as the reports see it: every trail
// it selected, with every attempt at each.
type Run struct {
	Started  time.Time
	Duration time.Duration
	// Trails are in the order the suite listed them.
	Trails []TrailRun
	// Stopped says why the run ended before every trail ran (the circuit
	// breaker); empty when it did not stop early.
	Stopped string
	// Traces maps a trail's slug to the trace page written for it, for the
	// summary and JUnit to point at.
	Traces map[string]string
	// FailOnHeal makes a healed trail count as failed (--fail-on-heal).
	FailOnHeal bool
}

// A TrailRun is every attempt at one trail, in order. The last attempt is
// the verdict; a pass after a failed attempt makes the trail flaky.
type TrailRun struct {
	Attempts []replay.TrailResult
}

// Final returns the verdict attempt (the last one).
func (t TrailRun) Final() replay.TrailResult {
	if len(t.Attempts) == 0 {
		return replay.TrailResult{Status: replay.StatusSkipped}
	}
	return t.Attempts[len(t.Attempts)-1]
}

// Slug names the trail in reports.
func (t TrailRun) Slug() string { return t.Final().Slug }

// Status is the trail's outcome: the final attempt's, except that a pass
// after a failed attempt is flaky (whether or not the engine said so).
func (t TrailRun) Status() replay.Status {
	final := t.Final()
	switch final.Status {
	case replay.StatusPassed, replay.StatusFlaky, replay.StatusHealed:
		for _, a := range t.Attempts[:len(t.Attempts)-1] {
			if a.Status == replay.StatusFailed {
				return replay.StatusFlaky
			}
		}
		return final.Status
	case "":
		return replay.StatusSkipped
	}
	return final.Status
}

// Failed returns the attempt that explains a failure: the last failed
// attempt (for a flaky trail, the failure before the pass). ok is false
// when no attempt failed.
func (t TrailRun) Failed() (res replay.TrailResult, ok bool) {
	for i := len(t.Attempts) - 1; i >= 0; i-- {
		if t.Attempts[i].Status == replay.StatusFailed {
			return t.Attempts[i], true
		}
	}
	return replay.TrailResult{}, false
}

// Duration is the time spent on every attempt, added up.
func (t TrailRun) Duration() time.Duration {
	var d time.Duration
	for _, a := range t.Attempts {
		d += a.Duration
	}
	return d
}

// Started is when the first attempt started.
func (t TrailRun) Started() time.Time {
	if len(t.Attempts) == 0 {
		return time.Time{}
	}
	return t.Attempts[0].Started
}

// Group collects attempts into trails by slug, in the order each slug first
// appears. Attempts of one slug keep their order.
func Group(results []replay.TrailResult) []TrailRun {
	index := map[string]int{}
	var trails []TrailRun
	for _, r := range results {
		i, ok := index[r.Slug]
		if !ok {
			i = len(trails)
			index[r.Slug] = i
			trails = append(trails, TrailRun{})
		}
		trails[i].Attempts = append(trails[i].Attempts, r)
	}
	return trails
}

// Counts are how many trails ended each way.
type Counts struct {
	Passed, Failed, Flaky, Skipped int
	// Healed trails passed with the agent (docs/agent.md).
	Healed int
}

// Total is the number of trails counted.
func (c Counts) Total() int { return c.Passed + c.Failed + c.Flaky + c.Skipped + c.Healed }

func (c *Counts) add(s replay.Status) {
	switch s {
	case replay.StatusPassed:
		c.Passed++
	case replay.StatusFailed:
		c.Failed++
	case replay.StatusFlaky:
		c.Flaky++
	case replay.StatusHealed:
		c.Healed++
	default:
		c.Skipped++
	}
}

// Counts tallies the run's trails by outcome.
func (r Run) Counts() Counts {
	var c Counts
	for _, t := range r.Trails {
		c.add(t.Status())
	}
	return c
}

// Passed reports whether the run is a pass: it ran to its end and no trail
// failed (flaky trails passed in the end; healed ones too, unless
// FailOnHeal).
func (r Run) Passed() bool {
	return r.Stopped == "" && !r.anyFailed()
}

func (r Run) anyFailed() bool {
	c := r.Counts()
	return c.Failed > 0 || r.FailOnHeal && c.Healed > 0
}

// Agent is what the agent did in the run: the steps it healed, the
// steps it took part in, and what its model calls cost (the final attempt
// of each trail).
type Agent struct {
	HealedSteps, Steps             int
	Calls                          int
	PromptTokens, CompletionTokens int
	Latency                        time.Duration
}

// Agent adds up the agent's part of the run, over every attempt.
func (r Run) Agent() Agent {
	var a Agent
	for _, t := range r.Trails {
		for _, res := range t.Attempts {
			for _, st := range res.Steps {
				if st.Status == replay.StatusHealed {
					a.HealedSteps++
				}
				if h := st.Heal; h != nil {
					a.Steps++
					a.Calls += h.Calls
					a.PromptTokens += h.PromptTokens
					a.CompletionTokens += h.CompletionTokens
					a.Latency += h.Latency
				}
			}
		}
	}
	return a
}

// HealedShare says how much of the run the agent healed: the staleness
// signal of docs/agent.md. "" when it healed nothing.
func (r Run) HealedShare() string {
	c := r.Counts()
	ran := c.Total() - c.Skipped
	if c.Healed == 0 || ran == 0 {
		return ""
	}
	a := r.Agent()
	return fmt.Sprintf("healed share: %d of %d trails (%d%%), %d steps healed; model: %d calls, %d prompt + %d completion tokens, %s waiting",
		c.Healed, ran, c.Healed*100/ran, a.HealedSteps, a.Calls, a.PromptTokens, a.CompletionTokens, formatDuration(a.Latency))
}

// A Redactor replaces every secret value in a text. Reports apply it to
// each string from a result before they cut or escape it. Nil leaves text
// as it is.
type Redactor func(string) string

func (r Redactor) apply(s string) string {
	if r == nil {
		return s
	}
	return r(s)
}

// ExitCode is the process exit code for the run (exitcode.OfRun).
func (r Run) ExitCode() int {
	return exitcode.OfRun(r.Stopped != "", r.anyFailed())
}
