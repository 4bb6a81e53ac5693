package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
)

// browserDeadline only catches a browser test that hangs: each wait inside a
// test is bounded by its own condition's limit. A whole flow of 75 steps
// took over two minutes on a two-core machine with other work beside it, so
// this is far above what a slow machine needs.
const browserDeadline = 10 * time.Minute

// shared is the one Chromium that the browser tests share; each test gets a
// browser context of its own (its own cookies) in a new tab.
var shared struct {
	once    sync.Once
	ctx     context.Context
	cancel  []context.CancelFunc
	dir     string
	missing error // no browser to start
	failure error
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, cancel := range shared.cancel {
		cancel()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// launch starts the shared browser, once.
func launch() {
	path, err := browser.FindChrome()
	if err != nil {
		shared.missing = err
		return
	}
	if shared.dir, err = os.MkdirTemp("", "demo-browser-"); err != nil {
		shared.failure = err
		return
	}
	opts, err := browser.AllocatorOptions(browser.LaunchOptions{
		ExecPath: path, Headless: true, UserDataDir: shared.dir, Width: 1280, Height: 900,
	})
	if err != nil {
		shared.failure = err
		return
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	shared.cancel = []context.CancelFunc{cancelBrowser, cancelAlloc}
	// The first Do starts the browser and binds it to browserCtx, which has
	// no deadline; each test's tab gets one.
	if err := chromedp.Do(browserCtx); err != nil {
		shared.failure = fmt.Errorf("starting Chromium: %w", err)
		return
	}
	shared.ctx = browserCtx
}

// requireBrowser starts the shared browser, or skips the test when there is
// none (or with -short).
func requireBrowser(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	shared.once.Do(launch)
	if shared.missing != nil {
		browsertest.Missing(t, shared.missing)
	}
	if shared.failure != nil {
		t.Fatal(shared.failure)
	}
}

// startBrowser returns a context for a new tab in a fresh browser context of
// the shared browser, with the test's deadline.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	requireBrowser(t)
	tabCtx, cancelTab := chromedp.NewContext(shared.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(tabCtx, browserDeadline)
	t.Cleanup(cancel)
	return ctx
}

// must runs actions and fails the test on the first error.
func must(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// navigates runs an action that loads a page and checks where it landed.
func navigates(t *testing.T, ctx context.Context, what, wantPath string, action chromedp.Action[chromedp.Void]) {
	t.Helper()
	resp, err := chromedp.RunResponse(ctx, action)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	u, err := url.Parse(resp.URL)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != http.StatusOK || u.RequestURI() != wantPath {
		t.Fatalf("%s: landed on %s with %d, want %s with 200", what, u.RequestURI(), resp.Status, wantPath)
	}
}

// press types one key the way a keyboard does: a keyDown that carries its
// text, then a keyUp. A page that cancels the keyDown then gets no
// character, as with a real keyboard. (chromedp.KeyEvent sends the character
// as a separate char event, which a cancelled keyDown does not suppress.)
func press(t *testing.T, ctx context.Context, key, code string, keyCode int64) {
	t.Helper()
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		p := input.DispatchKeyEventParams{Type: typ, Key: key, Code: code, WindowsVirtualKeyCode: keyCode, NativeVirtualKeyCode: keyCode}
		if typ == input.DispatchKeyEventTypeKeyDown {
			p.Text = key
		}
		if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, p); err != nil {
			t.Fatalf("pressing %s: %v", key, err)
		}
	}
}

// goHistory goes back (delta -1) or forward (+1) and waits until the page at
// wantPath is complete. It does not wait for a load event: Chromium restores
// pages from its back/forward cache without one, even pages sent with
// Cache-Control: no-store.
func goHistory(t *testing.T, ctx context.Context, delta int, wantPath string) {
	t.Helper()
	h, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(h.Entries) {
		t.Fatalf("no history entry %d from %d", delta, h.CurrentIndex)
	}
	if _, err := chromedp.Call(ctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
		t.Fatalf("going to history entry %s: %v", h.Entries[i].URL, err)
	}
	// The page's JavaScript context changes under the wait, so each check
	// is a fresh evaluation, retried until it holds.
	check := fmt.Sprintf(`location.pathname + location.search === %q && document.readyState === 'complete'`, wantPath)
	tick := time.NewTicker(historyPollInterval)
	defer tick.Stop()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](check))
		if err == nil && ok {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s after going %+d in history: %v (last check: %v)", wantPath, delta, ctx.Err(), err)
		case <-tick.C:
		}
	}
}

