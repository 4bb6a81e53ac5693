package steps

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Whole recordings, and the trail files they make: testdata/steps/
// <name>.golden.yaml holds what MarshalTrail writes for the built trail,
// <name>.notes.golden the secrets it needs and the notes. go test -update
// rewrites them.

// recordBuyWithDiscount is the flow of the recording e2e test (issue 5,
// host/demo/FLOWS.md): sign in with a password, search, add two items,
// apply a discount code, check the total and the URL, recorded as the
// extension reports it (focus clicks, navigations, a typed start URL).
func recordBuyWithDiscount() (*session, *screen.Screen) {
	s := newSession().nav("/login", "typed")
	l0, l1, l2 := loginPage("", "false", false), loginPage("ada", "false", false), loginPage("ada", "false", false)
	s.click(l0, "user").typ(l0, "user", "ada").
		click(l1, "pass").secret(l1, "pass", "password").
		click(l2, "signin").after(400).nav("/login", "form").after(50).nav("/products", "redirect")
	p := productsPage("products", "", 0, "")
	s.assertURL(p).click(p, "products-q").typ(p, "products-q", "iphone").press(p, "Enter").after(300).nav("/products?q=iphone", "form")
	q0 := productsPage("search", "iphone", 0, "")
	s.assertURL(q0).assertVisible(q0, "search-results").click(q0, "search-add-p17")
	q1 := productsPage("search", "iphone", 1, "Added iPhone 17 to your cart.")
	s.assertVisible(q1, "search-status").click(q1, "search-add-case")
	q2 := productsPage("search", "iphone", 2, "Added iPhone 17 Silicone Case to your cart.")
	s.assertVisible(q2, "search-status").click(q2, "search-cart-label").after(200).nav("/cart", "link")
	c := cartPage("cart")
	s.assertURL(c).click(c, "cart-review").after(200).nav("/checkout", "link")
	co := checkoutPage("co", checkoutState{})
	coTyped := checkoutPage("co", checkoutState{code: "SUMMER"})
	s.assertURL(co).click(co, "co-code").typ(co, "co-code", "SUMMER").click(coTyped, "co-apply").
		after(300).nav("/checkout/discount", "form").after(50).nav("/checkout", "redirect")
	applied := checkoutPage("co2", checkoutState{applied: true})
	s.assertVisible(applied, "co2-discount-status").assertVisible(applied, "co2-total").assertURL(applied)
	return s, applied
}

// recordCheckoutAndReceipt fills the delivery form (a select, a file, a
// checkbox by its label), undoes a stray click, places the order through
// a confirm dialog and opens the receipt in a new tab.
func recordCheckoutAndReceipt() (*session, *screen.Screen) {
	s := newSession()
	st := checkoutState{applied: true}
	c0 := checkoutPage("co2", st)
	s.click(c0, "co2-fullname").typ(c0, "co2-fullname", "Ada Lovelace")
	st.name = "Ada Lovelace"
	c1 := checkoutPage("co2", st)
	s.click(c1, "co2-country").choose(c1, "co2-country", "Germany")
	st.country = "Germany"
	c2 := checkoutPage("co2", st)
	s.click(c2, "co2-summary-h").undo().
		click(c2, "co2-gift-note").upload(c2, "co2-gift-note", "gift-note.txt")
	st.note = "gift-note.txt"
	c3 := checkoutPage("co2", st)
	s.click(c3, "co2-wrap-label")
	st.giftWrap = true
	c4 := checkoutPage("co2", st)
	s.assertState(c4, "co2-wrap", trail.StateChecked, "true").
		click(c4, "co2-place").after(3000).dialog("confirm", "Place this order?", true, "").
		after(100).nav("/checkout/place", "form").after(50).nav("/orders/TP-1001", "redirect")
	o := orderPage("order")
	s.assertVisible(o, "order-h1").click(o, "order-receipt").after(700).
		switchTab(2, "/orders/TP-1001/receipt", "Receipt")
	r := receiptPage("receipt")
	s.assertVisible(r, "receipt-total").assertURL(r)
	return s, r
}

// recordAccount marks the signed-in address sensitive, removes the billing
// address through the page's own dialog, adds the sensitive address again
// and checks what is shown.
func recordAccount() (*session, *screen.Screen) {
	s := newSession()
	a := accountPage("acct", false)
	s.mark(a, "acct-who-email").click(a, "acct-addr-rm-b")
	d := accountPage("acct", true)
	s.click(d, "acct-dialog-ok")
	a2 := accountPageWith("acct", false, false)
	s.assertNotVisible(a2, "billing@example.org").assertVisible(a2, "acct-who-email").
		click(a2, "acct-new").typ(a2, "acct-new", testSensitive).click(a2, "acct-add")
	return s, a2
}

func TestBuildStepsGolden(t *testing.T) {
	recordings := []struct {
		name string
		rec  func() (*session, *screen.Screen)
	}{
		{"buy-with-discount", recordBuyWithDiscount},
		{"checkout-and-receipt", recordCheckoutAndReceipt},
		{"account", recordAccount},
	}
	for _, r := range recordings {
		t.Run(r.name, func(t *testing.T) {
			s, final := r.rec()
			o := BuildOptions{BaseURL: shopOrigin}
			bt, err := BuildSteps(s.recs, final, o)
			if err != nil {
				t.Fatalf("BuildSteps(%s) failed: %v", r.name, err)
			}
			out := checkBuilt(t, s.recs, final, o, bt, []string{testPassword, testSensitive})
			var notes strings.Builder
			notes.WriteString("start: " + bt.Start + "\n")
			notes.WriteString("secrets: " + strings.Join(bt.Secrets, ", ") + "\n")
			for _, n := range bt.Notes {
				notes.WriteString("note: " + n + "\n")
			}
			golden.Check(t, filepath.Join("testdata", "steps", r.name+".golden.yaml"), out)
			golden.Check(t, filepath.Join("testdata", "steps", r.name+".notes.golden"), []byte(notes.String()))
		})
	}
}
