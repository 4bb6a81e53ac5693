package replay

import (
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
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

// rowPage has a button in a row beside a space that grows, by a linear
// width transition of the space, over dur. where says where the space
// is: after the button (the button's corner stays and only its far edge
// comes in, as when a row's hover effect makes room for an icon beside
// it), or before it (the button is pushed along). The transition starts
// while the page loads (the reads of offsetWidth make the browser start
// it there and then), so it runs before replay first looks, however busy
// the machine. The click writes whether it came while the space still
// grew.
func rowPage(where, dur string) string {
	space := `<span id="space" style="display:block; width:0; transition:width ` + dur + ` linear"></span>`
	button := `<button id="go" style="flex:1">Go</button>`
	row := button + space
	if where == "before" {
		row = space + button
	}
	return `<!doctype html><html lang="en"><title>Row</title>
<div style="display:flex; width:600px">` + row + `</div>
<p id="out"></p>
<script>
  const space = document.getElementById('space');
  let growing = true;
  space.addEventListener('transitionend', () => { growing = false; });
  void space.offsetWidth;
  space.style.width = '400px';
  void space.offsetWidth;
  document.getElementById('go').onclick = () => {
    document.getElementById('out').textContent = growing ? 'clicked while it grew' : 'clicked at rest';
  };
</script>`
}

func rowTrail(want string) string {
	return `version: 1
trail: Press Go
app: row
start: /
steps:
  - intent: Press Go
    actions:
      - tap: {selector: {role: button, name: Go}}
      - assertVisible: {selector: {text: ` + want + `}}
`
}

// A target pushed along by its neighbour is moving, and the tap waits for
// it to come to rest; a target whose corner stays while its far edge
// comes in is not: the tap goes at once, well before the neighbour's
// 60 s transition ends (waiting for it would run out of time).
func TestReplayTellsAMovingTargetFromOneThatResizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ where, dur, want string }{
		{"before", "1.5s", "clicked at rest"},
		{"after", "60s", "clicked while it grew"},
	} {
		t.Run("space "+c.where, func(t *testing.T) {
			t.Parallel()
			srv := servePage(t, rowPage(c.where, c.dur))
			res := replayOn(t, inlineTrail(t, rowTrail(c.want)), srv.URL, Options{})
			if res.Status != StatusPassed {
				t.Fatalf("%s", explain(res))
			}
		})
	}
}

// moved tells a box that moved from one that only grew or shrank at its
// far edges.
func TestMoved(t *testing.T) {
	box := func(x, y, w, h float64) screen.Box { return screen.Box{X: x, Y: y, Width: w, Height: h} }
	for _, c := range []struct {
		name string
		a, b screen.Box
		want bool
	}{
		{"still", box(10, 20, 100, 30), box(10, 20, 100, 30), false},
		{"far edge comes in", box(26, 386, 1196, 28), box(26, 386, 1165, 28), false},
		{"less than a pixel along", box(650.47, 492, 88, 30), box(650.84, 492, 88, 30), false},
		{"a pixel along", box(10, 20, 100, 30), box(11, 20, 100, 30), true},
		{"down", box(714, 163.4, 76, 38), box(714, 170.1, 76, 38), true},
		{"grew past its middle", box(0, 0, 10, 10), box(0, 0, 40, 10), true},
	} {
		if got := moved(c.a, c.b); got != c.want {
			t.Errorf("%s: moved(%v, %v) = %v, want %v", c.name, c.a, c.b, got, c.want)
		}
	}
}

// shadePage has a button whose shade and shadow ease in over 60 s, from
// while the page loads (as rowPage's), as a button's hover style does
// under a pointer that rests on it; a transition that only repaints holds
// no click.
const shadePage = `<!doctype html><html lang="en"><title>Shade</title>
<style>
  #go { transition: background-color 60s, box-shadow 60s, border-color 60s, color 60s; }
  #go.lit { background-color: #036; box-shadow: 0 0 8px #000; border-color: #f00; color: #fff; }
</style>
<button id="go">Go</button>
<p id="out"></p>
<script>
  const go = document.getElementById('go');
  void getComputedStyle(go).backgroundColor;
  go.classList.add('lit');
  void getComputedStyle(go).backgroundColor;
  go.onclick = () => {
    const running = document.getAnimations().some((a) => a.playState === 'running');
    document.getElementById('out').textContent = running ? 'clicked while it grew' : 'clicked at rest';
  };
</script>`

// A tap goes at once on a target whose transitions only repaint it (the
// 60 s shade would run the wait out of time).
func TestReplayTapsThroughAShadeEasingIn(t *testing.T) {
	t.Parallel()
	srv := servePage(t, shadePage)
	res := replayOn(t, inlineTrail(t, rowTrail("clicked while it grew")), srv.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("%s", explain(res))
	}
}
