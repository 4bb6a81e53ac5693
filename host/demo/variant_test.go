package demo

import (
	"errors"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestVariantList(t *testing.T) {
	names := Variants()
	want := []string{PriceChanged, ControlRemoved, ServerError, Unauthorized, LoginRedirect,
		DuplicateButtons, CopyChanged, IDsChurned, Reordered, ApplyRenamed, SignInRenamed, DiscountMoved,
		ApplyWrapped, DiscountConfirm, LoginReordered, LoginOptionalField, DiscountRefused}
	if !slices.Equal(names, want) {
		t.Fatalf("Variants() = %q, want %q", names, want)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		v, ok := VariantInfo(name)
		if !ok || v.Name != name || v.Change == "" || v.Expect == "" {
			t.Errorf("VariantInfo(%q) = %+v, %v; want a described variant", name, v, ok)
		}
		if err := ValidateVariant(name); err != nil {
			t.Errorf("ValidateVariant(%q) = %v, want nil", name, err)
		}
		if !strings.Contains(string(doc), "//\t"+name+" ") {
			t.Errorf("doc.go's variant table has no row for %q", name)
		}
	}
	if _, ok := VariantInfo(Normal); ok {
		t.Errorf("VariantInfo(Normal) is ok; Normal is not a mutation")
	}
	if err := ValidateVariant(Normal); err != nil {
		t.Errorf("ValidateVariant(Normal) = %v, want nil", err)
	}
}

func TestUnknownVariant(t *testing.T) {
	err := ValidateVariant("auth-expired")
	if !errors.Is(err, ErrUnknownVariant) {
		t.Fatalf("ValidateVariant(auth-expired) = %v, want ErrUnknownVariant", err)
	}
	for _, name := range Variants() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the error %q does not list %q", err, name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("New with an unknown variant did not panic")
		}
	}()
	New(Options{Variant: "auth-expired"})
}

// TestVariantStatuses requests every page of the shop under every variant,
// with a session that holds a cart.
func TestVariantStatuses(t *testing.T) {
	pages := []string{"/products", "/products?q=iphone", "/products/iphone-17", "/cart", "/checkout", "/orders", "/orders/1001", "/orders/1001/receipt"}
	for _, variant := range append([]string{Normal}, Variants()...) {
		t.Run(variantName(variant), func(t *testing.T) {
			srv := newServer(t, Options{Variant: variant})
			c := newClient(t, srv)
			// The session and its order are made in the normal shop; the
			// pages are then requested as the server's variant.
			c.header.Set(VariantHeader, "normal")
			purchase(t, c)
			c.postMultipart("/checkout/place", url.Values{"name": {"Ada"}, "country": {"Canada"}, "terms": {"1"}}, "", nil)
			c.add("iphone-18", 1)
			c.header.Del(VariantHeader)

			for _, p := range []string{"/login", "/help", "/big?n=100", "/healthz"} {
				if r := c.get(p); r.Status != http.StatusOK {
					t.Errorf("GET %s = %d, want 200", p, r.Status)
				}
			}
			for _, p := range pages {
				r := c.get(p)
				want, location := http.StatusOK, ""
				switch {
				case variant == Unauthorized:
					want = http.StatusUnauthorized
				case variant == LoginRedirect:
					want, location = http.StatusSeeOther, "/login?expired=1&next="+url.QueryEscape(p)
				case variant == ServerError && p == "/checkout":
					want = http.StatusInternalServerError
				}
				if r.Status != want || r.Location != location {
					t.Errorf("GET %s = %d to %q, want %d to %q", p, r.Status, r.Location, want, location)
				}
			}
		})
	}
}

func TestPriceChanged(t *testing.T) {
	normal, changed := newClient(t, newServer(t, Options{})), newClient(t, newServer(t, Options{Variant: PriceChanged}))
	for _, c := range []*client{normal, changed} {
		purchase(t, c)
	}
	for _, tt := range []struct {
		path         string
		normal, vary string
	}{
		{"/products/iphone-17", `data-testid="price">$799.00<`, `data-testid="price">$829.00<`},
		{"/products?q=iphone", `data-testid="price">$799.00<`, `data-testid="price">$829.00<`},
		{"/cart", `data-testid="cart-subtotal">$848.00<`, `data-testid="cart-subtotal">$878.00<`},
		{"/checkout", `data-testid="order-total">$763.20<`, `data-testid="order-total">$790.20<`},
	} {
		wantContains(t, "normal "+tt.path, normal.get(tt.path).Body, tt.normal)
		wantContains(t, PriceChanged+" "+tt.path, changed.get(tt.path).Body, tt.vary)
	}
	wantContains(t, PriceChanged+" iPhone 18", changed.get("/products/iphone-18").Body, `data-testid="price">$999.00<`)
}

