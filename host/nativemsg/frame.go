package nativemsg

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

const (
	// MaxIncoming is the largest frame the host accepts: Chrome never sends
	// a message larger than 64 MiB to a host, so a longer length header is
	// corrupt input, not a big message.
	MaxIncoming = 64 << 20
	// MaxOutgoing is the largest frame Chrome accepts from a host (1 MiB);
	// larger messages are sent as chunks (see chunk.go).
	MaxOutgoing = 1 << 20
	// headerSize is the 4-byte little-endian length before each frame.
	headerSize = 4
)

// ErrFrameTooLarge is returned by ReadFrame when a length header exceeds
// MaxIncoming. The stream cannot be resynchronised after it.
var ErrFrameTooLarge = errors.New("frame length exceeds the limit")

// ErrTruncated is returned by ReadFrame when the input ends inside a header
// or a frame body. The stream cannot be resynchronised after it.
var ErrTruncated = errors.New("input ended inside a frame")

// ErrOutgoingTooLarge is returned by WriteFrame for a frame Chrome would
// refuse; the caller must chunk it.
var ErrOutgoingTooLarge = errors.New("outgoing frame exceeds 1 MiB")

// A FrameError says which frame could not be read and why. It wraps
// ErrFrameTooLarge or ErrTruncated.
type FrameError struct {
	// Length is the length the header announced (0 when the header itself
	// was cut short).
	Length uint32
	// Got is how many body bytes arrived before the input ended.
	Got int
	Err error
}

func (e *FrameError) Error() string {
	switch {
	case errors.Is(e.Err, ErrFrameTooLarge):
		return fmt.Sprintf("frame of %d bytes announced, more than the %d-byte limit: %v", e.Length, MaxIncoming, e.Err)
	case e.Length == 0 && e.Got < headerSize:
		return fmt.Sprintf("input ended after %d of %d header bytes: %v", e.Got, headerSize, e.Err)
	default:
		return fmt.Sprintf("input ended after %d of %d announced bytes: %v", e.Got, e.Length, e.Err)
	}
}

func (e *FrameError) Unwrap() error { return e.Err }

// ReadFrame reads one frame from r and returns its payload. It returns io.EOF
// when r ends cleanly between frames, and a *FrameError when the header
// announces more than MaxIncoming bytes or r ends inside a frame.
//
// The body is read through a limited reader that grows its buffer as bytes
// arrive, so a lying header costs no more memory than the bytes really sent.
func ReadFrame(r io.Reader) ([]byte, error) {
	var hdr [headerSize]byte
	n, err := io.ReadFull(r, hdr[:])
	switch {
	case err == io.EOF:
		return nil, io.EOF
	case err == io.ErrUnexpectedEOF:
		return nil, &FrameError{Got: n, Err: ErrTruncated}
	case err != nil:
		return nil, fmt.Errorf("reading frame header: %w", err)
	}
	length := binary.LittleEndian.Uint32(hdr[:])
	if length > MaxIncoming {
		return nil, &FrameError{Length: length, Err: ErrFrameTooLarge}
	}
	body, err := io.ReadAll(&io.LimitedReader{R: r, N: int64(length)})
	if err != nil {
		return nil, fmt.Errorf("reading frame of %d bytes: %w", length, err)
	}
	if len(body) < int(length) {
		return nil, &FrameError{Length: length, Got: len(body), Err: ErrTruncated}
	}
	return body, nil
}

// WriteFrame writes payload as one frame with a single Write call, so a
// reader never sees a header without its body. Payloads over MaxOutgoing
// are refused with ErrOutgoingTooLarge.
func WriteFrame(w io.Writer, payload []byte) error {
	if len(payload) > MaxOutgoing {
		return fmt.Errorf("writing frame of %d bytes: %w", len(payload), ErrOutgoingTooLarge)
	}
	buf := make([]byte, headerSize+len(payload))
	binary.LittleEndian.PutUint32(buf, uint32(len(payload)))
	copy(buf[headerSize:], payload)
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("writing frame: %w", err)
	}
	return nil
}
