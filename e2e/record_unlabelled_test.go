package e2e

import (
	"context"
	"strings"
	"testing"
)

const adjacentLabelPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Profile</title></head>
<body>
<h1>Profile</h1>
<p><span>Nickname</span> <input class="nickname"></p>
<div class="row"><span>City</span> <input class="city"> <span>Country</span> <input class="country"></div>
<form><span>Phone:</span> <input class="phone"><br><span>Fax:</span> <input class="fax"></form>
</body></html>`

// TestRecordFieldNamedByTheTextBeforeIt: an unlabelled field is named by
// the label-like text right before it (<span>Nickname</span> <input>), also
// when its wrapper holds other fields and their texts: the Country field is
// not named City, the first text of the row they share.
func TestRecordFieldNamedByTheTextBeforeIt(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, adjacentLabelPage, func(app context.Context) {
		for _, sel := range []string{".nickname", ".city", ".country", ".phone", ".fax"} {
			clickCSS(t, app, sel)
			typeKeys(t, app, "Ada")
		}
		clickCSS(t, app, "h1")
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	var got []string
	for _, s := range rec.trail.Steps {
		got = append(got, s.Intent)
	}
	want := []string{"Type Ada into Nickname", "Type Ada into City", "Type Ada into Country", "Type Ada into Phone", "Type Ada into Fax", "Click the Profile heading"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the steps' intents are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}
