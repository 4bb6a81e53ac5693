package recording

import "fmt"

// An ErrorCode says what kind of failure an *Error is. Each door maps it
// to its own (native messaging: host/PROTOCOL.md, error).
type ErrorCode int

const (
	// Invalid: a field of the request is missing or wrong, or it names a
	// session, trail or screen the host does not have. Nothing stored
	// changed; the message says what to send instead.
	Invalid ErrorCode = iota + 1
	// Internal: the host cannot serve the request (its configuration could
	// not be read); the message says where to look.
	Internal
	// Damaged: the database file is damaged. The message names the file,
	// how to move it aside and what that loses; every operation that needs
	// the database fails so until the host starts again.
	Damaged
)

// An Error is a failure an operation explains to the person. Any other
// error an operation returns is the host's own failure (a full disk).
// Its message never holds a secret value.
type Error struct {
	Code    ErrorCode
	Message string
}

func (e *Error) Error() string { return e.Message }

// invalid is an Invalid error with a message that says what to do.
func invalid(format string, args ...any) error {
	return &Error{Code: Invalid, Message: fmt.Sprintf(format, args...)}
}
