package nativemsg

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// serve runs srv over the given frames and returns the frames it wrote and
// Serve's error.
func serve(t *testing.T, srv *Server, in []byte) ([]string, error) {
	t.Helper()
	var out bytes.Buffer
	err := srv.Serve(context.Background(), bytes.NewReader(in), &out)
	var frames []string
	for {
		p, rerr := ReadFrame(&out)
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			t.Fatalf("the server wrote something that is not a frame: %v", rerr)
		}
		frames = append(frames, string(p))
	}
	return frames, err
}

func frames(payloads ...string) []byte {
	var b []byte
	for _, p := range payloads {
		b = append(b, frame(p)...)
	}
	return b
}

func testServer() *Server {
	srv := NewServer("1.2.3", nil)
	srv.Handle("echo", func(ctx context.Context, req *Request) (Reply, error) {
		var in struct {
			Text string `json:"text"`
		}
		if err := req.Decode(&in); err != nil {
			return Reply{}, err
		}
		return Reply{Body: map[string]string{"text": in.Text}}, nil
	})
	srv.Handle("interaction", func(ctx context.Context, req *Request) (Reply, error) {
		return Reply{Type: "ack"}, nil
	})
	srv.Handle("fail", func(ctx context.Context, req *Request) (Reply, error) {
		return Reply{}, errors.New("disk full")
	})
	srv.Handle("refuse", func(ctx context.Context, req *Request) (Reply, error) {
		return Reply{}, Errorf(CodeBadRequest, "no session %q", "s1")
	})
	srv.Handle("panic", func(ctx context.Context, req *Request) (Reply, error) {
		panic("boom")
	})
	srv.Handle("later", func(ctx context.Context, req *Request) (Reply, error) {
		return NoReply, nil
	})
	srv.Handle("collide", func(ctx context.Context, req *Request) (Reply, error) {
		return Reply{Body: map[string]string{"id": "x"}}, nil
	})
	return srv
}

