package review

import (
	"strings"
	"testing"
)

// TestDatasetMutationCheck runs the mutation check of every label of the
// dataset: on a copy of the step's page where what the step must survive
// changes, the labelled option still names the element; on one where what
// it checks changes, it does not. Every label holds.
func TestDatasetMutationCheck(t *testing.T) {
	exs := loadStarter(t)
	r, err := CheckLabels(exs)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mutation check of %d labels: %d passed, %d failed", len(exs), r.Passed, r.Failed)
	if r.Failed > 0 {
		t.Errorf("labels that do not hold:\n%s", strings.Join(r.Failures, "\n"))
	}
}

// TestMutationCheckTellsValueFromPresence: on the checkout, pinned text
// holds for "the total is $42.00" (it fails when the total changes) and
// does not for "the Pay button is shown" (the price in its name changes),
// where the test id holds; a count-tolerant option survives the count.
func TestMutationCheckTellsValueFromPresence(t *testing.T) {
	exs := loadStarter(t)
	byID := map[string]Example{}
	for _, ex := range exs {
		byID[ex.Entry.ID] = ex
	}
	optionOf := func(ex Example, pred func(Option) bool) int {
		for i, o := range ex.Menu.Options {
			if pred(o) {
				return i
			}
		}
		t.Fatalf("%s: no such option on %s", ex.Entry.ID, listOptions(ex.Menu))
		return -1
	}
	total := byID["checkout/assert-total"]
	r, err := Mutate(total, optionOf(total, func(o Option) bool { return o.Kind == KindText && !o.Within }))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Value || !r.Holds() {
		t.Errorf("the total's pinned text: %+v, want a value check that holds", r)
	}
	pay := byID["checkout/assert-pay-shown"]
	r, err = Mutate(pay, optionOf(pay, func(o Option) bool { return o.Selector.Name != "" && strings.Contains(o.Selector.Name, "$") }))
	if err != nil {
		t.Fatal(err)
	}
	if r.Survived {
		t.Errorf("the Pay button by a name holding the price survived the price change: %+v", r)
	}
	r, err = Mutate(pay, optionOf(pay, func(o Option) bool { return o.Kind == KindTestID }))
	if err != nil {
		t.Fatal(err)
	}
	if r.Value || !r.Holds() {
		t.Errorf("the Pay button by test id: %+v, want a presence check that holds", r)
	}
}
