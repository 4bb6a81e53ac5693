package diagnose

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// iconCard is a dashboard card's figure, before which its icon font draws
// a calendar: its text holds the glyph, which its pinned text leaves out.
func iconCard() *screen.Screen {
	return &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "main", Tag: "main", Visible: true, Children: []*screen.Node{
			{Ref: "e3", Role: "paragraph", Tag: "p", Text: "\uf073 $40,001", Visible: true},
		}},
	}}}
}

// TestChangedValueWithoutIconGlyphs: a figure drawn after an icon glyph,
// pinned without it, that shows another number is the element in its
// place, compared without the glyph.
func TestChangedValueWithoutIconGlyphs(t *testing.T) {
	s := iconCard()
	sel := selector.Selector{Text: "$40,000"}
	n := ChangedValue(s, sel, "")
	if n == nil || n.Ref != "e3" {
		t.Fatalf("ChangedValue = %v, want the figure e3", n)
	}
	if got := ClosestNear(s, sel, ""); len(got) == 0 || got[0].Ref != "e3" || !strings.Contains(got[0].Why, "only its numbers differ") {
		t.Errorf("closest nodes %+v, want e3 first, its numbers noted", got)
	}
}

func TestSameButNumbers(t *testing.T) {
	tests := []struct {
		want, got string
		same      bool
	}{
		{"$799.00", "$829.00", true},
		{"$1,438.20", "$1,483.20", true},
		{"$799.00", "$1,099.00", true},
		{"iPhone 17 × 2 $1,598.00", "iPhone 17 × 2 $1,658.00", true},
		{"12 products", "13 products", true},
		{"$799.00", "$799.00", false},
		{"$799.00", "−$87.80", false},
		{"Total $763.20", "Amount due $790.20", false},
		{"3 results for “iphone”", "3 matches for “iphone”", false},
		{"Add to cart", "Add to basket", false},
		{"Apply", "apply", false},
	}
	for _, tc := range tests {
		if got := sameButNumbers(tc.want, tc.got); got != tc.same {
			t.Errorf("sameButNumbers(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.same)
		}
	}
	if a, b := similarity("$799.00", "$829.00"), similarity("$799.00", "$999.00"); a <= b {
		t.Errorf("similarity to $799.00: $829.00 %.2f, $999.00 %.2f; want the nearer amount more alike", a, b)
	}
}
