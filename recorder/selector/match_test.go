package selector

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// selShop is a small shop page: a nav (with a hidden mobile copy), a product
// list with a Delete button per row, a cart summary whose text has an
// item-count line, nested wrappers around a toast, and a form.
func selShop() *screen.Screen {
	row := func(ref, title, price string) *screentest.Spec {
		return screentest.El("listitem", screentest.Ref(ref), screentest.Kids(
			screentest.Leaf("heading", title, screentest.Ref(ref+"-h")),
			screentest.Leaf("paragraph", price, screentest.Ref(ref+"-price")),
			screentest.El("button", screentest.Ref(ref+"-del"), screentest.Kids(screentest.Leaf("generic", "Delete", screentest.Ref(ref+"-del-span")))),
		))
	}
	return screentest.Page(
		screentest.El("navigation", screentest.Ref("nav"), screentest.Name("Main"), screentest.Kids(
			screentest.Leaf("link", "Home", screentest.Ref("home")),
			screentest.Leaf("link", "Cart", screentest.Ref("cart-link"), screentest.ID("cart-link")),
		)),
		screentest.El("navigation", screentest.Ref("mnav"), screentest.Name("Mobile"), screentest.Hidden(), screentest.Kids(
			screentest.Leaf("link", "Home", screentest.Ref("mhome")),
		)),
		screentest.El("main", screentest.Ref("main"), screentest.Kids(
			screentest.El("list", screentest.Ref("list"), screentest.Kids(
				row("r17", "iPhone 17", "$999"),
				row("r18", "iPhone 18", "$1,099"),
			)),
			screentest.El("region", screentest.Ref("summary"), screentest.Name("Summary"), screentest.TestID("cart-summary"), screentest.Kids(
				screentest.Leaf("paragraph", "Review sale", screentest.Ref("rs-title")),
				screentest.Leaf("paragraph", "3 items", screentest.Ref("rs-count")),
			)),
			screentest.El("generic", screentest.Ref("toast-outer"), screentest.Kids(
				screentest.El("generic", screentest.Ref("toast-mid"), screentest.Kids(
					screentest.Leaf("generic", "Saved", screentest.Ref("toast-inner")),
				)),
			)),
			screentest.El("form", screentest.Ref("form"), screentest.Name("Sign in"), screentest.Kids(
				screentest.El("textbox", screentest.Ref("email"), screentest.Name("Email"), screentest.Label("Email"), screentest.Placeholder("you@example.com")),
				screentest.El("textbox", screentest.Ref("pw"), screentest.Name("Password"), screentest.Label("Password"), screentest.Secret()),
				screentest.Leaf("button", "Sign in", screentest.Ref("signin"), screentest.TestID("sign-in")),
			)),
		)),
	)
}

