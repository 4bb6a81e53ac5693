package steps

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// Screens of a small shop for the step builder's tests, built with the
// selector tests' vocabulary (selEl, selLeaf, …). Every element has an
// explicit ref, so the same element keeps its ref from one capture of a
// document to the next, as the page model keeps it; a new document gets new
// refs (its Document differs).

const shopOrigin = "http://127.0.0.1:8080"

// The values the tests must never find in a trail.
const (
	testPassword  = "hunter2-Sesame"
	testSensitive = "alice@example.com"
)

func el(ref, role string, opts ...screentest.Opt) *screentest.Spec {
	return screentest.El(role, append([]screentest.Opt{screentest.Ref(ref)}, opts...)...)
}

func leaf(ref, role, text string, opts ...screentest.Opt) *screentest.Spec {
	return screentest.Leaf(role, text, append([]screentest.Opt{screentest.Ref(ref)}, opts...)...)
}

func val(v string) screentest.Opt     { return screentest.Node(func(n *screen.Node) { n.Value = v }) }
func checked(s string) screentest.Opt { return screentest.Node(func(n *screen.Node) { n.Checked = s }) }
func level(l int) screentest.Opt      { return screentest.Node(func(n *screen.Node) { n.Level = l }) }
func disabled() screentest.Opt        { return screentest.Node(func(n *screen.Node) { n.Disabled = true }) }
func labelled(label string) screentest.Opt {
	return func(s *screentest.Spec) {
		s.Node.Label = label
		s.Node.Name = label
		s.NameSet = true
		s.Node.Tag = "input"
	}
}

// shopPage is a page of the shop: banner, then main content.
func shopPage(path, doc, title string, main ...*screentest.Spec) *screen.Screen {
	s := screentest.Page(
		el(doc+"-banner", "banner", screentest.Kids(
			el(doc+"-home", "link", screentest.Name("Trailpin Shop"), screentest.Kids(screentest.Txt("Trailpin Shop"))),
		)),
		el(doc+"-main", "main", screentest.Kids(main...)),
	)
	s.URL = shopOrigin + path
	s.Document = doc
	s.Title = title
	s.Viewport = screen.Viewport{Width: 1280, Height: 800}
	return s
}

// loginPage is /login; failed shows the error alert.
func loginPage(user string, remember string, failed bool) *screen.Screen {
	form := el("login-form", "form", screentest.Name("Sign in"), screentest.Kids(
		el("user", "textbox", labelled("Username"), val(user)),
		el("pass", "textbox", labelled("Password"), screentest.Secret()),
		el("remember-label", "generic", screentest.Tag("label"), screentest.Inline(), screentest.Kids(
			el("remember", "checkbox", screentest.Name("Remember me"), screentest.Text(""), checked(remember), screentest.Tag("input")),
			screentest.Txt("Remember me"),
		)),
		leaf("signin", "button", "Sign in"),
	))
	main := []*screentest.Spec{leaf("login-h1", "heading", "Sign in", level(1))}
	if failed {
		main = append(main, leaf("login-error", "alert", "Wrong username or password."))
	}
	return shopPage("/login", "login", "Sign in — Trailpin Shop", append(main, form)...)
}

// customBoxPage is /settings with a custom check box, as component
// libraries draw one: a visible box with the checkbox role over a native
// input hidden from view, which the wrapper's click handler clicks.
// A plain native box, Offers, sits below it.
func customBoxPage(state, offers string) *screen.Screen {
	return shopPage("/settings", "settings", "Settings",
		el("news-wrap", "generic", screentest.Text("Receive the newsletter"), screentest.Kids(
			el("news-input-wrap", "generic", screentest.Text(""), screentest.Hidden(), screentest.Kids(
				el("news-input", "checkbox", screentest.Name("Newsletter"), screentest.Text(""), checked(state), screentest.Tag("input"), screentest.Hidden()),
			)),
			el("news-box", "checkbox", screentest.Name("Newsletter"), screentest.Text(""), checked(state)),
			screentest.Txt("Receive the newsletter"),
		)),
		el("offers", "checkbox", screentest.Name("Offers"), screentest.Text(""), checked(offers), screentest.Tag("input")),
	)
}

// A product of the catalogue.
type product struct {
	key, name, price string
	outOfStock       bool
}

var catalogue = []product{
	{"p17", "iPhone 17", "$999.00", false},
	{"case", "iPhone 17 Silicone Case", "$49.00", false},
	{"pro", "iPhone 17 Pro", "$1,199.00", true},
}

