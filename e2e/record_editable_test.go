package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trailpin/trailpin/recorder/trail"
)

// A tree editor as JSON editors build one: each row a key and its value,
// the value text edited in place (contenteditable, no label but the row's
// key), and a summary that follows the values.
const treeEditorPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Person</title></head>
<body>
<h1>Person</h1>
<table role="tree" aria-label="Person">
  <tr role="treeitem"><td class="field">firstName</td><td>:</td><td><div class="value" contenteditable="true" spellcheck="false">John</div></td></tr>
  <tr role="treeitem"><td class="field">lastName</td><td>:</td><td><div class="value" contenteditable="true" spellcheck="false">Smith</div></td></tr>
  <tr role="treeitem"><td class="field">age</td><td>:</td><td><div class="value" contenteditable="true" spellcheck="false">100</div></td></tr>
</table>
<p>Summary: <output id="summary">John Smith, 100</output></p>
<script>
  const values = document.querySelectorAll('.value');
  for (const v of values) {
    v.addEventListener('input', () => {
      document.querySelector('#summary').textContent =
        values[0].textContent + ' ' + values[1].textContent + ', ' + values[2].textContent;
    });
  }
</script>
</body></html>`

// TestRecordTextEditedInPlace: a value of a tree editor edited in place
// (its text clicked, Control+A, the new text typed) is recorded as typing
// into a field found by what labels it, the row's key, never by the text
// it held before; the step ends with its new text; and the trail replays
// green, replacing the text rather than typing into its middle.
func TestRecordTextEditedInPlace(t *testing.T) {
	t.Parallel()
	const first = `document.querySelectorAll('.value')[0]`
	const age = `document.querySelectorAll('.value')[2]`
	selectAll := func(app context.Context) {
		withControl(t, app, func() {
			if err := chromedp.Do(app, chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
				t.Fatal(err)
			}
		})
	}
	rec := recordPage(t, treeEditorPage, func(app context.Context) {
		clickShadow(t, app, first)
		selectAll(app)
		typeKeys(t, app, "Ada")
		WaitFor[bool](t, app, first+`.textContent === 'Ada'`)
		clickShadow(t, app, age)
		selectAll(app)
		typeKeys(t, app, "36")
		typeKeys(t, app, kb.Tab)
		WaitFor[bool](t, app, `document.querySelector('#summary').textContent === 'Ada Smith, 36'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := valueActions(rec.trail)
	// One typing each, the click and the select-all before it taken in.
	var typed []string
	for _, a := range got {
		if strings.HasPrefix(a, "type ") {
			typed = append(typed, a)
		} else if a != "press Tab" {
			t.Errorf("an action besides the two typings and the Tab: %q\n--- trail\n%s", a, rec.yaml)
		}
	}
	if len(typed) != 2 || !strings.Contains(typed[0], "firstName") || !strings.Contains(typed[1], "age") {
		t.Errorf("the typings do not find each value by its row's key: %q\n--- trail\n%s", typed, rec.yaml)
	}
	for _, old := range []string{"John", "100"} {
		if strings.Contains(strings.Join(typed, "\n"), old) {
			t.Errorf("a typing finds the edited value by the text it held before (%q):\n%s\n--- trail\n%s", old, typed, rec.yaml)
		}
	}
	rec.replayGreen(t)
}

// A key edited in place as JSONEditor edits one: Enter typed into it makes
// a new line (the browser's <div>), and when the focus leaves it the page
// writes its text anew with each line break as the two characters "\n" (a
// JSON key shown escaped).
const escapingEditorPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Keys</title></head>
<body>
<h1>Keys</h1>
<button type="button" id="save">Save</button>
<table aria-label="Person">
  <tr><td><div class="field" contenteditable="true" spellcheck="false">available</div></td><td>:</td><td>true</td></tr>
</table>
<p>Saved: <output id="saved">nothing</output></p>
<script>
  const field = document.querySelector('.field');
  const lines = (el) => el.innerText.replace(/\n$/, '');
  field.addEventListener('blur', () => {
    field.textContent = JSON.stringify(lines(field)).slice(1, -1);
  });
  document.querySelector('#save').addEventListener('click', () => {
    document.querySelector('#saved').textContent = field.textContent;
  });
</script>
</body></html>`

// TestRecordLineTypedInPlace: a line break typed into text edited in place
// is part of what was typed ("avail42\nable", which replay types with
// Enter), read when the next press ends the typing, not the text the page
// writes once the focus left (the escaped "avail42\\nable") nor the lines
// run together ("avail42able"): the typing step ends with the new line
// shown, and the trail replays green (walk seeds 1, 2 and 4 of JSONEditor,
// docs/recording.md, Random walks on the real apps).
func TestRecordLineTypedInPlace(t *testing.T) {
	t.Parallel()
	const field = `document.querySelector('.field')`
	rec := recordPage(t, escapingEditorPage, func(app context.Context) {
		// A click into the word, on the left of its sixth letter: the caret
		// goes after "avail".
		p := WaitFor[*struct{ X, Y float64 }](t, app, `(() => { const r = document.createRange(); r.setStart(`+field+`.firstChild, 5);
			r.setEnd(`+field+`.firstChild, 6); const q = r.getBoundingClientRect(); return {x: q.left + 1, y: q.top + q.height / 2}; })()`)
		mouseClick(t, app, p.X, p.Y)
		WaitFor[bool](t, app, `document.activeElement === `+field+` && getSelection().anchorOffset === 5`)
		typeKeys(t, app, "42\r")
		WaitFor[bool](t, app, field+`.innerText === 'avail42\nable'`)
		clickShadow(t, app, `document.querySelector('#save')`)
		WaitFor[bool](t, app, `document.querySelector('#saved').textContent === 'avail42\\nable'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	var typed []string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			if ty, ok := a.(trail.TypeText); ok {
				typed = append(typed, ty.Text)
			}
		}
	}
	if len(typed) != 1 || typed[0] != "avail42\nable" {
		t.Errorf("typed %q, want one typing of %q\n--- trail\n%s", typed, "avail42\nable", rec.yaml)
	}
	rec.replayGreen(t)
}
