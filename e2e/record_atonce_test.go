package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A search box as JSONEditor's works: it searches 200 ms after the last
// input, and Enter goes to the results of the search that has run,
// unfolding the group that holds them; Collapse folds it again.
const atOnceSearchPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Find</title></head>
<body>
<label>Search <input id="search" autocomplete="off"></label> <span id="count"></span>
<button id="collapse" type="button">Collapse</button>
<div role="row">Garden {3}</div>
<div id="items" hidden><div role="row">planet</div><div role="row">plant</div><div role="row">zebra</div></div>
<script>
const names = ['planet', 'plant', 'zebra'];
const search = document.querySelector('#search');
const items = document.querySelector('#items');
const count = document.querySelector('#count');
let results = [], timer;
search.addEventListener('input', () => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    const v = search.value.toLowerCase();
    results = v ? names.filter((n) => n.includes(v)) : [];
    count.textContent = results.length + ' results';
  }, 200);
});
search.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && results.length) items.hidden = false;
});
document.querySelector('#collapse').addEventListener('click', () => { items.hidden = true; });
</script>
</body></html>`

// keyboardType types text key by key as a keyboard does and as replay
// types ("\r" is Enter), the walk's keyboard (e2e/realapps_walk_test.go).
func keyboardType(t *testing.T, app context.Context, text string) {
	t.Helper()
	reached := false
	k := browser.Keyboard{Target: func() (*chromedp.Target, error) {
		if c := chromedp.FromContext(app); c != nil && c.Target != nil {
			return c.Target, nil
		}
		return nil, fmt.Errorf("the tab has no target")
	}, Reached: &reached}
	for _, r := range text {
		ctx, cancel := context.WithTimeout(app, WaitTimeout)
		err := k.TypeText(ctx, string(r))
		cancel()
		if err != nil {
			t.Fatalf("typing %q of %q: %v", r, text, err)
		}
	}
}

// TestRecordKeyPressedAtOnceAfterTyping: a person types into a search box
// that searches a moment after the last key, waits for the search and
// presses Enter, which unfolds the group of its results; folds it; then
// types one more letter on the end and presses Enter at once, before the
// new search ran: that Enter goes to the old results and unfolds the group
// again (JSONEditor's walk seed 3 at 60 actions, docs/recording.md). The
// second Enter is recorded as pressed at once (atOnce), the first not, and
// replay presses each so: waiting after the second typing, as it waits
// after the first, would let the new search (no results) run first, and
// the group would stay folded.
func TestRecordKeyPressedAtOnceAfterTyping(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, atOnceSearchPage, func(app context.Context) {
		clickCSS(t, app, "#search")
		WaitFor[bool](t, app, `document.activeElement.id === 'search'`)
		keyboardType(t, app, "pla")
		WaitFor[bool](t, app, `document.querySelector('#count').textContent === '2 results'`)
		keyboardType(t, app, "\r")
		WaitFor[bool](t, app, `!document.querySelector('#items').hidden`)
		clickCSS(t, app, "#collapse")
		WaitFor[bool](t, app, `document.querySelector('#items').hidden`)
		// The click at the field's middle puts the caret after its text.
		clickCSS(t, app, "#search")
		WaitFor[bool](t, app, `document.activeElement.id === 'search' && document.activeElement.selectionStart === 3`)
		keyboardType(t, app, "z\r")
		WaitFor[bool](t, app, `document.querySelector('#count').textContent === '0 results' && !document.querySelector('#items').hidden`)
	})
	var presses []trail.Press
	for _, step := range rec.trail.Steps {
		for _, a := range step.Actions {
			if p, ok := a.(trail.Press); ok {
				presses = append(presses, p)
			}
		}
	}
	if len(presses) != 2 || presses[0].Key != "Enter" || presses[1].Key != "Enter" {
		t.Fatalf("the trail presses %v, want Enter twice\n%s", presses, rec.yaml)
	}
	if presses[0].AtOnce {
		t.Errorf("the first Enter, pressed once the search had run, is recorded atOnce\n%s", rec.yaml)
	}
	if !presses[1].AtOnce {
		t.Errorf("the second Enter, pressed right after the letter, is not recorded atOnce\n%s", rec.yaml)
	}
	rec.replayGreen(t)
}
