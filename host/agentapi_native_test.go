package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/trailpin/trailpin/host/agentapi"
)

// TestAgentAPIWhileChromeRunsTheHost: while the host serves native
// messaging it serves the agent API on the loopback address and names it in
// a 0600 discovery file under XDG_RUNTIME_DIR, and it removes the file when
// the browser closes the connection.
func TestAgentAPIWhileChromeRunsTheHost(t *testing.T) {
	tempHome(t)
	runtimeDir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	path := filepath.Join(runtimeDir, "trailpin", "agent-api.json")

	stdin, feed := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), []string{"chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/"}, stdin, io.Discard, io.Discard)
	}()
	// The file appears once the host is up; a busy machine may take long.
	var d agentapi.Discovery
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var err error
		if d, err = agentapi.ReadDiscovery(path); err == nil {
			break
		}
		if time.Now().After(deadline) {
			feed.Close()
			t.Fatalf("no discovery file at %s: %v", path, err)
		}
		select {
		case err := <-done:
			t.Fatalf("the host ended before writing the discovery file: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("discovery file mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if d.PID != os.Getpid() || d.Version != Version || d.Protocol != 1 || len(d.Token) < 32 {
		t.Errorf("discovery file holds %+v", d)
	}

	url := "ws://127.0.0.1:" + strconv.Itoa(d.Port) + "/"
	ctx := context.Background()
	if _, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{
		"Authorization": {"Bearer " + d.Token}, "Origin": {"https://example.com"}}}); err == nil {
		t.Error("a browser origin was served")
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + d.Token}}})
	if err != nil {
		t.Fatalf("the discovery file's token was refused: %v", err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"v":1,"id":"1","type":"hello","client":"test agent"}`)); err != nil {
		t.Fatal(err)
	}
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var hello struct {
		ID, Type, Version string
	}
	if json.Unmarshal(b, &hello); hello.ID != "1" || hello.Type != "hello" || hello.Version != Version {
		t.Errorf("hello answered %s", b)
	}

	feed.Close()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the discovery file outlived the host: %v", err)
	}
}
