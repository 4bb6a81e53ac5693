package replay

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// sentScreen is a contact page after its form was sent, the message
// reworded: the message beside the button the step tapped, and two
// other lines that share some of its words further away, and headings
// with a letter changed.
func sentScreen() *screen.Screen {
	p := func(ref, t string) *screen.Node {
		return &screen.Node{Ref: ref, Role: "paragraph", Tag: "p", Text: t, Visible: true}
	}
	return &screen.Screen{Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: []*screen.Node{
		{Ref: "e2", Role: "main", Tag: "main", Visible: true, Children: []*screen.Node{
			{Ref: "e3", Role: "form", Tag: "form", Name: "Contact", Visible: true, Children: []*screen.Node{
				{Ref: "e4", Role: "button", Tag: "button", Name: "Submit", Text: "Submit", Visible: true},
				p("e5", "Your form has been received!"),
			}},
			{Ref: "e6", Role: "region", Tag: "section", Name: "Help", Visible: true, Children: []*screen.Node{
				p("e7", "Your order has been shipped"),
				p("e8", "Your form has been saved as a draft"),
				{Ref: "e9", Role: "heading", Tag: "h2", Name: "Cardt", Text: "Cardt", Visible: true},
				{Ref: "e10", Role: "heading", Tag: "h2", Name: "Welcomf Back!", Text: "Welcomf Back!", Visible: true},
				p("e11", "Failed"),
			}},
		}},
	}}}
}

// TestChangedWords: an assertion whose text shows in its place with a word
// changed is an app-bug with expected vs actual; a text that kept too few
// of its words, or that could be one of several elements, stays
// selector-drift.
func TestChangedWords(t *testing.T) {
	tests := []struct {
		name   string
		sel    selector.Selector
		ref    string
		class  FailureClass
		actual string
	}{
		{"a message reworded beside the button the step tapped", selector.Selector{Text: "Your form has been submitted!"}, "e4",
			ClassAppBug, "Your form has been received!"},
		{"the same, not knowing where the step acted", selector.Selector{Text: "Your form has been submitted!"}, "",
			ClassAppBug, "Your form has been received!"},
		{"too few words kept", selector.Selector{Text: "Thanks for writing"}, "e4", ClassSelectorDrift, ""},
		{"the line the step read, reworded", selector.Selector{Text: "Your order has been sent"}, "e7",
			ClassAppBug, "Your order has been shipped"},
		{"a letter of a heading changed", selector.Selector{Text: "Welcome Back!"}, "", ClassAppBug, "Welcomf Back!"},
		{"a letter of one word changed, among headings", selector.Selector{Role: "heading", Text: "Cards"}, "",
			ClassAppBug, "Cardt"},
		{"a word with little alike", selector.Selector{Text: "Saved"}, "", ClassSelectorDrift, ""},
		{"two lines as near and as alike, neither clearly it", selector.Selector{Text: "Your draft has been sent"}, "", ClassSelectorDrift, ""},
		// A list that closed still holds the text, hidden, and the one that
		// opened in its place reads it otherwise (a combobox's choices).
		{"the pinned text only in a hidden element, reworded where the step acted", selector.Selector{Text: "MathML"}, "e13",
			ClassAppBug, "MathMLs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := sentScreen()
			s.Root.Children = append(s.Root.Children,
				&screen.Node{Ref: "e12", Role: "listbox", Tag: "ul", Children: []*screen.Node{
					{Ref: "e14", Role: "option", Tag: "li", Name: "MathML", Text: "MathML"},
				}},
				&screen.Node{Ref: "e13", Role: "combobox", Tag: "input", Name: "Language", Visible: true},
				&screen.Node{Ref: "e15", Role: "listbox", Tag: "ul", Visible: true, Children: []*screen.Node{
					{Ref: "e16", Role: "option", Tag: "li", Name: "MathMLs", Text: "MathMLs", Visible: true},
					{Ref: "e17", Role: "option", Tag: "li", Name: "SVG", Text: "SVG", Visible: true},
				}})
			se := assertVisibleFailure(t, s, tc.sel, tc.ref)
			if got := classify(facts{err: se, screen: s}); got != tc.class {
				t.Fatalf("classify = %s (%s), want %s", got, se.Msg, tc.class)
			}
			if tc.class != ClassAppBug {
				if se.Expected != "" || se.Actual != "" {
					t.Errorf("expected %q, actual %q, want neither for a selector that drifted", se.Expected, se.Actual)
				}
				return
			}
			if se.Expected != tc.sel.Text || se.Actual != tc.actual || !strings.Contains(se.Msg, "(the same text with other words)") {
				t.Errorf("expected %q, actual %q, message %q; want %q, %q, other words", se.Expected, se.Actual, se.Msg, tc.sel.Text, tc.actual)
			}
		})
	}
}
