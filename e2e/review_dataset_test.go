package e2e

import (
	"net/http/httptest"
	"os"
	"testing"

	"github.com/trailpin/trailpin/host/demo"
)

// TestRecordReviewDataset records the flows the save-time review's
// dataset is built from (docs/review.md, "The dataset"): the demo shop's
// long flow below and the flow of every real app, each through the real
// extension, each recording's database kept in the folder
// TRAILPIN_REVIEW_RECORD names (<app>.db). `host review --dataset-of`
// then writes each saved trail's steps, with the screens they were
// recorded on, as unlabelled dataset lines. Without the variable the test
// is skipped: it records, it checks nothing a replay test does not.
func TestRecordReviewDataset(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("TRAILPIN_REVIEW_RECORD")
	if dir == "" {
		t.Skip("set TRAILPIN_REVIEW_RECORD=DIR to record the review dataset's sessions into DIR")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("shop", func(t *testing.T) {
		srv := httptest.NewServer(demo.New(demo.Options{}))
		defer srv.Close()
		rec := recordRealApp(t, &realApp{name: "shop", start: "/login"}, srv.URL, shopDatasetFlow)
		t.Logf("shop: %d steps", len(rec.trail.Steps))
	})
	for _, app := range []struct {
		a    *realApp
		flow []flowAct
	}{{todoMVC, todoFlow}, {uikit, uikitFlow}, {swaggerUI, swaggerFlow}, {sbAdmin, sbAdminFlow}} {
		t.Run(app.a.name, func(t *testing.T) {
			srv := serveApp(t, app.a, serveOptions{})
			rec := recordRealApp(t, app.a, srv.URL, app.flow)
			t.Logf("%s: %d steps", app.a.name, len(rec.trail.Steps))
		})
	}
}

// shopNewPage waits for a page of the shop that the flow has not seen yet
// (each page it waits for is marked seen), so that the next action finds
// the recording bar of the new page, not of the one it left.
const shopNewPage = "document.readyState === 'complete' && !window.trailpinDatasetSeen && (window.trailpinDatasetSeen = true)"

// shopLoad is a click that loads a page of the shop.
func shopLoad(css string) flowAct {
	return flowAct{Do: "click", CSS: css, Load: true, Wait: shopNewPage}
}

// shopCard is the product card of slug on the catalogue.
func shopCard(slug string) string { return `li:has(a[href="/products/` + slug + `"])` }

// shopDatasetFlow walks the shop the way a person checks it: prices,
// counts, totals, an order number and the orders list, beside the taps
// and typing that get there.
var shopDatasetFlow = []flowAct{
	click("#username", "(window.trailpinDatasetSeen = true)"),
	typeText(demo.Username, ""),
	click("#password", ""),
	typeText(demo.Password, ""),
	shopLoad("form button.primary"),
	assertVisible("main h1"),
	assertVisible("#result-summary"),
	assertVisible(shopCard("iphone-17") + " [data-testid=price]"),
	assertVisible(shopCard("pixel-10") + " [data-testid=price]"),
	assertVisible(shopCard("galaxy-s26") + " .stock"),
	assertVisible(shopCard("airpods-pro") + " h2 a"),
	assertVisible(shopCard("iphone-17") + " button[data-testid=add-to-cart]"),
	shopLoad(shopCard("iphone-17") + " button[data-testid=add-to-cart]"),
	assertVisible("p.flash"),
	assertVisible("a[data-testid=cart-link] .count"),
	shopLoad(shopCard("airpods-pro") + " button[data-testid=add-to-cart]"),
	shopLoad(shopCard("usb-c-charger") + " button[data-testid=add-to-cart]"),
	assertVisible("a[data-testid=cart-link] .count"),
	shopLoad("a[data-testid=cart-link]"),
	assertVisible("main h1"),
	assertVisible(`tr:has(a[href="/products/iphone-17"]) [data-testid=line-total]`),
	assertVisible(`tr:has(a[href="/products/airpods-pro"]) td:nth-of-type(1)`),
	assertVisible("[data-testid=cart-subtotal]"),
	shopLoad(`button[aria-label="Increase quantity of iPhone 17"]`),
	assertVisible(`tr:has(a[href="/products/iphone-17"]) [data-testid=line-total]`),
	assertValue(`tr:has(a[href="/products/iphone-17"]) input[type=number]`),
	assertVisible("[data-testid=cart-subtotal]"),
	shopLoad(`button[aria-label="Remove USB-C Charger 30W"]`),
	assertVisible(`tr:has(a[href="/products/airpods-pro"]) th a`),
	shopLoad("a[data-testid=checkout-link]"),
	assertVisible("main h1"),
	assertVisible("[data-testid=checkout-subtotal]"),
	assertVisible("[data-testid=order-total]"),
	assertVisible(".summary dl dd:nth-of-type(1)"),
	click("button[data-disclosure]", "!document.querySelector('#summary-items').hidden"),
	assertVisible("#summary-items li:nth-of-type(1) .price"),
	assertVisible("#summary-items li:nth-of-type(2)"),
	click("#discount-code", ""),
	typeText("SUMMER", ""),
	shopLoad(".discount button[type=submit]"),
	assertVisible("[data-testid=discount-status]"),
	assertVisible("[data-testid=discount-amount]"),
	assertVisible("[data-testid=order-total]"),
	click("#full-name", ""),
	typeText("Ada Lovelace", ""),
	click("#terms", "document.querySelector('#terms').checked"),
	assertValue("#full-name"),
	click("#full-name", ""),
	press("Tab", "document.activeElement && document.activeElement.id === 'country'"),
	typeText("Japan", "document.querySelector('#country').value === 'Japan'"),
	assertValue("#country"),
	assertVisible("[data-testid=place-order]"),
	assertVisible("label[for=terms]"),
	click("button[aria-controls=account-menu]", "!document.querySelector('#account-menu').hidden"),
	shopLoad(`#account-menu a[href="/orders"]`),
	assertVisible("main h1"),
	assertVisible("main p.empty"),
	shopLoad(`main a[href="/products"]`),
	assertVisible(shopCard("iphone-18") + " [data-testid=price]"),
	assertVisible(shopCard("iphone-18") + " .stock"),
	assertVisible(shopCard("studio-headphones") + " .stock"),
	assertVisible(shopCard("studio-headphones") + " [data-testid=price]"),
	assertVisible(shopCard("smart-watch") + " h2 a"),
	assertVisible(shopCard("smart-watch") + " .category"),
	assertVisible(shopCard("e-reader") + " [data-testid=price]"),
	assertVisible(shopCard("wireless-mouse") + " button[data-testid=add-to-cart]"),
	assertVisible("a[data-testid=cart-link] .count"),
	click("header input[type=search]", ""),
	typeText("pixel", ""),
	{Do: "press", Key: "Enter", Load: true, Wait: shopNewPage},
	assertVisible("#result-summary"),
	assertVisible(shopCard("pixel-10") + " [data-testid=price]"),
	shopLoad(shopCard("pixel-10") + " h2 a"),
	assertVisible("#product-name"),
	assertVisible("main [data-testid=price]"),
	assertVisible("main h1"),
	shopLoad("main button[data-testid=add-to-cart]"),
	assertVisible("a[data-testid=cart-link] .count"),
	shopLoad("a[data-testid=cart-link]"),
	assertVisible(`tr:has(a[href="/products/pixel-10"]) [data-testid=line-total]`),
	assertVisible("[data-testid=cart-subtotal]"),
}
