package replay

import (
	"testing"
)

// easingDialogPage opens a dialog that slides in over 4 s and, as
// Bootstrap's modal does, ignores a Cancel pressed while it is still
// moving. The slide eases out, so its last frames move the button by less
// than a pixel: only the running transition says it has not arrived.
const easingDialogPage = `<!doctype html><html lang="en"><title>Easing</title>
<style>
  #dialog { position: fixed; inset: 0; display: none; }
  #dialog.shown { display: block; }
  #box { margin: 80px auto; width: 300px; transform: translateY(-60px); transition: transform 4s cubic-bezier(0, 1, 0, 1); }
  #dialog.in #box { transform: none; }
</style>
<button id="open">Log out</button>
<p id="state">signed in</p>
<div id="dialog" role="dialog" aria-label="Ready to leave?">
  <div id="box"><p>Ready to leave?</p><button id="cancel">Cancel</button></div>
</div>
<script>
  const dialog = document.getElementById('dialog'), box = document.getElementById('box');
  let moving = false;
  document.getElementById('open').onclick = () => {
    dialog.classList.add('shown');
    moving = true;
    requestAnimationFrame(() => requestAnimationFrame(() => dialog.classList.add('in')));
  };
  box.addEventListener('transitionend', () => { moving = false; });
  document.getElementById('cancel').onclick = () => {
    if (moving) return;
    dialog.classList.remove('shown', 'in');
    document.getElementById('state').textContent = 'stayed';
  };
</script>`

const easingDialogTrail = `version: 1
trail: Stay signed in
app: easing
start: /
steps:
  - intent: Open the log-out dialog and cancel it
    actions:
      - tap: {selector: {role: button, name: Log out}}
      - tap: {selector: {role: button, name: Cancel}}
      - assertVisible: {selector: {text: stayed}}
`

// A tap waits for a transition around its target to end: a dialog easing
// in is not yet ready for a click, however still it looks.
func TestReplayWaitsForATransitionToEnd(t *testing.T) {
	t.Parallel()
	srv := servePage(t, easingDialogPage)
	res := replayOn(t, inlineTrail(t, easingDialogTrail), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}

// collapsePage has a menu toggle whose panel eases open and shut over 2 s
// and, as Bootstrap's collapse does, drops a click on the toggle while the
// panel still moves. The toggle itself never moves: only the transition of
// the panel it controls (aria-controls) says it is not ready.
const collapsePage = `<!doctype html><html lang="en"><title>Collapse</title>
<style>
  #panel { overflow: hidden; height: 60px; transition: height 2s ease; }
  #panel.shut { height: 0; }
  #panel.gone { display: none; }
</style>
<button id="toggle" aria-controls="panel" aria-expanded="true">Utilities</button>
<div id="panel"><a href="#colors">Colors</a></div>
<p>Below the menu</p>
<script>
  const toggle = document.getElementById('toggle'), panel = document.getElementById('panel');
  let moving = false;
  toggle.onclick = () => {
    if (moving) return;
    moving = true;
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    panel.addEventListener('transitionend', () => {
      moving = false;
      if (!open) panel.classList.add('gone');
    }, { once: true });
    if (open) {
      panel.classList.remove('gone');
      void panel.offsetHeight;
      panel.classList.remove('shut');
    } else {
      panel.classList.add('shut');
    }
  };
</script>`

const collapseTrail = `version: 1
trail: Shut and open the menu
app: collapse
start: /
steps:
  - intent: Shut the Utilities menu and open it again
    actions:
      - tap: {selector: {role: button, name: Utilities}}
      - tap: {selector: {role: button, name: Utilities}}
      - assertVisible: {selector: {role: link, name: Colors}}
`

// A tap on a toggle waits for the panel it controls to stop easing: the
// second tap on a menu toggle right after the first is dropped by the
// widget while the panel still moves.
func TestReplayWaitsForTheControlledPanel(t *testing.T) {
	t.Parallel()
	srv := servePage(t, collapsePage)
	res := replayOn(t, inlineTrail(t, collapseTrail), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}
