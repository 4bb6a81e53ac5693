package nativemsg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

// frame returns payload with its length header.
func frame(payload string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(payload)))
	return append(b, payload...)
}

// header returns a bare length header.
func header(n uint32) []byte { return binary.LittleEndian.AppendUint32(nil, n) }

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		want    []string
		wantErr error // after the frames in want
	}{
		{"empty input", nil, nil, io.EOF},
		{"one frame", frame(`{"a":1}`), []string{`{"a":1}`}, io.EOF},
		{"two frames", append(frame(`{}`), frame(`[1]`)...), []string{`{}`, `[1]`}, io.EOF},
		{"empty frame", frame(""), []string{""}, io.EOF},
		{"short header", []byte{3, 0}, nil, ErrTruncated},
		{"short body", append(header(10), "abc"...), nil, ErrTruncated},
		{"short body after a frame", append(frame("x"), append(header(5), 'y')...), []string{"x"}, ErrTruncated},
		{"length at the cap", append(header(MaxIncoming), "x"...), nil, ErrTruncated},
		{"length over the cap", header(MaxIncoming + 1), nil, ErrFrameTooLarge},
		{"length just under 4 GiB", append(header(0xFFFFFFF0), "{}"...), nil, ErrFrameTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bytes.NewReader(tt.in)
			for i, want := range tt.want {
				got, err := ReadFrame(r)
				if err != nil {
					t.Fatalf("ReadFrame #%d: %v", i, err)
				}
				if string(got) != want {
					t.Fatalf("ReadFrame #%d = %q, want %q", i, got, want)
				}
			}
			_, err := ReadFrame(r)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ReadFrame after %d frames: err = %v, want %v", len(tt.want), err, tt.wantErr)
			}
			if tt.wantErr != io.EOF {
				var fe *FrameError
				if !errors.As(err, &fe) {
					t.Fatalf("ReadFrame error %v is not a *FrameError", err)
				}
			}
		})
	}
}

func TestFrameErrorMessages(t *testing.T) {
	tests := []struct {
		in   []byte
		want string
	}{
		{header(0xFFFFFFF0), "frame of 4294967280 bytes announced, more than the 67108864-byte limit: frame length exceeds the limit"},
		{[]byte{1}, "input ended after 1 of 4 header bytes: input ended inside a frame"},
		{append(header(9), "ab"...), "input ended after 2 of 9 announced bytes: input ended inside a frame"},
	}
	for _, tt := range tests {
		_, err := ReadFrame(bytes.NewReader(tt.in))
		if err == nil || err.Error() != tt.want {
			t.Errorf("ReadFrame(%x) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestWriteFrame(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, []byte(`{"v":1}`)); err != nil {
		t.Fatal(err)
	}
	if want := frame(`{"v":1}`); !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("WriteFrame wrote %x, want %x", buf.Bytes(), want)
	}

	buf.Reset()
	err := WriteFrame(&buf, make([]byte, MaxOutgoing+1))
	if !errors.Is(err, ErrOutgoingTooLarge) {
		t.Errorf("WriteFrame(%d bytes) error = %v, want ErrOutgoingTooLarge", MaxOutgoing+1, err)
	}
	if buf.Len() != 0 {
		t.Errorf("WriteFrame of a refused frame wrote %d bytes, want none", buf.Len())
	}
}

// countingWriter records each Write call, to prove a frame is one write.
type countingWriter struct{ writes [][]byte }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes = append(w.writes, bytes.Clone(p))
	return len(p), nil
}

func TestWriteFrameIsOneWrite(t *testing.T) {
	var w countingWriter
	if err := WriteFrame(&w, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if len(w.writes) != 1 {
		t.Errorf("WriteFrame made %d writes, want 1 (a header must never go out without its body)", len(w.writes))
	}
}

// FuzzReadFrame checks that any input either yields frames that encode back
// to exactly the bytes consumed, or ends with EOF or a *FrameError, without
// panicking or allocating for bytes that never arrived.
func FuzzReadFrame(f *testing.F) {
	f.Add(frame(`{"v":1,"id":"1","type":"hello","protocol":1}`))
	f.Add(append(frame("{"), frame(`{}`)...))
	f.Add(header(0xFFFFFFF0))
	f.Add([]byte{0xff})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		var re bytes.Buffer
		for {
			payload, err := ReadFrame(r)
			if err == io.EOF {
				if !bytes.Equal(re.Bytes(), in) {
					t.Fatalf("frames re-encode to %x, want the input %x", re.Bytes(), in)
				}
				return
			}
			if err != nil {
				var fe *FrameError
				if !errors.As(err, &fe) {
					t.Fatalf("ReadFrame error %v is not a *FrameError", err)
				}
				return
			}
			if len(payload) > MaxIncoming {
				t.Fatalf("ReadFrame returned %d bytes, over the cap", len(payload))
			}
			re.Write(header(uint32(len(payload))))
			re.Write(payload)
		}
	})
}