// productsPage is /products (q searches): a search box, the cart link with
// its count, a status line and a card per product with its own "Add to
// cart" button. doc tells captures of different loads apart.
func productsPage(doc, q string, inCart int, status string) *screen.Screen {
	path := "/products"
	if q != "" {
		path += "?q=" + q
	}
	var cards []*screentest.Spec
	for _, p := range catalogue {
		button := leaf(doc+"-add-"+p.key, "button", "Add to cart")
		stock := leaf(doc+"-price-"+p.key, "generic", p.price)
		if p.outOfStock {
			button = leaf(doc+"-add-"+p.key, "button", "Add to cart", disabled())
			stock = leaf(doc+"-stock-"+p.key, "generic", "Out of stock")
		}
		cards = append(cards, el(doc+"-card-"+p.key, "article", screentest.Name(p.name), screentest.Kids(
			leaf(doc+"-h-"+p.key, "heading", p.name, level(2)),
			stock,
			button,
		)))
	}
	main := []*screentest.Spec{
		el(doc+"-search", "search", screentest.Kids(
			el(doc+"-q", "searchbox", labelled("Search products"), val(q)),
		)),
		el(doc+"-cart", "link", screentest.Kids(leaf(doc+"-cart-label", "generic", "Cart"), leaf(doc+"-cart-count", "generic", items(inCart)))),
		leaf(doc+"-h1", "heading", "Products", level(1)),
	}
	st := el(doc+"-status", "status", screentest.Hidden()) // empty: no box, so not visible
	if status != "" {
		st = leaf(doc+"-status", "status", status)
	}
	main = append(main, st)
	if q != "" {
		main = append(main, leaf(doc+"-results", "paragraph", fmt.Sprintf("3 results for “%s”", q)))
	}
	main = append(main, el(doc+"-grid", "list", screentest.Name("Products"), screentest.Kids(cards...)))
	return shopPage(path, doc, "Products — Trailpin Shop", main...)
}

