package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trailpin/trailpin/recorder/trail"
)

// A list filtered by a search field as it changes; Escape in a search
// field clears it (the browser's own action of the key), and the whole
// list shows again.
const escapeSearchPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Staff</title></head>
<body>
<label for="q">Search:</label> <input id="q" type="search" autocomplete="off">
<ul id="staff"><li>Airi Satou</li><li>Ashton Cox</li><li>Cedric Kelly</li></ul>
<p id="none" hidden>No matching records found</p>
<button id="next" type="button">Next page</button>
<script>
const q = document.querySelector('#q');
q.addEventListener('input', () => {
  let shown = 0;
  for (const li of document.querySelectorAll('#staff li')) {
    li.hidden = !li.textContent.toLowerCase().includes(q.value.toLowerCase());
    if (!li.hidden) shown++;
  }
  document.querySelector('#none').hidden = shown > 0;
});
</script>
</body></html>`

// TestRecordEscapeClearsSearch: text typed into a search field, then
// Escape, which clears the field and shows every row again (SB Admin 2's
// DataTables search, walk seed 13). The clearing is what the press did: no
// step types an empty text, the step that presses Escape ends with the
// field empty, and the trail replays green.
func TestRecordEscapeClearsSearch(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, escapeSearchPage, func(app context.Context) {
		clickCSS(t, app, "#q")
		WaitFor[bool](t, app, `document.activeElement.id === 'q'`)
		typeKeys(t, app, "Buy milk")
		WaitFor[bool](t, app, `!document.querySelector('#none').hidden`)
		ctx, cancel := context.WithTimeout(app, WaitTimeout)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
			t.Fatalf("pressing Escape: %v", err)
		}
		WaitFor[bool](t, app, `document.querySelector('#q').value === '' && document.querySelector('#none').hidden`)
		clickCSS(t, app, "#next")
	})
	for n, step := range rec.trail.Steps {
		escaped := false
		for _, a := range step.Actions {
			if a, ok := a.(trail.TypeText); ok && a.Text == "" {
				t.Errorf("step %d (%s) types an empty text: the clearing was Escape's own action\n%s", n+1, step.Intent, rec.yaml)
			}
			if a, ok := a.(trail.Press); ok && a.Key == "Escape" {
				escaped = true
			}
		}
		if !escaped || step.End == nil {
			continue
		}
		for _, s := range step.End.Shows {
			if s.Text == "No matching records found" {
				t.Errorf("step %d (%s) ends showing %q, which Escape took away\n%s", n+1, step.Intent, s.Text, rec.yaml)
			}
		}
		for _, v := range step.End.Values {
			if v.Property == trail.EndPropertyValue && v.Want != "" {
				t.Errorf("step %d (%s) ends with the field holding %q, which Escape cleared\n%s", n+1, step.Intent, v.Want, rec.yaml)
			}
		}
	}
	rec.replayGreen(t)
}
