package e2e

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
)

// End-to-end tests of `host replay`: the built binary replays the
// hand-written trails of replay/testdata/trails against the demo shop on
// loopback, from files alone, in a browser it starts or one it attaches to.

func trailsDir() string { return filepath.Join(RepoRoot(), "replay", "testdata", "trails") }

func trailFile(name string) string { return filepath.Join(trailsDir(), name) }

// replayEnv is the environment of a host replay run: the demo password,
// and TMPDIR inside the harness's folder so the leak check sees the
// browser the host starts.
func replayEnv(t *testing.T, password bool) []string {
	env := []string{"TMPDIR=" + TempDir(t)}
	if password {
		env = append(env, "TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password)
	}
	return env
}

// projectConfig writes a trailpin.yaml naming the shop's base URL and a
// short action timeout (for runs that are meant to fail), and more.
func projectConfig(t *testing.T, baseURL string, more ...string) string {
	t.Helper()
	path := filepath.Join(TempDir(t), "trailpin.yaml")
	cfg := "apps:\n  shop:\n    baseURL: " + baseURL + "\nreplay:\n  actionTimeout: 3s\n" + strings.Join(more, "")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReplayCommandConfigSecret: a secret the project config holds is
// typed when the environment has none.
func TestReplayCommandConfigSecret(t *testing.T) {
	t.Parallel()
	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	cfg := projectConfig(t, shop.URL, "secrets:\n  demo-password: "+demo.Password+"\n")
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--config", cfg, trailFile("sign-in.trail.yaml"))
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay with the password in trailpin.yaml exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
}

func TestReplayCommandUsage(t *testing.T) {
	t.Parallel()
	badConfig := filepath.Join(TempDir(t), "trailpin.yaml")
	if err := os.WriteFile(badConfig, []byte("replay:\n  actionTimeout: soon\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noPort := filepath.Join(TempDir(t), "trailpin.yaml")
	if err := os.WriteFile(noPort, []byte("apps:\n  shop:\n    baseURL: \"http://127.0.0.1:\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	okConfig := filepath.Join(TempDir(t), "trailpin.yaml")
	if err := os.WriteFile(okConfig, []byte("apps:\n  shop:\n    baseURL: http://127.0.0.1:9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sign := trailFile("sign-in.trail.yaml")
	tests := []struct {
		name string
		args []string
		want string
		env  []string
	}{
		// Every URL a run is given is checked before a browser starts, and
		// the message says what to write instead.
		{name: "a base URL with a colon and no port", args: []string{"replay", "--base-url", "http://127.0.0.1:", sign}, want: "--base-url \"http://127.0.0.1:\" has a colon but no port: write an origin such as http://localhost:3000"},
		{name: "a base URL with a port that is not a number", args: []string{"replay", "--base-url", "http://127.0.0.1:x80", sign}, want: "--base-url"},
		{name: "a base URL without a host", args: []string{"replay", "--base-url", "http://", sign}, want: "has no host"},
		{name: "a base URL of another scheme", args: []string{"replay", "--base-url", "ftp://127.0.0.1:21", sign}, want: "not http:// or https://"},
		{name: "a base URL with no scheme", args: []string{"replay", "--base-url", "127.0.0.1:3000", sign}, want: "--base-url"},
		{name: "a browser URL with a colon and no port", args: []string{"replay", "--browser-url", "ws://127.0.0.1:", sign}, want: "--browser-url \"ws://127.0.0.1:\" has a colon but no port"},
		{name: "a browser URL of another scheme", args: []string{"replay", "--browser-url", "file:///tmp/devtools", sign}, want: "ws://127.0.0.1:9222"},
		{name: "a browser URL without a host", args: []string{"replay", "--browser-url", "ws:///devtools/browser/x", sign}, want: "has no host"},
		{name: "an app base URL in trailpin.yaml with no port", args: []string{"replay", "--config", noPort, sign}, want: "apps.shop.baseURL"},
		{name: "an app base URL from the environment with no port", args: []string{"replay", "--config", okConfig, sign}, env: []string{"TRAILPIN_APPS_SHOP_BASEURL=http://127.0.0.1:"}, want: "TRAILPIN_APPS_SHOP_BASEURL"},
		{"no trails", []string{"replay"}, "give trail files, folders or names", nil},
		{"a bad shard", []string{"replay", "--shard", "4/3", trailFile("sign-in.trail.yaml")}, "--shard", nil},
		{"a bad grep", []string{"replay", "--grep", "(", trailFile("sign-in.trail.yaml")}, "--grep", nil},
		{"a grep that matches nothing", []string{"replay", "--grep", "^nothing$", trailsDir()}, "matches none", nil},
		{"a bad trace mode", []string{"replay", "--trace", "sometimes", trailFile("sign-in.trail.yaml")}, "--trace", nil},
		{"a bad format", []string{"replay", "--format", "xml", trailFile("sign-in.trail.yaml")}, "--format", nil},
		{"no workers", []string{"replay", "--workers", "0", trailFile("sign-in.trail.yaml")}, "--workers", nil},
		{"a trail name without a database", []string{"replay", "sign-in"}, "no database", nil},
		{"a bad param", []string{"replay", "--param", "coupon", trailFile("sign-in.trail.yaml")}, "NAME=VALUE", nil},
		{"no such file", []string{"replay", filepath.Join(trailsDir(), "nope.trail.yaml")}, "nope.trail.yaml", nil},
		{"a timeout that is not a duration", []string{"replay", "--config", badConfig, trailFile("sign-in.trail.yaml")}, "replay.actionTimeout", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := RunHost(t, append(append(replayEnv(t, true), "CI=true"), tc.env...), nil, tc.args...)
			if run.ExitCode != 2 || !strings.Contains(string(run.Stderr), tc.want) {
				t.Errorf("host %s exited %d with %q, want 2 and a message with %q", strings.Join(tc.args, " "), run.ExitCode, run.Stderr, tc.want)
			}
		})
	}
}

// TestReplayCommandAttaches replays in a browser that runs already, found
// by its DevTools websocket URL, as on a browser grid.
func TestReplayCommandAttaches(t *testing.T) {
	t.Parallel()
	bctx, wsURL := browserToAttach(t)

	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	run := RunHost(t, replayEnv(t, true), nil, "replay", "--browser-url", wsURL, "--base-url", shop.URL, trailFile("sign-in.trail.yaml"))
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay --browser-url %s exited %d:\n%s\n%s", wsURL, run.ExitCode, run.Stdout, run.Stderr)
	}
	// The browser outlives the run that attached to it.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Errorf("the attached browser is gone after the run: %v", err)
	}
}

// browserToAttach starts a headless Chromium that runs until the test ends,
// as a browser grid's would, and returns a context that drives it and its
// DevTools websocket URL for --browser-url.
func browserToAttach(t *testing.T) (context.Context, string) {
	t.Helper()
	browsertest.Need(t)
	dir := TempDir(t)
	opts, err := browser.AllocatorOptions(browser.LaunchOptions{Headless: true, UserDataDir: dir})
	if err != nil {
		browsertest.Missing(t, err)
	}
	opts = append(opts, remote.WebSocket, chromedp.Flag("remote-debugging-port", "0"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := start(bctx, cancel); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return bctx, devToolsURL(t, dir)
}

// devToolsURL reads the websocket URL a browser started with
// --remote-debugging-port=0 writes into its profile.
func devToolsURL(t *testing.T, profile string) string {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for {
		data, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); err == nil && len(lines) == 2 {
			return "ws://127.0.0.1:" + lines[0] + lines[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no DevToolsActivePort in %s: %v", profile, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
