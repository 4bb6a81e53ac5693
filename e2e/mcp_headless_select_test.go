package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestMCPHeadlessSelectsSeveralOptions: `host mcp --headless` chooses two
// options of a <select multiple> with browser_select_option's values, and
// the trail holds one select with both; an option the list does not have,
// and two options for a drop-down of one choice, are refused before
// anything is recorded (the trail holds no select of them). The trail
// replays green.
func TestMCPHeadlessSelectsSeveralOptions(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	page := strings.Replace(listBoxPage, `<p><button id="save"`,
		`<p><label for="size">Size</label> <select id="size"><option>S</option><option>M</option></select></p>
<p><button id="save"`, 1)
	session, origin, project := headlessMCPOnPage(t, page)
	tool := func(name string, args map[string]any) (string, bool) {
		t.Helper()
		return session.call(t, name, args)
	}
	ref := func(snapshot, line string) string {
		t.Helper()
		m := regexp.MustCompile(regexp.QuoteMeta(line) + `[^\n]*\[ref=([a-z0-9]+)\]`).FindStringSubmatch(snapshot)
		if m == nil {
			t.Fatalf("the snapshot has no %s with a ref:\n%s", line, snapshot)
		}
		return m[1]
	}
	if out, failed := tool("trail_start", map[string]any{"app": "page", "url": origin + "/page.html"}); failed {
		t.Fatal(out)
	}
	snap, _ := tool("browser_snapshot", map[string]any{})
	fruits, size := ref(snap, `listbox "Fruits"`), ref(snap, `combobox "Size"`)
	if out, failed := tool("browser_select_option", map[string]any{"ref": fruits, "values": []string{"apples", "kiwis"}}); !failed || !strings.Contains(out, `no option "kiwis"`) {
		t.Fatalf("an option Fruits does not have: failed %v: %s", failed, out)
	}
	if out, failed := tool("browser_select_option", map[string]any{"ref": size, "values": []string{"S", "M"}}); !failed || !strings.Contains(out, "takes one option") {
		t.Fatalf("two options for a drop-down: failed %v: %s", failed, out)
	}
	snap, _ = tool("browser_snapshot", map[string]any{})
	if out, failed := tool("browser_select_option", map[string]any{"ref": ref(snap, `listbox "Fruits"`), "values": []string{"apples", "oranges"}}); failed {
		t.Fatal(out)
	}
	saved, failed := tool("trail_save", map[string]any{"title": "Choose fruits"})
	path := filepath.Join(project, "trails", "choose-fruits.trail.yaml")
	if failed || !strings.Contains(saved, path) {
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
	if got := strings.Join(valueActions(tr), "\n"); got != "select {id: fruits} = [apples, oranges]" {
		t.Fatalf("the trail's actions are\n%s\nwant the one select of both fruits:\n%s", got, src)
	}
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", origin, "--results", TempDir(t), path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}
