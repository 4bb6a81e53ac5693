package demo

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestAnonymousRoutes(t *testing.T) {
	srv := newServer(t, Options{})
	tests := []struct {
		method, path string
		status       int
		location     string
		contains     []string
	}{
		{"GET", "/", http.StatusSeeOther, "/products", nil},
		{"GET", "/products", http.StatusSeeOther, "/login?next=%2Fproducts", nil},
		{"GET", "/products?q=iphone", http.StatusSeeOther, "/login?next=%2Fproducts%3Fq%3Diphone", nil},
		{"GET", "/products/iphone-17", http.StatusSeeOther, "/login?next=%2Fproducts%2Fiphone-17", nil},
		{"GET", "/cart", http.StatusSeeOther, "/login?next=%2Fcart", nil},
		{"GET", "/checkout", http.StatusSeeOther, "/login?next=%2Fcheckout", nil},
		{"GET", "/orders", http.StatusSeeOther, "/login?next=%2Forders", nil},
		{"GET", "/orders/1001", http.StatusSeeOther, "/login?next=%2Forders%2F1001", nil},
		{"GET", "/orders/1001/receipt", http.StatusSeeOther, "/login?next=%2Forders%2F1001%2Freceipt", nil},
		{"POST", "/cart/add", http.StatusSeeOther, "/login", nil},
		{"POST", "/checkout/place", http.StatusSeeOther, "/login", nil},
		{"GET", "/login", http.StatusOK, "", []string{"<h1>Sign in</h1>", `<label for="username">Username</label>`,
			`<label for="password">Password</label>`, `type="password"`, `<label for="remember">Remember me</label>`,
			`<button class="primary" type="submit">Sign in</button>`, `<main id="main"`}},
		{"GET", "/login?expired=1", http.StatusOK, "", []string{"Your session has expired. Sign in again to continue."}},
		{"GET", "/login?signed-out=1", http.StatusOK, "", []string{"You have signed out."}},
		{"GET", "/help", http.StatusOK, "", []string{"<h1>Help</h1>", "Keyboard shortcuts"}},
		{"GET", "/healthz", http.StatusOK, "", []string{"ok"}},
		{"GET", "/big", http.StatusOK, "", []string{"<h1>Big list</h1>", "Open target"}},
		{"GET", "/static/app.js", http.StatusOK, "", []string{"data-shortcut"}},
		{"GET", "/static/app.css", http.StatusOK, "", []string{".visually-hidden"}},
		{"GET", "/static/big.js", http.StatusOK, "", []string{"Continue"}},
		{"GET", "/static/nope.js", http.StatusNotFound, "", nil},
		{"GET", "/static/jsconfig.json", http.StatusNotFound, "", nil},
		{"GET", "/nowhere", http.StatusNotFound, "", []string{"<h1>Page not found</h1>", "There is no page at /nowhere."}},
		{"POST", "/reset", http.StatusNoContent, "", nil},
		{"DELETE", "/cart", http.StatusMethodNotAllowed, "", nil},
		{"PUT", "/nowhere", http.StatusMethodNotAllowed, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			c := newClient(t, srv)
			var r response
			switch tt.method {
			case "GET":
				r = c.get(tt.path)
			case "POST":
				r = c.post(tt.path, url.Values{})
			default:
				req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
				r = c.do(req)
			}
			if r.Status != tt.status {
				t.Fatalf("%s %s = %d, want %d", tt.method, tt.path, r.Status, tt.status)
			}
			if r.Location != tt.location {
				t.Errorf("%s %s Location = %q, want %q", tt.method, tt.path, r.Location, tt.location)
			}
			wantContains(t, tt.method+" "+tt.path, r.Body, tt.contains...)
		})
	}
}

func TestContentTypes(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	for path, want := range map[string]string{
		"/login":          "text/html; charset=utf-8",
		"/big":            "text/html; charset=utf-8",
		"/static/app.js":  "text/javascript; charset=utf-8",
		"/static/app.css": "text/css; charset=utf-8",
	} {
		if got := c.get(path).Header.Get("Content-Type"); got != want {
			t.Errorf("GET %s Content-Type = %q, want %q", path, got, want)
		}
	}
}

