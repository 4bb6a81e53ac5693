package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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
