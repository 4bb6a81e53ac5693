package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/trailpin/trailpin/host/agentapi"
)

// TestAgentAPIServedWhileChromeRunsTheHost: once the extension connects,
// the host Chrome started serves the agent API and names it in a 0600
// discovery file under XDG_RUNTIME_DIR; an outside client finds it there,
// connects with the file's token and says hello (host/PROTOCOL.md, Agent
// API).
func TestAgentAPIServedWhileChromeRunsTheHost(t *testing.T) {
	t.Parallel()
	runtimeDir := TempDir(t)
	b := StartBrowser(t, Options{Env: []string{"XDG_RUNTIME_DIR=" + runtimeDir}})
	// The background connects the host when it starts; the popup wakes it.
	b.OpenPopup(t)
	path := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)
	var d agentapi.Discovery
	deadline := time.Now().Add(WaitTimeout)
	for {
		var err error
		if d, err = agentapi.ReadDiscovery(path); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no discovery file at %s while Chrome runs the host: %v", path, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("discovery file: %v, %v; want mode 0600", st, err)
	}
	if d.PID == os.Getpid() {
		t.Fatal("the discovery file names the test, not the host")
	}
	ctx, cancel := context.WithTimeout(context.Background(), WaitTimeout)
	defer cancel()
	c, err := agentapi.Dial(ctx, path, "e2e agent")
	if err != nil {
		t.Fatalf("an outside client could not reach the host Chrome runs: %v", err)
	}
	defer c.Close()
	if c.Hello.Protocol != 1 || c.Hello.Version == "" || c.Hello.Version != d.Version {
		t.Errorf("hello: %+v, discovery %+v", c.Hello, d)
	}
}
