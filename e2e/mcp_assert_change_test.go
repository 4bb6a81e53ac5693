package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent/agenttest"
	"github.com/trailpin/trailpin/agent/model/modeltest"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestMCPHeadlessAssertChangeAndAct: through `host mcp --headless`, a
// client adds the iPhone to the cart by ref and asserts what its click
// changed (browser_assert_change): a wrong expectation is refused and
// records nothing, the ones that hold are recorded right after the tap.
// Then trail_act has the built-in agent (the scripted model) add another,
// recorded as the client's. The trail replays green with no model call.
func TestMCPHeadlessAssertChangeAndAct(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	model := modeltest.Start(t, modeltest.WithKey(askModelKey), modeltest.WithPolicy(agenttest.Policy()))

	project := TempDir(t)
	yaml := "apps:\n  shop:\n    baseURL: " + shop.URL + "\ntrails:\n  dir: trails\nsecrets:\n  demo-password: null\n"
	if err := os.WriteFile(filepath.Join(project, "trailpin.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	home := TempDir(t)
	env := append([]string{
		"PATH=" + os.Getenv("PATH"), "CHROME_PATH=" + os.Getenv("CHROME_PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TRAILPIN_SECRET_DEMO_PASSWORD=" + demo.Password,
	}, askModelEnv(model)...)

	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.Command(HostPath(t), "mcp", "--headless")
	cmd.Dir, cmd.Env = project, env
	session := connectMCP(ctx, t, mcpClientName, cmd)
	try := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		return session.call(t, name, args)
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		text, isErr := try(name, args)
		if isErr {
			t.Fatalf("%s %v failed: %s", name, args, text)
		}
		return text
	}
	ref := func(snapshot, line string) string {
		t.Helper()
		m := regexp.MustCompile(regexp.QuoteMeta(line) + `[^\n]*\[ref=([a-z0-9]+)\]`).FindStringSubmatch(snapshot)
		if m == nil {
			t.Fatalf("the snapshot has no %s with a ref:\n%s", line, snapshot)
		}
		return m[1]
	}

	call("trail_start", map[string]any{"app": "shop", "url": shop.URL + "/login"})
	snap := call("browser_snapshot", map[string]any{})
	call("browser_type", map[string]any{"element": "Username", "ref": ref(snap, `textbox "Username"`), "text": demo.Username})
	call("browser_type", map[string]any{"element": "Password", "ref": ref(snap, `textbox "Password"`), "text": "${secret:demo-password}"})
	call("browser_click", map[string]any{"element": "Sign in", "ref": ref(snap, `button "Sign in"`)})
	call("browser_navigate", map[string]any{"url": "/products/iphone-17"})
	snap = call("browser_snapshot", map[string]any{})
	call("browser_click", map[string]any{"element": "Add to cart", "ref": ref(snap, `button "Add to cart"`)})
	if text, isErr := try("browser_assert_change", map[string]any{"changed": false}); !isErr || !strings.Contains(text, "the change does not hold") {
		t.Fatalf("a wrong expectation answers %q", text)
	}
	call("browser_assert_change", map[string]any{"changed": true})
	snap = call("browser_snapshot", map[string]any{})
	cart := regexp.MustCompile(`link "(Cart[^"]*)"`).FindStringSubmatch(snap)
	if cart == nil {
		t.Fatalf("no cart link:\n%s", snap)
	}
	call("browser_assert_change", map[string]any{"exists": []any{map[string]any{"role": "link", "name": cart[1]}}})

	before := len(model.Requests())
	acted := call("trail_act", map[string]any{"goal": "Add to cart"})
	if !strings.Contains(acted, "The agent reached the goal") || !strings.Contains(acted, `tapped button "Add to cart"`) || len(model.Requests()) == before {
		t.Fatalf("trail_act answers %q", acted)
	}
	for _, req := range model.Requests() {
		if strings.Contains(string(req.Body), demo.Password) {
			t.Fatal("a model request holds the password")
		}
	}
	saved := call("trail_save", map[string]any{"title": "Check what adding to the cart changed"})
	path := filepath.Join(project, "trails", "check-what-adding-to-the-cart-changed.trail.yaml")
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
	taps, checks := 0, 0
	for _, s := range tr.Steps {
		if s.By != trail.ByAgent || s.Client != mcpClientName {
			t.Errorf("step %q is marked by %q client %q", s.Intent, s.By, s.Client)
		}
		for j, a := range s.Actions {
			switch a := a.(type) {
			case trail.Tap:
				if a.Selector.TestID == "add-to-cart" || a.Selector.Name == "Add to cart" {
					taps++
				}
			case trail.AssertChange:
				checks++
				if j == 0 {
					t.Errorf("an assertChange starts step %q: it must follow the tap", s.Intent)
				}
			}
		}
	}
	if taps != 2 || checks != 2 || strings.Contains(string(content), "changed: false") {
		t.Errorf("the trail holds %d add-to-cart taps and %d checks, want 2 and the 2 that held:\n%s", taps, checks, content)
	}
	asked := len(model.Requests())
	run := RunHost(t, env[2:], nil, "replay", "--config", filepath.Join(project, "trailpin.yaml"), "--strict", path)
	if run.ExitCode != 0 {
		t.Errorf("host replay %s: exit %d\n%s\n%s", path, run.ExitCode, run.Stdout, run.Stderr)
	}
	if n := len(model.Requests()) - asked; n != 0 {
		t.Errorf("replay sent the model %d requests, want none", n)
	}
}
