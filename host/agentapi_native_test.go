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
	"github.com/trailpin/trailpin/host/nativemsg"
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

// TestAgentAPICallsGoThroughTheExtension: a client's call is an
// api.request to the extension over native messaging, answered by its
// api.result; until the extension says the person allowed the client,
// calls are refused (error 8), and the extension's api.revoke closes the
// client's connection.
func TestAgentAPICallsGoThroughTheExtension(t *testing.T) {
	tempHome(t)
	runtimeDir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	path := filepath.Join(runtimeDir, "trailpin", "agent-api.json")

	stdin, feed := io.Pipe()
	fromHost, stdout := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), []string{"chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/"}, stdin, stdout, io.Discard)
		stdout.Close()
	}()
	// The extension: answers each api.request as the person would, after
	// the test says whether the client is allowed.
	allow := make(chan bool, 1)
	requests := make(chan map[string]any, 16)
	go func() {
		for {
			b, err := nativemsg.ReadFrame(fromHost)
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) != nil || m["type"] != "api.request" {
				continue
			}
			requests <- m
			ans := map[string]any{"v": 1, "id": m["id"], "type": "api.result", "ok": true}
			switch m["call"] {
			case "allow":
				ans["ok"] = <-allow
			case "tabs":
				ans["tabs"] = []map[string]any{{"tab": 12, "url": "http://shop.test/", "title": "Shop", "recording": ""}}
			}
			out, _ := json.Marshal(ans)
			if nativemsg.WriteFrame(feed, out) != nil {
				return
			}
		}
	}()
	for deadline := time.Now().Add(2 * time.Minute); ; {
		_, err := agentapi.ReadDiscovery(path)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no discovery file: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ctx := context.Background()
	c, err := agentapi.Dial(ctx, path, "shop-bot")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var e *nativemsg.Error
	if err := c.Call(ctx, agentapi.TypeTabsList, nil, nil); !errors.As(err, &e) || e.Code != nativemsg.CodeRefused {
		t.Fatalf("before the person allowed it: %v, want error 8", err)
	}
	if m := <-requests; m["call"] != "allow" || m["client"] != "shop-bot" {
		t.Fatalf("the host asked %v, want the person asked to allow shop-bot", m)
	}
	allow <- true
	var list struct{ Tabs []agentapi.TabInfo }
	for deadline := time.Now().Add(time.Minute); ; {
		err := c.Call(ctx, agentapi.TypeTabsList, nil, &list)
		if err == nil {
			break
		}
		if !errors.As(err, &e) || e.Code != nativemsg.CodeRefused || time.Now().After(deadline) {
			t.Fatalf("tabs.list once allowed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(list.Tabs) != 1 || list.Tabs[0].Tab != 12 {
		t.Errorf("tabs.list answered %+v, want the shared tab", list)
	}
	revoke, _ := json.Marshal(map[string]any{"v": 1, "id": "9", "type": "api.revoke", "client": "shop-bot"})
	if err := nativemsg.WriteFrame(feed, revoke); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; {
		if err := c.Call(ctx, agentapi.TypeTabsList, nil, nil); err != nil && !errors.As(err, &e) {
			break // the connection was closed
		}
		if time.Now().After(deadline) {
			t.Fatal("the revoked client's connection stayed open")
		}
		time.Sleep(20 * time.Millisecond)
	}
	feed.Close()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
