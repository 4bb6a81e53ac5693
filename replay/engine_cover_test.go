package replay

import (
	"strings"
	"testing"
	"time"
)

// popoverPage has a wide Rename button whose middle an app's pop-over
// covers, leaving its ends free, as an editor's row menu open over a key
// does. The pop-over closes on any press outside it. The Delete button lies
// wholly under a banner that never goes.
const popoverPage = `<!doctype html><html lang="en"><title>Pop-over</title>
<style>
  body { font: 16px sans-serif; margin: 40px; }
  #rename { width: 320px; height: 40px; }
  #menu { position: absolute; left: 150px; top: 30px; width: 140px; height: 80px; background: #eee; }
  #notice { position: relative; width: 240px; height: 60px; margin-top: 60px; }
  #delete { position: absolute; left: 20px; top: 10px; width: 120px; height: 30px; }
  #banner { position: absolute; inset: 0; background: #fdd; }
</style>
<p><button id="rename" onclick="say('renamed')">Rename firstName</button></p>
<div id="menu" role="menu" aria-label="Row actions"><div role="menuitem">Duplicate</div></div>
<div id="notice"><button id="delete" onclick="say('deleted')">Delete</button><div id="banner">Maintenance tonight</div></div>
<p id="log"></p>
<script>
  function say(s) { document.getElementById('log').textContent = s; }
  document.addEventListener('mousedown', (e) => {
    const menu = document.getElementById('menu');
    if (menu && !menu.contains(e.target)) menu.remove();
  });
</script>`

// A tap whose target's middle is covered lands on the part of it a person
// sees (docs/trail-format.md, "Where an action lands"): the press closes the
// pop-over and the button takes the click, as it did at the recording. A
// target covered whole still waits and fails as covered.
func TestReplayTapLandsOnTheFreePartOfACoveredTarget(t *testing.T) {
	t.Parallel()
	srv := servePage(t, popoverPage)

	free := replayOn(t, inlineTrail(t, `version: 1
trail: Rename beside the menu
app: popover
start: /
steps:
  - intent: Rename the key while its row menu is open
    actions:
      - tap: {selector: {role: button, name: Rename firstName}}
      - assertVisible: {selector: {text: renamed}}
      - assertNotVisible: {text: Duplicate}
`), srv.URL, Options{})
	if free.Status != StatusPassed {
		t.Fatalf("a tap on a button whose middle a pop-over covers: %s", explain(free))
	}

	covered := replayOn(t, inlineTrail(t, `version: 1
trail: Delete under the banner
app: popover
start: /
steps:
  - intent: Delete
    actions:
      - tap: {selector: {role: button, name: Delete}}
`), srv.URL, Options{ActionTimeout: 2 * time.Second})
	if covered.Status != StatusFailed {
		t.Fatalf("a tap on a button covered whole: want failed, got %s", explain(covered))
	}
	if msg := explain(covered); !strings.Contains(msg, `covered by`) || !strings.Contains(msg, "Maintenance tonight") {
		t.Fatalf("a tap on a button covered whole should fail as covered by the banner: %s", msg)
	}
}
