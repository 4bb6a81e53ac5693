package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
)

// A list whose new-item field adds its text as the first item when the
// field loses the focus (its change event, as TodoMVC does), and draws the
// whole list again: every row is replaced and moves down one row. Below the
// list, a button that says how many items there are.
const blurListPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>List</title>
<style>li { height: 40px; } button { height: 30px; }</style></head>
<body>
<main id="app">
<label for="new-item">New item</label> <input id="new-item" autocomplete="off">
<ul id="items"></ul>
<button id="count" type="button">Count items</button>
<p id="said"></p>
</main>
<script>
const items = ['Buy milk', 'Call mum'];
const draw = () => {
  document.querySelector('#items').innerHTML = items.map((t) =>
    '<li><input type="checkbox" aria-label="Done: ' + t + '"> ' + t + '</li>').join('');
};
draw();
const field = document.querySelector('#new-item');
field.addEventListener('change', () => {
  if (!field.value) return;
  items.unshift(field.value);
  field.value = '';
  draw();
});
document.querySelector('#count').addEventListener('click', () => {
  document.querySelector('#said').textContent = items.length + ' items';
});
</script>
</body></html>`

// TestRecordPressThatCommitsTheField: a person types into a field that
// commits on blur, with no Enter, and presses the mouse on something else.
// The press takes the focus, the blur adds the item, and the list moves
// under the pointer before the mouse comes up: on a row's box (replaced,
// so the browser fires no click at all) and on the button below the list
// (moved down, so the click goes to what holds both). The trail acts on
// what the person pressed, each typing step ends with the screen from
// before that press (the field holding the text, the item not added yet),
// and replay, which presses the same element, makes the same blur and
// passes on the same page.
func TestRecordPressThatCommitsTheField(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, blurListPage, func(app context.Context) {
		clickCSS(t, app, "#new-item")
		WaitFor[bool](t, app, `document.activeElement.id === 'new-item'`)
		typeKeys(t, app, "hello")
		// The press on Buy milk's box: the blur draws the list again.
		clickCSS(t, app, `#items li:nth-child(1) input`)
		WaitFor[bool](t, app, `document.querySelectorAll('#items li').length === 3`)
		clickCSS(t, app, "#new-item")
		WaitFor[bool](t, app, `document.activeElement.id === 'new-item'`)
		typeKeys(t, app, "plan B")
		clickCSS(t, app, "#count")
		WaitFor[bool](t, app, `document.querySelectorAll('#items li').length === 4`)
	})

	// The steps in order: what each acts on.
	var acts []string
	for _, step := range rec.trail.Steps {
		for _, a := range step.Actions {
			if sel, ok := trail.ActionSelector(a); ok {
				acts = append(acts, string(a.Kind())+" "+sel.String())
			}
		}
	}
	joined := strings.Join(acts, "\n")
	boxAt, countAt := -1, -1
	for i, a := range acts {
		if strings.Contains(a, "Buy milk") && boxAt < 0 {
			boxAt = i
		}
		if strings.Contains(a, "Count items") || strings.Contains(a, "count") {
			countAt = i
		}
	}
	if boxAt < 0 {
		t.Errorf("no step acts on Buy milk's box, which the person pressed after typing hello\n%s\n%s", joined, rec.yaml)
	}
	if countAt < 0 {
		t.Errorf("no step acts on the Count items button, which the person pressed after typing plan B\n%s\n%s", joined, rec.yaml)
	}
	for _, a := range acts {
		if strings.Contains(a, "{id: app}") || strings.Contains(a, "{id: items}") {
			t.Errorf("a step acts on %s, which holds what the person pressed and is not it\n%s", a, rec.yaml)
		}
	}
	// Each typing step ends before its press: the field holds the text,
	// and the list does not show it yet.
	for n, step := range rec.trail.Steps {
		var text string
		for _, a := range step.Actions {
			if a, ok := a.(trail.TypeText); ok {
				text = a.Text
			}
		}
		if text == "" || step.End == nil {
			continue
		}
		for _, s := range step.End.Shows {
			if s.Text == text {
				t.Errorf("step %d (%s) ends showing %q as an item, which the press after it added\n%s", n+1, step.Intent, text, rec.yaml)
			}
		}
		holds := false
		for _, v := range step.End.Values {
			if v.Property == trail.EndPropertyValue && v.Selector.ID == "new-item" {
				holds = v.Want == text
				if !holds {
					t.Errorf("step %d (%s) ends with the field holding %q, want %q: the press after it emptied it\n%s", n+1, step.Intent, v.Want, text, rec.yaml)
				}
			}
		}
		if !holds {
			t.Errorf("step %d (%s) does not end with the field holding %q\n%s", n+1, step.Intent, text, rec.yaml)
		}
	}
	rec.replayGreen(t)
}
