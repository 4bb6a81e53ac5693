package e2e

import (
	"context"
	"fmt"
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
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestMCPHeadlessOnTodoMVC: `host mcp --headless` on a real app no one here
// wrote, TodoMVC's plain-JavaScript example served from its pinned npm
// package. A small MCP client, as a coding agent's configuration starts
// it, records a trail alone: it adds three todos by typing and pressing
// Enter, toggles one and asserts what the toggle changed, filters the
// active ones and asserts what shows, goes to the completed ones by their
// address, edits one by double-click, and saves. The snapshots it was
// given are within the cap, give refs, and hold none of the app's hidden
// text. The saved trail is the client's, pinned by text; `host replay`
// replays it green with no model call, on the app and on a copy whose
// class names are all renamed, and fails on a copy whose counter reads
// otherwise, at that check, as app-bug.
func TestMCPHeadlessOnTodoMVC(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	srv := serveApp(t, todoMVC, serveOptions{})
	var modelCalls atomic.Int64
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		modelCalls.Add(1)
		http.Error(w, "no model call is expected", http.StatusInternalServerError)
	}))
	t.Cleanup(model.Close)

	project := TempDir(t)
	yaml := "apps:\n  todomvc:\n    baseURL: " + srv.URL + "\ntrails:\n  dir: trails\n"
	if err := os.WriteFile(filepath.Join(project, "trailpin.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	home := TempDir(t)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "CHROME_PATH=" + os.Getenv("CHROME_PATH"),
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TZ=UTC", "LANG=en_US.UTF-8",
		"TRAILPIN_MODEL_BASEURL=" + model.URL, "TRAILPIN_MODEL_NAME=none",
		"TRAILPIN_MODEL_APIKEYENV=E2E_MCP_MODEL_KEY", "E2E_MCP_MODEL_KEY=sk-e2e-mcp-0123456789",
	}

	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	cmd := exec.Command(HostPath(t), "mcp", "--headless")
	cmd.Dir, cmd.Env = project, env
	session := connectMCP(ctx, t, mcpClientName, cmd)

	// Every page the client was given, to check what snapshots look like.
	var pages []string
	try := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		text, isErr := session.call(t, name, args)
		if strings.Contains(text, "- Page Snapshot:") {
			pages = append(pages, text)
		}
		return text, isErr
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

	start := srv.URL + todoMVC.start
	snap := call("trail_start", map[string]any{"app": "todomvc", "url": start})
	for _, todo := range []string{"Feed the cat", "Water the plants", "Buy milk"} {
		snap = call("browser_type", map[string]any{"element": "the new todo field", "ref": ref(snap, `textbox "What needs to be done?"`), "text": todo, "submit": true})
	}
	for _, todo := range []string{"Feed the cat", "Water the plants", "Buy milk"} {
		if !strings.Contains(snap, todo) {
			t.Fatalf("after typing three todos the page does not show %q:\n%s", todo, snap)
		}
	}
	// Hidden until a todo is completed: the app sets display: none.
	if strings.Contains(snap, "Clear completed") {
		t.Errorf("the snapshot shows the hidden Clear completed button:\n%s", snap)
	}

	// Toggle "Water the plants": its row's checkbox.
	snap = call("browser_snapshot", map[string]any{})
	toggle := refInRow(t, snap, "Water the plants", "checkbox")
	snap = call("browser_click", map[string]any{"element": "the Water the plants checkbox", "ref": toggle})
	call("browser_assert_change", map[string]any{"mustInclude": []any{
		map[string]any{"kind": "state", "ref": toggle, "to": map[string]any{"checked": true}},
	}})
	call("browser_verify_value", map[string]any{"type": "checkbox", "element": "the Water the plants checkbox", "ref": toggle, "value": "true"})
	call("browser_verify_text_visible", map[string]any{"text": "2 items left"})

	// Filter the active ones: the toggled todo goes.
	snap = call("browser_snapshot", map[string]any{})
	active := ref(snap, `link "Active"`)
	snap = call("browser_click", map[string]any{"element": "Active", "ref": active})
	call("browser_assert_change", map[string]any{"mustInclude": []any{
		map[string]any{"kind": "removed", "text": "Water the plants"},
	}})
	// The toggled row is gone from the page: its ref acts no more.
	if text, isErr := try("browser_click", map[string]any{"element": "the Water the plants checkbox", "ref": toggle}); !isErr ||
		!strings.Contains(text, "Nothing was done") && !strings.Contains(text, "nothing was done") {
		t.Errorf("a click on the ref of a row the filter removed answers %v %q, want a stale ref with nothing done", isErr, text)
	}
	call("browser_verify_text_visible", map[string]any{"text": "Feed the cat"})
	call("browser_verify_element_visible", map[string]any{"role": "link", "accessibleName": "Active"})
	snap = call("browser_snapshot", map[string]any{})
	if strings.Contains(snap, "Water the plants") {
		t.Errorf("the Active filter still shows the completed todo:\n%s", snap)
	}
	// A snapshot scoped to the list: its rows and nothing else.
	list := call("browser_snapshot", map[string]any{"ref": ref(snap, "- list ")})
	if !strings.Contains(list, "Feed the cat") || !strings.Contains(list, "Buy milk") || strings.Contains(list, `heading "todos"`) {
		t.Errorf("the snapshot scoped to the list is not the list:\n%s", list)
	}
	// The completed ones, by the address: a route in the same document.
	call("browser_navigate", map[string]any{"url": todoMVC.start + "#/completed"})
	call("browser_verify_text_visible", map[string]any{"text": "Water the plants"})
	checkTodoSnapshots(t, pages)

	// A todo is edited in a box its double-click opens.
	snap = call("browser_snapshot", map[string]any{})
	label := regexp.MustCompile(`\[ref=(e\d+)\]: Water the plants\n`).FindStringSubmatch(snap)
	if label == nil {
		t.Fatalf("no label reads Water the plants:\n%s", snap)
	}
	snap = call("browser_click", map[string]any{"element": "Water the plants", "ref": label[1], "doubleClick": true})
	snap = call("browser_snapshot", map[string]any{})
	edit := refInRow(t, snap, "Water the plants", "textbox")
	call("browser_type", map[string]any{"element": "the todo's edit box", "ref": edit, "text": "Water the garden", "submit": true})
	call("browser_verify_text_visible", map[string]any{"text": "Water the garden"})
	saved := call("trail_save", map[string]any{"title": "Complete a todo and filter the active ones"})

	path := filepath.Join(project, "trails", "complete-a-todo-and-filter-the-active-ones.trail.yaml")
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
	checkTodoTrail(t, tr, content)
	if n := strings.Count(string(content), "- check:"); n != 1 {
		t.Errorf("the trail checks %d boxes, want the one toggle (the stale ref recorded nothing):\n%s", n, content)
	}
	for _, want := range []string{
		"type: {selector: {id: new-todo}, text: Buy milk}\n      - press: {key: Enter}",
		"- check:\n          selector: {role: checkbox, within: {role: listitem, textRegex: '(?m)^Water the plants$'}}\n      - assertChange:",
		"tap: {selector: {role: link, name: Active}}\n      - assertChange: {mustInclude: [{change: removed, selector: {text: Water the plants}}]}",
		"navigate: /examples/vanillajs/index.html#/completed",
		"assertVisible: {selector: {text: 2 items left}}",
		"count: 2}",
		"text: Water the garden}\n      - press: {key: Enter}",
		"- assertState:\n          selector: {role: checkbox, within: {role: listitem, textRegex: '(?m)^Water the plants$'}}\n          checked: true",
	} {
		if !strings.Contains(string(content), want) {
			t.Errorf("the trail lacks\n%s", want)
		}
	}

	if replayed := call("trail_replay", map[string]any{}); !strings.Contains(replayed, "passed.") {
		t.Errorf("trail_replay did not pass:\n%s", replayed)
	}

	run := RunHost(t, env[2:], nil, "replay", "--config", filepath.Join(project, "trailpin.yaml"), "--strict", "--results", TempDir(t), path)
	if run.ExitCode != 0 {
		t.Errorf("host replay %s: exit %d\n%s\n%s", path, run.ExitCode, run.Stdout, run.Stderr)
	}
	if n := modelCalls.Load(); n != 0 {
		t.Errorf("the model was called %d times; the recorded trail must replay without one", n)
	}

	// A rebuild with every class name renamed: the trail names none.
	churned := serveApp(t, todoMVC, serveOptions{churn: true})
	cfgDir := TempDir(t)
	if err := os.WriteFile(filepath.Join(cfgDir, "trailpin.yaml"), []byte("replay:\n  actionTimeout: 10s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if run := RunHost(t, env[2:], nil, "replay", "--config", filepath.Join(cfgDir, "trailpin.yaml"), "--base-url", churned.URL, "--strict", "--results", TempDir(t), path); run.ExitCode != 0 {
		t.Errorf("host replay on the churned copy: exit %d\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}

	// A copy whose counter reads one more: the replay fails at the check
	// of the counter, as the app's bug.
	step := -1
	for i, s := range tr.Steps {
		for _, a := range s.Actions {
			if av, ok := a.(trail.AssertVisible); ok && strings.Contains(av.Selector.String(), "2 items left") {
				step = i + 1
			}
		}
	}
	if step < 0 {
		t.Fatalf("the trail checks no \"2 items left\":\n%s", content)
	}
	variant := serveApp(t, todoMVC, serveOptions{variant: &valueVariant{whole: "2 items left", from: "2", to: "3"}})
	cfg := filepath.Join(TempDir(t), "trailpin.yaml")
	if err := os.WriteFile(cfg, []byte("replay:\n  actionTimeout: 5s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := RunHost(t, env[2:], nil, "replay", "--config", cfg, "--base-url", variant.URL, "--format", "status", "--results", TempDir(t), path)
	failed := statusLine(replayRun{HostRun: bad}, "ASSERTION_FAILED")
	want := fmt.Sprintf("ASSERTION_FAILED|%s-%d|app-bug: ", trail.Slug(tr.Title), step)
	if bad.ExitCode != 1 || !strings.HasPrefix(failed, want) || !inStatusLine(failed, "2 items left") || !inStatusLine(failed, "3 items left") {
		t.Errorf("on the copy whose counter reads 3 items left, want the replay to fail at step %d as app-bug with expected vs actual (%s…); exit %d:\n%s\n%s",
			step, want, bad.ExitCode, bad.Stdout, bad.Stderr)
	}
	if n := modelCalls.Load(); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}

// refInRow is the ref of the first element of role inside the list item
// that reads text.
func refInRow(t *testing.T, snapshot, text, role string) string {
	t.Helper()
	lines := strings.Split(snapshot, "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for i, l := range lines {
		if !strings.Contains(l, text) {
			continue
		}
		for j := i; j >= 0; j-- {
			row := strings.TrimSpace(lines[j])
			if !strings.HasPrefix(row, "- listitem") || indent(lines[j]) >= indent(l) && j != i {
				continue
			}
			for k := j + 1; k < len(lines) && indent(lines[k]) > indent(lines[j]); k++ {
				if m := regexp.MustCompile(`- ` + role + `\b[^\n]*\[ref=([a-z0-9]+)\]`).FindStringSubmatch(lines[k]); m != nil {
					return m[1]
				}
			}
			break
		}
	}
	t.Fatalf("no %s in the list item that reads %q:\n%s", role, text, snapshot)
	return ""
}

// checkTodoSnapshots checks every page the client was given: within the
// cap, with refs, and without the app's hidden text.
func checkTodoSnapshots(t *testing.T, pages []string) {
	t.Helper()
	if len(pages) == 0 {
		t.Fatal("the client was given no page")
	}
	for _, p := range pages {
		if len(p) > 40000+500 {
			t.Errorf("a page of %d bytes is over the snapshot cap", len(p))
		}
		if !strings.Contains(p, "[ref=") {
			t.Errorf("a page gives no ref:\n%s", p)
		}
		// TodoMVC's hidden parts: each row's edit box (display: none until
		// a double-click) is a second, third… textbox.
		if n := strings.Count(p, "- textbox"); n != 1 && strings.Contains(p, `heading "todos"`) {
			t.Errorf("a page shows %d text boxes, want the new todo field alone (the rows' edit boxes are hidden):\n%s", n, p)
		}
	}
	// Before the first todo the list, the counter and the filters are
	// hidden (display: none).
	for _, hidden := range []string{"items left", "Mark all as complete", `link "Active"`, "Clear completed"} {
		if strings.Contains(pages[0], hidden) {
			t.Errorf("the first page shows %q, which the app hides until there is a todo:\n%s", hidden, pages[0])
		}
	}
	t.Logf("the first page the client was given (%d bytes):\n%s", len(pages[0]), pages[0])
	t.Logf("the last page the client was given (%d bytes):\n%s", len(pages[len(pages)-1]), pages[len(pages)-1])
}

// checkTodoTrail checks the saved trail: each step the client's, pinned by
// text, the typing with its Enter.
func checkTodoTrail(t *testing.T, tr *trail.Trail, content []byte) {
	t.Helper()
	for i, s := range tr.Steps {
		if s.By != trail.ByAgent || s.Client != mcpClientName {
			t.Errorf("step %d (%s) is marked by %q client %q, want by: agent, client: %s", i+1, s.Intent, s.By, s.Client, mcpClientName)
		}
		if s.Key != "" {
			t.Errorf("step %d (%s) has a key", i+1, s.Intent)
		}
		if s.Act != "" {
			t.Errorf("step %d (%s) is an act: step", i+1, s.Intent)
		}
	}
	if n := countIndexes(tr); n > 0 {
		t.Errorf("the trail has %d index selectors:\n%s", n, content)
	}
	generated, counted := idUses(tr)
	for _, g := range generated {
		t.Errorf("a generated id in a selector: %s", g)
	}
	for _, c := range counted {
		t.Errorf("a counted id in a selector: %s", c)
	}
}

// TestMCPHeadlessSnapshotCapOnTodoMVC: with a small cap, TodoMVC's page
// (whose sidebar comes first) is cut at whole lines with what was left out
// counted, and the client still reaches the new todo field: the
// controls-only snapshot, within the cap, has it.
func TestMCPHeadlessSnapshotCapOnTodoMVC(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	srv := serveApp(t, todoMVC, serveOptions{})
	project := TempDir(t)
	yaml := "apps:\n  todomvc:\n    baseURL: " + srv.URL + "\ntrails:\n  dir: trails\n"
	if err := os.WriteFile(filepath.Join(project, "trailpin.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	home := TempDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), RunTimeout)
	defer cancel()
	const limit = 1000
	cmd := exec.Command(HostPath(t), "mcp", "--headless", "--snapshot-limit", fmt.Sprint(limit))
	cmd.Dir = project
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "CHROME_PATH=" + os.Getenv("CHROME_PATH"), "HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share")}
	session := connectMCP(ctx, t, mcpClientName, cmd)
	call := func(name string, args map[string]any) string {
		t.Helper()
		return session.must(t, name, args)
	}
	snapText := func(page string) string {
		i, j := strings.Index(page, "```yaml\n"), strings.LastIndex(page, "\n```\n")
		if i < 0 || j < i {
			t.Fatalf("no snapshot in\n%s", page)
		}
		return page[i+len("```yaml\n") : j]
	}
	call("trail_start", map[string]any{"app": "todomvc", "url": srv.URL + todoMVC.start})
	full := call("browser_snapshot", map[string]any{})
	if kept := snapText(full); len(kept) > limit {
		t.Errorf("the snapshot holds %d bytes, over the cap of %d", len(kept), limit)
	}
	cut := regexp.MustCompile(`\[Snapshot cut at the size limit: (\d+) more lines left out, (\d+) of them elements with a ref\.`).FindStringSubmatch(full)
	if cut == nil || cut[1] == "0" || cut[2] == "0" {
		t.Fatalf("the capped snapshot does not count what it left out:\n%s", full)
	}
	if strings.Contains(full, "What needs to be done?") {
		t.Fatalf("the field is within the first %d bytes: the cap proves nothing here:\n%s", limit, full)
	}
	controls := call("browser_snapshot", map[string]any{"interactive": true})
	m := regexp.MustCompile(`textbox "What needs to be done\?"[^\n]*\[ref=(e\d+)\]`).FindStringSubmatch(controls)
	if m == nil || strings.Contains(controls, "Snapshot cut") {
		t.Fatalf("the controls-only snapshot does not give the field whole:\n%s", controls)
	}
	typed := call("browser_type", map[string]any{"ref": m[1], "text": "Feed the cat", "submit": true})
	if !strings.Contains(typed, "Typed into") {
		t.Errorf("browser_type answers\n%s", typed)
	}
}