func TestLogin(t *testing.T) {
	srv := newServer(t, Options{})
	tests := []struct {
		name     string
		form     url.Values
		status   int
		location string
		contains []string
	}{
		{"right", url.Values{"username": {Username}, "password": {Password}}, http.StatusSeeOther, "/products", nil},
		{"username with spaces", url.Values{"username": {" ada "}, "password": {Password}}, http.StatusSeeOther, "/products", nil},
		{"next kept", url.Values{"username": {Username}, "password": {Password}, "next": {"/cart"}}, http.StatusSeeOther, "/cart", nil},
		{"next elsewhere", url.Values{"username": {Username}, "password": {Password}, "next": {"//evil.example/"}}, http.StatusSeeOther, "/products", nil},
		{"next absolute", url.Values{"username": {Username}, "password": {Password}, "next": {"https://evil.example/"}}, http.StatusSeeOther, "/products", nil},
		{"wrong password", url.Values{"username": {Username}, "password": {"hunter2"}}, http.StatusUnauthorized, "",
			[]string{`role="alert"`, "Wrong username or password.", `value="ada"`, `aria-invalid="true"`}},
		{"wrong user", url.Values{"username": {"bob"}, "password": {Password}}, http.StatusUnauthorized, "",
			[]string{"Wrong username or password.", `value="bob"`}},
		{"empty", url.Values{}, http.StatusUnauthorized, "", []string{"Enter your username and your password."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, srv)
			r := c.post("/login", tt.form)
			if r.Status != tt.status || r.Location != tt.location {
				t.Fatalf("POST /login = %d to %q, want %d to %q", r.Status, r.Location, tt.status, tt.location)
			}
			wantContains(t, "login page", r.Body, tt.contains...)
			wantNotContains(t, "login page", r.Body, Password, "hunter2")
		})
	}
}

func TestRememberMe(t *testing.T) {
	srv := newServer(t, Options{})
	for _, remember := range []bool{false, true} {
		form := url.Values{"username": {Username}, "password": {Password}}
		if remember {
			form.Set("remember", "1")
		}
		r := newClient(t, srv).post("/login", form)
		var session *http.Cookie
		for _, c := range (&http.Response{Header: r.Header}).Cookies() {
			if c.Name == sessionCookie {
				session = c
			}
		}
		if session == nil {
			t.Fatalf("remember=%v: no %s cookie in %v", remember, sessionCookie, r.Header)
		}
		want := 0
		if remember {
			want = rememberMeAge
		}
		if session.MaxAge != want || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode {
			t.Errorf("remember=%v: cookie MaxAge=%d HttpOnly=%v SameSite=%v, want MaxAge=%d, HttpOnly, Lax",
				remember, session.MaxAge, session.HttpOnly, session.SameSite, want)
		}
		if strings.Contains(r.Header.Get("Set-Cookie"), "Expires=") {
			t.Errorf("remember=%v: cookie carries a clock time: %s", remember, r.Header.Get("Set-Cookie"))
		}
	}
}

func TestLoginComesBackToNext(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	r := c.get("/products?q=pixel")
	login := c.get(r.Location)
	wantContains(t, "login page", login.Body, `name="next" value="/products?q=pixel"`)
	r = c.post("/login", url.Values{"username": {Username}, "password": {Password}, "next": {"/products?q=pixel"}})
	if r.Location != "/products?q=pixel" {
		t.Fatalf("login went to %q, want /products?q=pixel", r.Location)
	}
	wantContains(t, "search page", c.get(r.Location).Body, "1 result for “pixel”", "Pixel 10")
}