// historyPollInterval is how often goHistory checks the page.
const historyPollInterval = 50 * time.Millisecond

// poll waits until the JavaScript expression is true.
func poll(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// wantText checks an element's rendered text (innerText, so block children
// are separate lines).
func wantText(t *testing.T, ctx context.Context, css, want string) {
	t.Helper()
	got := eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q)?.innerText ?? "(no element)"`, css))
	if got != want {
		t.Errorf("text of %s = %q, want %q", css, got, want)
	}
}

// buttonIn finds a button by its text within the article whose heading link
// reads card, the way a person reads a product card.
func buttonIn(card, button string) string {
	return fmt.Sprintf(`//article[.//a[normalize-space()=%q]]//button[normalize-space()=%q]`, card, button)
}

// hover moves the mouse to the centre of the element.
func hover(t *testing.T, ctx context.Context, css string) {
	t.Helper()
	box := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, css))
	must(t, ctx, "hover "+css, chromedp.MouseEvent(chromedp.MouseMoved, box[0], box[1]))
}

// checkNames fails for every control in the page's accessibility tree (as
// Chromium computes it) that has no accessible name.
func checkNames(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatalf("%s: reading the accessibility tree: %v", page, err)
	}
	controls := map[string]bool{"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
		"combobox": true, "spinbutton": true, "dialog": true, "navigation": true, "search": true, "article": true}
	landmarks := map[string]bool{}
	for _, n := range res.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		var role, name string
		json.Unmarshal(n.Role.Value, &role)
		if n.Name != nil {
			json.Unmarshal(n.Name.Value, &name)
		}
		landmarks[role] = true
		if controls[role] && strings.TrimSpace(name) == "" && role != "search" && role != "navigation" {
			t.Errorf("%s: a %s has no accessible name", page, role)
		}
	}
	if !landmarks["main"] {
		t.Errorf("%s: no main landmark", page)
	}
}

