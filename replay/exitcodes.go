package replay

import (
	"errors"
)

// The exit codes of `host replay` (and `host demo`), the one place they are
// defined. CI trusts them: a pass is 0 only when every selected trail passed.
// Append new codes; never change a value.
const (
	// ExitPassed: every trail passed (a flaky trail passed on a retry and
	// counts as passed).
	ExitPassed = 0
	// ExitFailed: at least one trail failed.
	ExitFailed = 1
	// ExitUsage: the command line or the configuration is wrong: an unknown
	// flag, a bad --shard, --grep, --trace or --param, a trail file that
	// does not load, a name that no trail has, nothing selected, a config
	// file that does not parse. No trail ran.
	ExitUsage = 2
	// ExitEnvironment: the run could not be carried out here: no browser
	// found, the browser would not start or went away, --browser-url
	// unreachable, the results folder or JUnit file cannot be written.
	ExitEnvironment = 3
	// ExitStopped: the run stopped early: the circuit breaker (4 trails in
	// a row failed with env-issue or auth-blocked, so the app looks down or
	// locked), or an interrupt; the remaining trails were skipped.
	ExitStopped = 4
)

// ExitCodesHelp documents the exit codes for --help.
const ExitCodesHelp = `Exit codes:
  0  every trail passed (a flaky trail, passed on a retry, counts as passed)
  1  a trail failed
  2  usage or configuration error: a bad flag, --shard, --grep or --param, a trail
     file that does not load, a trail name not found, no trail selected; nothing ran
  3  environment problem: no browser found or it would not start, the remote browser
     is unreachable, the results folder or JUnit file cannot be written
  4  the run stopped early: 4 trails in a row failed with env-issue or auth-blocked
     (the app looks down), or it was interrupted; the trails not run are reported
     as skipped`

// RunExitCode is the exit code of a run that took place: stopped by the
// circuit breaker, or with any failed trail, or passed.
func RunExitCode(stopped, anyFailed bool) int {
	switch {
	case stopped:
		return ExitStopped
	case anyFailed:
		return ExitFailed
	}
	return ExitPassed
}

// An ExitError is an error that decides the process's exit code.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// UsageError marks err as a usage or configuration error (ExitUsage).
func UsageError(err error) error { return &ExitError{Code: ExitUsage, Err: err} }

// EnvironmentError marks err as an environment problem (ExitEnvironment).
func EnvironmentError(err error) error { return &ExitError{Code: ExitEnvironment, Err: err} }

// ExitCodeOf maps an error that ended `host replay` before or outside a
// run to its exit code: nil is ExitPassed, an *ExitError its code,
// ErrNoChrome ExitEnvironment, and anything else ExitEnvironment too (the
// run could not be carried out, which is never a trail failure).
func ExitCodeOf(err error) int {
	if err == nil {
		return ExitPassed
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitEnvironment
}
