package e2e

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallIntoHomeIsFoundByChromium runs `host install --browser chromium`
// with a temporary HOME, then starts Chromium on $HOME/.config/chromium — the
// folder where Chromium looks for per-user hosts — and expects the popup to
// connect. Then `host uninstall` removes the manifest.
func TestInstallIntoHomeIsFoundByChromium(t *testing.T) {
	t.Parallel()
	home := TempDir(t)
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME="}
	res := RunHost(t, env, nil, "install", "--browser", "chromium")
	if res.ExitCode != 0 {
		t.Fatalf("host install: exit %d\n%s", res.ExitCode, res.Stderr)
	}
	manifest := filepath.Join(home, ".config", "chromium", "NativeMessagingHosts", "dev.trailpin.host.json")
	if got, want := strings.TrimSpace(string(res.Stdout)), "installed for chromium (user): "+manifest; got != want {
		t.Errorf("host install printed %q, want %q", got, want)
	}
	b, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"path": "`+HostPath(t)+`"`) {
		t.Errorf("manifest does not name the host binary %s:\n%s", HostPath(t), b)
	}

	browser := StartBrowser(t, Options{UserDataDir: filepath.Join(home, ".config", "chromium"), Env: env})
	got := readPopup(t, browser.OpenPopup(t))
	if got.State != "connected" {
		t.Fatalf("popup shows %+v with the host installed by host install, want connected", got)
	}

	res = RunHost(t, env, nil, "uninstall", "--browser", "chromium")
	if res.ExitCode != 0 {
		t.Fatalf("host uninstall: exit %d\n%s", res.ExitCode, res.Stderr)
	}
	if _, err := os.Stat(manifest); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("manifest still there after host uninstall: %v", err)
	}
}

// TestFixturePages checks the app-tab side of the harness: a fixture page
// served on loopback opens in a tab of the extension's browser and can be
// driven.
func TestFixturePages(t *testing.T) {
	t.Parallel()
	srv := Serve(t)
	b := StartBrowser(t, Options{})
	tab := b.OpenTab(t, srv.URL+"/index.html")
	if got := Eval[string](t, tab, `document.title`); got != "Fixture shop" {
		t.Errorf("fixture page title = %q, want %q", got, "Fixture shop")
	}
	Eval[bool](t, tab, `(document.querySelector('#apply').click(), true)`)
	if got := WaitFor[string](t, tab, `document.querySelector('#out').textContent`); got != "Applied" {
		t.Errorf("after clicking Apply the page says %q, want %q", got, "Applied")
	}
}
