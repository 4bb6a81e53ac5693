package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A row's actions menu, as JSONEditor opens one: it lies over the Save
// button and closes on any press outside it (a mousedown listener on the
// document), a press on the drop-down too.
const menuOverSavePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Person</title>
<style>
  body { position: relative; margin: 0; height: 400px; }
  #actions { position: absolute; top: 10px; left: 10px; }
  #save { position: absolute; top: 70px; left: 40px; }
  #menu { position: absolute; top: 40px; left: 10px; width: 260px; height: 100px; background: #eee; border: 1px solid #888; }
  #row { position: absolute; top: 180px; left: 10px; margin: 0; }
  #result { position: absolute; top: 240px; left: 10px; margin: 0; }
</style></head>
<body>
<button type="button" id="actions">Actions</button>
<button type="button" id="save">Save</button>
<div id="menu" role="menu" aria-label="Row actions" hidden><button type="button" role="menuitem">Remove</button></div>
<p id="row"><label for="gender">Gender</label> <select id="gender"><option>female</option><option>male</option></select></p>
<p id="result">Saved: <output id="saved">nothing</output></p>
<script>
  const menu = document.querySelector('#menu');
  document.querySelector('#actions').addEventListener('click', () => { menu.hidden = false; });
  document.addEventListener('mousedown', (e) => {
    if (!menu.hidden && !menu.contains(e.target) && e.target.id !== 'actions') menu.hidden = true;
  });
  document.querySelector('#save').addEventListener('click', () => {
    document.querySelector('#saved').textContent = document.querySelector('#gender').value;
  });
</script>
</body></html>`

// TestRecordDropDownPressThatChoosesNothing: a press on a drop-down whose
// list the person shuts without a choice changed the page all the same (the
// app's menu, open over the Save button, closed on it). It is recorded as a
// tap on the drop-down, which replay presses without opening the browser's
// list, so the menu closes at replay too and Save can be tapped (walk seed 6
// of JSONEditor, docs/recording.md, Random walks on the real apps).
func TestRecordDropDownPressThatChoosesNothing(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, menuOverSavePage, func(app context.Context) {
		clickCSS(t, app, "#actions")
		WaitFor[bool](t, app, `!document.querySelector('#menu').hidden`)
		clickCSS(t, app, "#gender")
		WaitFor[bool](t, app, `document.querySelector('#menu').hidden && document.querySelector('#gender').matches(':open')`)
		typeKeys(t, app, kbEscape) // shuts the list: nothing chosen
		WaitFor[bool](t, app, `!document.querySelector('#gender').matches(':open')`)
		clickCSS(t, app, "#save")
		WaitFor[bool](t, app, `document.querySelector('#saved').textContent === 'female'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := rec.actions(t)
	want := []string{"tap {id: actions}", "tap {id: gender}", "tap {id: save}"}
	if !slices.Equal(got, want) {
		t.Errorf("actions %q, want %q\n--- trail\n%s", got, want, rec.yaml)
	}
	rec.replayGreen(t)
	// The browser's list stays shut at replay: on a page that takes Save
	// away should it ever open, the trail replays green all the same.
	probe := strings.Replace(menuOverSavePage, "</script>", `
  const watch = () => {
    if (document.querySelector('#gender').matches(':open')) document.querySelector('#save').remove();
    requestAnimationFrame(watch);
  };
  watch();
</script>`, 1)
	rec.replayGreenOn(t, probe)
}

// replayGreenOn serves variant in place of the recorded page and fails the
// test unless the trail replays green on it.
func (p *pageRecording) replayGreenOn(t *testing.T, variant string) {
	t.Helper()
	dir := TempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(variant), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, dir)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", srv.URL, "--results", TempDir(t), p.path)
	if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
		t.Fatalf("host replay of the recorded trail on a variant of the page exited %d:\n%s\n%s\n--- trail\n%s", run.ExitCode, run.Stdout, run.Stderr, p.yaml)
	}
}
