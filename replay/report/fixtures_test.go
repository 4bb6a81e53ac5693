package report

import (
	"bytes"
	"sync"
	"time"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// runStart is when the sample run started; every time in it is relative to
// this, so outputs are the same on every machine.
var runStart = time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)

func at(ms int) time.Time { return runStart.Add(time.Duration(ms) * time.Millisecond) }

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

const (
	loginAria = `- textbox "Username" [ref=e12]: ada
- textbox "Password" [ref=e13]
- checkbox "Remember me" [checked] [ref=e14]
- button "Sign in" [ref=e15]`
	productsAria = `- link "Products" [ref=e3]
- link "Cart 0 items" [ref=e4]
- button "Account" [ref=e5]
- searchbox "Search products" [ref=e8]`
	checkoutAria = `- textbox "Discount code" [ref=e31]: SUMMER
- button "Apply" [ref=e32]
- button "Remove code" [ref=e33]
- textbox "Full name" [ref=e40]
- button "Place order" [ref=e47]`
	bigAriaBefore = `- button "Open target" [ref=e5002]`
	bigAria       = `- button "Open target" [ref=e5002]
- button "Continue" [ref=e10007]`
)

// signIn is a trail that passed at its first attempt, run by worker 1.
func signIn() replay.TrailResult {
	return replay.TrailResult{
		File: "trails/sign-in.trail.yaml", Slug: "sign-in", Title: "Sign in",
		Attempt: 1, Status: replay.StatusPassed,
		Started: at(100), Duration: ms(1840),
		Steps: []replay.StepResult{
			{Index: 1, Intent: "Open the sign-in page", Line: 8, Status: replay.StatusPassed, Path: "/login",
				Started: at(100), Duration: ms(310), ModelCalls: 0, Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionNavigate, Line: 10, Status: replay.StatusPassed, Duration: ms(305), Summary: "went to /login"},
				}},
			{Index: 2, Intent: "Sign in as ada, remembered on this device", Line: 11, Status: replay.StatusPassed, Path: "/login",
				Started: at(410), Duration: ms(920), Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionType, Line: 13, Status: replay.StatusPassed, Duration: ms(120),
						Summary: `typed "ada" into textbox "Username"`, Landed: `- textbox "Username" [ref=e12]`},
					{Kind: trail.ActionType, Line: 14, Status: replay.StatusPassed, Duration: ms(110),
						Summary: `typed ${secret:demo-password} into textbox "Password"`, Landed: `- textbox "Password" [ref=e13]`},
					{Kind: trail.ActionCheck, Line: 15, Status: replay.StatusPassed, Duration: ms(90),
						Summary: `checked checkbox "Remember me"`, Landed: `- checkbox "Remember me" [ref=e14]`},
					{Kind: trail.ActionTap, Line: 16, Status: replay.StatusPassed, Duration: ms(600),
						Summary: `tapped button "Sign in"`, Landed: `- button "Sign in" [ref=e15]`},
				},
				Changes: []string{`removed: textbox "Username"`, `added: heading "Products" [level=1]`},
				Aria:    loginAria},
			{Index: 3, Intent: "The catalogue shows all 12 products", Line: 17, Status: replay.StatusPassed, Path: "/products",
				Started: at(1330), Duration: ms(610), Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionAssertURL, Line: 19, Status: replay.StatusPassed, Duration: ms(5), Summary: "the URL is /products"},
					{Kind: trail.ActionAssertVisible, Line: 20, Status: replay.StatusPassed, Duration: ms(4),
						Summary: `heading "Products" is visible`, Landed: `- heading "Products" [level=1] [ref=e7]`},
					{Kind: trail.ActionAssertVisible, Line: 21, Status: replay.StatusPassed, Duration: ms(600),
						Summary: `text "12 products" is visible`, Landed: `- paragraph [ref=e9]: 12 products`,
						Reads: []string{`no node with text "12 products" yet`, `paragraph: "12 products"`}},
				},
				Aria: productsAria},
		},
		Log: []replay.LogEntry{
			{Time: at(380), Step: 1, Kind: replay.LogNavigation, Text: "/login", URL: "http://127.0.0.1:4100/login"},
			{Time: at(1100), Step: 2, Kind: replay.LogNavigation, Text: "/products", URL: "http://127.0.0.1:4100/products"},
		},
	}
}

