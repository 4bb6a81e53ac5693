package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/host/agentapi"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestMCPAttachedRecordsInThePersonsTab: `host mcp` without --headless,
// started by a small MCP client as a coding agent's configuration does,
// finds the host Chrome runs through its discovery file and works in the
// person's own tab through the extension. Its first call is refused until
// the person allows the client and shares the tab in the popup; then it
// starts a recording, the person signs in by hand, the client opens the
// iPhone 17 and adds it to the cart by ref and checks the cart, the person
// opens the cart by hand, and the client saves. The trail holds the
// client's steps marked by: agent with its MCP name, between the person's,
// and replays green with no model.
func TestMCPAttachedRecordsInThePersonsTab(t *testing.T) {
	t.Parallel()
	const client = "e2e-attached-agent"
	runtimeDir := TempDir(t)
	r := newRecordingRig(t, "XDG_RUNTIME_DIR="+runtimeDir)
	app := r.b.OpenTab(t, r.shop.URL+"/login")
	r.app = app
	popup := r.openPopupFor(t, r.shop.URL+"/login")
	waitDiscovery(t, runtimeDir)

	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	home := TempDir(t)
	cmd := exec.Command(HostPath(t), "mcp")
	cmd.Dir = r.project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + runtimeDir,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}
	session := connectMCP(ctx, t, client, cmd)
	tool := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		return session.call(t, name, args)
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		return session.must(t, name, args)
	}
	ref := func(snapshot, line string) string {
		t.Helper()
		m := regexp.MustCompile(regexp.QuoteMeta(line) + `[^\n]*\[ref=([a-z0-9]+)\]`).FindStringSubmatch(snapshot)
		if m == nil {
			t.Fatalf("the snapshot has no %s with a ref:\n%s", line, snapshot)
		}
		return m[1]
	}

	// Not allowed yet: the call is refused, and the popup asks the person.
	if out, failed := tool("browser_snapshot", map[string]any{}); !failed || !strings.Contains(out, "Nothing was done") {
		t.Fatalf("browser_snapshot before the person allowed the client: failed %v: %s", failed, out)
	}
	allowClient(t, popup, client)
	shareTab(t, popup)

	call("trail_start", map[string]any{"app": "shop"})
	popupPhase(t, popup, "recording")

	signInByHand(t, app)

	snap := call("browser_snapshot", map[string]any{})
	call("browser_click", map[string]any{"element": "iPhone 17", "ref": ref(snap, `link "iPhone 17"`)})
	appAt(t, app, "/products/iphone-17")
	snap = call("browser_snapshot", map[string]any{})
	call("browser_click", map[string]any{"element": "Add to cart", "ref": ref(snap, `button "Add to cart"`)})
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)
	call("browser_verify_text_visible", map[string]any{"text": "In your cart: 1"})

	// The person opens the cart by hand.
	clickCSS(t, app, `a[href="/cart"]`)
	appAt(t, app, "/cart")

	saved := call("trail_save", map[string]any{"title": "Add an iPhone through MCP"})
	path := filepath.Join(r.project, "trails", "add-an-iphone-through-mcp.trail.yaml")
	if !strings.Contains(saved, path) {
		t.Fatalf("trail_save does not name %s:\n%s", path, saved)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(path, src)
	if err != nil {
		t.Fatalf("the saved trail does not load: %v\n%s", err, src)
	}
	var who []string
	for _, s := range tr.Steps {
		who = append(who, s.By+"/"+s.Client)
	}
	joined := strings.Join(who, " ")
	if !strings.HasPrefix(joined, "/") || !strings.Contains(joined, "agent/"+client) || !strings.HasSuffix(joined, "/") {
		t.Errorf("who performed the steps: %q, want the person's, then the MCP client's, then the person's:\n%s", joined, src)
	}
	for _, want := range []string{`name: iPhone 17`, `testId: add-to-cart`, `In your cart: 1`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the trail does not pin %q:\n%s", want, src)
		}
	}
	r.checkNoPassword(t, path)
	run := RunHost(t, append(replayEnv(t, false), "TRAILPIN_SECRET_PASSWORD="+demo.Password), nil,
		"replay", "--base-url", r.shop.URL, "--results", TempDir(t), path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}

// waitDiscovery waits for the agent API's discovery file of the host
// Chrome runs, under runtimeDir.
func waitDiscovery(t *testing.T, runtimeDir string) {
	t.Helper()
	path := filepath.Join(runtimeDir, "trailpin", agentapi.DiscoveryFileName)
	deadline := time.Now().Add(WaitTimeout)
	for {
		_, err := agentapi.ReadDiscovery(path)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no discovery file at %s: %v", path, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
