package screendiff

import (
	"fmt"
	"testing"
)

// TestAfterRefs: a change stands for its node, an added subtree for all of
// it, a style or state change for the nodes folded into it, and a removal
// for no node after.
func TestAfterRefs(t *testing.T) {
	for _, c := range []struct {
		page string
		want map[string]string // change line (String) → the refs it stands for
	}{
		{"menu", map[string]string{
			`state button "Menu" [e4]: expanded false → true`: "[e4]",
			// The menu was shown with its items.
			`style menu "Main" [e7]: visible false → true`: "[e7 e8 e9 e10]",
			// The fieldset was disabled with its field; its legend and
			// the field's label have no disabled state of their own.
			`state group "Shipping" [e11]: disabled false → true`: "[e11 e14]",
		}},
		{"details", map[string]string{
			`content status [e6]: text "Loading details…" → "Details loaded"`:  "[e6]",
			`removed paragraph [e7] text "Please wait while the order loads."`: "[]",
			`added region "Details" [e11]`:                                     "[e11 e12 e13 e14 e15 e16 e17 e18 e19 e20 e21 e22 e23]",
		}},
	} {
		t.Run(c.page, func(t *testing.T) {
			res, err := Diff(loadScreen(t, c.page, "before"), loadScreen(t, c.page, "after"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for k, ch := range res.Changes {
				want, ok := c.want[ch.String()]
				if !ok {
					continue
				}
				seen++
				if got := fmt.Sprint(res.AfterRefs(k)); got != want {
					t.Errorf("AfterRefs(%s) = %s, want %s", ch, got, want)
				}
			}
			if seen != len(c.want) {
				t.Errorf("found %d of the %d changes named; the diff is:\n%s", seen, len(c.want), res)
			}
		})
	}
}