// buyWithDiscount is a trail that failed: the total is not what the trail
// expects (the price-changed shop). Run by worker 2, at the same time as
// sign-in.
func buyWithDiscount() replay.TrailResult {
	return replay.TrailResult{
		File: "trails/buy-two-iphone-items-with-a-discount.trail.yaml", Slug: "buy-two-iphone-items-with-a-discount",
		Title: "Buy two iPhone items with a discount", Attempt: 1, Status: replay.StatusFailed,
		Class: replay.ClassAppBug, Line: 52,
		Error:    `assertVisible {text: "$763.20"}: no visible node reads "$763.20"; the total reads "$790.20"`,
		Expected: "$763.20", Actual: "$790.20",
		Started: at(105), Duration: ms(4210),
		Steps: []replay.StepResult{
			{Index: 1, Intent: "Sign in", Line: 8, Status: replay.StatusPassed, Path: "/login",
				Started: at(105), Duration: ms(1200), Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionType, Line: 10, Status: replay.StatusPassed, Duration: ms(100), Summary: `typed "ada" into textbox "Username"`},
					{Kind: trail.ActionType, Line: 11, Status: replay.StatusPassed, Duration: ms(100), Summary: `typed ${secret:demo-password} into textbox "Password"`},
					{Kind: trail.ActionTap, Line: 12, Status: replay.StatusPassed, Duration: ms(1000), Summary: `tapped button "Sign in"`},
				},
				Aria: loginAria},
			{Index: 2, Intent: "Search for iphone | press Enter", Line: 14, Status: replay.StatusPassed, Path: "/products",
				Started: at(1305), Duration: ms(700), Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionType, Line: 16, Status: replay.StatusPassed, Duration: ms(100), Summary: `typed "iphone" into searchbox "Search products"`},
					{Kind: trail.ActionPress, Line: 17, Status: replay.StatusPassed, Duration: ms(600), Summary: "pressed Enter"},
				},
				Aria: productsAria},
			{Index: 3, Intent: "Add the iPhone 17 and its case\nto the cart", Line: 19, Status: replay.StatusPassed, Path: "/products?q=iphone",
				Started: at(2005), Duration: ms(1100), Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionTap, Line: 21, Status: replay.StatusPassed, Duration: ms(500), Summary: `tapped button "Add to cart" in article "iPhone 17"`},
					{Kind: trail.ActionTap, Line: 23, Status: replay.StatusPassed, Duration: ms(600), Summary: `tapped button "Add to cart" in article "iPhone 17 Silicone Case"`},
				},
				Aria: `- link "Cart 2 items" [ref=e4]
- article "iPhone 17" [ref=e20]
- button "Add to cart" [ref=e24]`},
			{Index: 4, Intent: "Apply the discount code SUMMER", Line: 44, Status: replay.StatusPassed, Path: "/checkout",
				Started: at(3105), Duration: ms(600), Cache: "none",
				Actions: []replay.ActionResult{
					{Kind: trail.ActionType, Line: 46, Status: replay.StatusPassed, Duration: ms(100), Summary: `typed "SUMMER" into textbox "Discount code"`},
					{Kind: trail.ActionTap, Line: 47, Status: replay.StatusPassed, Duration: ms(500), Summary: `tapped button "Apply"`},
				}},
			{Index: 5, Intent: "The total is $763.20", Line: 50, Status: replay.StatusFailed, Path: "/checkout",
				Started: at(3705), Duration: ms(610), Cache: "none",
				Stopped: replay.StopAssertionFailed, Performed: 1,
				Actions: []replay.ActionResult{
					{Kind: trail.ActionAssertVisible, Line: 51, Status: replay.StatusPassed, Duration: ms(10), Summary: `text "SUMMER applied: 10% off" is visible`},
					{Kind: trail.ActionAssertVisible, Line: 52, Status: replay.StatusFailed, Duration: ms(600),
						Reads: []string{`no node with text "$763.20"`, `the total reads "$790.20"`},
						Error: `no visible node reads "$763.20"`},
				},
				Error: `no visible node reads "$763.20"; the total reads "$790.20"`,
				Aria:  checkoutAria},
			{Index: 6, Intent: "The page is still the checkout", Line: 54, Status: replay.StatusSkipped, Path: "/checkout"},
		},
		Failure: &replay.FailureScreen{URL: "http://127.0.0.1:4100/checkout", Snapshot: checkoutAria},
	}
}