// TestBrowserPurchase is the smoke test: a person's purchase in real
// Chromium, with trusted mouse and keyboard input.
func TestBrowserPurchase(t *testing.T) {
	t.Parallel()
	ctx := startBrowser(t)
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	giftNote := filepath.Join(t.TempDir(), "gift-note.txt")
	if err := os.WriteFile(giftNote, []byte("Happy birthday, Charles!"), 0o600); err != nil {
		t.Fatal(err)
	}

	navigates(t, ctx, "open the login page", "/login", chromedp.Navigate(srv.URL+"/login"))
	checkNames(t, ctx, "/login")
	must(t, ctx, "type the credentials",
		chromedp.Click(chromedp.ID("username")), chromedp.KeyEvent(Username),
		chromedp.Click(chromedp.ID("password")), chromedp.KeyEvent(Password),
		chromedp.Click(chromedp.CSS(`label[for=remember]`)),
	)
	if !eval[bool](t, ctx, `document.getElementById('remember').checked`) {
		t.Errorf("clicking the Remember me label did not check the box")
	}
	navigates(t, ctx, "press Enter to sign in", "/products", chromedp.KeyEvent("\r"))
	checkNames(t, ctx, "/products")

	// "/" moves to the search field; typing there then searches.
	press(t, ctx, "/", "Slash", 191)
	if got := eval[string](t, ctx, `document.activeElement.getAttribute('name')`); got != "q" {
		t.Fatalf("after pressing /, the focus is on %q, want the search field", got)
	}
	navigates(t, ctx, "search for iphone", "/products?q=iphone", chromedp.KeyEvent("iphone\r"))
	wantText(t, ctx, "#result-summary", "3 results for “iphone”")

	navigates(t, ctx, "add iPhone 17", "/products?q=iphone", chromedp.Click(buttonIn("iPhone 17", "Add to cart")))
	wantText(t, ctx, ".flash", "Added iPhone 17 to your cart.")
	navigates(t, ctx, "add the case", "/products?q=iphone", chromedp.Click(buttonIn("iPhone 17 Silicone Case", "Add to cart")))
	wantText(t, ctx, ".flash", "Added iPhone 17 Silicone Case to your cart.")
	wantText(t, ctx, `[data-testid=cart-link]`, "Cart\n2 items")

	navigates(t, ctx, "open the cart", "/cart", chromedp.Click(chromedp.CSS(`[data-testid=cart-link]`)))
	checkNames(t, ctx, "/cart")
	wantText(t, ctx, `[data-testid=checkout-link]`, "Review order\n2 items")
	navigates(t, ctx, "review the order", "/checkout", chromedp.Click(chromedp.CSS(`[data-testid=checkout-link]`)))
	checkNames(t, ctx, "/checkout")

	must(t, ctx, "type the discount code", chromedp.Click(chromedp.ID("discount-code")), chromedp.KeyEvent("summer"))
	navigates(t, ctx, "apply the code", "/checkout", chromedp.Click(`//button[normalize-space()="Apply"]`))
	wantText(t, ctx, `[role=status][data-testid=discount-status]`, "SUMMER applied: 10% off")
	wantText(t, ctx, `[data-testid=order-total]`, "$763.20")

	must(t, ctx, "fill in the delivery",
		chromedp.Click(chromedp.ID("full-name")), chromedp.KeyEvent("Ada Lovelace"),
		chromedp.Focus(chromedp.ID("country")), chromedp.KeyEvent("Canada"),
		chromedp.SetUploadFiles(chromedp.CSS(`input[type=file]`), []string{giftNote}),
		chromedp.Click(chromedp.ID("terms")),
	)
	if got := eval[string](t, ctx, `document.getElementById('country').value`); got != "Canada" {
		t.Errorf("typing Canada on the country select chose %q", got)
	}
	wantText(t, ctx, "#gift-note-name", "Chosen: gift-note.txt")

	// Place order asks with confirm(); dismiss it once, then accept.
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	var (
		mu       sync.Mutex
		messages []string
	)
	answers := []bool{false, true}
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			mu.Lock()
			messages = append(messages, ev.Message)
			accept := answers[min(len(messages), len(answers))-1]
			mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
		}
	}()
	must(t, ctx, "place the order and dismiss the question", chromedp.Click(chromedp.CSS(`[data-testid=place-order]`)))
	poll(t, ctx, "wait for the refusal", `document.getElementById('place-order-status').textContent === 'The order was not placed.'`)
	navigates(t, ctx, "place the order and accept", "/orders/1001", chromedp.Click(chromedp.CSS(`[data-testid=place-order]`)))
	mu.Lock()
	if want := []string{"Place order for $763.20?", "Place order for $763.20?"}; fmt.Sprint(messages) != fmt.Sprint(want) {
		t.Errorf("confirm dialogs = %q, want %q", messages, want)
	}
	mu.Unlock()
	checkNames(t, ctx, "/orders/1001")
	wantText(t, ctx, `[data-testid=order-number]`, "Order TP-1001 is confirmed.")
	wantText(t, ctx, `[data-testid=order-total]`, "$763.20")
	if body := eval[string](t, ctx, `document.body.innerText`); !strings.Contains(body, "Ada Lovelace, Canada") || !strings.Contains(body, "gift-note.txt") {
		t.Errorf("the confirmation lacks the delivery or the gift note:\n%s", body)
	}

	// The receipt opens in a new tab.
	opened := chromedp.WaitNewTarget(ctx, func(info *target.Info) bool { return strings.HasSuffix(info.URL, "/orders/1001/receipt") })
	must(t, ctx, "open the receipt", chromedp.Click(`//a[normalize-space()="Printable receipt"]`))
	var receiptID target.ID
	select {
	case receiptID = <-opened:
	case <-ctx.Done():
		t.Fatalf("the receipt tab did not open: %v", ctx.Err())
	}
	receiptCtx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(receiptID))
	defer cancel()
	poll(t, receiptCtx, "wait for the receipt", `document.readyState === 'complete' && document.title !== ''`)
	if title := eval[string](t, receiptCtx, `document.title`); title != "Receipt TP-1001 — Trailpin Demo Shop" {
		t.Errorf("receipt tab title = %q", title)
	}

	// Back and forward move between the confirmation and the checkout.
	goHistory(t, ctx, -1, "/checkout")
	goHistory(t, ctx, +1, "/orders/1001")
	wantText(t, ctx, `[data-testid=order-number]`, "Order TP-1001 is confirmed.")
}

