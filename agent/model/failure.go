package model

import (
	"fmt"
	"strings"
	"time"
)

// A Failure names what went wrong with an attempt: the word a step's
// reason, the trace page and model_calls.error show.
type Failure string

// Failures. Append new ones; never change a value (reports and the
// database hold them).
const (
	// Retried within the budget:
	FailRateLimited    Failure = "rate-limited"    // 429
	FailServerError    Failure = "server-error"    // 5xx, 408, 409
	FailTimeout        Failure = "timeout"         // no answer within the attempt's time
	FailUnreachable    Failure = "unreachable"     // no connection to the endpoint
	FailMalformed      Failure = "malformed"       // arguments or answer not JSON, or not matching the schema
	FailUnknownTool    Failure = "unknown-tool"    // a call of a tool that was not offered
	FailNoToolCall     Failure = "no-tool-call"    // text, or several calls, instead of exactly one call
	FailBadResponse    Failure = "bad-response"    // a 2xx whose body is not a chat completion
	FailRefused        Failure = "refused"         // the model refused to answer
	FailTruncatedReply Failure = "truncated-reply" // the answer hit the token limit

	// Not retried:
	FailRejected   Failure = "rejected"    // 4xx: bad key, unknown model, bad request
	FailCallBudget Failure = "call-budget" // the run's agent.maxCalls is used up
	FailDeadline   Failure = "deadline"    // the caller's deadline passed before an answer
	FailNotSent    Failure = "not-sent"    // the body could not be made safe to send
	FailCancelled  Failure = "cancelled"   // the caller cancelled the call (a cancelled run)
)

// retried reports whether an attempt that failed so is tried again.
func (f Failure) retried() bool {
	switch f {
	case FailRejected, FailCallBudget, FailDeadline, FailNotSent, FailCancelled:
		return false
	}
	return true
}

// A CallError is a call that got no usable answer within its budget.
type CallError struct {
	// Model is the configured model's name.
	Model string
	// Failure is what went wrong with the last attempt, or FailDeadline /
	// FailCallBudget when the budget ran out before one was made.
	Failure Failure
	// Attempts is how many requests were sent.
	Attempts int
	// Detail says what the last attempt got, in one line.
	Detail string
	// Last is the failure of the last attempt when the budget ran out
	// after it (Failure is then FailDeadline or FailCallBudget).
	Last Failure
	// Err is the underlying error, when there is one (context.DeadlineExceeded
	// for a deadline).
	Err error
}

func (e *CallError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "model %s: %s", e.Model, e.Failure)
	switch e.Attempts {
	case 0:
	case 1:
		b.WriteString(" after 1 attempt")
	default:
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.Last != "" && e.Last != e.Failure {
		fmt.Fprintf(&b, " (last attempt: %s)", e.Last)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

func (e *CallError) Unwrap() error { return e.Err }

// Is lets errors.Is(err, model.FailTimeout) ask what went wrong.
func (e *CallError) Is(target error) bool {
	f, ok := target.(Failure)
	return ok && (f == e.Failure || f == e.Last)
}

// Error makes a Failure usable as an errors.Is target.
func (f Failure) Error() string { return string(f) }

// An attemptError is one attempt's failure, before the budget decides
// whether it is the call's.
type attemptError struct {
	failure Failure
	detail  string
	// retryAfter is what a 429 or 503 asked to wait, zero for none.
	retryAfter time.Duration
	err        error
}

func (e *attemptError) Error() string { return string(e.failure) + ": " + e.detail }