func TestLogout(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	c.login()
	r := c.post("/logout", nil)
	if r.Status != http.StatusSeeOther || r.Location != "/login?signed-out=1" {
		t.Fatalf("POST /logout = %d to %q, want 303 to /login?signed-out=1", r.Status, r.Location)
	}
	if r := c.get("/products"); r.Status != http.StatusSeeOther {
		t.Errorf("GET /products after logout = %d, want 303 to the login page", r.Status)
	}
}

func TestCatalogue(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	c.login()
	all := c.get("/products")
	if all.Status != http.StatusOK {
		t.Fatalf("GET /products = %d", all.Status)
	}
	names := allMatches(reCardName, all.Body, 1)
	var want []string
	for _, p := range catalogue {
		want = append(want, p.Name)
	}
	if !slices.Equal(names, want) {
		t.Errorf("product names = %q, want %q", names, want)
	}
	wantContains(t, "catalogue", all.Body, "12 products", "$799.00", "$999.00", "$159.99", "Out of stock", "Only 3 left",
		`data-testid="product-card"`, `id="ember110"`, `id=":ra:"`, `aria-labelledby=":ra:"`)
	if n := count(all.Body, `data-testid="add-to-cart"`); n != len(catalogue) {
		t.Errorf("catalogue has %d Add to cart buttons, want %d", n, len(catalogue))
	}
	if n := count(all.Body, `data-testid="add-to-cart" disabled`); n != 1 {
		t.Errorf("catalogue has %d disabled Add to cart buttons, want 1 (Galaxy S26 is out of stock)", n)
	}

	tests := []struct {
		q       string
		summary string
		names   []string
	}{
		{"iphone", "3 results for “iphone”", []string{"iPhone 17", "iPhone 18", "iPhone 17 Silicone Case"}},
		{"iPhone 17", "2 results for “iPhone 17”", []string{"iPhone 17", "iPhone 17 Silicone Case"}},
		{"  PIXEL ", "1 result for “PIXEL”", []string{"Pixel 10"}},
		{"audio", "2 results for “audio”", []string{"AirPods Pro", "Studio Headphones"}},
		{"zzz", "No products match “zzz”.", nil},
		{"<script>", "No products match “&lt;script&gt;”.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			r := c.get("/products?q=" + url.QueryEscape(tt.q))
			wantContains(t, "search page", r.Body, tt.summary)
			if got := allMatches(reCardName, r.Body, 1); !slices.Equal(got, tt.names) {
				t.Errorf("search %q = %q, want %q", tt.q, got, tt.names)
			}
			wantNotContains(t, "search page", r.Body, "<script>")
		})
	}
}

func TestProductPage(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	c.login()
	r := c.get("/products/iphone-17")
	if r.Status != http.StatusOK {
		t.Fatalf("GET /products/iphone-17 = %d", r.Status)
	}
	wantContains(t, "product page", r.Body,
		`<h1 id="product-name">iPhone 17</h1>`, "$799.00", "<summary>Specifications</summary>", "6.3-inch OLED",
		`<label for=":r2:">Quantity</label>`, `data-testid="add-to-cart"`, `data-opens="shipping-dialog"`,
		`<dialog id="shipping-dialog"`, "You might also like", `aria-label="Breadcrumb"`, `aria-current="page"`)
	if n := count(r.Body, `data-testid="add-to-cart"`); n != 1 {
		t.Errorf("product page has %d Add to cart buttons, want 1", n)
	}
	out := c.get("/products/galaxy-s26")
	wantContains(t, "out-of-stock page", out.Body, "Out of stock", `data-testid="add-to-cart" disabled`)

	missing := c.get("/products/iphone-99")
	if missing.Status != http.StatusNotFound {
		t.Errorf("GET /products/iphone-99 = %d, want 404", missing.Status)
	}
	wantContains(t, "missing product page", missing.Body, "Product not found")
}

