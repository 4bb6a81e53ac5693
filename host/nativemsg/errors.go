package nativemsg

import "fmt"

// A Code identifies what went wrong in an error reply. Codes are part of the
// protocol: never change or reuse a value, only append new ones, and document
// each in host/PROTOCOL.md.
type Code int

const (
	// CodeMalformed: the frame is not a JSON object. The reply's id is
	// empty, because none could be read.
	CodeMalformed Code = 1
	// CodeBadEnvelope: the object lacks a string id, a numeric v or a
	// non-empty string type.
	CodeBadEnvelope Code = 2
	// CodeUnknownType: no handler serves this type in this host version.
	CodeUnknownType Code = 3
	// CodeProtocolVersion: the message's v is not the host's protocol
	// version. Only hello is answered across versions.
	CodeProtocolVersion Code = 4
	// CodeBadRequest: the type is known but its fields are invalid.
	CodeBadRequest Code = 5
	// CodeInternal: the host failed while handling a valid request.
	CodeInternal Code = 6
	// CodeDatabaseDamaged: the host's database file is damaged; the
	// message says where it is, how to move it aside and what that loses.
	// Every request that needs the database gets it until the host is
	// started again with a usable file, so sending again is pointless.
	CodeDatabaseDamaged Code = 7
	// CodeRefused: the agent API refuses the call, with nothing performed:
	// the person has not allowed the client (or revoked it), the tab is
	// not shared, another agent acts in it, or the act would leave the
	// app's origins. The message says what and what to do.
	CodeRefused Code = 8
)

// An Error is sent to the extension as an error reply. Handlers return one
// to choose the code; any other error becomes CodeInternal.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("error %d: %s", e.Code, e.Message) }

// Errorf returns an *Error with a formatted message. The message reaches the
// extension and the log, so it must never contain secret values.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}
