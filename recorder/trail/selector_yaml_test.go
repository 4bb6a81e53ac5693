package trail

import (
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

func TestSelectorYAML(t *testing.T) {
	one := 1
	tests := []struct {
		sel  selector.Selector
		want string
	}{
		{selector.Selector{Role: "button", Name: "Checkout"}, "{role: button, name: Checkout}\n"},
		{selector.Selector{TestID: "add", Index: &one, Within: &selector.Selector{Role: "article", Text: "10% off"}}, "{testId: add, within: {role: article, text: 10% off}, index: 1}\n"},
		{selector.Selector{Role: "status", Text: "Review sale\n3 items"}, "role: status\ntext: |-\n    Review sale\n    3 items\n"},
		{selector.Selector{Role: "heading", Name: strings.Repeat("A long heading ", 8)}, "role: heading\nname: '" + strings.Repeat("A long heading ", 8) + "'\n"},
	}
	for _, tt := range tests {
		out, err := MarshalSelector(tt.sel)
		if err != nil || string(out) != tt.want {
			t.Errorf("MarshalSelector(%+v) = %q, %v; want %q", tt.sel, out, err, tt.want)
			continue
		}
		back, err := ParseSelector(out)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", out, err)
			continue
		}
		if d := trailDifference(&Trail{Steps: []Step{{End: &End{Shows: []selector.Selector{back}}}}},
			&Trail{Steps: []Step{{End: &End{Shows: []selector.Selector{tt.sel}}}}}); d != "" {
			t.Errorf("ParseSelector(MarshalSelector(%+v)) differs: %s", tt.sel, d)
		}
	}
	for _, bad := range []string{"{}", "{role: button, nmae: Save}", "{text: a, textRegex: b}", "{index: -1, role: button}", "button"} {
		_, err := ParseSelector([]byte(bad))
		var errs yamlerr.List
		if !errors.As(err, &errs) {
			t.Errorf("ParseSelector(%q) = %v, want a yamlerr.List", bad, err)
		}
	}
}
