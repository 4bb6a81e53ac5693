package trail

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
)

// An assertChange travels in messages with the trail's own keys, lower
// camel, and comes back as the same assertChange.
func TestChangeJSONRoundTrip(t *testing.T) {
	yes, three := true, 3
	a := AssertChange{
		Changed: &yes,
		MustInclude: []ChangeMatch{
			{Change: ChangeAdded, Selector: &selector.Selector{Role: "dialog", Name: "Shipping and returns"}},
			{Change: ChangeState, Selector: &selector.Selector{Role: "button", Name: "Menu"}, To: []ChangeTo{{Field: "expanded", Value: "true"}, {Field: "checked", Value: "mixed"}, {Field: "level", Value: "2"}}},
		},
		MaxChanges: &three,
	}
	b, err := json.Marshal(ChangeJSONOf(a))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"changed":true,"mustInclude":[{"change":"added","selector":{"role":"dialog","name":"Shipping and returns"}},` +
		`{"change":"state","selector":{"role":"button","name":"Menu"},"to":{"expanded":true,"checked":"mixed","level":2}}],"maxChanges":3}`
	if string(b) != want {
		t.Errorf("ChangeJSONOf() as JSON =\n  %s\nwant\n  %s", b, want)
	}
	var back ChangeJSON
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.AssertChange(); !reflect.DeepEqual(got, a) {
		t.Errorf("read back as %+v, want %+v", got, a)
	}
	live := AssertChange{Exists: []selector.Selector{{Role: "menu"}}, Retry: &Retry{BudgetMs: 1500}}
	b, _ = json.Marshal(ChangeJSONOf(live))
	if string(b) != `{"exists":[{"role":"menu"}],"retry":{"budgetMs":1500}}` {
		t.Errorf("a live check as JSON = %s", b)
	}
}

func TestChangeToJSONRefusesOtherValues(t *testing.T) {
	for _, src := range []string{`{"to": [1]}`, `{"to": {"expanded": {"a": 1}}}`, `{"to": {"level": 1.5}}`, `{"to": "expanded"}`} {
		var m ChangeMatchJSON
		if err := json.Unmarshal([]byte(src), &m); err == nil {
			t.Errorf("Unmarshal(%s) = %+v, want an error", src, m)
		}
	}
}

// CheckWritable says, in the trail's words, why an assertChange cannot be
// written after an action.
func TestCheckWritable(t *testing.T) {
	yes := true
	if err := CheckWritable(AssertChange{Changed: &yes}); err != nil {
		t.Errorf("CheckWritable(changed: true) = %v", err)
	}
	for _, c := range []struct {
		a    AssertChange
		want string
	}{
		{AssertChange{}, "empty"},
		{AssertChange{Changed: &yes, Exists: []selector.Selector{{Role: "menu"}}}, "mixes checks on the stored diff"},
		{AssertChange{MustInclude: []ChangeMatch{{Change: "appeared"}}}, `"appeared" is unknown`},
	} {
		err := CheckWritable(c.a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckWritable(%+v) = %v, want an error saying %q", c.a, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "writing trail") {
			t.Errorf("CheckWritable(%+v) = %v: it names the trail it wrote to check", c.a, err)
		}
	}
}