func TestCart(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	c.login()
	empty := c.get("/cart")
	wantContains(t, "empty cart", empty.Body, "Your cart is empty.", "Continue shopping", "<span class=\"line count\">0 items</span>")

	r := c.post("/cart/add", url.Values{"id": {"iphone-17"}, "return": {"/products?q=iphone"}})
	if r.Location != "/products?q=iphone" {
		t.Fatalf("Add to cart came back to %q, want /products?q=iphone", r.Location)
	}
	page := c.get(r.Location)
	wantContains(t, "page after adding", page.Body, `<p class="flash" role="status">Added iPhone 17 to your cart.</p>`,
		`<span class="line">Cart</span><span class="line count">1 item</span>`)
	if again := c.get("/products?q=iphone"); strings.Contains(again.Body, "Added iPhone 17") {
		t.Errorf("the flash message shows twice")
	}

	c.add("iphone-17-case", 2)
	cart := c.get("/cart")
	wantContains(t, "cart", cart.Body,
		`aria-label="Decrease quantity of iPhone 17"`, `aria-label="Increase quantity of iPhone 17"`,
		`aria-label="Remove iPhone 17 Silicone Case"`, "Quantity of iPhone 17 Silicone Case",
		`<td data-testid="line-total">$98.00</td>`, `<dd data-testid="cart-subtotal">$897.00</dd>`,
		`<span class="line">Review order</span><span class="line count">3 items</span>`)

	steps := []struct {
		name     string
		path     string
		form     url.Values
		flash    string
		subtotal string
	}{
		{"increase", "/cart/update", url.Values{"id": {"iphone-17"}, "qty": {"inc"}}, "iPhone 17: quantity 2.", "$1,696.00"},
		{"decrease", "/cart/update", url.Values{"id": {"iphone-17"}, "qty": {"dec"}}, "iPhone 17: quantity 1.", "$897.00"},
		{"set", "/cart/update", url.Values{"id": {"iphone-17-case"}, "qty": {"4"}}, "iPhone 17 Silicone Case: quantity 4.", "$995.00"},
		{"too many", "/cart/update", url.Values{"id": {"iphone-17-case"}, "qty": {"11"}}, "Enter a quantity from 0 to 10 for iPhone 17 Silicone Case.", "$995.00"},
		{"not a number", "/cart/update", url.Values{"id": {"iphone-17-case"}, "qty": {"many"}}, "Enter a quantity from 0 to 10 for iPhone 17 Silicone Case.", "$995.00"},
		{"zero removes", "/cart/update", url.Values{"id": {"iphone-17-case"}, "qty": {"0"}}, "Removed iPhone 17 Silicone Case from your cart.", "$799.00"},
		{"add to the limit", "/cart/add", url.Values{"id": {"iphone-17"}, "qty": {"10"}, "return": {"/cart"}},
			"You can buy at most 10 of each product; your cart now has 10 × iPhone 17.", "$7,990.00"},
		{"bad quantity", "/cart/add", url.Values{"id": {"usb-c-charger"}, "qty": {"0"}, "return": {"/cart"}}, "Choose a quantity from 1 to 10.", "$7,990.00"},
		{"out of stock", "/cart/add", url.Values{"id": {"galaxy-s26"}, "return": {"/cart"}}, "Galaxy S26 is out of stock.", "$7,990.00"},
		{"remove", "/cart/remove", url.Values{"id": {"iphone-17"}}, "Removed iPhone 17 from your cart.", ""},
	}
	for _, st := range steps {
		r := c.post(st.path, st.form)
		if r.Status != http.StatusSeeOther || r.Location != "/cart" {
			t.Fatalf("%s: POST %s = %d to %q, want 303 to /cart", st.name, st.path, r.Status, r.Location)
		}
		page := c.get("/cart")
		wantContains(t, st.name+": cart", page.Body, `role="status">`+st.flash+`</p>`)
		if st.subtotal != "" {
			wantContains(t, st.name+": cart", page.Body, `<dd data-testid="cart-subtotal">`+st.subtotal+`</dd>`)
		} else {
			wantContains(t, st.name+": cart", page.Body, "Your cart is empty.")
		}
	}

	bad := c.post("/cart/add", url.Values{"id": {"nothing"}})
	if bad.Status != http.StatusBadRequest {
		t.Errorf("adding an unknown product = %d, want 400", bad.Status)
	}
	wantContains(t, "unknown product page", bad.Body, `There is no product &#34;nothing&#34;`)
	away := c.post("/cart/add", url.Values{"id": {"wireless-mouse"}, "return": {"https://evil.example/"}})
	if away.Location != defaultNext {
		t.Errorf("Add to cart with a foreign return went to %q, want %q", away.Location, defaultNext)
	}
}

