package replay

import (
	"strings"
	"testing"
	"time"
)

// heldPage has a checkbox whose handler does something later (later says
// how): with back, it puts the box back unchecked (a controlled input
// re-rendered from its state, a validation that refuses the setting);
// without, it only says "saved".
func heldPage(later string, back bool) string {
	then := `document.getElementById('out').textContent = 'saved';`
	if back {
		then = `box.checked = false;`
	}
	return `<!doctype html><html lang="en"><title>Held</title>
<label><input type="checkbox" id="box"> Remember me</label>
<p id="out"></p>
<script>
  const box = document.getElementById('box');
  const later = ` + later + `;
  box.addEventListener('change', () => later(() => { ` + then + ` }));
</script>`
}

const heldTrail = `version: 1
trail: Remember me
app: held
start: /
steps:
  - intent: Check Remember me
    actions:
      - check: {selector: {role: checkbox, name: Remember me}}
    end:
      values:
        - selector: {role: checkbox, name: Remember me}
          checked: true
`

// A step's end values hold only when what the step's actions set off
// has run: a box the page unchecks again on its next frame, or from a
// timer of 300 ms its handler set, fails the step (a look 100 ms after
// the check passed the timer's); a box the page leaves checked passes.
func TestEndValuesHoldPastTheStepsTimers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, later string
		back        bool
	}{
		{"put back by a timer", `(fn) => setTimeout(fn, 300)`, true},
		{"put back on the next frame", `(fn) => requestAnimationFrame(fn)`, true},
		{"left checked", `(fn) => setTimeout(fn, 300)`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := servePage(t, heldPage(c.later, c.back))
			res := replayOn(t, inlineTrail(t, heldTrail), srv.URL, Options{ActionTimeout: 3 * time.Second})
			if !c.back {
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
				return
			}
			if res.Status != StatusFailed {
				t.Fatalf("the page put the box back and the step passed:\n%s", explain(res))
			}
			if msg := explain(res); !strings.Contains(msg, "Remember me") || !strings.Contains(msg, "checked") {
				t.Errorf("the failure does not name the box that did not stay checked:\n%s", msg)
			}
		})
	}
}
