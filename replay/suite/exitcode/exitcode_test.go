package exitcode_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

func TestExitCodes(t *testing.T) {
	tests := []struct {
		stopped, failed bool
		want            int
	}{
		{false, false, exitcode.Passed},
		{false, true, exitcode.Failed},
		{true, true, exitcode.Stopped},
		{true, false, exitcode.Stopped},
	}
	for _, tt := range tests {
		if got := exitcode.OfRun(tt.stopped, tt.failed); got != tt.want {
			t.Errorf("exitcode.OfRun(%v, %v) = %d, want %d", tt.stopped, tt.failed, got, tt.want)
		}
	}
	errTests := []struct {
		err  error
		want int
	}{
		{nil, exitcode.Passed},
		{exitcode.UsageError(errors.New("bad flag")), exitcode.Usage},
		{fmt.Errorf("starting: %w", exitcode.EnvironmentError(errors.New("no browser"))), exitcode.Environment},
		{fmt.Errorf("launching: %w", browser.ErrNoChrome), exitcode.Environment},
	}
	for _, tt := range errTests {
		if got := exitcode.Of(tt.err); got != tt.want {
			t.Errorf("exitcode.Of(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
	for _, code := range []int{exitcode.Passed, exitcode.Failed, exitcode.Usage, exitcode.Environment, exitcode.Stopped} {
		if !strings.Contains(exitcode.Help, fmt.Sprintf("\n  %d  ", code)) {
			t.Errorf("exitcode.Help does not document exit code %d", code)
		}
	}
}

// TestErrorWithoutMessage: an Error with no Err is a command that already
// said why: its message is empty, and it still carries its code.
func TestErrorWithoutMessage(t *testing.T) {
	err := fmt.Errorf("%w", &exitcode.Error{Code: exitcode.Stopped})
	if err.Error() != "" || exitcode.Of(err) != exitcode.Stopped {
		t.Errorf("a silent Error = %q, code %d; want no message, code %d", err.Error(), exitcode.Of(err), exitcode.Stopped)
	}
	var ee *exitcode.Error
	if !errors.As(err, &ee) || ee.Unwrap() != nil {
		t.Errorf("a silent Error unwraps to %v", ee)
	}
}
