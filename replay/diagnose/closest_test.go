package diagnose

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// checkoutScreen is a checkout whose Apply button was renamed, next to
// controls that share a word or a role with it.
func checkoutScreen() *screen.Screen {
	el := func(ref, role, name string) *screen.Node {
		return &screen.Node{Ref: ref, Role: role, Name: name, Tag: "button", Visible: true}
	}
	hidden := el("e9", "button", "Apply")
	hidden.Visible = false
	return &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		el("e2", "button", "Apply code"),
		el("e3", "button", "Place order"),
		el("e4", "link", "Apply now"),
		{Ref: "e5", Role: "textbox", Name: "Discount code", Tag: "input", Visible: true},
		el("e6", "button", "Remove code"),
		{Ref: "e7", Role: "paragraph", Tag: "p", Text: "Total $790.20", Visible: true},
		hidden,
	}}}
}

func TestClosest(t *testing.T) {
	s := checkoutScreen()
	got := Closest(s, selector.Selector{Role: "button", Name: "Apply"})
	if len(got) < 3 {
		t.Fatalf("Closest = %+v, want at least three nodes", got)
	}
	if got[0].Ref != "e9" || got[0].Score != 1 || !strings.Contains(got[0].Why, "hidden") {
		t.Errorf("Closest[0] = %+v, want the hidden exact match first", got[0])
	}
	if got[1].Ref != "e2" || !strings.Contains(got[1].Why, `name is "Apply code", not "Apply"`) {
		t.Errorf("Closest[1] = %+v, want button \"Apply code\" with what differs", got[1])
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score {
			t.Errorf("Closest is not ranked: %v before %v", got[i-1], got[i])
		}
		if got[i].Ref == "e7" {
			t.Errorf("Closest lists the total paragraph, which shares nothing with a button named Apply")
		}
	}
	var link *CloseNode
	for i := range got {
		if got[i].Ref == "e4" {
			link = &got[i]
		}
	}
	if link == nil || !strings.Contains(link.Why, "role is link, not button") {
		t.Errorf("Closest = %+v, want link \"Apply now\" with its role noted", got)
	}

	text := Closest(s, selector.Selector{Text: "Total $763.20"})
	if len(text) == 0 || text[0].Ref != "e7" {
		t.Errorf("Closest(text) = %+v, want the total paragraph first", text)
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b     string
		min, max float64
	}{
		{"Apply", "Apply", 1, 1},
		{"Apply", "apply", 1, 1},
		{"Apply", "Apply code", 0.6, 0.95},
		{"Add to cart", "Add to basket", 0.4, 0.9},
		{"Apply", "Place order", 0, 0.35},
		{"", "x", 0, 0},
	}
	for _, tc := range tests {
		if got := similarity(tc.a, tc.b); got < tc.min || got > tc.max {
			t.Errorf("similarity(%q, %q) = %.2f, want %.2f..%.2f", tc.a, tc.b, got, tc.min, tc.max)
		}
	}
}

// TestClosestNear: nearness to the element the step last acted on lifts a
// neighbour of that field above a control elsewhere that reads more alike.
func TestClosestNear(t *testing.T) {
	btn := func(ref, name string) *screen.Node {
		return &screen.Node{Ref: ref, Role: "button", Name: name, Tag: "button", Visible: true}
	}
	s := &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "banner", Visible: true, Children: []*screen.Node{btn("e3", "Account")}},
		{Ref: "e4", Role: "main", Visible: true, Children: []*screen.Node{
			{Ref: "e5", Role: "form", Visible: true, Children: []*screen.Node{
				{Ref: "e6", Role: "textbox", Name: "Discount code", Tag: "input", Visible: true},
				btn("e7", "About discount codes"),
			}},
		}},
	}}}
	sel := selector.Selector{Role: "button", Name: "Apply"}
	if got := Closest(s, sel); len(got) == 0 || got[0].Ref != "e3" {
		t.Fatalf("Closest = %+v, want button \"Account\" first on names alone", got)
	}
	got := ClosestNear(s, sel, "e6")
	if len(got) == 0 || got[0].Ref != "e7" || !strings.Contains(got[0].Why, "next to where the step last acted") {
		t.Fatalf("ClosestNear = %+v, want the button beside the discount field first", got)
	}
	if got := ClosestNear(s, sel, "e99"); len(got) == 0 || got[0].Ref != "e3" {
		t.Errorf("ClosestNear with a ref the screen lacks = %+v, want the plain ranking", got)
	}
}