// purchase signs in, fills the cart with the recording test's two items and
// applies SUMMER.
func purchase(t *testing.T, c *client) {
	t.Helper()
	c.login()
	c.add("iphone-17", 1)
	c.add("iphone-17-case", 1)
	if r := c.post("/checkout/discount", url.Values{"code": {" summer "}}); r.Location != "/checkout" {
		t.Fatalf("POST /checkout/discount went to %q, want /checkout", r.Location)
	}
}

func TestCheckout(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	c.login()
	if r := c.get("/checkout"); r.Status != http.StatusSeeOther || r.Location != "/cart" {
		t.Fatalf("GET /checkout with an empty cart = %d to %q, want 303 to /cart", r.Status, r.Location)
	}
	wantContains(t, "cart", c.get("/cart").Body, "Your cart is empty. Add a product before checking out.")

	c.add("iphone-17", 1)
	c.add("iphone-17-case", 1)
	before := c.get("/checkout")
	wantContains(t, "checkout", before.Body,
		"<h1>Checkout</h1>", `<dd class="total" data-testid="order-total">$848.00</dd>`, `<label for="discount-code">Discount code</label>`,
		`<button type="submit">Apply</button>`, `aria-expanded="false" aria-controls="summary-items"`, `role="tooltip"`,
		`<label for="country">Country</label>`, `<option value="">Choose a country</option>`, "<option>Canada</option>",
		`<label for="terms">I accept the terms and conditions</label>`, `type="file"`, "No gift note attached",
		`data-confirm="Place order for $848.00?"`, `data-testid="place-order"`)
	wantNotContains(t, "checkout", before.Body, `role="status" data-testid="discount-status"`)

	for _, tt := range []struct{ code, message string }{
		{"WINTER", "“WINTER” is not a valid code."},
		{"", "Enter a discount code first."},
	} {
		c.post("/checkout/discount", url.Values{"code": {tt.code}})
		page := c.get("/checkout")
		wantContains(t, "checkout after "+tt.code, page.Body, `role="alert" id="discount-error">`+tt.message)
		if again := c.get("/checkout"); strings.Contains(again.Body, tt.message) {
			t.Errorf("discount error %q shows twice", tt.message)
		}
	}

	c.post("/checkout/discount", url.Values{"code": {"summer"}})
	after := c.get("/checkout")
	wantContains(t, "checkout with SUMMER", after.Body,
		`<p class="applied" role="status" data-testid="discount-status">SUMMER applied: 10% off</p>`,
		`<dt>Discount (SUMMER)</dt><dd data-testid="discount-amount">−$84.80</dd>`,
		`<dd class="total" data-testid="order-total">$763.20</dd>`, `data-confirm="Place order for $763.20?"`,
		"Remove code")

	refused := c.postMultipart("/checkout/place", url.Values{"name": {"  "}, "country": {"Atlantis"}}, "note.txt", []byte("Happy birthday"))
	if refused.Status != http.StatusUnprocessableEntity {
		t.Fatalf("placing an incomplete order = %d, want 422", refused.Status)
	}
	wantContains(t, "refused order", refused.Body, `role="alert" id="order-errors"`,
		"Enter the full name of the person the parcel is for.", "Choose the country to deliver to.",
		"Accept the terms and conditions to place the order.", "Choose the gift note again",
		`id="full-name" name="name" value="" autocomplete="name" required aria-invalid="true"`)

	big := make([]byte, maxGiftNote+maxCheckoutForm)
	tooBig := c.postMultipart("/checkout/place", url.Values{"name": {"Ada Lovelace"}, "country": {"Canada"}, "terms": {"1"}}, "huge.png", big)
	if tooBig.Status != http.StatusUnprocessableEntity {
		t.Fatalf("placing an order with a huge gift note = %d, want 422", tooBig.Status)
	}
	wantContains(t, "order with a huge gift note", tooBig.Body, "The gift note is larger than 1 MB; choose a smaller file.")
	wantNotContains(t, "order with a huge gift note", tooBig.Body, "Enter the full name")

	placed := c.postMultipart("/checkout/place", url.Values{"name": {"Ada Lovelace"}, "country": {"Canada"}, "terms": {"1"}},
		`C:\Users\ada\note.txt`, []byte("Happy birthday"))
	if placed.Status != http.StatusSeeOther || placed.Location != "/orders/1001" {
		t.Fatalf("POST /checkout/place = %d to %q, want 303 to /orders/1001; body:\n%s", placed.Status, placed.Location, placed.Body)
	}
	confirmation := c.get(placed.Location)
	wantContains(t, "confirmation", confirmation.Body, "<h1>Thank you for your order</h1>",
		`role="status" data-testid="order-number">Order TP-1001 is confirmed.</p>`,
		`<dd class="total" data-testid="order-total">$763.20</dd>`, "Ada Lovelace, Canada", "<dd>note.txt</dd>",
		`<a href="/orders/1001/receipt" target="_blank">Printable receipt</a>`)
	receipt := c.get("/orders/1001/receipt")
	wantContains(t, "receipt", receipt.Body, "<title>Receipt TP-1001 — Trailpin Demo Shop</title>", "<h1>Receipt</h1>", "$763.20")
	wantNotContains(t, "receipt", receipt.Body, `class="site-header"`)
	wantContains(t, "orders", c.get("/orders").Body, `<a href="/orders/1001">Order TP-1001</a>`, "2 items", "$763.20")
	wantContains(t, "cart after the order", c.get("/cart").Body, "Your cart is empty.")

	c.add("wireless-mouse", 1)
	second := c.postMultipart("/checkout/place", url.Values{"name": {"Ada"}, "country": {"Japan"}, "terms": {"1"}}, "", nil)
	if second.Location != "/orders/1002" {
		t.Errorf("second order went to %q, want /orders/1002", second.Location)
	}
	wantNotContains(t, "second order", c.get("/orders/1002").Body, "Discount (SUMMER)", "Gift note")
	for _, p := range []string{"/orders/999", "/orders/abc", "/orders/1003/receipt"} {
		if r := c.get(p); r.Status != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", p, r.Status)
		}
	}
	if r := newClientLoggedIn(t, srv).get("/orders/1001"); r.Status != http.StatusNotFound {
		t.Errorf("another session's GET /orders/1001 = %d, want 404", r.Status)
	}
}