func TestControlRemoved(t *testing.T) {
	c := newClient(t, newServer(t, Options{Variant: ControlRemoved}))
	c.login()
	c.add("iphone-17", 1)
	page := c.get("/checkout")
	wantContains(t, "checkout", page.Body, `<label for="discount-code">Discount code</label>`, `id="discount-code"`)
	wantNotContains(t, "checkout", page.Body, `<button type="submit">Apply</button>`)
	// Pressing Enter in the field submits the form without the button.
	c.post("/checkout/discount", url.Values{"code": {"SUMMER"}})
	wantContains(t, "checkout", c.get("/checkout").Body, "SUMMER applied: 10% off")
}

func TestServerError(t *testing.T) {
	var log logRecorder
	c := newClient(t, newServer(t, Options{Variant: ServerError, Logf: log.logf}))
	c.login()
	c.add("iphone-17", 1)
	wantContains(t, "cart", c.get("/cart").Body, "iPhone 17")
	for _, r := range []response{
		c.get("/checkout"),
		c.post("/checkout/discount", url.Values{"code": {"SUMMER"}}),
		c.postMultipart("/checkout/place", url.Values{"name": {"Ada"}, "country": {"Canada"}, "terms": {"1"}}, "", nil),
	} {
		if r.Status != http.StatusInternalServerError {
			t.Errorf("checkout request = %d, want 500", r.Status)
		}
		wantContains(t, "error page", r.Body, "<h1>Something went wrong</h1>", "E-500-CHECKOUT")
	}
	wantContains(t, "log", log.String(), "GET /checkout 500", "checkout failed on purpose")
	if orders := c.get("/orders").Body; !strings.Contains(orders, "You have not placed any orders yet.") {
		t.Errorf("an order was placed despite the 500")
	}
}

func TestAuthExpired(t *testing.T) {
	t.Run(Unauthorized, func(t *testing.T) {
		c := newClient(t, newServer(t, Options{Variant: Unauthorized}))
		c.login()
		r := c.get("/products")
		if r.Status != http.StatusUnauthorized {
			t.Fatalf("GET /products = %d, want 401", r.Status)
		}
		wantContains(t, "401 page", r.Body, "<h1>Your session has expired</h1>", `<a href="/login">Sign in again</a>`)
		wantNotContains(t, "401 page", r.Body, "Signed in as")
	})
	t.Run(LoginRedirect, func(t *testing.T) {
		c := newClient(t, newServer(t, Options{Variant: LoginRedirect}))
		c.login()
		r := c.get("/products")
		if r.Status != http.StatusSeeOther || r.Location != "/login?expired=1&next=%2Fproducts" {
			t.Fatalf("GET /products = %d to %q, want 303 to the login page", r.Status, r.Location)
		}
		login := c.get(r.Location)
		if login.Status != http.StatusOK {
			t.Fatalf("GET %s = %d, want the login form (no redirect loop)", r.Location, login.Status)
		}
		wantContains(t, "login page", login.Body, `role="status">Your session has expired. Sign in again to continue.`,
			`name="next" value="/products"`)
	})
}

func TestDuplicateButtons(t *testing.T) {
	c := newClient(t, newServer(t, Options{Variant: DuplicateButtons}))
	c.login()
	for path, want := range map[string]int{
		"/products/iphone-17": 2,
		"/products?q=iPhone":  6,
		"/products":           2 * len(catalogue),
	} {
		body := c.get(path).Body
		if n := count(body, `data-testid="add-to-cart"`); n != want {
			t.Errorf("%s has %d Add to cart buttons, want %d", path, n, want)
		}
		if n := count(body, `>Add to cart</button>`); n != want {
			t.Errorf("%s has %d buttons reading Add to cart, want %d", path, n, want)
		}
	}
}

// stableSurface is what no flow-neutral variant may change: the controls'
// names, labels, test ids, prices and page headings.
func stableSurface(body string) []string {
	var out []string
	out = append(out, allMatches(reH1, body, 1)...)
	for _, m := range reButton.FindAllStringSubmatch(body, -1) {
		out = append(out, "button:"+text(m[2]))
	}
	out = append(out, allMatches(reLabel, body, 1)...)
	out = append(out, allMatches(reAriaLabel, body, 1)...)
	out = append(out, allMatches(reTestID, body, 1)...)
	out = append(out, rePrice.FindAllString(body, -1)...)
	slices.Sort(out)
	return out
}

