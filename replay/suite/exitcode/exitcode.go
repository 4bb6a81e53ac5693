// Package exitcode holds the exit codes of `host replay` and `host demo`,
// which CI trusts, and Error, the one error type by which every command of
// the host chooses its process's exit code. It imports nothing of
// Trailpin's, so that reports and every command can use it.
package exitcode

import (
	"errors"
)

// The exit codes of `host replay` (and `host demo`), the one place they are
// defined. CI trusts them: a pass is 0 only when every selected trail passed.
// Append new codes; never change a value.
const (
	// Passed: every trail passed (a flaky trail passed on a retry and
	// counts as passed).
	Passed = 0
	// Failed: at least one trail failed.
	Failed = 1
	// Usage: the command line or the configuration is wrong: an unknown
	// flag, a bad --shard, --grep, --trace or --param, a trail file that
	// does not load, a name that no trail has, nothing selected, a config
	// file that does not parse. No trail ran.
	Usage = 2
	// Environment: the run could not be carried out here: no browser
	// found, the browser would not start or went away, --browser-url
	// unreachable, the results folder or JUnit file cannot be written.
	Environment = 3
	// Stopped: the run stopped early: the circuit breaker (4 trails in
	// a row failed with env-issue or auth-blocked, so the app looks down or
	// locked), or an interrupt; the remaining trails were skipped.
	Stopped = 4
)

// Help documents the exit codes for --help.
const Help = `Exit codes:
  0  every trail passed (a flaky trail, passed on a retry, counts as passed)
  1  a trail failed
  2  usage or configuration error: a bad flag, --shard, --grep or --param, a trail
     file that does not load, a trail name not found, no trail selected; nothing ran
  3  environment problem: no browser found or it would not start, the remote browser
     is unreachable, the results folder or JUnit file cannot be written
  4  the run stopped early: 4 trails in a row failed with env-issue or auth-blocked
     (the app looks down), or it was interrupted; the trails not run are reported
     as skipped`

// OfRun is the exit code of a run that took place: stopped by the
// circuit breaker, or with any failed trail, or passed.
func OfRun(stopped, anyFailed bool) int {
	switch {
	case stopped:
		return Stopped
	case anyFailed:
		return Failed
	}
	return Passed
}

// An Error is an error that decides the process's exit code. Err may be
// nil when the command's output already said why; the host then prints
// nothing more.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// UsageError marks err as a usage or configuration error (Usage).
func UsageError(err error) error { return &Error{Code: Usage, Err: err} }

// EnvironmentError marks err as an environment problem (Environment).
func EnvironmentError(err error) error { return &Error{Code: Environment, Err: err} }

// Of maps an error that ended `host replay` before or outside a run to
// its exit code: nil is Passed, an *Error its code, and anything else
// Environment (the run could not be carried out, which is never a trail
// failure: a browser that is not found is one).
func Of(err error) int {
	if err == nil {
		return Passed
	}
	var ee *Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	return Environment
}