func TestMatch(t *testing.T) {
	s := selShop()
	tests := []struct {
		name string
		sel  Selector
		want []string // refs; for errors, the matches listed
		err  string   // "", "notfound", "ambiguous", "invalid"
	}{
		{"role and name", Selector{Role: "link", Name: "Home"}, []string{"home"}, ""},
		{"hidden copy does not count", Selector{Name: "Home"}, []string{"home"}, ""},
		{"case-sensitive", Selector{Role: "link", Name: "home"}, nil, "notfound"},
		{"exact, not prefix", Selector{Role: "heading", Name: "iPhone 1"}, nil, "notfound"},
		{"iPhone 17 is not iPhone 18", Selector{Role: "heading", Text: "iPhone 17"}, []string{"r17-h"}, ""},
		{"ambiguous lists all", Selector{Role: "button", Name: "Delete"}, []string{"r17-del", "r18-del"}, "ambiguous"},
		{"index picks in document order", Selector{Role: "button", Name: "Delete", Index: screentest.Intp(1)}, []string{"r18-del"}, ""},
		{"index past the end", Selector{Role: "button", Name: "Delete", Index: screentest.Intp(2)}, nil, "notfound"},
		{"index on a unique match", Selector{Role: "link", Name: "Home", Index: screentest.Intp(0)}, []string{"home"}, ""},
		{"within scopes", Selector{Role: "button", Within: &Selector{Role: "listitem", TextRegex: `^iPhone 18\n`}}, []string{"r18-del"}, ""},
		{"within must be unique", Selector{Role: "button", Name: "Delete", Within: &Selector{Role: "listitem"}}, []string{"r17", "r18"}, "ambiguous"},
		{"within that finds nothing", Selector{Role: "button", Within: &Selector{Role: "dialog"}}, nil, "notfound"},
		{"within with its own index", Selector{Role: "button", Within: &Selector{Role: "listitem", Index: screentest.Intp(0)}}, []string{"r17-del"}, ""},
		{"within is strict: not the scope itself", Selector{Role: "listitem", Within: &Selector{Role: "listitem", Index: screentest.Intp(0)}}, nil, "notfound"},
		{"text belongs to the innermost", Selector{Text: "Saved"}, []string{"toast-inner"}, ""},
		{"wrapper collapse keeps other roles", Selector{Role: "button", Text: "Delete"}, []string{"r17-del", "r18-del"}, "ambiguous"},
		{"text of a span in a button", Selector{Text: "Delete", Within: &Selector{Role: "listitem", TextRegex: `^iPhone 17\n`}}, []string{"r17-del-span"}, ""},
		{"multi-line text", Selector{Text: "Review sale\n3 items"}, []string{"summary"}, ""},
		{"count-tolerant regex", Selector{TextRegex: `^Review sale\n\d+ items?$`}, []string{"summary"}, ""},
		{"unanchored regex finds substrings", Selector{Role: "paragraph", TextRegex: `items`}, []string{"rs-count"}, ""},
		{"test id", Selector{TestID: "sign-in"}, []string{"signin"}, ""},
		{"id", Selector{ID: "cart-link"}, []string{"cart-link"}, ""},
		{"label", Selector{Label: "Password"}, []string{"pw"}, ""},
		{"placeholder", Selector{Placeholder: "you@example.com"}, []string{"email"}, ""},
		{"conjunction", Selector{Role: "textbox", Label: "Email", Placeholder: "nope"}, nil, "notfound"},
		{"text runs never match", Selector{TextRegex: `^Home$`, Within: &Selector{Role: "navigation", Name: "Main"}}, []string{"home"}, ""},
		{"empty selector", Selector{}, nil, "invalid"},
		{"bad regex", Selector{TextRegex: `(?<=x)`}, nil, "invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Match(s, tt.sel)
			var nf *NotFoundError
			var amb *AmbiguousError
			var inv *InvalidSelectorError
			switch tt.err {
			case "":
				if err != nil {
					t.Fatalf("Match(%q) error %v, want %v", tt.sel, err, tt.want)
				}
			case "notfound":
				if !errors.As(err, &nf) {
					t.Fatalf("Match(%q) = %v, %v; want a *NotFoundError", tt.sel, selRefs(got), err)
				}
			case "ambiguous":
				if !errors.As(err, &amb) {
					t.Fatalf("Match(%q) = %v, %v; want an *AmbiguousError", tt.sel, selRefs(got), err)
				}
				if g := selRefs(amb.Matches); strings.Join(g, " ") != strings.Join(tt.want, " ") {
					t.Errorf("AmbiguousError.Matches = %v, want %v", g, tt.want)
				}
			case "invalid":
				if !errors.As(err, &inv) {
					t.Fatalf("Match(%q) error %v, want an *InvalidSelectorError", tt.sel, err)
				}
			}
			if amb != nil && amb.Scope {
				if got != nil {
					t.Errorf("Match(%q) = %v with an ambiguous scope, want no nodes", tt.sel, selRefs(got))
				}
				return
			}
			if g := selRefs(got); strings.Join(g, " ") != strings.Join(tt.want, " ") {
				t.Errorf("Match(%q) = %v, want %v", tt.sel, g, tt.want)
			}
		})
	}
}