// bigPage is a flaky trail: its first attempt gave up waiting for the
// Continue button, its second passed.
func bigPage(attempt int) replay.TrailResult {
	r := replay.TrailResult{
		File: "trails/big-page.trail.yaml", Slug: "big-page", Title: "Big page", Attempt: attempt,
	}
	open := replay.StepResult{Index: 1, Intent: "Open the big page", Line: 8, Status: replay.StatusPassed, Path: "/big?n=10000",
		Duration: ms(900), Cache: "none",
		Actions: []replay.ActionResult{
			{Kind: trail.ActionAssertVisible, Line: 10, Status: replay.StatusPassed, Duration: ms(40), Summary: `text "Nothing opened yet" is visible`},
			{Kind: trail.ActionTap, Line: 11, Status: replay.StatusPassed, Duration: ms(860), Summary: `tapped button "Open target"`},
		}}
	cont := replay.StepResult{Index: 2, Intent: "Continue once the button appears", Line: 13, Path: "/big?n=10000", Cache: "none"}
	if attempt == 1 {
		r.Status, r.Class = replay.StatusFailed, replay.ClassSelectorDrift
		r.Error = `tap {role: button, name: Continue}: no button "Continue" appeared within 10s`
		r.Started, r.Duration = at(1950), ms(11100)
		open.Started = at(1950)
		cont.Started, cont.Duration, cont.Status = at(2850), ms(10000), replay.StatusFailed
		cont.Stopped, cont.Performed = replay.StopTargetNotFound, 0
		cont.Error = r.Error
		cont.Actions = []replay.ActionResult{{Kind: trail.ActionTap, Line: 15, Status: replay.StatusFailed, Duration: ms(10000),
			Error: `no button "Continue"`, Reads: []string{`no button "Continue"`}}}
		cont.Aria = bigAriaBefore
		r.Failure = &replay.FailureScreen{URL: "http://127.0.0.1:4100/big?n=10000", Snapshot: bigAriaBefore,
			Closest: []diagnose.CloseNode{{Ref: "e5002", Line: `- button "Open target" [ref=e5002]`, Score: 0.41, Why: `name is "Open target", not "Continue"`}}}
	} else {
		r.Status = replay.StatusPassed
		r.Started, r.Duration = at(13100), ms(2300)
		open.Started = at(13100)
		cont.Started, cont.Duration, cont.Status = at(14000), ms(1400), replay.StatusPassed
		cont.Actions = []replay.ActionResult{
			{Kind: trail.ActionTap, Line: 15, Status: replay.StatusPassed, Duration: ms(1300), Summary: `tapped button "Continue"`,
				Reads: []string{`no button "Continue" yet`, `button "Continue"`}},
			{Kind: trail.ActionAssertVisible, Line: 16, Status: replay.StatusPassed, Duration: ms(100), Summary: `text "Continued after the wait" is visible`},
		}
		cont.Aria = bigAria
	}
	r.Steps = []replay.StepResult{open, cont}
	return r
}

// sampleRun is a realistic run with two workers: sign-in and the purchase
// start together; big-page starts when sign-in is done and needs a retry.
func sampleRun() Run {
	return Run{
		Started: runStart, Duration: ms(15500),
		Trails: []TrailRun{
			{Attempts: []replay.TrailResult{signIn()}},
			{Attempts: []replay.TrailResult{buyWithDiscount()}},
			{Attempts: []replay.TrailResult{bigPage(1), bigPage(2)}},
		},
		Traces: map[string]string{
			"buy-two-iphone-items-with-a-discount": "trailpin-results/buy-two-iphone-items-with-a-discount/trace.md",
			"big-page":                             "trailpin-results/big-page/trace.md",
		},
	}
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
