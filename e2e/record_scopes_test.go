package e2e

import (
	"context"
	"strings"
	"testing"
)

// repeatedFormsPage is a component gallery in small: two forms with the
// same field groups, one under a heading beside it, one holding its heading
// and a fieldset, and a section under its heading with a box named like the
// forms' ones.
const repeatedFormsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Forms</title></head>
<body>
<h1>Forms</h1>
<div class="grid">
  <div class="left">
    <h2>Horizontal</h2>
    <form class="horizontal">
      <div class="group"><label for="h-text">Text</label> <input id="h-text"></div>
      <div class="group"><span>Radio</span>
        <label><input type="radio" name="h-r"> Option 01</label><br>
        <label><input type="radio" name="h-r"> Option 02</label></div>
      <div class="group"><span>Checkbox</span>
        <label><input type="checkbox"> A</label> <label><input type="checkbox"> B</label></div>
    </form>
    <h2>More</h2>
    <div class="more"><h3>Extras</h3><label><input type="checkbox"> B</label></div>
  </div>
  <form class="stacked">
    <h2>Stacked</h2>
    <fieldset><legend>Legend</legend>
      <div class="group"><label for="s-text">Text</label> <input id="s-text"></div>
      <div class="group"><span>Radio</span>
        <label><input type="radio" name="s-r"> Option 01</label><br>
        <label><input type="radio" name="s-r"> Option 02</label></div>
      <div class="group"><span>Checkbox</span>
        <label><input type="checkbox"> A</label> <label><input type="checkbox"> B</label></div>
    </fieldset>
  </form>
</div>
<p><span>City</span> <input class="city"> <span>Country</span> <input class="country"></p>
</body></html>`

// TestRecordRepeatedFormsWithoutIndexes: controls repeated across forms
// and sections are told apart by the form, fieldset or section they lie
// in (its heading, legend or first label), and fields sharing a wrapper by
// the text right before each: the trail holds no index, and replays green.
func TestRecordRepeatedFormsWithoutIndexes(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, repeatedFormsPage, func(app context.Context) {
		for _, sel := range []string{
			"form.horizontal .group:nth-child(2) label:nth-of-type(2)",
			"form.horizontal .group:nth-child(3) label:nth-of-type(2)",
			"fieldset .group:nth-child(3) label:nth-of-type(2)",
			".more label",
		} {
			clickCSS(t, app, sel)
		}
		clickCSS(t, app, ".country")
		typeKeys(t, app, "Peru")
		clickCSS(t, app, "h1")
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	if n := countIndexes(rec.trail); n > 0 {
		t.Errorf("the trail has %d index selectors, want none:\n%s", n, rec.yaml)
	}
	for _, want := range []string{
		`within: {role: group, name: Legend}`, // the stacked form's fieldset
		`label: Country`,                      // the text right before the field
	} {
		if !strings.Contains(string(rec.yaml), want) {
			t.Errorf("the trail has no %q:\n%s", want, rec.yaml)
		}
	}
	rec.replayGreen(t)
}