func TestMatchIncludeHidden(t *testing.T) {
	s := selShop()
	sel := Selector{Role: "link", Name: "Home"}
	got, err := Match(s, sel, IncludeHidden())
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(got) != 2 {
		t.Fatalf("Match(%q, IncludeHidden()) = %v, %v; want both links, ambiguous", sel, selRefs(got), err)
	}
	sel = Selector{Role: "navigation", Name: "Mobile"}
	_, err = Match(s, sel)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Hidden != 1 {
		t.Fatalf("Match(%q) error %v, want not found with 1 hidden match", sel, err)
	}
	if !strings.Contains(err.Error(), "1 hidden element matches") {
		t.Errorf("error %q does not say a hidden element matches", err)
	}
}

// A container whose own box is empty (floats inside) but whose content is
// visible is shown: its content is what a person sees.
func TestMatchShownContainer(t *testing.T) {
	s := screentest.Page(screentest.El("list", screentest.Ref("l"), screentest.Name("Results"), screentest.Kids(screentest.Leaf("listitem", "One", screentest.Ref("one")))))
	s.Root.Children[0].Children[0].Visible = false // the list's own box collapsed
	got, err := Match(s, Selector{Role: "listitem", Within: &Selector{Role: "list", Name: "Results"}})
	if err != nil || len(got) != 1 || got[0].Ref != "one" {
		t.Fatalf("Match in a collapsed container = %v, %v; want [one]", selRefs(got), err)
	}
}

func TestMatchErrorMessages(t *testing.T) {
	s := selShop()
	tests := []struct {
		sel  Selector
		want string
	}{
		{Selector{Role: "button", Name: "Delete"}, `{role: button, name: Delete} is ambiguous: 2 visible elements match; add a property, a within scope or an index to name one of them: r17-del button "Delete"; r18-del button "Delete"`},
		{Selector{Role: "button", Name: "Pay"}, `no visible element matches {role: button, name: Pay}`},
		{Selector{Role: "button", Name: "Delete", Index: screentest.Intp(5)}, `index 5 is past the end: 2 visible elements match {role: button, name: Delete}`},
		{Selector{Role: "button", Within: &Selector{Role: "dialog"}}, `no visible element matches {role: dialog}, the within scope of {role: button, within: {role: dialog}}`},
		{Selector{Role: "paragraph", Text: "Review sale\n4 items"}, `no visible element matches {role: paragraph, text: "Review sale\n4 items"}`},
	}
	for _, tt := range tests {
		_, err := Match(s, tt.sel)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Match(%q) error\n got %v\nwant %s", tt.sel, err, tt.want)
		}
	}
}

func TestMatchNilScreen(t *testing.T) {
	_, err := Match(nil, Selector{Role: "button"})
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Match(nil screen) error %v, want *NotFoundError", err)
	}
}

func selRefs(nodes []*screen.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, n.Ref)
	}
	return out
}

// A Matcher is shared by replay's waits and the review: matching from many
// goroutines at once must be safe (run with -race).
func TestMatcherConcurrentUse(t *testing.T) {
	m := NewMatcher(selShop())
	sels := []Selector{
		{Role: "link", Name: "Home"},
		{TestID: "sign-in"},
		{ID: "cart-link"},
		{Text: "Saved"},
		{Role: "button", Name: "Delete", Index: screentest.Intp(1)},
	}
	done := make(chan error)
	for i := range 8 {
		go func() {
			for k := range 50 {
				sel := sels[(i+k)%len(sels)]
				if got, err := m.Match(sel); err != nil || len(got) != 1 {
					done <- fmt.Errorf("Match(%q) = %v, %v", sel, selRefs(got), err)
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
