package steps

import (
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestIntents builds one step per recording and checks its intent: the
// forms a person reads in the popup and edits.
func TestIntents(t *testing.T) {
	page := func(kids ...*screentest.Spec) *screen.Screen {
		return shopPage("/checkout", "intents", "Checkout", kids...)
	}
	focused := func(s *screen.Screen, ref string) *screen.Screen { s.Focused = ref; return s }
	tests := []struct {
		name string
		rec  func() *session
		want string
	}{
		{"click", func() *session {
			return newSession().click(page(leaf("go", "button", "Checkout")), "go")
		}, "Click the Checkout button"},
		{"click on text", func() *session {
			return newSession().click(page(leaf("promo", "generic", "Free shipping over $50")), "promo")
		}, `Click "Free shipping over $50"`},
		{"click on an icon button is named by its label", func() *session {
			return newSession().click(page(el("x", "button", screentest.Name("Close"), screentest.Kids(el("icon", "img")))), "icon")
		}, "Click the Close button"},
		// SB Admin 2's sidebar toggle draws its chevron from ::after in an
		// icon font: its name is a private-use glyph, which reads as
		// nothing. The toggle is named by the part of the page it is in.
		{"click on an icon-only button is named by its place", func() *session {
			return newSession().click(iconPage(), "toggle")
		}, "Click the button in the sidebar"},
		{"icon-only buttons of a landmark are told apart by their position", func() *session {
			return newSession().click(iconPage(), "bell")
		}, "Click the second button in the navigation"},
		{"an icon-only button with a title is named by it", func() *session {
			return newSession().click(iconPage(), "search")
		}, "Click the Search button"},
		// Swagger UI's tag headings hold their collapse button: the
		// heading's name carries the button's, which says nothing of where.
		{"a scope whose name holds the control's is named without it", func() *session {
			tag := func(ref, name string) *screentest.Spec {
				return el(ref, "heading", screentest.Name(name+" Collapse operation"), screentest.Kids(
					leaf(ref+"-t", "generic", name),
					el(ref+"-b", "button", screentest.Name("Collapse operation"))))
			}
			return newSession().click(page(tag("orders", "orders Orders and their delivery"), tag("pets", "pets Everything about pets")), "orders-b")
		}, "Click the Collapse operation button in the orders Orders and their delivery heading"},
		{"hover over an icon-only button", func() *session {
			return newSession().hover(iconPage(), "toggle")
		}, "Hover over the button in the sidebar"},
		// JSONEditor's tree edits a value in place: the editing host's text
		// is the value typed over, not what names the field; its key does.
		{"type over text edited in place names the field by its key", func() *session {
			return newSession().typ(page(el("row", "row", screentest.Kids(
				leaf("key", "generic", "firstName"),
				leaf("sep", "generic", ":"),
				leaf("value", "generic", "John", screentest.Node(func(n *screen.Node) { n.Editable = true }))))), "value", "Ada")
		}, "Type Ada into firstName"},
		{"type", func() *session {
			return newSession().typ(page(el("code", "textbox", labelled("Discount code"))), "code", "SUMMER")
		}, "Type SUMMER into Discount code"},
		{"type into a field named by its placeholder", func() *session {
			return newSession().typ(page(el("q", "searchbox", screentest.Placeholder("Search the shop"))), "q", "mug")
		}, "Type mug into Search the shop"},
		{"clear", func() *session {
			return newSession().typ(page(el("code", "textbox", labelled("Discount code"), val("X"))), "code", "")
		}, "Clear Discount code"},
		{"multi-line value", func() *session {
			return newSession().typ(page(el("note", "textbox", labelled("Note"))), "note", "Happy\nbirthday")
		}, "Type Happy birthday into Note"},
		{"secret", func() *session {
			return newSession().secret(page(el("pw", "textbox", labelled("Password"), screentest.Secret())), "pw", "password")
		}, "Enter the password into Password"},
		{"secret that is no password", func() *session {
			return newSession().secret(page(el("cc", "textbox", labelled("Card number"), screentest.Secret())), "cc", "card")
		}, "Enter the secret value into Card number"},
		{"check", func() *session {
			return newSession().check(page(el("r", "checkbox", screentest.Name("Remember me"), screentest.Text(""), checked("false"))), "r")
		}, "Check Remember me"},
		{"uncheck", func() *session {
			return newSession().uncheck(page(el("r", "checkbox", screentest.Name("Remember me"), screentest.Text(""), checked("true"))), "r")
		}, "Uncheck Remember me"},
		{"select", func() *session {
			return newSession().choose(checkoutPage("co", checkoutState{}), "co-country", "Germany")
		}, "Select Germany in Country"},
		{"select several", func() *session {
			return newSession().choose(page(el("t", "listbox", screentest.Name("Toppings"))), "t", "Cheese", "Olives", "Basil")
		}, "Select Cheese, Olives and Basil in Toppings"},
		{"press in a field", func() *session {
			s := page(el("q", "searchbox", labelled("Search")))
			return newSession().press(focused(s, "q"), "Enter")
		}, "Press Enter in Search"},
		{"shortcut", func() *session {
			return newSession().press(page(leaf("h", "heading", "Checkout")), "s", "Control")
		}, "Press Control+s"},
		{"go to", func() *session {
			return newSession().click(page(leaf("go", "button", "Checkout")), "go").nav("/products", "typed")
		}, "Go to /products"},
		{"go back", func() *session {
			return newSession().click(page(leaf("go", "button", "Checkout")), "go").nav("/cart", "back")
		}, "Go back"},
		{"shown", func() *session {
			s := page(el("total", "paragraph", screentest.Inline(), screentest.Kids(screentest.Txt("Total"), leaf("amount", "strong", "$1,438.20"))))
			return newSession().assertVisible(s, "total")
		}, `Check that "Total $1,438.20" is shown`},
		{"shown with a count line", func() *session {
			return newSession().assertVisible(cartPage("cart"), "cart-review")
		}, `Check that "Review order 2 items" is shown`},
		{"not shown", func() *session {
			return newSession().assertNotVisible(page(), "Out of stock")
		}, `Check that "Out of stock" is not shown`},
		{"url", func() *session { return newSession().assertURL(page()) }, "Check that the URL is /checkout"},
		{"value", func() *session {
			return newSession().assertValue(page(el("q", "spinbutton", labelled("Quantity"), val("2"))), "q", "2")
		}, `Check that Quantity has the value "2"`},
		{"state", func() *session {
			return newSession().assertState(page(el("w", "checkbox", screentest.Name("Gift wrap"), screentest.Text(""), checked("mixed"))), "w", trail.StateChecked, "mixed")
		}, "Check that the Gift wrap checkbox is partly checked"},
		{"upload", func() *session {
			return newSession().upload(page(el("f", "button", labelled("Gift note"))), "f", "gift-note.txt")
		}, "Upload gift-note.txt to Gift note"},
		{"dialog", func() *session {
			return newSession().assertURL(page()).dialog("confirm", "Place this order?", true, "")
		}, `Accept the dialog "Place this order?"`},
		{"switch tab", func() *session {
			return newSession().assertURL(page()).switchTab(2, "/receipt", "Receipt")
		}, `Switch to the tab "Receipt"`},
		{"switch to a tab without a title", func() *session {
			return newSession().assertURL(page()).switchTab(2, "/receipt?id=7", "")
		}, "Switch to the tab at /receipt?id=7"},
		{"hover", func() *session {
			return newSession().hover(page(leaf("acct", "button", "Account")), "acct")
		}, "Hover over the Account button"},
		{"quotes and long text as they are", func() *session {
			text := `Say "hi" to the team — this message is long enough that a person would not read it all in an intent`
			return newSession().assertVisible(page(leaf("msg", "status", text)), "msg")
		}, `Check that "Say "hi" to the team — this message is long enough that a person would not read…" is shown`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.rec()
			bt, err := BuildSteps(s.recs, nil, BuildOptions{BaseURL: shopOrigin})
			if err != nil {
				t.Fatal(err)
			}
			got := bt.Steps[len(bt.Steps)-1].Intent
			if got != tt.want {
				t.Errorf("intent = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIntentFrom(t *testing.T) {
	tests := []struct {
		phrases []string
		want    string
	}{
		{nil, ""},
		{[]string{"click the Apply button"}, "Click the Apply button"},
		{[]string{"type ab into Search", "press Enter"}, "Type ab into Search and press Enter"},
		{[]string{"click the Pay button", "accept the dialog", "switch to the tab \"Receipt\""}, `Click the Pay button, accept the dialog and switch to the tab "Receipt"`},
		{[]string{"ändern"}, "Ändern"},
	}
	for _, tt := range tests {
		if got := intentFrom(tt.phrases); got != tt.want {
			t.Errorf("intentFrom(%q) = %q, want %q", tt.phrases, got, tt.want)
		}
	}
}

// iconPage is SB Admin 2 in small: a sidebar (a list whose id names it)
// ending with an icon-only toggle, and a topbar navigation with icon-only
// buttons, one of them titled.
func iconPage() *screen.Screen {
	glyph := func(ref, g string, opts ...screentest.Opt) *screentest.Spec {
		return el(ref, "button", append([]screentest.Opt{screentest.Tag("button"), screentest.Name(g), screentest.Text(g)}, opts...)...)
	}
	return shopPage("/cards.html", "icons", "Cards",
		el("sidebar", "list", screentest.ID("accordionSidebar"), screentest.Kids(
			el("li1", "listitem", screentest.Kids(leaf("dash", "link", "\uf3fd Dashboard"))),
			el("li2", "listitem", screentest.Kids(leaf("cards", "link", "\uf013 Components \uf105"))),
			el("toggle-box", "generic", screentest.Kids(glyph("toggle", "\uf104", screentest.ID("sidebarToggle")))),
		)),
		el("topbar", "navigation", screentest.Kids(
			glyph("menu", "\uf0c9"),
			glyph("search", "\uf002", screentest.Node(func(n *screen.Node) { n.Title = "Search" })),
			glyph("bell", "\uf0f3"),
		)),
	)
}
