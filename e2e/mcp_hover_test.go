package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/trail"
)

// hoverMenuPage has two menus whose items show only under the pointer:
// Account's by CSS (:hover on the menu), Help's by its script (mouseenter
// shows the list, mouseleave hides it). Each item says what it did.
const hoverMenuPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Menus</title>
<style>
  .menu { display: inline-block; position: relative; margin-right: 2em; }
  .menu ul { list-style: none; margin: 0; padding: 4px; position: absolute; top: 100%; left: 0; background: #eee; }
  #account-menu ul { display: none; }
  #account-menu:hover ul { display: block; }
  button { font-size: 16px; }
</style></head>
<body>
<h1>Menus</h1>
<nav>
  <div class="menu" id="account-menu"><button type="button">Account</button>
    <ul><li><button type="button" id="sign-out">Sign out</button></li></ul></div>
  <div class="menu" id="help-menu"><button type="button">Help</button>
    <ul hidden><li><button type="button" id="contact">Contact us</button></li></ul></div>
</nav>
<p id="status" role="status" style="margin-top: 6em"></p>
<script>
  const help = document.querySelector('#help-menu');
  help.addEventListener('mouseenter', () => { help.querySelector('ul').hidden = false; });
  help.addEventListener('mouseleave', () => { help.querySelector('ul').hidden = true; });
  document.querySelector('#sign-out').addEventListener('click', () => { document.querySelector('#status').textContent = 'Signed out'; });
  document.querySelector('#contact').addEventListener('click', () => { document.querySelector('#status').textContent = 'Contact form'; });
</script>
</body></html>`

// hoverTrailActions lists the trail's actions with who performed them.
func hoverTrailActions(tr *trail.Trail) []string {
	var out []string
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			line := s.By + "/" + s.Client + " " + string(a.Kind())
			if sel, ok := trail.ActionSelector(a); ok {
				line += " " + sel.String()
			}
			out = append(out, line)
		}
	}
	return out
}

// checkHoverTrail fails unless the trail holds, for each menu, a hover
// over it (the menu or its button: where the recorder finds the hover
// that shows the item) and the tap on its item, each the client's, and
// nothing else.
func checkHoverTrail(t *testing.T, tr *trail.Trail, src []byte, client string) {
	t.Helper()
	got := hoverTrailActions(tr)
	who := "agent/" + client
	want := []*regexp.Regexp{
		regexp.MustCompile(`^` + regexp.QuoteMeta(who) + ` hover \{(id: account-menu|role: button, name: Account)\}$`),
		regexp.MustCompile(`^` + regexp.QuoteMeta(who) + ` tap \{id: sign-out\b`),
		regexp.MustCompile(`^` + regexp.QuoteMeta(who) + ` hover \{(id: help-menu|role: button, name: Help)\}$`),
		regexp.MustCompile(`^` + regexp.QuoteMeta(who) + ` tap \{id: contact\b`),
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = want[i].MatchString(got[i])
	}
	if !ok {
		t.Fatalf("the trail's actions are\n  %s\nwant the client's hover over Account, tap on Sign out, hover over Help, tap on Contact us\n--- trail\n%s", strings.Join(got, "\n  "), src)
	}
}

// TestMCPHeadlessHoverRevealsAMenu: `host mcp --headless`'s browser_hover
// rests the pointer on a menu, the next snapshot shows the item its hover
// reveals (by CSS :hover, then by a mouseenter script), and the click on it
// works; the trail holds each hover with its tap, and `host replay` replays
// it green, which it could not without the hovers (the items are hidden).
func TestMCPHeadlessHoverRevealsAMenu(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	session, origin, project := headlessMCPOnPage(t, hoverMenuPage)
	session.must(t, "trail_start", map[string]any{"app": "page", "url": origin + "/page.html"})

	snap := session.must(t, "browser_snapshot", map[string]any{})
	if strings.Contains(snap, "Sign out") || strings.Contains(snap, "Contact us") {
		t.Fatalf("the menus' items show before any hover:\n%s", snap)
	}
	menus(t, session, snap, "Signed out", "Contact form")

	saved := session.must(t, "trail_save", map[string]any{"title": "Use the menus"})
	path := filepath.Join(project, "trails", "use-the-menus.trail.yaml")
	if !strings.Contains(saved, path) {
		t.Fatalf("trail_save: %s", saved)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(path, src)
	if err != nil {
		t.Fatalf("the saved trail does not load: %v\n%s", err, src)
	}
	checkHoverTrail(t, tr, src, mcpClientName)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", origin, "--results", TempDir(t), path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}

// menus hovers each menu of hoverMenuPage through the MCP session and
// clicks the item it shows; each item's answer must show the status it set.
func menus(t *testing.T, session *mcpSession, snap, signedOut, contact string) {
	t.Helper()
	out := session.must(t, "browser_hover", map[string]any{"element": "Account", "ref": mcpRef(t, snap, `button "Account"`)})
	if !strings.Contains(out, `button "Sign out"`) {
		t.Fatalf("browser_hover over Account does not show its menu:\n%s", out)
	}
	snap = session.must(t, "browser_snapshot", map[string]any{})
	out = session.must(t, "browser_click", map[string]any{"element": "Sign out", "ref": mcpRef(t, snap, `button "Sign out"`)})
	if !strings.Contains(out, signedOut) {
		t.Fatalf("clicking Sign out: the page does not say %q:\n%s", signedOut, out)
	}
	snap = session.must(t, "browser_snapshot", map[string]any{})
	out = session.must(t, "browser_hover", map[string]any{"element": "Help", "ref": mcpRef(t, snap, `button "Help"`)})
	if !strings.Contains(out, `button "Contact us"`) {
		t.Fatalf("browser_hover over Help does not show its menu:\n%s", out)
	}
	snap = session.must(t, "browser_snapshot", map[string]any{})
	out = session.must(t, "browser_click", map[string]any{"element": "Contact us", "ref": mcpRef(t, snap, `button "Contact us"`)})
	if !strings.Contains(out, contact) {
		t.Fatalf("clicking Contact us: the page does not say %q:\n%s", contact, out)
	}
}

// TestMCPAttachedHoverRevealsAMenu: the same through `host mcp` attached in
// the person's recorded and shared tab: browser_hover is the agent API's
// tab.hover, a trusted mouse move by the extension; the recorder records
// each hover with the click on what it showed, marked the client's, and
// the trail replays green.
func TestMCPAttachedHoverRevealsAMenu(t *testing.T) {
	t.Parallel()
	const client = "e2e-hover-agent"
	runtimeDir := TempDir(t)
	rec := recordPageEnv(t, hoverMenuPage, []string{"XDG_RUNTIME_DIR=" + runtimeDir}, func(popup, app context.Context) {
		waitDiscovery(t, runtimeDir)
		ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
		defer cancel()
		home := TempDir(t)
		cmd := exec.Command(HostPath(t), "mcp")
		cmd.Dir = TempDir(t)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + runtimeDir,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}
		session := connectMCP(ctx, t, client, cmd)
		if out, failed := session.call(t, "browser_snapshot", map[string]any{}); !failed {
			t.Fatalf("browser_snapshot before the person allowed the client: %s", out)
		}
		allowClient(t, popup, client)
		shareTab(t, popup)

		snap := session.must(t, "browser_snapshot", map[string]any{})
		if strings.Contains(snap, "Sign out") || strings.Contains(snap, "Contact us") {
			t.Fatalf("the menus' items show before any hover:\n%s", snap)
		}
		menus(t, session, snap, "Signed out", "Contact form")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Contact form'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	checkHoverTrail(t, rec.trail, rec.yaml, client)
	rec.replayGreen(t)
}

// hoverOnlyPageBroken is hoverMenuPage whose menus show nothing under the
// pointer: the copy a trail that relies on a hover must fail on.
var hoverOnlyPageBroken = strings.NewReplacer(
	"#account-menu:hover ul { display: block; }", "",
	"help.querySelector('ul').hidden = false;", "",
).Replace(hoverMenuPage)

// checkHoverAssertTrail fails unless the trail is, for each menu, one step
// of the client's: a hover over the menu (the menu or its button) and the
// check that its item shows, and nothing else.
func checkHoverAssertTrail(t *testing.T, tr *trail.Trail, src []byte, client string) {
	t.Helper()
	got := hoverTrailActions(tr)
	if len(tr.Steps) != 2 {
		t.Fatalf("the trail has %d steps, want 2 (a hover and its check, for each menu):\n%s", len(tr.Steps), src)
	}
	who := regexp.QuoteMeta("agent/" + client)
	want := []*regexp.Regexp{
		regexp.MustCompile(`^` + who + ` hover \{(id: account-menu|role: button, name: Account)\}$`),
		regexp.MustCompile(`^` + who + ` assertVisible \{.*(sign-out|Sign out)`),
		regexp.MustCompile(`^` + who + ` hover \{(id: help-menu|role: button, name: Help)\}$`),
		regexp.MustCompile(`^` + who + ` assertVisible \{.*(contact|Contact us)`),
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = want[i].MatchString(got[i])
	}
	if !ok {
		t.Fatalf("the trail's actions are\n  %s\nwant the client's hover over Account, check that Sign out shows, hover over Help, check that Contact us shows\n--- trail\n%s", strings.Join(got, "\n  "), src)
	}
}

// hoverThenVerify hovers each menu of hoverMenuPage through the MCP
// session and checks, with no click, that the item its hover showed is
// visible: the hover is the last act before each check.
func hoverThenVerify(t *testing.T, session *mcpSession, snap string) {
	t.Helper()
	for _, m := range []struct{ menu, item string }{{"Account", "Sign out"}, {"Help", "Contact us"}} {
		out := session.must(t, "browser_hover", map[string]any{"element": m.menu, "ref": mcpRef(t, snap, `button "`+m.menu+`"`)})
		if !strings.Contains(out, `button "`+m.item+`"`) {
			t.Fatalf("browser_hover over %s does not show its menu:\n%s", m.menu, out)
		}
		session.must(t, "browser_verify_element_visible", map[string]any{"role": "button", "accessibleName": m.item})
		snap = session.must(t, "browser_snapshot", map[string]any{})
	}
}

// replayHoverTrail replays the trail at path with `host replay` against a
// site serving page as /page.html and returns whether it passed, with its
// output.
func replayHoverTrail(t *testing.T, path, page string) (bool, string) {
	t.Helper()
	site := TempDir(t)
	if err := os.WriteFile(filepath.Join(site, "page.html"), []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, site)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", srv.URL, "--results", TempDir(t), path)
	passed := run.ExitCode == 0 && strings.Contains(string(run.Stdout), "PASSED: 1 trail in")
	return passed, fmt.Sprintf("exit %d\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
}

// checkHoverAssertReplays replays the trail green on the menus' page and
// red on the copy whose hovers show nothing: the kept hovers are what make
// the checks hold.
func checkHoverAssertReplays(t *testing.T, path string, src []byte) {
	t.Helper()
	if ok, out := replayHoverTrail(t, path, hoverMenuPage); !ok {
		t.Fatalf("host replay of the trail on the menus' page: %s\n--- trail\n%s", out, src)
	}
	if ok, out := replayHoverTrail(t, path, hoverOnlyPageBroken); ok {
		t.Fatalf("host replay passed on a copy whose hovers show nothing: %s\n--- trail\n%s", out, src)
	}
}

// TestMCPHeadlessHoverThenAssert: `host mcp --headless`'s browser_hover
// over a menu, followed by no click but a check that the item it showed is
// visible, is kept as a hover step before the check, so the trail replays
// to the same state: green on the page, red on a copy whose hover shows
// nothing.
func TestMCPHeadlessHoverThenAssert(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	session, origin, project := headlessMCPOnPage(t, hoverMenuPage)
	session.must(t, "trail_start", map[string]any{"app": "page", "url": origin + "/page.html"})
	hoverThenVerify(t, session, session.must(t, "browser_snapshot", map[string]any{}))
	saved := session.must(t, "trail_save", map[string]any{"title": "Menus show their items"})
	path := filepath.Join(project, "trails", "menus-show-their-items.trail.yaml")
	if !strings.Contains(saved, path) {
		t.Fatalf("trail_save: %s", saved)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trail.LoadTrail(path, src)
	if err != nil {
		t.Fatalf("the saved trail does not load: %v\n%s", err, src)
	}
	checkHoverAssertTrail(t, tr, src, mcpClientName)
	checkHoverAssertReplays(t, path, src)
}

// TestMCPAttachedHoverThenAssert: the same through `host mcp` attached in
// the person's recorded and shared tab: the agent API's tab.hover records
// the hover (the extension's recorder, on the page as it was before the
// move), and the check that follows it, on the item it showed, is one step
// with it, marked the client's; the trail replays green on the page and
// red on the copy whose hovers show nothing.
func TestMCPAttachedHoverThenAssert(t *testing.T) {
	t.Parallel()
	const client = "e2e-hover-check-agent"
	runtimeDir := TempDir(t)
	rec := recordPageEnv(t, hoverMenuPage, []string{"XDG_RUNTIME_DIR=" + runtimeDir}, func(popup, app context.Context) {
		waitDiscovery(t, runtimeDir)
		ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
		defer cancel()
		home := TempDir(t)
		cmd := exec.Command(HostPath(t), "mcp")
		cmd.Dir = TempDir(t)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + runtimeDir,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}
		session := connectMCP(ctx, t, client, cmd)
		if out, failed := session.call(t, "browser_snapshot", map[string]any{}); !failed {
			t.Fatalf("browser_snapshot before the person allowed the client: %s", out)
		}
		allowClient(t, popup, client)
		shareTab(t, popup)

		snap := session.must(t, "browser_snapshot", map[string]any{})
		if strings.Contains(snap, "Sign out") || strings.Contains(snap, "Contact us") {
			t.Fatalf("the menus' items show before any hover:\n%s", snap)
		}
		hoverThenVerify(t, session, snap)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	checkHoverAssertTrail(t, rec.trail, rec.yaml, client)
	checkHoverAssertReplays(t, rec.path, rec.yaml)
}
