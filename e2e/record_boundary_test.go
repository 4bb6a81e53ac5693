package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
)

// A list whose new-item field adds its text as an item on Enter and is
// empty again; each item has a box that marks it done, and a note field
// beside the list.
const boundaryListPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>List</title></head>
<body>
<h1>Shopping</h1>
<label for="new-item">New item</label> <input id="new-item" autocomplete="off">
<ul id="items"></ul>
<p id="left">0 left</p>
<label for="note">Note</label> <input id="note" autocomplete="off">
<script>
const field = document.querySelector('#new-item');
const left = () => {
  document.querySelector('#left').textContent =
    document.querySelectorAll('#items input:not(:checked)').length + ' left';
};
field.addEventListener('keydown', (e) => {
  if (e.key !== 'Enter' || !field.value) return;
  const li = document.createElement('li');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.setAttribute('aria-label', 'Done: ' + field.value);
  box.addEventListener('change', left);
  li.append(box, ' ' + field.value);
  document.querySelector('#items').append(li);
  field.value = '';
  left();
});
</script>
</body></html>`

// insertText puts text into the focused field as a script's or an agent's
// input does (Input.insertText, as Playwright's fill and the agent's type):
// no key goes down, only beforeinput and input reach the page.
func insertText(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	actx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	if _, err := chromedp.Call(actx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		t.Fatalf("inserting %q: %v", text, err)
	}
}

// TestRecordStepEndAtItsBoundary: items added to a list as a script or an
// agent adds them, each item's text put into the field and Enter pressed,
// the next item's text following at once, with no wait for the page: each
// step ends with the screen at its boundary, before the next item's text
// went in. No step's end holds a value the next step typed (the field is
// empty after each Enter), the box a click checked is the end of that
// click's step, and the trail replays green on the same page.
func TestRecordStepEndAtItsBoundary(t *testing.T) {
	t.Parallel()
	items := []string{"Buy milk", "Walk the dog", "Call mum", "Pay rent"}
	rec := recordPage(t, boundaryListPage, func(app context.Context) {
		clickCSS(t, app, "#new-item")
		WaitFor[bool](t, app, `document.activeElement.id === 'new-item'`)
		// Nothing waits between one item's Enter and the next item's text.
		insertText(t, app, items[0])
		typeKeys(t, app, "\r")
		insertText(t, app, items[1])
		typeKeys(t, app, "\r")
		typeKeys(t, app, items[2]+"\r") // key by key, at once too
		insertText(t, app, items[3])
		typeKeys(t, app, "\r")
		WaitFor[bool](t, app, `document.querySelectorAll('#items li').length === 4`)
		// A box checked, and the note typed into right after the click.
		clickCSS(t, app, `#items li:nth-child(2) input`)
		clickCSS(t, app, "#note")
		insertText(t, app, "fragile")
		typeKeys(t, app, "\t")
		WaitFor[bool](t, app, `document.activeElement.id !== 'note' && document.querySelector('#note').value === 'fragile'`)
	})

	typed := map[string]string{} // field id -> what the step typed into it
	var typedItems []string
	for n, step := range rec.trail.Steps {
		clear(typed)
		var tapped []string
		for _, a := range step.Actions {
			switch a := a.(type) {
			case trail.TypeText:
				typed[a.Selector.ID] = a.Text
				if a.Selector.ID == "new-item" {
					typedItems = append(typedItems, a.Text)
				}
			case trail.Tap:
				tapped = append(tapped, a.Selector.String())
			}
		}
		if step.End == nil {
			continue
		}
		for _, v := range step.End.Values {
			if v.Property != trail.EndPropertyValue {
				continue
			}
			want, own := typed[v.Selector.ID]
			switch {
			case v.Selector.ID == "new-item" && v.Want != "":
				t.Errorf("step %d (%s) ends with the new-item field holding %q: the field is empty after each Enter, and the text is what a later step typed\n%s", n+1, step.Intent, v.Want, rec.yaml)
			case v.Selector.ID != "new-item" && (!own || v.Want != want):
				t.Errorf("step %d (%s) ends with %s holding %q, which it did not type (tapped %v)\n%s", n+1, step.Intent, v.Selector, v.Want, tapped, rec.yaml)
			}
		}
	}
	if strings.Join(typedItems, "|") != strings.Join(items, "|") {
		t.Errorf("the trail types the items %q, want %q\n%s", typedItems, items, rec.yaml)
	}
	// The click that checked the box ends with it checked, not the step
	// after it.
	checkedAt := -1
	for n, step := range rec.trail.Steps {
		if step.End == nil {
			continue
		}
		for _, v := range step.End.Values {
			if v.Property == trail.StateChecked && v.Want == "true" {
				checkedAt = n
			}
		}
	}
	if checkedAt < 0 || !strings.Contains(rec.trail.Steps[checkedAt].Intent, "Walk the dog") {
		t.Errorf("the box checked is the end of step %d, want the step of the click on it\n%s", checkedAt+1, rec.yaml)
	}
	rec.replayGreen(t)
}
