package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The headless MCP door: a small MCP client starts `host mcp --headless`
// over the command transport, as a coding agent's configuration does, and
// records a trail of the demo shop alone (no extension, no person): sign
// in, open the iPhone 17, add it to the cart by ref, check the cart, save.
// The saved trail holds those steps marked as the client's, with
// text-pinned selectors like a person's recording, and replays green
// through trail_replay and through `host replay` on the exported file with
// no model call.

// mcpClientName is the name the test's MCP client gives.
const mcpClientName = "e2e-coding-agent"

func TestMCPHeadlessRecordsTheShop(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	var modelCalls atomic.Int64
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		modelCalls.Add(1)
		http.Error(w, "no model call is expected", http.StatusInternalServerError)
	}))
	t.Cleanup(model.Close)

	project := TempDir(t)
	yaml := "apps:\n  shop:\n    baseURL: " + shop.URL + "\ntrails:\n  dir: trails\nsecrets:\n  demo-password: null\n"
	if err := os.WriteFile(filepath.Join(project, "trailpin.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	home := TempDir(t)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "CHROME_PATH=" + os.Getenv("CHROME_PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TRAILPIN_SECRET_DEMO_PASSWORD=" + demo.Password,
		"TRAILPIN_MODEL_BASEURL=" + model.URL, "TRAILPIN_MODEL_NAME=none",
		"TRAILPIN_MODEL_APIKEYENV=E2E_MCP_MODEL_KEY", "E2E_MCP_MODEL_KEY=sk-e2e-mcp-0123456789",
	}

	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.Command(HostPath(t), "mcp", "--headless")
	cmd.Dir, cmd.Env = project, env
	session := connectMCP(ctx, t, mcpClientName, cmd)

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

	tools, err := session.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, want := range []string{"browser_navigate", "browser_snapshot", "browser_click", "browser_type", "browser_select_option",
		"browser_press_key", "browser_wait_for", "browser_verify_element_visible", "browser_verify_text_visible",
		"browser_verify_value", "trail_start", "trail_save", "trail_replay"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("host mcp lists no tool %s (it lists %v)", want, names)
		}
	}

	call("trail_start", map[string]any{"app": "shop", "url": shop.URL + "/login"})
	snap := call("browser_snapshot", map[string]any{})
	call("browser_type", map[string]any{"element": "Username", "ref": ref(snap, `textbox "Username"`), "text": demo.Username})
	call("browser_type", map[string]any{"element": "Password", "ref": ref(snap, `textbox "Password"`), "text": "${secret:demo-password}"})
	call("browser_click", map[string]any{"element": "Sign in", "ref": ref(snap, `button "Sign in"`)})
	call("browser_navigate", map[string]any{"url": "/products/iphone-17"})
	snap = call("browser_snapshot", map[string]any{})
	call("browser_click", map[string]any{"element": "Add to cart", "ref": ref(snap, `button "Add to cart"`)})
	call("browser_verify_text_visible", map[string]any{"text": "Added iPhone 17 to your cart."})
	snap = call("browser_snapshot", map[string]any{})
	cart := regexp.MustCompile(`link "(Cart[^"]*)"`).FindStringSubmatch(snap)
	if cart == nil || !strings.Contains(cart[1], "1") {
		t.Fatalf("the cart link does not count one item:\n%s", snap)
	}
	call("browser_verify_element_visible", map[string]any{"role": "link", "accessibleName": cart[1]})
	saved := call("trail_save", map[string]any{"title": "Add the iPhone 17 to the cart"})

	path := filepath.Join(project, "trails", "add-the-iphone-17-to-the-cart.trail.yaml")
	if !strings.Contains(saved, path) {
		t.Fatalf("trail_save does not name %s:\n%s", path, saved)
	}
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the trail recorded:\n%s", content)
	tr, err := trail.LoadTrail(path, content)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v\n%s", err, content)
	}
	if strings.Contains(string(content), demo.Password) {
		t.Errorf("the trail holds the password:\n%s", content)
	}
	var tapAdd, typedSecret, assertedCart bool
	for i, s := range tr.Steps {
		if s.By != trail.ByAgent || s.Client != mcpClientName {
			t.Errorf("step %d (%s) is marked by %q client %q, want by: agent, client: %s", i+1, s.Intent, s.By, s.Client, mcpClientName)
		}
		if s.Key != "" {
			t.Errorf("step %d (%s) has a key: an outside agent's recording belongs to no agent configuration", i+1, s.Intent)
		}
		for _, a := range s.Actions {
			switch a := a.(type) {
			case trail.Tap:
				if a.Selector.TestID == "add-to-cart" || a.Selector.Name == "Add to cart" {
					tapAdd = true
				}
			case trail.TypeText:
				typedSecret = typedSecret || a.Text == "${secret:demo-password}"
			case trail.AssertVisible:
				assertedCart = assertedCart || strings.Contains(a.Selector.String(), "Cart")
			}
		}
	}
	if !tapAdd || !typedSecret || !assertedCart {
		t.Errorf("the trail lacks a step (add to cart %v, the password by name %v, the cart asserted %v):\n%s", tapAdd, typedSecret, assertedCart, content)
	}
	if !strings.Contains(string(content), "name: Add to cart") && !strings.Contains(string(content), "testId: add-to-cart") {
		t.Errorf("the add-to-cart tap is not pinned by its text or test id:\n%s", content)
	}

	replayed := call("trail_replay", map[string]any{})
	if !strings.Contains(replayed, "passed") {
		t.Errorf("trail_replay did not pass:\n%s", replayed)
	}
	run := RunHost(t, env[2:], nil,
		"replay", "--config", filepath.Join(project, "trailpin.yaml"), "--strict", path)
	if run.ExitCode != 0 {
		t.Errorf("host replay %s: exit %d\n%s\n%s", path, run.ExitCode, run.Stdout, run.Stderr)
	}
	if n := modelCalls.Load(); n != 0 {
		t.Errorf("the model was called %d times; the recorded trail must replay without one", n)
	}

	// The password went into the page by its secret's name: it is in
	// nothing the host wrote (its log, the database, the trail, what the
	// client was told).
	if err := session.cs.Close(); err != nil {
		t.Logf("closing the session: %v", err)
	}
	dataDir := filepath.Join(home, ".local", "share", "trailpin")
	if _, err := os.Stat(filepath.Join(dataDir, "trailpin.db")); err != nil {
		t.Fatalf("the recording's database is not where the leak scan looks: %v", err)
	}
	sources := append(LeakDatabase(filepath.Join(dataDir, "trailpin.db")),
		LeakBytes("host mcp's stderr", session.stderr.Bytes()), LeakFile(filepath.Join(dataDir, "host.log")),
		LeakFile(path), LeakBytes("trail_save's answer", []byte(saved)))
	CheckNoSecretLeaks(t, demo.Password, sources...)
}