var surfacePages = []string{"/login", "/products", "/products?q=iphone", "/products/iphone-17", "/cart", "/checkout", "/orders/1001", "/help"}

// shopBoth runs the same purchase on the normal shop and on the variant and
// returns both clients, each with an order TP-1001 and a cart.
func shopBoth(t *testing.T, variant string) (normal, vary *client) {
	normal, vary = newClient(t, newServer(t, Options{})), newClient(t, newServer(t, Options{Variant: variant}))
	for _, c := range []*client{normal, vary} {
		purchase(t, c)
		c.postMultipart("/checkout/place", url.Values{"name": {"Ada"}, "country": {"Canada"}, "terms": {"1"}}, "", nil)
		purchase(t, c)
	}
	return normal, vary
}

func TestCopyChanged(t *testing.T) {
	normal, changed := shopBoth(t, CopyChanged)
	for _, p := range surfacePages {
		a, b := normal.get(p).Body, changed.get(p).Body
		if !slices.Equal(stableSurface(a), stableSurface(b)) {
			t.Errorf("%s: controls, headings or prices differ:\nnormal:  %q\nchanged: %q", p, stableSurface(a), stableSurface(b))
		}
		if a == b {
			t.Errorf("%s: no copy changed", p)
		}
	}
	wantContains(t, "changed products", changed.get("/products").Body, "Fresh arrivals this week")
	wantNotContains(t, "changed products", changed.get("/products").Body, "New phones are in")
}

func TestIDsChurned(t *testing.T) {
	normal, churned := shopBoth(t, IDsChurned)
	generated := func(ids []string) (gen, stable []string) {
		for _, id := range ids {
			if strings.HasPrefix(id, ":r") || strings.HasPrefix(id, "ember") {
				gen = append(gen, id)
			} else {
				stable = append(stable, id)
			}
		}
		slices.Sort(stable)
		return gen, stable
	}
	for _, p := range surfacePages {
		a, b := normal.get(p).Body, churned.get(p).Body
		if !slices.Equal(stableSurface(a), stableSurface(b)) {
			t.Errorf("%s: controls, headings or prices differ", p)
		}
		genA, stableA := generated(allMatches(reID, a, 1))
		genB, stableB := generated(allMatches(reID, b, 1))
		if !slices.Equal(stableA, stableB) {
			t.Errorf("%s: hand-written ids differ: %q vs %q", p, stableA, stableB)
		}
		if len(genA) != len(genB) {
			t.Errorf("%s: %d generated ids, churned has %d", p, len(genA), len(genB))
		}
		for _, id := range genA {
			if slices.Contains(genB, id) {
				t.Errorf("%s: generated id %q did not change", p, id)
			}
		}
	}
	nav := func(body string) string {
		i := strings.Index(body, `<nav aria-label="Main">`)
		return text(body[i : i+strings.Index(body[i:], "</nav>")])
	}
	if got := nav(normal.get("/cart").Body); got != "Products Orders Cart 2 items" {
		t.Errorf("normal nav = %q", got)
	}
	if got := nav(churned.get("/cart").Body); got != "Cart 2 items Orders Products" {
		t.Errorf("churned nav = %q, want the links in reverse order", got)
	}
	product := churned.get("/products/iphone-17").Body
	if strings.Index(product, "<summary>Specifications") > strings.Index(product, `class="description"`) {
		t.Errorf("churned product page keeps the description before the specifications")
	}
}

func TestReordered(t *testing.T) {
	normal, reordered := shopBoth(t, Reordered)
	for _, p := range []string{"/products", "/products?q=iphone", "/products?q=audio"} {
		a := allMatches(reCardName, normal.get(p).Body, 1)
		b := allMatches(reCardName, reordered.get(p).Body, 1)
		slices.Reverse(b)
		if len(a) < 2 || !slices.Equal(a, b) {
			t.Errorf("%s: reordered names reversed = %q, want %q", p, b, a)
		}
	}
	if a, b := normal.get("/checkout").Body, reordered.get("/checkout").Body; a != b {
		t.Errorf("reordered changes the checkout, which has no product list")
	}
}