func items(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

// cartPage is /cart with two lines and the Review order link.
func cartPage(doc string) *screen.Screen {
	row := func(key, name, price string) *screentest.Spec {
		return el(doc+"-row-"+key, "row", screentest.Inline(), screentest.Kids(
			leaf(doc+"-name-"+key, "cell", name),
			el(doc+"-qty-cell-"+key, "cell", screentest.Kids(el(doc+"-qty-"+key, "spinbutton", labelled("Quantity"), val("1")))),
			leaf(doc+"-total-"+key, "cell", price),
			el(doc+"-rm-cell-"+key, "cell", screentest.Kids(leaf(doc+"-rm-"+key, "button", "Remove"))),
		))
	}
	return shopPage("/cart", doc, "Cart — Trailpin Shop",
		leaf(doc+"-h1", "heading", "Cart", level(1)),
		el(doc+"-lines", "table", screentest.Name("Cart"), screentest.Kids(
			row("p17", "iPhone 17", "$999.00"),
			row("case", "iPhone 17 Silicone Case", "$49.00"),
		)),
		el(doc+"-review", "link", screentest.Kids(leaf(doc+"-review-label", "generic", "Review order"), leaf(doc+"-review-count", "generic", "2 items"))),
	)
}

// A checkoutState is what the checkout page shows.
type checkoutState struct {
	code     string // typed into Discount code
	applied  bool   // the SUMMER status and Remove code button
	name     string
	country  string
	giftWrap bool
	note     string // the gift note's file name
}

// checkoutPage is /checkout: the summary with the total, the discount form
// with its status region, and the delivery form.
func checkoutPage(doc string, st checkoutState) *screen.Screen {
	total := "$1,048.00"
	if st.applied {
		total = "$943.20"
	}
	discount := []*screentest.Spec{
		leaf(doc+"-discount-h", "heading", "Discount", level(2)),
		el(doc+"-code", "textbox", labelled("Discount code"), val(st.code)),
		leaf(doc+"-apply", "button", "Apply"),
	}
	if st.applied {
		discount = append(discount,
			leaf(doc+"-discount-status", "status", "SUMMER applied: 10% off", screentest.TestID("discount-status")),
			leaf(doc+"-remove-code", "button", "Remove code"))
	}
	options := []*screentest.Spec{leaf(doc+"-opt-none", "option", "Choose a country")}
	for _, c := range []string{"France", "Germany", "Italy"} {
		options = append(options, leaf(doc+"-opt-"+strings.ToLower(c), "option", c, screentest.Node(func(n *screen.Node) {
			sel := c == st.country
			n.Selected = &sel
		})))
	}
	country := el(doc+"-country", "combobox", labelled("Country"), val(st.country), screentest.Kids(options...))
	wrap := "false"
	if st.giftWrap {
		wrap = "true"
	}
	hint := "No gift note attached"
	if st.note != "" {
		hint = "Attached: " + st.note
	}
	return shopPage("/checkout", doc, "Checkout — Trailpin Shop",
		leaf(doc+"-h1", "heading", "Checkout", level(1)),
		el(doc+"-summary", "region", screentest.Name("Order summary"), screentest.Kids(
			leaf(doc+"-summary-h", "heading", "Order summary", level(2)),
			el(doc+"-total", "paragraph", screentest.Inline(), screentest.Kids(screentest.Txt("Total"), leaf(doc+"-total-amount", "strong", total))),
		)),
		el(doc+"-discount", "region", screentest.Name("Discount"), screentest.Kids(discount...)),
		el(doc+"-delivery", "form", screentest.Name("Delivery"), screentest.Kids(
			el(doc+"-fullname", "textbox", labelled("Full name"), val(st.name)),
			country,
			el(doc+"-gift-note", "button", labelled("Gift note"), screentest.ID("gift-note")),
			leaf(doc+"-gift-hint", "paragraph", hint),
			el(doc+"-wrap-label", "generic", screentest.Tag("label"), screentest.Inline(), screentest.Kids(
				el(doc+"-wrap", "checkbox", screentest.Name("Gift wrap"), screentest.Text(""), checked(wrap), screentest.Tag("input")),
				screentest.Txt("Gift wrap"),
			)),
			leaf(doc+"-place", "button", "Place order"),
		)),
	)
}

// orderPage is /orders/TP-1001 after placing the order.
func orderPage(doc string) *screen.Screen {
	return shopPage("/orders/TP-1001", doc, "Order TP-1001 — Trailpin Shop",
		leaf(doc+"-h1", "heading", "Thank you for your order", level(1)),
		leaf(doc+"-number", "paragraph", "Order number TP-1001"),
		leaf(doc+"-receipt", "link", "View receipt"),
	)
}

// receiptPage is the receipt the order page opens in a new tab.
func receiptPage(doc string) *screen.Screen {
	s := shopPage("/orders/TP-1001/receipt", doc, "Receipt",
		leaf(doc+"-h1", "heading", "Receipt", level(1)),
		leaf(doc+"-total", "paragraph", "Paid $943.20"),
	)
	return s
}

// accountPage is /account: the signed-in address in the banner (which the
// person marks sensitive), the addresses on file, and a dialog when
// removing one is being confirmed.
func accountPage(doc string, dialogOpen bool) *screen.Screen {
	return accountPageWith(doc, dialogOpen, true)
}

// accountPageWith is accountPage, with or without the billing address.
func accountPageWith(doc string, dialogOpen, billing bool) *screen.Screen {
	row := func(key, addr, kind string) *screentest.Spec {
		return el(doc+"-addr-"+key, "listitem", screentest.Kids(
			leaf(doc+"-addr-text-"+key, "generic", addr),
			leaf(doc+"-addr-kind-"+key, "generic", kind),
			leaf(doc+"-addr-rm-"+key, "button", "Remove"),
		))
	}
	addrs := []*screentest.Spec{row("a", testSensitive, "Primary")}
	if billing {
		addrs = append(addrs, row("b", "billing@example.org", "Billing"))
	}
	main := []*screentest.Spec{
		el(doc+"-who", "generic", screentest.Inline(), screentest.Kids(screentest.Txt("Signed in as"), leaf(doc+"-who-email", "generic", testSensitive))),
		leaf(doc+"-h1", "heading", "Account", level(1)),
		el(doc+"-addrs", "list", screentest.Name("Email addresses"), screentest.Kids(addrs...)),
		el(doc+"-new", "textbox", labelled("New address")),
		leaf(doc+"-add", "button", "Add address"),
	}
	if dialogOpen {
		main = append(main, el(doc+"-dialog", "dialog", screentest.Name("Remove address"), screentest.Kids(
			leaf(doc+"-dialog-h", "heading", "Remove address", level(2)),
			leaf(doc+"-dialog-ok", "button", "Remove"),
			leaf(doc+"-dialog-cancel", "button", "Cancel"),
		)))
	}
	return shopPage("/account", doc, "Account — Trailpin Shop", main...)
}

// A session records interactions the way the extension reports them:
// numbered, timed (1.5 s apart unless told), in tab 1 unless switched.
type session struct {
	seq int64
	now int64
	tab int
	gap int64
	// url is the page the last interaction happened on, which a dialog
	// reports as the page does.
	url  string
	recs []RecordedInteraction
}

func newSession() *session { return &session{now: 1_760_000_000_000, tab: 1} }

// after sets the time before the next interaction, in milliseconds.
func (s *session) after(ms int64) *session { s.gap = ms; return s }

func (s *session) add(kind InteractionKind, sc *screen.Screen, ref string, set func(*Interaction)) *session {
	s.seq++
	if s.gap > 0 {
		s.now += s.gap
		s.gap = 0
	} else {
		s.now += 1500
	}
	it := Interaction{Seq: s.seq, Kind: kind, Time: s.now, Tab: s.tab, Ref: ref}
	if sc != nil {
		it.URL, it.Title, it.Screen = sc.URL, sc.Title, fmt.Sprintf("screen-%d", s.seq)
	}
	if set != nil {
		set(&it)
	}
	if it.URL != "" {
		s.url = it.URL
	}
	s.recs = append(s.recs, RecordedInteraction{Interaction: it, Before: sc})
	return s
}

func (s *session) click(sc *screen.Screen, ref string) *session {
	return s.add(InteractClick, sc, ref, nil)
}
func (s *session) clickWith(sc *screen.Screen, ref string, set func(*Interaction)) *session {
	return s.add(InteractClick, sc, ref, set)
}
func (s *session) typ(sc *screen.Screen, ref, value string) *session {
	return s.add(InteractType, sc, ref, func(it *Interaction) { it.Value = value })
}
func (s *session) secret(sc *screen.Screen, ref, name string) *session {
	return s.add(InteractType, sc, ref, func(it *Interaction) { it.Secret = name })
}
func (s *session) choose(sc *screen.Screen, ref string, options ...string) *session {
	return s.add(InteractSelect, sc, ref, func(it *Interaction) { it.Options = options })
}
func (s *session) check(sc *screen.Screen, ref string) *session {
	return s.add(InteractCheck, sc, ref, nil)
}
func (s *session) uncheck(sc *screen.Screen, ref string) *session {
	return s.add(InteractUncheck, sc, ref, nil)
}
func (s *session) hover(sc *screen.Screen, ref string) *session {
	return s.add(InteractHover, sc, ref, nil)
}

// agentHover is an outside agent's hover (tab.hover, browser_hover): the
// host's door marks it with the client's name.
func (s *session) agentHover(sc *screen.Screen, ref, client string) *session {
	return s.add(InteractHover, sc, ref, func(it *Interaction) { it.Client = client })
}
func (s *session) upload(sc *screen.Screen, ref string, files ...string) *session {
	return s.add(InteractUpload, sc, ref, func(it *Interaction) { it.Files = files })
}
func (s *session) press(sc *screen.Screen, key string, mods ...string) *session {
	return s.add(InteractPress, sc, "", func(it *Interaction) { it.Key, it.Modifiers = key, mods })
}
func (s *session) nav(path, transition string) *session {
	return s.add(InteractNavigate, nil, "", func(it *Interaction) {
		it.URL, it.Transition = shopOrigin+path, transition
	})
}
func (s *session) dialog(kind, message string, accept bool, prompt string) *session {
	return s.add(InteractDialog, nil, "", func(it *Interaction) {
		it.URL, it.DialogKind, it.Message, it.Accept, it.PromptText = s.url, kind, message, accept, prompt
	})
}
func (s *session) switchTab(tab int, path, title string) *session {
	s.tab = tab
	return s.add(InteractSwitchTab, nil, "", func(it *Interaction) { it.URL, it.Title = shopOrigin+path, title })
}
func (s *session) assertVisible(sc *screen.Screen, ref string) *session {
	return s.add(InteractAssertVisible, sc, ref, nil)
}
func (s *session) assertNotVisible(sc *screen.Screen, text string) *session {
	return s.add(InteractAssertNotVisible, sc, "", func(it *Interaction) { it.Text = text })
}
func (s *session) assertURL(sc *screen.Screen) *session { return s.add(InteractAssertURL, sc, "", nil) }
func (s *session) assertValue(sc *screen.Screen, ref, value string) *session {
	return s.add(InteractAssertValue, sc, ref, func(it *Interaction) { it.Value = value })
}
func (s *session) assertState(sc *screen.Screen, ref, state, want string) *session {
	return s.add(InteractAssertState, sc, ref, func(it *Interaction) { it.State, it.Want = state, want })
}
func (s *session) undo() *session { return s.add(InteractUndo, nil, "", nil) }
func (s *session) mark(sc *screen.Screen, ref string) *session {
	return s.add(InteractMarkSensitive, sc, ref, nil)
}
