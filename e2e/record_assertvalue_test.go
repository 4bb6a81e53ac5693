package e2e

import (
	"context"
	"strings"
	"testing"
)

const assertValuePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Profile</title></head>
<body>
<h1>Profile</h1>
<p><label for="nick">Nickname</label> <input id="nick"></p>
<p id="hint">Pick a nickname.</p>
<script>
  document.querySelector('#nick').addEventListener('change', (e) => {
    e.target.value = e.target.value.trim().toLowerCase();
  });
</script>
</body></html>`

// TestRecordAssertValue: the recording bar's Assert value, then a click on
// a field's label, records an assertValue of the value the field holds
// (which the page itself changed after typing), and a click on something
// that is no field adds nothing; the trail replays green.
func TestRecordAssertValue(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, assertValuePage, func(app context.Context) {
		clickCSS(t, app, "#nick")
		typeKeys(t, app, "  Ada ")
		clickCSS(t, app, "#hint") // the change event: the page lowercases and trims
		WaitFor[bool](t, app, `document.querySelector('#nick').value === 'ada'`)
		clickAX(t, app, "button", "Assert value")
		waitAX(t, app, "StaticText", "Click the field whose value must stay.")
		clickCSS(t, app, "h1") // no field: the pick stays on
		waitAX(t, app, "StaticText", "Click the field whose value must stay.")
		clickCSS(t, app, "label[for=nick]")
		waitAX(t, app, "StaticText", "Added: the field's value must stay.")
	})
	var got []string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			if a.Kind() == "assertValue" {
				got = append(got, s.Intent)
			}
		}
	}
	if len(got) != 1 || !strings.Contains(string(rec.yaml), "assertValue: {selector: {role: textbox, name: Nickname}, value: ada}") {
		t.Errorf("want one assertValue of ada on the Nickname field, got %q:\n%s", got, rec.yaml)
	}
	rec.replayGreen(t)
}
