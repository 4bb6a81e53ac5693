package review

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/trailpin/trailpin/e2e/golden"
	st "github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// The hand-made screens of the starter dataset (testdata/README.md): two
// pages the selector corpus has no match for, a checkout with an order
// number, a date, prices and a cart link whose name holds a count, and an
// activity feed with timestamps and counters. Each is captured twice in one
// session, the volatile text moved on between the two, as a recording of
// a few minutes sees it. They are built with the recorder's screen
// builders, so they are our reading of the page model, not its output; the
// dataset recorded with the real extension replaces them.

type checkoutValues struct {
	items, total, saved string
}

func checkoutScreen(v checkoutValues) *screen.Screen {
	return st.Page(
		st.El("banner", st.Kids(
			st.Leaf("link", "Trailshop", st.Node(func(n *screen.Node) { n.URL = "http://shop.test/" })),
			st.El("link", st.Inline(), st.Kids(st.Txt("Cart"), st.Leaf("generic", v.items+" items", st.Inline()))),
		)),
		st.El("main", st.Kids(
			st.Leaf("heading", "Checkout", st.Node(func(n *screen.Node) { n.Level = 1 })),
			st.El("region", st.Name("Order summary"), st.Kids(
				st.Leaf("heading", "Order summary", st.Node(func(n *screen.Node) { n.Level = 2 })),
				st.Leaf("paragraph", "Order #10482", st.ID("order-number")),
				st.Leaf("paragraph", "Placed on 12 March 2026"),
				st.El("generic", st.Inline(), st.Kids(
					st.Leaf("generic", "Total", st.ID("total-label")),
					st.Leaf("strong", "$"+v.total, st.TestID("order-total"), st.Node(func(n *screen.Node) { n.Role = "strong" })),
				)),
				st.Leaf("status", "Saved "+v.saved+" ago", st.Name("")),
			)),
			st.El("form", st.Name("Payment"), st.Kids(
				st.El("textbox", st.Name("Email"), st.Label("Email"), st.Placeholder("you@example.com"), st.ID("email"), st.Tag("input")),
				st.El("textbox", st.Name("Coupon code"), st.Placeholder("Coupon code"), st.Tag("input")),
				st.Leaf("button", "Apply"),
				st.El("checkbox", st.Name("Save my card"), st.Label("Save my card"), st.Tag("input")),
				st.Leaf("button", "Pay $"+v.total, st.TestID("pay-button")),
			)),
		)),
	)
}

type feedValues struct {
	notifications, unread, open, first, second, synced string
}

func feedScreen(v feedValues) *screen.Screen {
	entry := func(who, what, when string) *st.Spec {
		return st.El("listitem", st.Kids(
			st.Leaf("paragraph", who+" "+what),
			st.Leaf("time", when, st.Node(func(n *screen.Node) { n.Role = "time" })),
		))
	}
	return st.Page(
		st.El("banner", st.Kids(
			st.Leaf("link", "Notifications ("+v.notifications+")", st.ID("notifications")),
			st.Leaf("link", "Inbox "+v.unread+" unread"),
		)),
		st.El("main", st.Kids(
			st.Leaf("heading", "Activity", st.Node(func(n *screen.Node) { n.Level = 1 })),
			st.El("list", st.Name("Activity"), st.Kids(
				entry("Dana", "commented on Trail running in winter", v.first),
				entry("Sam", "closed Broken link on the home page", v.second),
			)),
			st.El("generic", st.TestID("sync-status"), st.Inline(), st.Kids(
				st.Leaf("generic", "Last synced"),
				st.Leaf("generic", v.synced),
			)),
			st.Leaf("link", v.open+" open issues"),
			st.Leaf("button", "Load more"),
		)),
	)
}

// handmadeScreens are the files the dataset names, by file name.
func handmadeScreens() map[string]*screen.Screen {
	return map[string]*screen.Screen{
		"checkout-1.json": checkoutScreen(checkoutValues{items: "2", total: "42.00", saved: "1 minute"}),
		"checkout-2.json": checkoutScreen(checkoutValues{items: "3", total: "56.50", saved: "3 minutes"}),
		"feed-1.json":     feedScreen(feedValues{notifications: "3", unread: "12", open: "12", first: "5 minutes ago", second: "2 hours ago", synced: "10:42"}),
		"feed-2.json":     feedScreen(feedValues{notifications: "4", unread: "13", open: "11", first: "9 minutes ago", second: "2 hours ago", synced: "10:46"}),
	}
}

// TestHandmadeScreens keeps testdata/screens/ in step with the builders
// above (go test ./recorder/review -run TestHandmadeScreens -update
// rewrites them).
func TestHandmadeScreens(t *testing.T) {
	for name, s := range handmadeScreens() {
		data, err := json.MarshalIndent(s, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, "testdata/screens/"+name, append(data, '\n'))
	}
}

// TestHandmadeScreensRefs prints nothing unless it fails: the refs the
// dataset names must be the same element on both screens of a session.
func TestHandmadeScreensRefs(t *testing.T) {
	pairs := [][2]string{{"checkout-1.json", "checkout-2.json"}, {"feed-1.json", "feed-2.json"}}
	all := handmadeScreens()
	for _, p := range pairs {
		a, b := refsOf(all[p[0]]), refsOf(all[p[1]])
		for ref, role := range a {
			if b[ref] != role {
				t.Errorf("%s: %s is a %s on %s but a %q on %s", p[0], ref, role, p[0], b[ref], p[1])
			}
		}
	}
}

func refsOf(s *screen.Screen) map[string]string {
	out := map[string]string{}
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		if n.Ref != "" {
			out[n.Ref] = fmt.Sprintf("%s %s", n.Role, n.Tag)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	return out
}
