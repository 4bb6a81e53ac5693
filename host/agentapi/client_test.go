package agentapi

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/trailpin/trailpin/host/nativemsg"
)

// TestClientThroughTheDiscoveryFile: a client finds the server through the
// discovery file, says hello, calls, and gets an error reply as an error.
func TestClientThroughTheDiscoveryFile(t *testing.T) {
	s, calls := startServer(t)
	path := filepath.Join(t.TempDir(), "trailpin", DiscoveryFileName)
	if err := WriteDiscovery(path, Discovery{Port: s.Port(), Token: s.Token(), PID: os.Getpid(), Version: "1.2.3", Protocol: 1}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := Dial(ctx, path, "test-agent")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Hello.Version != "1.2.3" || len(c.Hello.Types) != 3 {
		t.Errorf("hello: %+v", c.Hello)
	}
	var out struct{ Client string }
	if err := c.Call(ctx, "ping", nil, &out); err != nil || out.Client != "test-agent" {
		t.Fatalf("ping: %+v, %v", out, err)
	}
	var e *nativemsg.Error
	if err := c.Call(ctx, "fail", nil, nil); !errors.As(err, &e) || e.Code != nativemsg.CodeBadRequest || e.Message != "no such tab" {
		t.Fatalf("fail: %v", err)
	}
	if calls.Load() != 1 {
		t.Errorf("ping ran %d times", calls.Load())
	}
}

// TestDialWithoutAHost: no file, a stale file, and a file whose token is
// wrong are each a clear error, and a refused client reaches no handler.
func TestDialWithoutAHost(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Dial(ctx, filepath.Join(dir, "none.json"), "x"); !errors.Is(err, ErrNoHost) {
		t.Errorf("no file: %v", err)
	}
	stale := filepath.Join(dir, "stale.json")
	WriteDiscovery(stale, Discovery{Port: 1, Token: "t", PID: deadPID(t)})
	if _, err := Dial(ctx, stale, "x"); !errors.Is(err, ErrStale) {
		t.Errorf("stale file: %v", err)
	}
	s, calls := startServer(t)
	wrong := filepath.Join(dir, "wrong.json")
	WriteDiscovery(wrong, Discovery{Port: s.Port(), Token: "not-the-token", PID: os.Getpid()})
	if _, err := Dial(ctx, wrong, "x"); err == nil {
		t.Error("a wrong token connected")
	}
	if calls.Load() != 0 {
		t.Error("a refused client reached a handler")
	}
}
