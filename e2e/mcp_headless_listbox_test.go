package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestMCPHeadlessChoosesInAListBox: `host mcp --headless`'s
// browser_select_option chooses in ARIA list boxes (role=listbox with
// role=option children) with trusted clicks: two options of one with
// aria-multiselectable (a click, then a Control-click), one of a list box
// of one choice. A label the list box lacks, and two labels for the list
// box of one choice, are refused with nothing selected and nothing
// recorded. The answer reads the choice back from aria-selected, the trail
// holds one select per list box, and `host replay` replays it green.
func TestMCPHeadlessChoosesInAListBox(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	page := strings.Replace(listBoxPage, `<p><button id="save"`,
		`<p id="size-label">Size</p>
<div id="size" role="listbox" aria-labelledby="size-label">
  <div role="option" id="small" aria-selected="false">small</div>
  <div role="option" id="medium" aria-selected="false">medium</div>
</div>
<script>
  document.querySelector('#size').addEventListener('click', (e) => {
    const o = e.target.closest('[role=option]');
    if (o) for (const x of document.querySelectorAll('#size [role=option]')) x.setAttribute('aria-selected', String(x === o));
  });
</script>
<p><button id="save"`, 1)
	session, origin, project := headlessMCPOnPage(t, page)
	session.must(t, "trail_start", map[string]any{"app": "page", "url": origin + "/page.html"})

	snap := session.must(t, "browser_snapshot", map[string]any{})
	veg, size := mcpRef(t, snap, `listbox "Vegetables"`), mcpRef(t, snap, `listbox "Size"`)
	if out, failed := session.call(t, "browser_select_option", map[string]any{"ref": veg, "values": []string{"carrots", "kiwis"}}); !failed || !strings.Contains(out, `no option "kiwis"`) {
		t.Fatalf("an option Vegetables does not have: failed %v: %s", failed, out)
	}
	if out, failed := session.call(t, "browser_select_option", map[string]any{"ref": size, "values": []string{"small", "medium"}}); !failed || !strings.Contains(out, "takes one option") {
		t.Fatalf("two options for a list box of one choice: failed %v: %s", failed, out)
	}
	if out, failed := session.call(t, "browser_select_option", map[string]any{"ref": veg, "values": []string{"peas", "peas"}}); !failed || !strings.Contains(out, "given twice") {
		t.Fatalf("one option given twice: failed %v: %s", failed, out)
	}
	snap = session.must(t, "browser_snapshot", map[string]any{})
	if strings.Contains(snap, "selected") {
		t.Fatalf("a refused browser_select_option selected something:\n%s", snap)
	}

	out := session.must(t, "browser_select_option", map[string]any{"ref": mcpRef(t, snap, `listbox "Vegetables"`), "values": []string{"carrots", "peas"}})
	if !strings.Contains(out, `Chose carrots, peas in listbox "Vegetables"`) {
		t.Errorf("browser_select_option answered:\n%s", out)
	}
	snap = session.must(t, "browser_snapshot", map[string]any{})
	for _, o := range []string{"carrots", "peas"} {
		if !strings.Contains(snap, `option "`+o+`" [selected]`) {
			t.Errorf("the snapshot after the choice does not show %s selected:\n%s", o, snap)
		}
	}
	if strings.Contains(snap, `option "leeks" [selected]`) {
		t.Errorf("the snapshot after the choice shows leeks selected:\n%s", snap)
	}
	out = session.must(t, "browser_select_option", map[string]any{"ref": mcpRef(t, snap, `listbox "Size"`), "values": []string{"medium"}})
	if !strings.Contains(out, `Chose medium in listbox "Size"`) {
		t.Errorf("browser_select_option answered:\n%s", out)
	}

	saved := session.must(t, "trail_save", map[string]any{"title": "Choose in list boxes"})
	path := filepath.Join(project, "trails", "choose-in-list-boxes.trail.yaml")
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
	want := "select {id: veg} = [carrots, peas]\nselect {id: size} = [medium]"
	if got := strings.Join(valueActions(tr), "\n"); got != want {
		t.Fatalf("the trail's actions are\n%s\nwant\n%s\n--- trail\n%s", got, want, src)
	}
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", origin, "--results", TempDir(t), path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}

// TestMCPHeadlessListBoxReadBackRecordsNothing: a list box whose page ends
// with another choice than the one browser_select_option clicked (its
// script always selects red) is an error, and the failed choice leaves
// nothing in the trail: the trail holds the choices that held and the
// click after them, and `host replay` replays it green.
func TestMCPHeadlessListBoxReadBackRecordsNothing(t *testing.T) {
	t.Parallel()
	browsertest.Need(t)
	page := strings.Replace(listBoxPage, `<p><button id="save"`,
		`<p id="colour-label">Colour</p>
<div id="colour" role="listbox" aria-labelledby="colour-label">
  <div role="option" id="red" aria-selected="false">red</div>
  <div role="option" id="blue" aria-selected="false">blue</div>
</div>
<script>
  document.querySelector('#colour').addEventListener('click', () => {
    for (const x of document.querySelectorAll('#colour [role=option]')) x.setAttribute('aria-selected', String(x.id === 'red'));
  });
</script>
<p><button id="save"`, 1)
	session, origin, project := headlessMCPOnPage(t, page)
	session.must(t, "trail_start", map[string]any{"app": "page", "url": origin + "/page.html"})

	snap := session.must(t, "browser_snapshot", map[string]any{})
	out, failed := session.call(t, "browser_select_option", map[string]any{"ref": mcpRef(t, snap, `listbox "Colour"`), "values": []string{"blue"}})
	if !failed || !strings.Contains(out, `ended with "red" selected`) || !strings.Contains(out, "nothing was recorded") {
		t.Fatalf("a list box whose page chose red instead of blue: failed %v: %s", failed, out)
	}
	snap = session.must(t, "browser_snapshot", map[string]any{})
	session.must(t, "browser_select_option", map[string]any{"ref": mcpRef(t, snap, `listbox "Vegetables"`), "values": []string{"carrots"}})
	snap = session.must(t, "browser_snapshot", map[string]any{})
	if out := session.must(t, "browser_click", map[string]any{"element": "Save", "ref": mcpRef(t, snap, `button "Save"`)}); !strings.Contains(out, "Saved") {
		t.Fatalf("clicking Save: %s", out)
	}

	saved := session.must(t, "trail_save", map[string]any{"title": "Choose a colour"})
	path := filepath.Join(project, "trails", "choose-a-colour.trail.yaml")
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
	want := "select {id: veg} = [carrots]\ntap {id: save}"
	if got := strings.Join(valueActions(tr), "\n"); got != want {
		t.Fatalf("the trail's actions are\n%s\nwant\n%s\n--- trail\n%s", got, want, src)
	}
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", origin, "--results", TempDir(t), path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the trail exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, src)
	}
}
