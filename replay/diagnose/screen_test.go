package diagnose

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
)

func same(s string) string { return s }

func TestScreenChanges(t *testing.T) {
	tr := func(b bool) *bool { return &b }
	before := &screen.Screen{Document: "d1", URL: "http://x/cart", Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "button", Name: "Order items", Expanded: tr(false), Visible: true},
		{Ref: "e3", Role: "paragraph", Text: "Cart\n2 items", Visible: true, Children: []*screen.Node{
			{Ref: "e4", Role: "generic", Text: "2 items", Visible: true}}},
		{Ref: "e5", Role: "status", Text: "Added", Visible: true},
	}}}
	after := &screen.Screen{Document: "d1", URL: "http://x/cart", Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "button", Name: "Order items", Expanded: tr(true), Visible: true},
		{Ref: "e3", Role: "paragraph", Text: "Cart\n3 items", Visible: true, Children: []*screen.Node{
			{Ref: "e4", Role: "generic", Text: "3 items", Visible: true}}},
		{Ref: "e6", Role: "list", Text: "iPhone 17", Visible: true, Children: []*screen.Node{{Ref: "e7", Role: "listitem", Text: "iPhone 17", Visible: true}}},
	}}}
	got := strings.Join(ScreenChanges(before, after, same), "\n")
	want := strings.Join([]string{
		`~ - button "Order items" [expanded] [ref=e2] (was button "Order items" [ref=e2])`,
		`~ - generic [ref=e4]: 3 items (was generic [ref=e4]: 2 items)`,
		`+ - list [ref=e6]: iPhone 17`,
		`- - status [ref=e5]: Added`,
	}, "\n")
	if got != want {
		t.Errorf("ScreenChanges =\n%s\nwant\n%s", got, want)
	}
	if got := ScreenChanges(before, &screen.Screen{Document: "d2", URL: "http://x/checkout"}, same); len(got) != 1 || !strings.Contains(got[0], "http://x/checkout") {
		t.Errorf("ScreenChanges across documents = %q", got)
	}
}