// TestBrowserWidgets exercises the hover menu, the disclosure, the tooltip and
// the dialog that Escape closes.
func TestBrowserWidgets(t *testing.T) {
	t.Parallel()
	ctx := startBrowser(t)
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	navigates(t, ctx, "open the login page", "/login", chromedp.Navigate(srv.URL+"/login"))
	must(t, ctx, "sign in", chromedp.SendKeys(chromedp.ID("username"), Username), chromedp.SendKeys(chromedp.ID("password"), Password))
	navigates(t, ctx, "sign in", "/products", chromedp.Click(`//button[normalize-space()="Sign in"]`))

	navigates(t, ctx, "open a product", "/products/iphone-17", chromedp.Click(`//a[normalize-space()="iPhone 17"]`))
	checkNames(t, ctx, "/products/iphone-17")
	specsOpen := `document.querySelector('details.specs').open`
	if eval[bool](t, ctx, specsOpen) {
		t.Errorf("specifications are open before a click")
	}
	must(t, ctx, "open the specifications", chromedp.Click(`//summary[normalize-space()="Specifications"]`))
	if !eval[bool](t, ctx, specsOpen) {
		t.Errorf("specifications stay closed after a click")
	}
	must(t, ctx, "open the shipping dialog", chromedp.Click(`//button[normalize-space()="Shipping info"]`))
	if !eval[bool](t, ctx, `document.getElementById('shipping-dialog').open`) {
		t.Fatalf("the Shipping info button did not open the dialog")
	}
	must(t, ctx, "press Escape", chromedp.KeyEvent("\x1b"))
	poll(t, ctx, "wait for the dialog to close", `!document.getElementById('shipping-dialog').open`)

	panelHidden := `document.getElementById('account-menu').hidden`
	if !eval[bool](t, ctx, panelHidden) {
		t.Fatalf("the account menu is open before hovering")
	}
	hover(t, ctx, `[aria-controls=account-menu]`)
	must(t, ctx, "wait for the menu", chromedp.WaitVisible(`//button[normalize-space()="Sign out"]`))
	if got := eval[string](t, ctx, `document.querySelector('[aria-controls=account-menu]').getAttribute('aria-expanded')`); got != "true" {
		t.Errorf("hovering Account leaves aria-expanded=%q", got)
	}
	hover(t, ctx, "h1")
	if !eval[bool](t, ctx, panelHidden) {
		t.Errorf("the account menu stays open after the pointer left")
	}

	navigates(t, ctx, "add to cart", "/products/iphone-17", chromedp.Click(chromedp.CSS(`[data-testid=add-to-cart]`)))
	navigates(t, ctx, "go to the checkout", "/checkout", chromedp.Navigate(srv.URL+"/checkout"))
	must(t, ctx, "show the order items", chromedp.Click(`//button[normalize-space()="Order items"]`))
	if !eval[bool](t, ctx, `!document.getElementById('summary-items').hidden && document.querySelector('[aria-controls=summary-items]').getAttribute('aria-expanded') === 'true'`) {
		t.Errorf("the Order items disclosure did not open")
	}
	tipShown := `getComputedStyle(document.getElementById('discount-tip')).display !== 'none'`
	if eval[bool](t, ctx, tipShown) {
		t.Errorf("the discount tooltip shows before hovering")
	}
	hover(t, ctx, `[aria-describedby=discount-tip]`)
	poll(t, ctx, "wait for the tooltip", tipShown)

	goHistory(t, ctx, -1, "/products/iphone-17")
	wantText(t, ctx, ".in-cart", "In your cart: 1")
	goHistory(t, ctx, +1, "/checkout")
}

// TestBrowserBigPage checks that /big has the element count it promises and
// that its Continue button appears after the delay.
func TestBrowserBigPage(t *testing.T) {
	t.Parallel()
	ctx := startBrowser(t)
	srv := httptest.NewServer(New(Options{}))
	t.Cleanup(srv.Close)
	const n = 10000
	navigates(t, ctx, "open /big", fmt.Sprintf("/big?n=%d", n), chromedp.Navigate(fmt.Sprintf("%s/big?n=%d", srv.URL, n)))
	// The Continue button may already be there on a slow machine; the
	// count is of the page as served.
	elements := eval[int](t, ctx, `document.getElementsByTagName('*').length - document.querySelectorAll('#later *').length`)
	if elements > n || elements <= n-bigRowElements {
		t.Errorf("/big?n=%d has %d elements, want at most %d and more than %d", n, elements, n, n-bigRowElements)
	}
	must(t, ctx, "open the target", chromedp.Click(`//button[normalize-space()="Open target"]`))
	wantText(t, ctx, "#big-status", "Target opened")
	must(t, ctx, "wait for Continue", chromedp.WaitVisible(`//button[normalize-space()="Continue"]`))
	must(t, ctx, "continue", chromedp.Click(`//button[normalize-space()="Continue"]`))
	wantText(t, ctx, "#big-status", "Continued after the wait")
}
