package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
)

// A popupView is what the popup shows, read in one go.
type popupView struct {
	State       string `json:"state"`
	Headline    string `json:"headline"`
	HostVersion string `json:"hostVersion"`
	Protocol    string `json:"protocol"`
	Problem     string `json:"problem"`
	Command     string `json:"command"`
}

// readPopup waits until the popup leaves "connecting" and returns what it
// shows at that moment.
func readPopup(t *testing.T, popup context.Context) popupView {
	t.Helper()
	return WaitFor[popupView](t, popup, `(() => {
		const q = (s) => document.querySelector(s)?.textContent ?? '';
		const state = document.querySelector('#state')?.dataset.state;
		if (!state || state === 'connecting') return null;
		return {state, headline: q('#state'), hostVersion: q('#host-version'), protocol: q('#host-protocol'),
			problem: q('#problem-text'), command: q('#fix-command')};
	})()`)
}

func TestPopupShowsConnectedHost(t *testing.T) {
	t.Parallel()
	version := strings.Fields(string(RunHost(t, nil, nil, "version").Stdout))[1]
	b := StartBrowser(t, Options{})
	popup := b.OpenPopup(t)
	got := readPopup(t, popup)
	want := popupView{State: "connected", Headline: "Connected", HostVersion: version, Protocol: "1"}
	if got != want {
		t.Errorf("popup shows %+v, want %+v", got, want)
	}
	assertControlsNamed(t, popup, 0)

	// Extension pages reach the host through the background.
	if r := HostRequest(t, popup, "hello", map[string]any{"protocol": 1, "version": "test"}); !r.OK || r.Reply["type"] != "hello" || r.Reply["version"] != version {
		t.Errorf("hello through the background = %+v, want the host's hello with version %s", r, version)
	}
	if r := HostRequest(t, popup, "teleport", nil); r.OK || r.Code != 3 {
		t.Errorf("unknown type through the background = %+v, want error code 3", r)
	}
}

func TestPopupSaysHostMissing(t *testing.T) {
	t.Parallel()
	b := StartBrowser(t, Options{NoHost: true})
	popup := b.OpenPopup(t)
	got := readPopup(t, popup)
	if got.State != "missing" || got.Headline != "Host not installed" {
		t.Fatalf("popup shows %+v, want state missing, headline %q", got, "Host not installed")
	}
	if want := "./bin/host install --browser chromium"; got.Command != want {
		t.Errorf("popup fix command = %q, want %q", got.Command, want)
	}
	if !strings.Contains(got.Problem, "dev.trailpin.host") {
		t.Errorf("popup problem = %q, want it to name the host dev.trailpin.host", got.Problem)
	}
	assertControlsNamed(t, popup, 2) // Copy command, Retry connection
}

func TestPopupSaysHostRefusesExtension(t *testing.T) {
	t.Parallel()
	b := StartBrowser(t, Options{AllowedExtensionID: "abcdefghijklmnopabcdefghijklmnop"})
	popup := b.OpenPopup(t)
	got := readPopup(t, popup)
	if got.State != "forbidden" {
		t.Fatalf("popup shows %+v, want state forbidden", got)
	}
	if want := "./bin/host install --browser chromium --extension-id " + b.ExtensionID; got.Command != want {
		t.Errorf("popup fix command = %q, want %q", got.Command, want)
	}
}

// TestPopupSaysHostCannotRun: a manifest naming a file that cannot be
// executed makes Chromium report that the host exited; the popup sends the
// person to host doctor, which names the broken path.
func TestPopupSaysHostCannotRun(t *testing.T) {
	t.Parallel()
	notExecutable := filepath.Join(TempDir(t), "host")
	if err := os.WriteFile(notExecutable, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := StartBrowser(t, Options{HostPath: notExecutable})
	got := readPopup(t, b.OpenPopup(t))
	want := popupView{State: "exited", Headline: "Host stopped", Problem: "The host stopped, or could not be run.", Command: "./bin/host doctor"}
	if got != want {
		t.Errorf("popup shows %+v, want %+v", got, want)
	}
}

// assertControlsNamed checks, on the browser's accessibility tree, that every
// control the popup shows has a role and an accessible name, and that at
// least atLeast controls are shown.
func assertControlsNamed(t *testing.T, ctx context.Context, atLeast int) {
	t.Helper()
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	controls := map[string]bool{"button": true, "link": true, "textbox": true, "checkbox": true, "combobox": true, "radio": true, "switch": true, "searchbox": true, "menuitem": true, "tab": true}
	seen := 0
	for _, n := range res.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		role := strings.Trim(string(n.Role.Value), `"`)
		if !controls[role] {
			continue
		}
		seen++
		name := ""
		if n.Name != nil {
			name = strings.Trim(string(n.Name.Value), `"`)
		}
		if strings.TrimSpace(name) == "" {
			t.Errorf("a %s in the popup has no accessible name", role)
		}
	}
	if seen < atLeast {
		t.Errorf("the popup's accessibility tree shows %d controls, want at least %d", seen, atLeast)
	}
}
