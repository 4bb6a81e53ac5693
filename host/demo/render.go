package demo

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static/*.js static/*.css
var staticFiles embed.FS

// pageNames are the templates under templates/, each rendered inside
// layout.html.
var pageNames = []string{
	"login", "products", "product", "cart", "checkout", "orders", "order",
	"receipt", "help", "error",
}

var templateFuncs = template.FuncMap{
	"items": itemCount,
	"add":   func(a, b int) int { return a + b },
}

// parsePages parses every page with the layout. The templates are embedded,
// so an error here is a bug the package's tests catch.
func parsePages() map[string]*template.Template {
	pages := map[string]*template.Template{}
	for _, name := range pageNames {
		pages[name] = template.Must(template.New(name).Funcs(templateFuncs).
			ParseFS(templateFiles, "templates/layout.html", "templates/partials.html", "templates/"+name+".html"))
	}
	return pages
}

// staticFS is the static folder as the /static/ route serves it.
func staticFS() fs.FS {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // embedded at build time
	}
	return sub
}

// pageData is what layout.html renders.
type pageData struct {
	Title string
	V     view
	// User is the signed-in person's name; empty outside a session, which
	// leaves out the header's search, navigation and account menu.
	User  string
	Query string // the search field's value
	Items int    // items in the cart, for the header's cart link
	Flash string
	// Bare leaves out the header and footer (the printable receipt).
	Bare bool
	Body any
}

// Nav is the header's navigation, in the variant's order.
func (d pageData) Nav() []navLink {
	links := []navLink{
		{Href: "/products", Label: "Products"},
		{Href: "/orders", Label: "Orders"},
		{Href: "/cart", Label: "Cart", Count: itemCount(d.Items), TestID: "cart-link"},
	}
	if d.V.variant == IDsChurned {
		slices.Reverse(links)
	}
	return links
}

// FooterLinks are the footer's links, in the variant's order.
func (d pageData) FooterLinks() []navLink {
	links := []navLink{
		{Href: "/help", Label: "Help"},
		{Href: "/help#shipping", Label: "Shipping and returns"},
		{Href: "/help#shortcuts", Label: "Keyboard shortcuts"},
	}
	if d.V.variant == IDsChurned {
		slices.Reverse(links)
	}
	return links
}

type navLink struct {
	Href, Label string
	// Count is a second line under the label ("3 items"), for the cart.
	Count  string
	TestID string
}

// view gives templates what depends on the request's variant.
type view struct{ variant string }

// churnOffset shifts generated ids in IDsChurned, the way a framework's
// counters move when a component renders in another order.
const churnOffset = 37

// ID returns a React-style generated id (":r1:") for the n-th labelled
// control of a page. Such ids are unstable by nature, and Trailpin's selector
// generator must not use them.
func (v view) ID(n int) string {
	if v.variant == IDsChurned {
		n += churnOffset
	}
	return fmt.Sprintf(":r%x:", n)
}

// Ember returns an Ember-style generated id ("ember101") for the n-th
// component of a page.
func (v view) Ember(n int) string {
	if v.variant == IDsChurned {
		n += churnOffset * 10
	}
	return fmt.Sprintf("ember%d", 100+n)
}

// Is reports whether the request is served as the named variant.
func (v view) Is(name string) bool { return v.variant == name }

// Copy returns a piece of copy no flow asserts; CopyChanged rewrites it.
func (v view) Copy(key string) (string, error) {
	table := normalCopy
	if v.variant == CopyChanged {
		table = changedCopy
	}
	s, ok := table[key]
	if !ok {
		return "", fmt.Errorf("no copy named %q", key)
	}
	return s, nil
}

// Description returns a product's description as the variant shows it.
func (v view) Description(p product) string {
	if v.variant == CopyChanged {
		return "New this season: " + p.Description
	}
	return p.Description
}

// normalCopy and changedCopy hold the copy that CopyChanged rewrites. No
// flow asserts any of it, and none of it names a control.
var normalCopy = map[string]string{
	"login-intro":      "Sign in to see today's prices and your orders.",
	"banner-heading":   "New phones are in",
	"banner-text":      "The iPhone 18 has arrived. Free delivery on every order.",
	"related-heading":  "You might also like",
	"cart-intro":       "Items stay in your cart while you are signed in.",
	"checkout-intro":   "Check your order, then tell us where to send it.",
	"delivery-heading": "Delivery",
	"discount-heading": "Discount",
	"orders-intro":     "Every order you placed while signed in.",
	"order-thanks":     "We will email you when your parcel leaves the warehouse.",
	"footer":           "Trailpin Demo Shop. Prices in US dollars, taxes included.",
	"help-intro":       "Answers to the questions people ask us most.",
}

var changedCopy = map[string]string{
	"login-intro":      "Welcome back. Sign in to continue shopping.",
	"banner-heading":   "Fresh arrivals this week",
	"banner-text":      "Meet the latest phones, with delivery on us.",
	"related-heading":  "Customers also bought",
	"cart-intro":       "Your cart is saved for as long as you stay signed in.",
	"checkout-intro":   "Almost there: review your items and choose a delivery address.",
	"delivery-heading": "Shipping details",
	"discount-heading": "Promotions",
	"orders-intro":     "Your order history.",
	"order-thanks":     "You will get an email as soon as your parcel ships.",
	"footer":           "Trailpin Demo Shop. All prices in USD and include tax.",
	"help-intro":       "Quick answers to common questions.",
}

// render writes the page with the status, or a 500 if the template fails:
// the page is built in memory first, so a failure never sends half a page.
func (s *shop) render(w http.ResponseWriter, r *http.Request, status int, name string, d pageData) {
	d.V = view{variant: variantOf(r)}
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "layout", d); err != nil {
		s.logf("rendering %s: %v", name, err)
		http.Error(w, "the page could not be rendered; see the server log", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Pages change with the session (cart count, flash), so back and
	// forward always ask the server again and show the current state.
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// errorPage is the body of error.html.
type errorPage struct {
	Heading string
	Message string
	// Link and LinkText offer the way out.
	Link, LinkText string
	// Reference is a fixed code a person can quote (no timestamps or
	// random ids, so the page is the same on every run).
	Reference string
}

// renderError renders error.html inside the layout; sess may be nil.
func (s *shop) renderError(w http.ResponseWriter, r *http.Request, sess *session, status int, e errorPage) {
	d := pageData{Title: e.Heading, Body: e}
	if sess != nil {
		d.User = sess.user
		d.Items = sess.itemCount()
	}
	if e.Link == "" {
		e.Link, e.LinkText = "/products", "Back to the products"
		d.Body = e
	}
	s.render(w, r, status, "error", d)
}
