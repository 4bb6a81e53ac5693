package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
)

// An autocomplete field as Awesomplete's combobox works: its list shows
// every choice while the field is empty and the choices that hold what it
// holds; its status line ("No results found"), inside the field's label
// and so part of the field's name, is hidden when a list that was open
// closes, and stays as it is when no list was open.
const appendComboPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pick</title>
<style>input { width: 300px; }</style></head>
<body>
<label>Pick a language: <input autocomplete="off"><span id="status" role="status"></span></label>
<ul id="choices" hidden></ul>
<button id="next" type="button">Next</button>
<script>
const choices = ['CSS', 'HTML', 'SVG'];
const field = document.querySelector('label > input');
const list = document.querySelector('#choices');
const status = document.querySelector('#status');
let open = false;
const close = () => {
  if (!open) return;
  open = false;
  list.hidden = true;
  status.hidden = true;
};
field.addEventListener('input', () => {
  const v = field.value.toLowerCase();
  const hits = choices.filter((c) => c.toLowerCase().includes(v));
  list.innerHTML = hits.map((c) => '<li>' + c + '</li>').join('');
  if (hits.length === 0) {
    status.textContent = 'No results found';
    close();
    return;
  }
  open = true;
  list.hidden = false;
  status.hidden = false;
  status.textContent = hits.length + ' results found';
});
field.addEventListener('blur', close);
</script>
</body></html>`

// TestRecordTypingOnTheEndReplaysWithoutClearing: a person types a text
// that matches no choice into the autocomplete field, goes elsewhere,
// clicks the field again and types on the end of its text (Awesomplete
// walk seed 10). The list never opened, so the status line stayed shown
// and the field's name holds it. The trail says the second typing went on
// the end (append), and replay types the rest there: clearing the field
// first would open the list (every choice matches an empty field), the
// next letter would close it and hide the status line, and the field would
// not have the name the step ends with.
func TestRecordTypingOnTheEndReplaysWithoutClearing(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, appendComboPage, func(app context.Context) {
		clickCSS(t, app, "label > input")
		WaitFor[bool](t, app, `document.activeElement === document.querySelector('label > input')`)
		typeKeys(t, app, "Buy milk")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'No results found'`)
		clickCSS(t, app, "#next")
		WaitFor[bool](t, app, `document.activeElement.id === 'next'`)
		// The click at the field's middle puts the caret after its text.
		clickCSS(t, app, "label > input")
		WaitFor[bool](t, app, `document.activeElement === document.querySelector('label > input') && document.activeElement.selectionStart === 8`)
		typeKeys(t, app, "Zebra")
		WaitFor[bool](t, app, `document.querySelector('label > input').value === 'Buy milkZebra'`)
		clickCSS(t, app, "#next")
		WaitFor[bool](t, app, `document.activeElement.id === 'next' && !document.querySelector('#status').hidden && document.querySelector('#choices').hidden`)
	})
	var types []trail.TypeText
	for _, step := range rec.trail.Steps {
		for _, a := range step.Actions {
			if a, ok := a.(trail.TypeText); ok {
				types = append(types, a)
			}
		}
	}
	if len(types) != 2 {
		t.Fatalf("the trail types %d times, want 2 (Buy milk, then Zebra on its end)\n%s", len(types), rec.yaml)
	}
	if types[0].Text != "Buy milk" || types[0].Append {
		t.Errorf("first typing: text %q, append %v; want \"Buy milk\" typed into the empty field (no append)\n%s", types[0].Text, types[0].Append, rec.yaml)
	}
	if types[1].Text != "Buy milkZebra" || !types[1].Append {
		t.Errorf("second typing: text %q, append %v; want \"Buy milkZebra\" with append: true (typed on the end)\n%s", types[1].Text, types[1].Append, rec.yaml)
	}
	// What makes the clearing show: the field is found by its name, which
	// holds the status line.
	if !strings.Contains(types[1].Selector.Name, "No results found") {
		t.Errorf("second typing's selector %s: want the field named with its status line (No results found)\n%s", types[1].Selector, rec.yaml)
	}
	rec.replayGreen(t)
}
