package replay

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// productScreen is the demo shop's product page after the iPhone 17 went
// from $799.00 to $829.00: its price beside its heading, and other prices
// (closer to $799.00 in their digits) in a list further away.
func productScreen() *screen.Screen {
	text := func(ref, role, tag, t string) *screen.Node {
		return &screen.Node{Ref: ref, Role: role, Tag: tag, Text: t, Visible: true}
	}
	item := func(ref, name, price string) *screen.Node {
		return &screen.Node{Ref: ref, Role: "listitem", Tag: "li", Text: name + " " + price, Visible: true, Children: []*screen.Node{
			{Ref: ref + "a", Role: "link", Tag: "a", Name: name, Text: name, Visible: true},
			text(ref+"p", "", "span", price),
		}}
	}
	return &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "main", Tag: "main", Visible: true, Children: []*screen.Node{
			{Ref: "e3", Role: "article", Tag: "article", Name: "iPhone 17", Visible: true, Children: []*screen.Node{
				{Ref: "e4", Role: "heading", Tag: "h1", Name: "iPhone 17", Text: "iPhone 17", Visible: true},
				text("e5", "paragraph", "p", "$829.00"),
			}},
			{Ref: "e6", Role: "region", Tag: "section", Name: "You might also like", Visible: true, Children: []*screen.Node{
				{Ref: "e7", Role: "list", Tag: "ul", Visible: true, Children: []*screen.Node{
					item("e8", "iPhone 18", "$999.00"), item("e9", "Pixel 10", "$699.00"), item("e10", "Galaxy S26", "$849.00"),
				}},
			}},
		}},
	}}}
}

// checkoutTotals is the order summary of the demo checkout with the
// changed price: subtotal, discount and total side by side, and the
// discount's status message (where the step last looked) elsewhere.
func checkoutTotals() *screen.Screen {
	def := func(ref, t string) *screen.Node {
		return &screen.Node{Ref: ref, Role: "definition", Tag: "dd", Text: t, Visible: true}
	}
	term := func(ref, t string) *screen.Node {
		return &screen.Node{Ref: ref, Role: "term", Tag: "dt", Text: t, Visible: true}
	}
	return &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "main", Tag: "main", Visible: true, Children: []*screen.Node{
			{Ref: "e3", Role: "region", Name: "Order summary", Tag: "section", Visible: true, Children: []*screen.Node{
				{Ref: "e4", Tag: "dl", Visible: true, Children: []*screen.Node{
					term("e5", "Subtotal"), def("e6", "$878.00"),
					term("e7", "Discount (SUMMER)"), def("e8", "−$87.80"),
					term("e9", "Total"), def("e10", "$790.20"),
				}},
			}},
			{Ref: "e11", Role: "region", Name: "Discount", Tag: "section", Visible: true, Children: []*screen.Node{
				{Ref: "e12", Role: "status", Tag: "p", Text: "SUMMER applied: 10% off", Visible: true},
			}},
		}},
	}}}
}

// assertVisibleFailure is the step error of an assertVisible of sel that
// matched nothing on s, after the step last acted on ref.
func assertVisibleFailure(t *testing.T, s *screen.Screen, sel selector.Selector, ref string) *stepError {
	t.Helper()
	m := selector.NewMatcher(s)
	if _, err := m.Match(sel); err == nil {
		t.Fatalf("%s matches the screen; the test needs it to match nothing", sel)
	} else {
		p := &tab{screen: s, matcher: m, lastTarget: ref}
		return asStepError(assertionFailed(p, trail.ActionAssertVisible, sel, err, Options{}.withDefaults().ActionTimeout))
	}
	return nil
}

// TestChangedValue: an assertion that pins a price by its text alone, on a
// page that shows the same element with another price, is an app-bug
// with expected vs actual; an assertion whose words changed stays
// selector-drift.

