package replay

import (
	"strings"
	"testing"
)

// TestReplaySetUnfocusableSliderIsAppBug: a set on an ARIA slider its page
// did not make focusable (no tabindex) cannot reach it with arrow keys. The
// slider is there, named as the trail names it: the app's behaviour
// (app-bug, expected vs actual), not the environment. A slider that takes
// the focus is set.
func TestReplaySetUnfocusableSliderIsAppBug(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		class FailureClass // "" for a pass
	}{
		{"Volume", ""},
		{"Balance", ClassAppBug},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tr := inlineTrail(t, "version: 1\ntrail: Mixer\napp: mixer\nstart: /balance.html\nsteps:\n"+
				"  - intent: Set "+tc.name+" to 5\n    actions:\n      - set: {selector: {role: slider, name: "+tc.name+"}, value: \"5\"}\n")
			res := replayOn(t, tr, site.URL, Options{})
			if tc.class == "" {
				if res.Status != StatusPassed {
					t.Fatalf("%s", explain(res))
				}
				return
			}
			if res.Status != StatusFailed || res.Class != tc.class || !strings.Contains(res.Error, "does not take the focus") {
				t.Fatalf("got %s; want class %s and an error saying the slider does not take the focus", explain(res), tc.class)
			}
			if res.Expected == "" || res.Actual == "" {
				t.Errorf("expected %q, actual %q; want both said", res.Expected, res.Actual)
			}
		})
	}
}
