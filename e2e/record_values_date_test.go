package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

const datePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Booking</title></head>
<body>
<h1>Booking</h1>
<p><label for="day">Arrival</label> <input type="date" id="day" value="2026-01-15"></p>
<p><label for="at">Time</label> <input type="time" id="at" value="09:00"></p>
<p><label for="tint">Colour</label> <input type="color" id="tint" value="#000000"></p>
<p><button id="book" type="button">Book</button></p>
<p id="status" role="status"></p>
<script>
  document.querySelector('#book').addEventListener('click', () => {
    document.querySelector('#status').textContent = 'Booked for ' + document.querySelector('#day').value;
  });
</script>
</body></html>`

// TestRecordDateAndTimeSetTheirValues: a date and a time field changed by
// keys, a segment at a time as a person does (the field's own up and down
// keys, and digits typed over a segment), are each recorded as one set of
// the value they ended at, with no key press or typing of their own, and
// the trail replays green. On a page whose date field cannot reach the
// value (it is read-only) or puts another value back, the replay fails as
// action-failed with the value expected and the value shown.
//
// The colour input is left out: its only control is the browser's picker,
// which trusted input cannot reach headless; replay's set of a colour is
// covered by replay's own tests of the value setter.
func TestRecordDateAndTimeSetTheirValues(t *testing.T) {
	t.Parallel()
	var day, at string
	rec := recordPage(t, datePage, func(app context.Context) {
		clickCSS(t, app, "#day")
		// The click lands on one of the date's segments; ArrowUp steps it.
		typeKeys(t, app, kb.ArrowUp)
		typeKeys(t, app, kb.ArrowUp)
		day = WaitFor[string](t, app, `(() => { const v = document.querySelector('#day').value; return v !== '2026-01-15' ? v : ''; })()`)
		clickCSS(t, app, "#at")
		typeKeys(t, app, kb.ArrowDown)
		at = WaitFor[string](t, app, `(() => { const v = document.querySelector('#at').value; return v !== '09:00' ? v : ''; })()`)
		clickCSS(t, app, "#book")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent.startsWith('Booked')`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := valueActions(rec.trail)
	want := []string{
		"set {id: day} = " + day,
		"set {id: at} = " + at,
		"tap {id: book}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	for _, s := range rec.trail.Steps {
		if strings.HasPrefix(s.Intent, "Set Arrival") && (s.End == nil || len(s.End.Values) != 1 || s.End.Values[0].Want != day) {
			t.Errorf("the step that set Arrival does not end with its value %s:\n%s", day, rec.yaml)
		}
	}
	rec.replayGreen(t)

	readOnly := strings.Replace(datePage, `value="2026-01-15"`, `value="2026-01-15" readonly`, 1)
	rec.replayRefused(t, readOnly, "action-failed", "is read-only", "- Expected: `editable (not read-only)`")
	putBack := strings.Replace(datePage, `<script>`, `<script>
  document.querySelector('#day').addEventListener('input', (e) => { e.target.value = '2026-01-15'; });`, 1)
	rec.replayRefused(t, putBack, "action-failed", `did not take the value "`+day+`": it shows "2026-01-15"`)
}