func TestVariantHeader(t *testing.T) {
	srv := newServer(t, Options{Variant: PriceChanged})
	tests := []struct {
		header string
		status int
		want   string
	}{
		{"", http.StatusOK, "$829.00"},
		{"normal", http.StatusOK, "$799.00"},
		{Reordered, http.StatusOK, "$799.00"},
		{PriceChanged, http.StatusOK, "$829.00"},
		{"bogus", http.StatusBadRequest, "use one of price-changed, control-removed"},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			c := newClient(t, srv)
			c.login()
			if tt.header != "" {
				c.header.Set(VariantHeader, tt.header)
			}
			r := c.get("/products/iphone-17")
			if r.Status != tt.status {
				t.Fatalf("GET with %s: %q = %d, want %d", VariantHeader, tt.header, r.Status, tt.status)
			}
			wantContains(t, "page", r.Body, tt.want)
		})
	}
}

// TestMutations: each mutation changes what its name says, and nothing a
// flow checks unless the variant table says so.
func TestMutations(t *testing.T) {
	shop := func(variant string) *client {
		c := newClient(t, newServer(t, Options{Variant: variant}))
		c.login()
		c.add("iphone-17", 1)
		return c
	}
	t.Run(ApplyRenamed, func(t *testing.T) {
		c := shop(ApplyRenamed)
		wantContains(t, "checkout", c.get("/checkout").Body, `<button type="submit">Redeem</button>`)
		wantNotContains(t, "checkout", c.get("/checkout").Body, `>Apply</button>`)
		c.post("/checkout/discount", url.Values{"code": {"SUMMER"}})
		wantContains(t, "checkout", c.get("/checkout").Body, "SUMMER applied: 10% off")
	})
	t.Run(SignInRenamed, func(t *testing.T) {
		c := newClient(t, newServer(t, Options{Variant: SignInRenamed}))
		login := c.get("/login").Body
		wantContains(t, "login", login, `<button class="primary" type="submit">Log in</button>`)
		wantNotContains(t, "login", login, ">Sign in</button>")
	})
	t.Run(DiscountMoved, func(t *testing.T) {
		body := shop(DiscountMoved).get("/checkout").Body
		if d, p := strings.Index(body, `class="discount"`), strings.Index(body, `data-testid="place-order"`); d < 0 || p < 0 || d < p {
			t.Errorf("the discount section (at %d) does not follow the Place order button (at %d)", d, p)
		}
	})
	t.Run(ApplyWrapped, func(t *testing.T) {
		wantContains(t, "checkout", shop(ApplyWrapped).get("/checkout").Body,
			`<div class="field-actions"><span class="button-wrap"><button type="submit">Apply</button></span></div>`)
	})
	t.Run(DiscountConfirm, func(t *testing.T) {
		c := shop(DiscountConfirm)
		c.post("/checkout/discount", url.Values{"code": {"summer"}})
		page := c.get("/checkout").Body
		wantContains(t, "checkout", page, "Apply SUMMER to this order?", ">Confirm discount</button>", `data-testid="order-total">$799.00<`)
		wantNotContains(t, "checkout", page, "applied: 10% off")
		if again := c.get("/checkout").Body; strings.Contains(again, "Confirm discount") {
			t.Errorf("the question is shown again on the next visit")
		}
		c.post("/checkout/discount", url.Values{"code": {"SUMMER"}, "confirm": {"1"}})
		wantContains(t, "checkout", c.get("/checkout").Body, "SUMMER applied: 10% off", `data-testid="order-total">$719.10<`)
	})
	t.Run(LoginReordered, func(t *testing.T) {
		login := newClient(t, newServer(t, Options{Variant: LoginReordered})).get("/login").Body
		if u, p := strings.Index(login, `id="username"`), strings.Index(login, `id="password"`); u < 0 || p < 0 || p > u {
			t.Errorf("the password field (at %d) does not come before the username (at %d)", p, u)
		}
	})
	t.Run(LoginOptionalField, func(t *testing.T) {
		c := newClient(t, newServer(t, Options{Variant: LoginOptionalField}))
		wantContains(t, "login", c.get("/login").Body, `<label for="one-time-code">One-time code (optional)</label>`)
		c.login()
		if r := c.get("/products"); r.Status != http.StatusOK {
			t.Errorf("signing in without the optional field: GET /products = %d", r.Status)
		}
	})
	t.Run(DiscountRefused, func(t *testing.T) {
		c := shop(DiscountRefused)
		wantContains(t, "checkout", c.get("/checkout").Body, `<button type="submit">Redeem</button>`)
		c.post("/checkout/discount", url.Values{"code": {"SUMMER"}})
		page := c.get("/checkout").Body
		wantContains(t, "checkout", page, "“SUMMER” has expired.", `data-testid="order-total">$799.00<`)
		wantNotContains(t, "checkout", page, "applied: 10% off")
	})
}
