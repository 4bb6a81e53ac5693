package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/replay/report"
)

// menuPage is a page whose Menu button opens a menu. Its variants break
// that the way apps do: the click does nothing, or it does more than open
// the menu (it also empties the cart).
const menuPage = `<!doctype html><html lang="en"><title>Menu</title>
<style>body { font: 16px sans-serif } #m { list-style: none; padding: 8px; border: 1px solid #999; width: 200px }</style>
<header><button type="button" aria-expanded="false" aria-controls="m">Menu</button>
<p id="cart">Cart: 2 items</p></header>
<ul id="m" role="menu" aria-label="Main" hidden>
  <li role="menuitem">Orders</li><li role="menuitem">Settings</li><li role="menuitem">Sign out</li>
</ul>
<script>
const variant = %q;
const button = document.querySelector('button');
button.addEventListener('click', () => {
  if (variant === 'dead') return;
  setTimeout(() => {
    button.setAttribute('aria-expanded', 'true');
    document.getElementById('m').hidden = false;
    if (variant === 'extra') document.getElementById('cart').textContent = 'Cart: 0 items';
  }, 50);
});
</script>`

// openTheMenu is the hand-written trail: the menu shows, its button is now
// expanded, and nothing else changes.
const openTheMenu = `version: 1
trail: Open the menu
app: shop
start: /
steps:
  - intent: Open the menu
    actions:
      - tap: {selector: {role: button, name: Menu}}
      - assertChange:
          mustInclude:
            - {selector: {role: menu, name: Main}}
            - {change: state, selector: {role: button, name: Menu}, to: {expanded: true}}
          only:
            - {selector: {role: menu, name: Main}}
            - {selector: {role: button, name: Menu}}
`

// TestReplayAssertChange replays "open the menu" through the host binary
// against the page and its variants: green on the page; failed as an
// app-bug with the diff on the trace page when the click does nothing, and
// naming the extra change when the click also empties the cart.
func TestReplayAssertChange(t *testing.T) {
	t.Parallel()
	dir := TempDir(t)
	file := filepath.Join(dir, "open-the-menu.trail.yaml")
	if err := os.WriteFile(file, []byte(openTheMenu), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		variant string
		pass    bool
		trace   []string
	}{
		{variant: "normal", pass: true},
		{variant: "dead", trace: []string{
			"- FAILED `mustInclude {selector: {role: menu, name: Main}}`: not found among no changes",
			"- FAILED `mustInclude {change: state, selector: {role: button, name: Menu}, to: {expanded: true}}`: not found among no changes",
			"- evidence: stored diff `d1`, baseline `http://",
			"- changes: none",
		}},
		{variant: "extra", trace: []string{
			"- passed `mustInclude {selector: {role: menu, name: Main}}`",
			"- passed `mustInclude {change: state, selector: {role: button, name: Menu}, to: {expanded: true}}`",
			"- FAILED `only {selector: {role: menu, name: Main}}, {selector: {role: button, name: Menu}}`: 1 change(s) match none of them: content paragraph",
			`text "Cart: 2 items" → "Cart: 0 items"`,
			"`state button \"Menu\"",
			": expanded false → true`",
		}},
	}
	// One after another: each run starts a Chromium.
	for _, tc := range tests {
		t.Run(tc.variant, func(t *testing.T) {
			page := fmt.Sprintf(menuPage, tc.variant)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, page)
			}))
			defer srv.Close()
			results := filepath.Join(TempDir(t), "results")
			run := RunHost(t, append(replayEnv(t, false), "CI=true"), nil, "replay", "--config", projectConfig(t, srv.URL),
				"--format", "status", "--results", results, file)
			out := string(run.Stdout) + string(run.Stderr)
			if tc.pass {
				if run.ExitCode != 0 {
					t.Fatalf("host replay on the menu page exited %d:\n%s", run.ExitCode, out)
				}
				return
			}
			if run.ExitCode != 1 {
				t.Fatalf("host replay against the %s variant exited %d, want 1:\n%s", tc.variant, run.ExitCode, out)
			}
			if !strings.Contains(string(run.Stderr), "class:    app-bug") {
				t.Errorf("the summary does not give the class app-bug:\n%s", run.Stderr)
			}
			trace, err := os.ReadFile(report.TracePath(results, "open-the-menu"))
			if err != nil {
				t.Fatalf("no trace page for the failed trail: %v", err)
			}
			for _, want := range append(tc.trace, "- Class: `app-bug`") {
				if !strings.Contains(string(trace), want) {
					t.Errorf("the trace page lacks %q:\n%s", want, trace)
				}
			}
		})
	}
}
