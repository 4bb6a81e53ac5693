package report

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// statusFields is how many fields after the event each line has.
var statusFields = map[string]int{
	EventRoute: 1, EventAria: 1, EventStepStart: 2, EventStepDone: 2,
	EventAssertionFailed: 2, EventRunCompleted: 2,
}

// ParseStatusLine reads one status line (without its newline) the way a
// consumer of --format status should: the event, then its fields with the
// escapes undone. ROUTE and ARIA have one field; STEP_START, STEP_DONE and
// ASSERTION_FAILED have the step id and the text; RUN_COMPLETED has
// "passed" or "failed" and the summary.
func ParseStatusLine(line string) (event string, fields []string, err error) {
	event, rest, ok := strings.Cut(line, "|")
	n, known := statusFields[event]
	if !ok || !known {
		return "", nil, fmt.Errorf("status line %q: no known event before the first |", screen.ClipBytes(line, 80))
	}
	parts := strings.SplitN(rest, "|", n)
	if len(parts) != n {
		return "", nil, fmt.Errorf("status line %q: %s has %d fields, want %d", screen.ClipBytes(line, 80), event, len(parts), n)
	}
	for i, p := range parts {
		if parts[i], err = UnescapeStatus(p); err != nil {
			return "", nil, fmt.Errorf("status line %q: %w", screen.ClipBytes(line, 80), err)
		}
	}
	if event == EventRunCompleted && parts[0] != "passed" && parts[0] != "failed" {
		return "", nil, fmt.Errorf("status line %q: RUN_COMPLETED is passed or failed, not %q", screen.ClipBytes(line, 80), parts[0])
	}
	return event, parts, nil
}