func TestChangedValue(t *testing.T) {
	tests := []struct {
		name   string
		screen *screen.Screen
		sel    selector.Selector
		ref    string // where the step last acted
		class  FailureClass
		actual string // for an app-bug
		landed string // the node named as showing it
	}{
		{"a price beside the heading the step read", productScreen(), selector.Selector{Text: "$799.00"}, "e4",
			ClassAppBug, "$829.00", "paragraph [ref=e5]"},
		{"a total among other amounts of the same list", checkoutTotals(), selector.Selector{Text: "$763.20"}, "e12",
			ClassAppBug, "$790.20", "definition [ref=e10]"},
		{"a total, not knowing where the step acted", checkoutTotals(), selector.Selector{Text: "$763.20"}, "",
			ClassAppBug, "$790.20", "definition [ref=e10]"},
		{"a price pinned within its article", productScreen(),
			selector.Selector{Text: "$799.00", Within: &selector.Selector{Role: "article", Name: "iPhone 17"}}, "e4",
			ClassAppBug, "$829.00", "paragraph [ref=e5]"},
		{"a label reworded", checkoutTotals(), selector.Selector{Text: "Grand total"}, "e12", ClassSelectorDrift, "", ""},
		{"a status reworded, its number the same", checkoutTotals(), selector.Selector{Text: "SUMMER saved you 10%"}, "e12",
			ClassSelectorDrift, "", ""},
		{"a price with other words around it", checkoutTotals(), selector.Selector{Text: "Total: $763.20"}, "e12",
			ClassSelectorDrift, "", ""},
		{"a role the price does not have", productScreen(), selector.Selector{Role: "link", Text: "$799.00"}, "e4",
			ClassSelectorDrift, "", ""},
		{"several prices, none nearer nor much nearer in value", productScreen(), selector.Selector{Text: "$899.00"}, "e7",
			ClassSelectorDrift, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			se := assertVisibleFailure(t, tc.screen, tc.sel, tc.ref)
			if got := classify(facts{err: se, screen: tc.screen}); got != tc.class {
				t.Fatalf("classify = %s (%s), want %s", got, se.Msg, tc.class)
			}
			if tc.class != ClassAppBug {
				if se.Expected != "" || se.Actual != "" {
					t.Errorf("expected %q, actual %q, want neither for a selector that drifted", se.Expected, se.Actual)
				}
				if se.Selector == nil {
					t.Errorf("the error has no selector, so the failure would list no closest nodes")
				}
				return
			}
			if se.Expected != tc.sel.Text || se.Actual != tc.actual {
				t.Errorf("expected %q, actual %q; want %q, %q", se.Expected, se.Actual, tc.sel.Text, tc.actual)
			}
			if !strings.Contains(se.Msg, tc.landed+` shows "`+tc.actual+`"`) {
				t.Errorf("message %q does not name %s as showing %q", se.Msg, tc.landed, tc.actual)
			}
			if se.Selector == nil {
				t.Errorf("the error has no selector, so the failure would list no closest nodes")
			} else if got := diagnose.ClosestNear(tc.screen, *se.Selector, tc.ref); len(got) == 0 ||
				"- "+tc.landed+": "+tc.actual != got[0].Line || !strings.Contains(got[0].Why, "only its numbers differ") {
				t.Errorf("closest nodes %+v, want %s first, its numbers noted", got, tc.landed)
			}
		})
	}
}

// TestChangedValueErrorWithoutIconGlyphs: a figure drawn after an icon
// glyph, pinned without it, that shows another number is the app showing
// something else, expected vs actual as compared (without the glyph).
func TestChangedValueErrorWithoutIconGlyphs(t *testing.T) {
	sel := selector.Selector{Text: "$40,000"}
	n := &screen.Node{Ref: "e3", Role: "paragraph", Tag: "p", Text: "\uf073 $40,001", Visible: true}
	se := changedValueError("assertVisible "+sel.String(), sel, n, nil)
	if se.Expected != "$40,000" || se.Actual != "$40,001" || !strings.Contains(se.Msg, `shows "$40,001"`) {
		t.Errorf("expected %q, actual %q, message %q; want $40,000 and $40,001", se.Expected, se.Actual, se.Msg)
	}
}