func newClientLoggedIn(t *testing.T, srv *httptest.Server) *client {
	t.Helper()
	c := newClient(t, srv)
	c.login()
	return c
}

func TestRemoveDiscount(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	purchase(t, c)
	c.post("/checkout/discount", url.Values{"remove": {"1"}})
	page := c.get("/checkout")
	wantContains(t, "checkout", page.Body, "Discount code removed.", `data-testid="order-total">$848.00<`)
}

func TestSessionsAreSeparate(t *testing.T) {
	srv := newServer(t, Options{})
	a, b := newClient(t, srv), newClient(t, srv)
	a.login()
	b.login()
	a.add("iphone-18", 1)
	wantContains(t, "first cart", a.get("/cart").Body, "iPhone 18")
	wantContains(t, "second cart", b.get("/cart").Body, "Your cart is empty.")
}

func TestReset(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	c.login()
	c.add("iphone-18", 1)
	if r := c.post("/reset", nil); r.Status != http.StatusNoContent {
		t.Fatalf("POST /reset = %d, want 204", r.Status)
	}
	if r := c.get("/cart"); r.Status != http.StatusSeeOther {
		t.Errorf("GET /cart after reset = %d, want 303 to the login page", r.Status)
	}
	c.login()
	wantContains(t, "cart after reset", c.get("/cart").Body, "Your cart is empty.")
}

