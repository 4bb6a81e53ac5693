package agent

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/trailpin/trailpin/recorder/screendiff"
)

// The assertChange tool's `to` names every field a diff follows, as
// recorder/screendiff defines them: a field left out there (level was) is a
// change the agent cannot check.
func TestChangeToNamesEveryDiffField(t *testing.T) {
	var schema struct {
		Properties map[string]any `json:"properties"`
		Required   []string       `json:"required"`
	}
	if err := json.Unmarshal([]byte(toSchema()), &schema); err != nil {
		t.Fatalf("the to schema is not JSON: %v", err)
	}
	for _, f := range slices.Concat(screendiff.StateFields, screendiff.StyleFields) {
		if _, ok := schema.Properties[f]; !ok {
			t.Errorf("to has no field %q", f)
		}
		if !slices.Contains(schema.Required, f) {
			t.Errorf("to does not require %q (strict schemas need every field)", f)
		}
	}
}

// A `to` value becomes the value a screen writes: a boolean for a state or
// style, a whole number of at least 1 for level; another kind is refused.
func TestChangeToValue(t *testing.T) {
	tests := []struct {
		field string
		v     any
		want  string
		bad   bool
	}{
		{"checked", true, "true", false},
		{"covered", false, "false", false},
		{"level", float64(2), "2", false},
		{"level", true, "", true},
		{"level", float64(0), "", true},
		{"level", 1.5, "", true},
		{"expanded", float64(1), "", true},
	}
	for _, tc := range tests {
		got, problem := changeToValue(tc.field, tc.v)
		if got != tc.want || (problem != "") != tc.bad {
			t.Errorf("changeToValue(%q, %v) = %q, %q; want %q, refused %v", tc.field, tc.v, got, problem, tc.want, tc.bad)
		}
	}
}
