package model

import (
	"sync"
	"time"
)

// Defaults of a call's budget when the caller leaves a field zero.
const (
	// defaultMaxAttempts tries a call three times: one blip (a 429, a
	// dropped connection, a malformed answer) and one more for luck, without
	// letting a broken endpoint eat a step's deadline.
	defaultMaxAttempts = 3
	// defaultAttemptTimeout bounds an attempt when the context has no
	// deadline, so that a call never hangs.
	defaultAttemptTimeout = 60 * time.Second
	// minAttemptTimeout keeps an attempt's share of a short deadline long
	// enough for a small answer.
	minAttemptTimeout = 2 * time.Second
)

// A Budget bounds one call. The call also stops at its context's deadline
// (the agent's agent.stepDeadline), whatever is left of the budget.
type Budget struct {
	// MaxAttempts is how many requests the call may send (default 3).
	MaxAttempts int
	// AttemptTimeout bounds one request. Zero gives each attempt an equal
	// share of the time left before the context's deadline (at least 2s),
	// or 60s when the context has none.
	AttemptTimeout time.Duration
	// Calls, when not nil, is the run's allowance (agent.maxCalls): every
	// request takes one, and none is sent once it is used up.
	Calls *CallBudget
}

// A CallBudget is how many requests a whole run may send to the model.
// It is safe for concurrent use.
type CallBudget struct {
	mu        sync.Mutex
	max, used int
}

// NewCallBudget allows max requests.
func NewCallBudget(max int) *CallBudget { return &CallBudget{max: max} }

// take uses one request, or reports that none is left.
func (b *CallBudget) take() bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used >= b.max {
		return false
	}
	b.used++
	return true
}

// Used is how many requests were sent under the budget.
func (b *CallBudget) Used() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Max is the number of requests allowed.
func (b *CallBudget) Max() int { return b.max }

// An Attempt is one request sent to the model, with what it cost.
type Attempt struct {
	Started time.Time
	Latency time.Duration
	// PromptTokens and CompletionTokens are what the endpoint reported (zero
	// when it answered with an error or reported none).
	PromptTokens, CompletionTokens int
	// Failure is empty for the attempt whose answer was used.
	Failure Failure
	// Detail says what was wrong with a failed attempt.
	Detail string
}

// Usage is what one call cost: every attempt it sent, failed ones
// included.
type Usage struct {
	Model    string
	Attempts []Attempt
}

// Calls is the number of requests sent.
func (u Usage) Calls() int { return len(u.Attempts) }

// PromptTokens is the tokens sent over all attempts.
func (u Usage) PromptTokens() int {
	n := 0
	for _, a := range u.Attempts {
		n += a.PromptTokens
	}
	return n
}

// CompletionTokens is the tokens received over all attempts.
func (u Usage) CompletionTokens() int {
	n := 0
	for _, a := range u.Attempts {
		n += a.CompletionTokens
	}
	return n
}

// Latency is the time spent waiting for the model over all attempts (not
// the waits between them).
func (u Usage) Latency() time.Duration {
	var d time.Duration
	for _, a := range u.Attempts {
		d += a.Latency
	}
	return d
}