func TestServe(t *testing.T) {
	const types = `"types":["collide","echo","fail","hello","interaction","later","panic","refuse"]`
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{
			"hello echoes the id",
			[]string{`{"v":1,"id":"h1","type":"hello","protocol":1,"version":"0.1.0"}`},
			[]string{`{"v":1,"id":"h1","type":"hello","protocol":1,"version":"1.2.3",` + types + `}`},
		},
		{
			"hello from another protocol version is answered",
			[]string{`{"v":2,"id":"h2","type":"hello","protocol":2}`},
			[]string{`{"v":1,"id":"h2","type":"hello","protocol":1,"version":"1.2.3",` + types + `}`},
		},
		{
			"invalid JSON, then a valid frame",
			[]string{`{"v":1,"id":"a",`, `{"v":1,"id":"b","type":"echo","text":"hi"}`},
			[]string{
				`{"v":1,"id":"","type":"error","code":1,"message":"the message is not a JSON object"}`,
				`{"v":1,"id":"b","type":"echo","text":"hi"}`,
			},
		},
		{
			"a JSON array is malformed",
			[]string{`[1,2]`},
			[]string{`{"v":1,"id":"","type":"error","code":1,"message":"the message is not a JSON object"}`},
		},
		{
			"unknown type, then a known one",
			[]string{`{"v":1,"id":"u","type":"teleport"}`, `{"v":1,"id":"e","type":"echo","text":"still here"}`},
			[]string{
				`{"v":1,"id":"u","type":"error","code":3,"message":"this host (version 1.2.3) does not serve \"teleport\" messages"}`,
				`{"v":1,"id":"e","type":"echo","text":"still here"}`,
			},
		},
		{
			"missing id",
			[]string{`{"v":1,"type":"echo"}`},
			[]string{`{"v":1,"id":"","type":"error","code":2,"message":"the message has no id"}`},
		},
		{
			"numeric id",
			[]string{`{"v":1,"id":7,"type":"echo"}`},
			[]string{`{"v":1,"id":"","type":"error","code":2,"message":"id must be a string"}`},
		},
		{
			"missing type keeps the id",
			[]string{`{"v":1,"id":"t"}`},
			[]string{`{"v":1,"id":"t","type":"error","code":2,"message":"type must be a non-empty string"}`},
		},
		{
			"missing v",
			[]string{`{"id":"m","type":"echo"}`},
			[]string{`{"v":1,"id":"m","type":"error","code":2,"message":"v must be a positive integer (this host speaks 1)"}`},
		},
		{
			"another protocol version",
			[]string{`{"v":2,"id":"p","type":"echo"}`},
			[]string{`{"v":1,"id":"p","type":"error","code":4,"message":"message speaks protocol 2, this host speaks 1: update the extension or the host"}`},
		},
		{
			"fields of the wrong kind",
			[]string{`{"v":1,"id":"f","type":"echo","text":5}`},
			[]string{`{"v":1,"id":"f","type":"error","code":5,"message":"reading echo fields: json: cannot unmarshal number into Go struct field .text of type string"}`},
		},
		{
			"a reply of another type",
			[]string{`{"v":1,"id":"i1","type":"interaction"}`},
			[]string{`{"v":1,"id":"i1","type":"ack"}`},
		},
		{
			"a failing handler",
			[]string{`{"v":1,"id":"x","type":"fail"}`},
			[]string{`{"v":1,"id":"x","type":"error","code":6,"message":"the host failed handling fail: disk full"}`},
		},
		{
			"a handler's own code",
			[]string{`{"v":1,"id":"r","type":"refuse"}`},
			[]string{`{"v":1,"id":"r","type":"error","code":5,"message":"no session \"s1\""}`},
		},
		{
			"a panicking handler, then a valid frame",
			[]string{`{"v":1,"id":"p1","type":"panic"}`, `{"v":1,"id":"p2","type":"echo","text":"ok"}`},
			[]string{
				`{"v":1,"id":"p1","type":"error","code":6,"message":"the host failed handling panic: panic: boom"}`,
				`{"v":1,"id":"p2","type":"echo","text":"ok"}`,
			},
		},
		{
			"no reply",
			[]string{`{"v":1,"id":"l","type":"later"}`},
			nil,
		},
		{
			"a body that would overwrite the envelope",
			[]string{`{"v":1,"id":"c","type":"collide"}`},
			[]string{`{"v":1,"id":"c","type":"error","code":6,"message":"the host could not encode its collide reply"}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := serve(t, testServer(), frames(tt.in...))
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Serve(%q) wrote\n%s\nwant\n%s", tt.in, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestServeEndsOnUntrustedFrames(t *testing.T) {
	hello := `{"v":1,"id":"1","type":"hello","protocol":1}`
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"oversized", append(frame(hello), header(0xFFFFFFF0)...), ErrFrameTooLarge},
		{"truncated", append(frame(hello), append(header(100), "{"...)...), ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := serve(t, testServer(), tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Serve error = %v, want %v", err, tt.want)
			}
			if len(got) != 1 || !strings.Contains(got[0], `"type":"hello"`) {
				t.Errorf("Serve wrote %q, want only the hello reply", got)
			}
		})
	}
}

// reassemble undoes chunking the way the extension does.
func reassemble(t *testing.T, frames []string) string {
	t.Helper()
	var msg []byte
	for i, f := range frames {
		var c struct {
			Envelope
			chunk
		}
		if err := json.Unmarshal([]byte(f), &c); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
		if c.Type != TypeChunk || c.Seq != i || c.Count != len(frames) {
			t.Fatalf("chunk %d has type %q seq %d count %d, want chunk %d of %d", i, c.Type, c.Seq, c.Count, i, len(frames))
		}
		data, err := base64.StdEncoding.DecodeString(c.Data)
		if err != nil {
			t.Fatalf("chunk %d data: %v", i, err)
		}
		msg = append(msg, data...)
	}
	return string(msg)
}

func TestLargeRepliesAreChunked(t *testing.T) {
	for _, size := range []int{MaxOutgoing - 100, MaxOutgoing, 3*MaxOutgoing + 7} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			text := strings.Repeat("é", size/2) // two bytes each: chunks split characters
			got, err := serve(t, testServer(), frames(`{"v":1,"id":"big","type":"echo","text":"`+text+`"}`))
			if err != nil {
				t.Fatal(err)
			}
			want := `{"v":1,"id":"big","type":"echo","text":"` + text + `"}`
			if len(want) <= MaxOutgoing {
				if len(got) != 1 || got[0] != want {
					t.Fatalf("reply of %d bytes: got %d frames, want the message in one", len(want), len(got))
				}
				return
			}
			for i, f := range got {
				if len(f) > MaxOutgoing {
					t.Fatalf("chunk %d is %d bytes, over Chrome's limit", i, len(f))
				}
			}
			if msg := reassemble(t, got); msg != want {
				t.Errorf("reassembled %d bytes, want the %d-byte message", len(msg), len(want))
			}
		})
	}
}

// TestConnSendIsWholeUnderConcurrency: messages sent at once from several
// goroutines never interleave their chunks.
func TestConnSendIsWholeUnderConcurrency(t *testing.T) {
	var out bytes.Buffer
	c := newConn(&out)
	big := strings.Repeat("x", 2*MaxOutgoing)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := c.Notify("event", map[string]string{"text": big}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	byID := map[string][]string{}
	var order []string
	for {
		p, err := ReadFrame(&out)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		var env Envelope
		if err := json.Unmarshal(p, &env); err != nil {
			t.Fatal(err)
		}
		if len(order) == 0 || order[len(order)-1] != env.ID {
			order = append(order, env.ID)
		}
		byID[env.ID] = append(byID[env.ID], string(p))
	}
	if len(order) != 4 || len(byID) != 4 {
		t.Fatalf("chunks arrived in runs %q, want 4 uninterrupted runs", order)
	}
	for id, fs := range byID {
		var m struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(reassemble(t, fs)), &m); err != nil || m.Text != big {
			t.Errorf("message %s did not reassemble: %v", id, err)
		}
	}
}

func TestHandleRefusesDuplicatesAndReservedTypes(t *testing.T) {
	for _, typ := range []string{"hello", "error", "chunk", ""} {
		t.Run(typ, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Handle(%q) did not panic", typ)
				}
			}()
			NewServer("1", nil).Handle(typ, func(context.Context, *Request) (Reply, error) { return Reply{}, nil })
		})
	}
}

// FuzzServe checks that whatever arrives, the server writes nothing but
// whole frames, each one a message with an envelope.
func FuzzServe(f *testing.F) {
	f.Add(frames(`{"v":1,"id":"1","type":"hello","protocol":1}`))
	f.Add(frames(`{"v":1,"id":"a",`, `{"v":1,"id":"b","type":"echo","text":"hi"}`))
	f.Add(frames(`{"v":1,"id":"u","type":"teleport"}`))
	f.Add(append(frames(`{}`), header(0xFFFFFFF0)...))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		_ = testServer().Serve(context.Background(), bytes.NewReader(in), &out)
		for {
			p, err := ReadFrame(&out)
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("output is not whole frames: %v", err)
			}
			var env Envelope
			if err := json.Unmarshal(p, &env); err != nil || env.V != ProtocolVersion || env.Type == "" {
				t.Fatalf("output frame %q is not an enveloped message (%v)", p, err)
			}
		}
	})
}
