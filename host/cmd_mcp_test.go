package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/host/agentapi"
)

// host mcp without --headless, with no host running, is a usage error that
// says what to run, and writes nothing to standard output, which carries
// JSON-RPC only.
func TestMCPWithoutHeadlessSaysWhatToRun(t *testing.T) {
	tempHome(t)
	out, _, err := run(t, nil, "mcp")
	if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), "host mcp --headless") {
		t.Errorf("host mcp: exit %d, %v; want a usage error (2) naming host mcp --headless", code, err)
	}
	if out != "" {
		t.Errorf("host mcp wrote to standard output: %q", out)
	}
}

// host mcp without --headless finds the host Chrome runs through the
// discovery file: with none, or a stale one, it says no host runs and to
// open Chrome with the extension, writing nothing to standard output.
// (A running host is served: TestMCPAttachedServesThroughTheHost.)
func TestMCPAttachedFindsTheRunningHost(t *testing.T) {
	tempHome(t)
	runtimeDir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	path := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)

	out, _, err := run(t, nil, "mcp")
	if err == nil || !errors.Is(err, agentapi.ErrNoHost) || !strings.Contains(err.Error(), "open Chrome with the Trailpin extension") {
		t.Errorf("with no host: %v, want %v", err, agentapi.ErrNoHost)
	}
	if out != "" {
		t.Errorf("host mcp wrote to standard output: %q", out)
	}

	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if err := agentapi.WriteDiscovery(path, agentapi.Discovery{Port: 1, Token: "t", PID: dead.Process.Pid}); err != nil {
		t.Fatal(err)
	}
	out, _, err = run(t, nil, "mcp")
	if code := exitCode(err); code != 2 || !errors.Is(err, agentapi.ErrStale) {
		t.Errorf("with a stale file: exit %d, %v, want a usage error: %v", code, err, agentapi.ErrStale)
	}
	if out != "" {
		t.Errorf("host mcp wrote to standard output: %q", out)
	}
}

// host mcp without --headless, with a host running, serves the tools
// through its agent API to a real MCP client on standard input and output:
// a snapshot and a click reach the host under the name the client gave in
// its initialize request, standard output carries JSON-RPC messages only,
// and the command ends when the client closes.
func TestMCPAttachedServesThroughTheHost(t *testing.T) {
	tempHome(t)
	runtimeDir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)

	var mu sync.Mutex
	var seen []string // each call's type and client name
	page := "- button \"Add to cart\" [ref=e3]"
	handler := func(reply map[string]any) agentapi.Handler {
		return func(ctx context.Context, req *agentapi.Request) (any, error) {
			mu.Lock()
			seen = append(seen, req.Type+" "+req.Client)
			mu.Unlock()
			return reply, nil
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := agentapi.Start(ctx, agentapi.Options{Version: "9.9.9-running", Handlers: map[string]agentapi.Handler{
		"tabs.list":    handler(map[string]any{"tabs": []map[string]any{{"tab": 7, "url": "http://shop.test/", "title": "Shop", "recording": ""}}}),
		"tab.snapshot": handler(map[string]any{"url": "http://shop.test/", "title": "Shop", "document": "d1", "text": page, "omitted": 0, "bytes": len(page)}),
		"tab.tap":      handler(map[string]any{"did": `tapped button "Add to cart"`, "url": "http://shop.test/"}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	path := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)
	if err := agentapi.WriteDiscovery(path, agentapi.Discovery{Port: srv.Port(), Token: srv.Token(), PID: os.Getpid(), Version: "9.9.9-running", Protocol: 1}); err != nil {
		t.Fatal(err)
	}

	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stdout lockedBuffer
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		err := Run(ctx, []string{"mcp"}, stdinR, io.MultiWriter(&stdout, stdoutW), &stderr)
		stdoutW.Close()
		done <- err
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "claude-code", Version: "1"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: stdoutR, Writer: stdinW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	callText := func(name string, args any) string {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		if res.IsError {
			t.Fatalf("%s failed: %s", name, b.String())
		}
		return b.String()
	}
	if text := callText("browser_snapshot", map[string]any{}); !strings.Contains(text, `button "Add to cart" [ref=e3]`) {
		t.Errorf("the snapshot is not the host's page:\n%s", text)
	}
	if text := callText("browser_click", map[string]any{"element": "Add to cart", "ref": "e3"}); !strings.HasPrefix(text, `Tapped button "Add to cart".`) {
		t.Errorf("the click answers %q", text)
	}
	cs.Close()
	if err := <-done; err != nil {
		t.Errorf("host mcp ended with %v once the client closed", err)
	}

	mu.Lock()
	got := slices.Clone(seen)
	mu.Unlock()
	want := []string{"tabs.list claude-code", "tab.snapshot claude-code", "tab.tap claude-code", "tab.snapshot claude-code"}
	if !slices.Equal(got, want) {
		t.Errorf("the host was called %q, want %q", got, want)
	}
	for i, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("standard output line %d is not a JSON-RPC message: %q", i+1, line)
		}
	}
}

// lockedBuffer is a buffer written from one goroutine and read from
// another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
