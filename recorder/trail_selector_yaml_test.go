package recorder

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestSelectorYAML(t *testing.T) {
	one := 1
	tests := []struct {
		sel  Selector
		want string
	}{
		{Selector{Role: "button", Name: "Checkout"}, "{role: button, name: Checkout}\n"},
		{Selector{TestID: "add", Index: &one, Within: &Selector{Role: "article", Text: "10% off"}}, "{testId: add, within: {role: article, text: 10% off}, index: 1}\n"},
		{Selector{Role: "status", Text: "Review sale\n3 items"}, "role: status\ntext: |-\n    Review sale\n    3 items\n"},
		{Selector{Role: "heading", Name: strings.Repeat("A long heading ", 8)}, "role: heading\nname: '" + strings.Repeat("A long heading ", 8) + "'\n"},
	}
	for _, tt := range tests {
		out, err := yaml.Marshal(tt.sel)
		if err != nil || string(out) != tt.want {
			t.Errorf("yaml.Marshal(%+v) = %q, %v; want %q", tt.sel, out, err, tt.want)
			continue
		}
		var back Selector
		if err := yaml.Unmarshal(out, &back); err != nil {
			t.Errorf("yaml.Unmarshal(%q): %v", out, err)
			continue
		}
		if d := trailDifference(&Trail{Steps: []Step{{End: &End{Shows: []Selector{back}}}}},
			&Trail{Steps: []Step{{End: &End{Shows: []Selector{tt.sel}}}}}); d != "" {
			t.Errorf("yaml.Unmarshal(yaml.Marshal(%+v)) differs: %s", tt.sel, d)
		}
	}
	for _, bad := range []string{"{}", "{role: button, nmae: Save}", "{text: a, textRegex: b}", "{index: -1, role: button}", "button"} {
		var s Selector
		err := yaml.Unmarshal([]byte(bad), &s)
		var errs TrailErrors
		if !errors.As(err, &errs) {
			t.Errorf("yaml.Unmarshal(%q) = %v, want TrailErrors", bad, err)
		}
	}
}
