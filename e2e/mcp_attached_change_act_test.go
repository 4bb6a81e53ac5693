package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestMCPAttachedAssertChangeAndAct: `host mcp` attached to the person's
// Chrome hands the built-in agent a goal (trail_act, on the scripted
// model), which adds the iPhone to the cart in the person's tab as the MCP
// client; the client then checks what that act changed
// (browser_assert_change): before any act, and with an expectation that
// does not hold, it is refused and records nothing; the ones that hold are
// recorded right after the agent's tap, in the client's step. The trail
// replays green with no model call.
func TestMCPAttachedAssertChangeAndAct(t *testing.T) {
	t.Parallel()
	const client = "e2e-attached-act"
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy()))
	runtimeDir := TempDir(t)
	r := newRecordingRig(t, append(askModelEnv(model), "XDG_RUNTIME_DIR="+runtimeDir)...)
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
	refusedWith := func(name string, args map[string]any, want string) {
		t.Helper()
		if out, failed := tool(name, args); !failed || !strings.Contains(out, want) {
			t.Fatalf("%s %v: failed %v: %s; want a refusal saying %q", name, args, failed, out, want)
		}
	}

	// The first call asks the person, who allows the client and shares the tab.
	tool("browser_tabs", map[string]any{"action": "list"})
	allowClient(t, popup, client)
	shareTab(t, popup)

	call("trail_start", map[string]any{"app": "shop"})
	popupPhase(t, popup, "recording")
	signInByHand(t, app)

	// Nothing acted yet: nothing to check, nothing recorded.
	refusedWith("browser_assert_change", map[string]any{"changed": true}, "checks what your last act")

	snap := call("browser_snapshot", map[string]any{})
	m := regexp.MustCompile(`link "iPhone 17"[^\n]*\[ref=([a-z0-9]+)\]`).FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("the snapshot has no iPhone 17 link:\n%s", snap)
	}
	call("browser_click", map[string]any{"element": "iPhone 17", "ref": m[1]})
	appAt(t, app, "/products/iphone-17")

	// The built-in agent adds it to the cart, as the MCP client.
	asked := len(model.Requests())
	acted := call("trail_act", map[string]any{"goal": "Add to cart"})
	if !strings.Contains(acted, `tapped button "Add to cart"`) {
		t.Fatalf("trail_act answered:\n%s", acted)
	}
	if len(model.Requests()) == asked {
		t.Fatal("trail_act sent the model nothing")
	}
	waitAcrossLoads(t, app, `document.body.innerText.includes('Added iPhone 17 to your cart.')`)

	// What the agent's tap changed: a wrong expectation is refused; the
	// right one is recorded after the tap.
	refusedWith("browser_assert_change", map[string]any{"changed": false}, "does not hold")
	call("browser_assert_change", map[string]any{"changed": true})

	clickCSS(t, app, `a[href="/cart"]`)
	appAt(t, app, "/cart")

	saved := call("trail_save", map[string]any{"title": "Add an iPhone with the agent through MCP"})
	path := filepath.Join(r.project, "trails", "add-an-iphone-with-the-agent-through-mcp.trail.yaml")
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
	found := 0
	for _, s := range tr.Steps {
		for j, a := range s.Actions {
			if _, ok := a.(trail.AssertChange); !ok {
				continue
			}
			found++
			if s.By != trail.ByAgent || s.Client != client || j == 0 {
				t.Errorf("an assertChange is in step %q (by %q, client %q) at %d, want after the agent's tap in the client's step:\n%s", s.Intent, s.By, s.Client, j, src)
			}
		}
	}
	if found != 1 || !strings.Contains(string(src), "changed: true") || !strings.Contains(string(src), "testId: add-to-cart") {
		t.Errorf("the trail should hold the agent's tap and the one check that held:\n%s", src)
	}
	r.checkNoPassword(t, path)
	before := len(model.Requests())
	run := RunHost(t, append(replayEnv(t, false), "TRAILPIN_SECRET_PASSWORD="+demo.Password), nil,
		"replay", "--base-url", r.shop.URL, "--results", TempDir(t), path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
	if n := len(model.Requests()) - before; n != 0 {
		t.Errorf("replay sent the model %d requests, want none", n)
	}
}