// TestDeterministic runs the same purchase on two fresh shops: every page
// must be byte for byte the same.
func TestDeterministic(t *testing.T) {
	pages := func() []string {
		srv := newServer(t, Options{})
		c := newClient(t, srv)
		purchase(t, c)
		var out []string
		for _, p := range []string{"/login", "/products", "/products?q=iphone", "/products/iphone-17", "/cart", "/checkout"} {
			out = append(out, c.get(p).Body)
		}
		placed := c.postMultipart("/checkout/place", url.Values{"name": {"Ada"}, "country": {"France"}, "terms": {"1"}}, "", nil)
		return append(out, c.get(placed.Location).Body, c.get("/orders").Body, c.get("/big?n=500").Body)
	}
	first, second := pages(), pages()
	for i := range first {
		if first[i] != second[i] {
			t.Errorf("page %d differs between two runs", i)
		}
	}
}

// TestPasswordNeverLeaks signs in right and wrong, shops, and searches every
// answer and the log for the password and its prefixes.
func TestPasswordNeverLeaks(t *testing.T) {
	var log logRecorder
	srv := newServer(t, Options{Logf: log.logf})
	c := newClient(t, srv)
	var seen strings.Builder
	record := func(r response) {
		seen.WriteString(r.Location)
		seen.WriteString(r.Body)
		for k, v := range r.Header {
			seen.WriteString(k + strings.Join(v, ""))
		}
	}
	record(c.post("/login", url.Values{"username": {Username}, "password": {Password + "x"}}))
	record(c.post("/login", url.Values{"username": {Password}, "password": {"nope"}}))
	record(c.post("/login", url.Values{"username": {Username}, "password": {Password}, "next": {"/products"}}))
	for _, p := range []string{"/products", "/login", "/help", "/cart", "/products/iphone-17"} {
		record(c.get(p))
	}
	for _, v := range Variants() {
		vc := newClient(t, srv)
		vc.header.Set(VariantHeader, v)
		record(vc.post("/login", url.Values{"username": {Username}, "password": {Password}}))
		record(vc.get("/products"))
	}
	// The second attempt above typed the password into the username field;
	// the form rightly echoes a username back, so that answer is left out.
	haystack := strings.Replace(seen.String(), `value="`+Password+`"`, "", 1) + log.String()
	for i := 4; i <= len(Password); i++ {
		if strings.Contains(haystack, Password[:i]) {
			t.Fatalf("the password prefix %q appears in a response or the log", Password[:i])
		}
	}
	if !strings.Contains(log.String(), "POST /login 401") || !strings.Contains(log.String(), "GET /products 200") {
		t.Errorf("the log lacks the request lines:\n%s", log.String())
	}
}

func TestUniqueIDs(t *testing.T) {
	for _, variant := range append([]string{Normal}, Variants()...) {
		t.Run(variantName(variant), func(t *testing.T) {
			srv := newServer(t, Options{Variant: variant})
			c := newClient(t, srv)
			// Shop in the normal shop, then look at the variant's pages.
			c.header.Set(VariantHeader, "normal")
			purchase(t, c)
			c.header.Set(VariantHeader, variantName(variant))
			for _, p := range []string{"/login", "/products", "/products/iphone-17", "/cart", "/checkout", "/help"} {
				body := c.get(p).Body
				seen := map[string]bool{}
				for _, id := range allMatches(reID, body, 1) {
					if seen[id] {
						t.Errorf("%s: id %q is used twice", p, id)
					}
					seen[id] = true
				}
			}
		})
	}
}

func variantName(v string) string {
	if v == Normal {
		return "normal"
	}
	return v
}
