package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
// discovery file: with none, or a stale one, it says no host runs; with a
// running host it reaches it (its version is in the message) and says
// what to run while the browser tools are not served through it.
func TestMCPAttachedFindsTheRunningHost(t *testing.T) {
	tempHome(t)
	runtimeDir := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	path := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)

	_, _, err := run(t, nil, "mcp")
	if err == nil || !errors.Is(err, agentapi.ErrNoHost) {
		t.Errorf("with no host: %v, want %v", err, agentapi.ErrNoHost)
	}

	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	if err := agentapi.WriteDiscovery(path, agentapi.Discovery{Port: 1, Token: "t", PID: dead.Process.Pid}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, nil, "mcp"); !errors.Is(err, agentapi.ErrStale) {
		t.Errorf("with a stale file: %v, want %v", err, agentapi.ErrStale)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := agentapi.Start(ctx, agentapi.Options{Version: "9.9.9-running"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := agentapi.WriteDiscovery(path, agentapi.Discovery{Port: srv.Port(), Token: srv.Token(), PID: os.Getpid(), Version: "9.9.9-running", Protocol: 1}); err != nil {
		t.Fatal(err)
	}
	out, _, err := run(t, nil, "mcp")
	if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), "version 9.9.9-running") || !strings.Contains(err.Error(), "host mcp --headless") {
		t.Errorf("with a running host: exit %d, %v; want a usage error naming its version and host mcp --headless", code, err)
	}
	if out != "" {
		t.Errorf("host mcp wrote to standard output: %q", out)
	}
}
