package replay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

const readOnlyPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Locked</title></head><body>
<p><label for="name">Name</label> <input id="name" value="Ada" readonly></p>
<p><label for="day">Day</label> <input type="date" id="day" value="2026-01-15" readonly></p>
<p><label for="later">Later</label> <input id="later" value="" readonly></p>
<script>setTimeout(() => document.querySelector('#later').removeAttribute('readonly'), 300);</script>
</body></html>`

// TestTypeAndSetWaitForAnEditableField: a person cannot type into or set a
// read-only field, so replay does not either (a value setter would change
// it anyway, and the step would pass where a person is stuck): type and set
// wait for the field to become editable, as for a disabled one, and fail
// with the field's state when it stays read-only.
func TestTypeAndSetWaitForAnEditableField(t *testing.T) {
	t.Parallel()
	srv := servePage(t, readOnlyPage)
	tr := inlineTrail(t, "version: 1\ntrail: Locked\napp: fixture\nstart: /\nsteps:\n  - intent: Nothing\n    actions:\n      - press: {key: Tab}\n")
	r, ctx := openRun(t, tr, srv.URL, Options{ActionTimeout: 2 * time.Second})

	for _, a := range []trail.Action{
		trail.TypeText{Selector: selector.Selector{ID: "name"}, Text: "Bob"},
		trail.Set{Selector: selector.Selector{ID: "day"}, Value: "2027-02-01"},
	} {
		_, err := r.play(a)(ctx, r.page)
		var se *stepError
		if err == nil {
			t.Errorf("%s on a read-only field passed", a.Kind())
			continue
		}
		if se = r.actionError(a, done{}, err); se.Reason != StopActionFailed || se.Actual != "read-only" || !strings.Contains(se.Msg, "is read-only") {
			t.Errorf("%s on a read-only field: reason %s, actual %q, message %q; want action-failed, read-only", a.Kind(), se.Reason, se.Actual, se.Msg)
		}
		var notReady *notActionableError
		if !errors.As(err, &notReady) {
			t.Errorf("%s on a read-only field failed with %v, not as a field that is not ready", a.Kind(), err)
		}
	}
	for _, check := range []trail.Action{
		trail.AssertValue{Selector: selector.Selector{ID: "name"}, Value: "Ada"},
		trail.AssertValue{Selector: selector.Selector{ID: "day"}, Value: "2026-01-15"},
	} {
		if _, err := r.play(check)(ctx, r.page); err != nil {
			t.Errorf("a read-only field changed: %v", err)
		}
	}

	typed := trail.TypeText{Selector: selector.Selector{ID: "later"}, Text: "Cy"}
	if _, err := r.play(typed)(ctx, r.page); err != nil {
		t.Fatalf("typing into a field that becomes editable: %v", err)
	}
	if _, err := r.play(trail.AssertValue{Selector: selector.Selector{ID: "later"}, Value: "Cy"})(ctx, r.page); err != nil {
		t.Errorf("the field that became editable: %v", err)
	}
}
