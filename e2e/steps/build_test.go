package steps_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestBuildStepsOnCapturedScreens records the demo shop's discount flow in
// headless Chromium with trusted mouse and keyboard input, capturing each
// screen with the real page model just before each interaction, as the
// extension does, and builds the trail from what was captured. It checks
// that the steps are the ones a person would write down, that every
// selector names its element on the screen it was recorded on, that every
// step with actions ends where the page went, and that the password is
// nowhere in the trail.
func TestBuildStepsOnCapturedScreens(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	path, err := browser.FindChrome()
	if err != nil {
		browsertest.Missing(t, err)
	}
	srv := httptest.NewServer(demo.New(demo.Options{}))
	defer srv.Close()
	opts, err := browser.AllocatorOptions(browser.LaunchOptions{ExecPath: path, Headless: true, UserDataDir: t.TempDir(), Width: 1280, Height: 800})
	if err != nil {
		t.Fatal(err)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(tab, 3*time.Minute) // generous: the machine is shared
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/login")); err != nil {
		t.Fatalf("opening the shop: %v", err)
	}

	r := &liveRecording{t: t, ctx: ctx, base: srv.URL}
	r.record(steps.InteractNavigate, nil, "", func(it *steps.Interaction) { it.URL, it.Transition = srv.URL+"/login", "typed" })
	r.typeInto(selector.Selector{Role: "textbox", Name: "Username"}, demo.Username, "")
	r.typeInto(selector.Selector{Role: "textbox", Name: "Password"}, demo.Password, "password")
	r.click(selector.Selector{Role: "button", Name: "Sign in"}, "form")
	r.assertURL()
	r.typeInto(selector.Selector{Role: "searchbox", Name: "Search products"}, "iphone", "")
	r.pressEnter("form")
	r.assertURL()
	r.assertVisible(selector.Selector{Text: "3 results for “iphone”"})
	r.click(selector.Selector{Role: "button", Name: "Add to cart", Within: &selector.Selector{Role: "article", Name: "iPhone 17"}}, "form")
	r.assertVisible(selector.Selector{Text: "Added iPhone 17 to your cart."})
	r.click(selector.Selector{Role: "button", Name: "Add to cart", Within: &selector.Selector{Role: "article", Name: "iPhone 17 Silicone Case"}}, "form")
	r.assertVisible(selector.Selector{Text: "Added iPhone 17 Silicone Case to your cart."})
	r.click(selector.Selector{Role: "link", TextRegex: `^Cart\n2 items$`}, "link")
	r.assertURL()
	r.click(selector.Selector{Role: "link", TextRegex: `^Review order\n2 items$`}, "link")
	r.assertURL()
	r.typeInto(selector.Selector{Role: "textbox", Name: "Discount code"}, "SUMMER", "")
	r.click(selector.Selector{Role: "button", Name: "Apply"}, "form")
	r.assertVisible(selector.Selector{Text: "SUMMER applied: 10% off"})
	r.assertVisible(selector.Selector{Text: "$763.20"})
	r.assertURL()
	final := r.capture()

	bt, err := steps.BuildSteps(r.recs, final, steps.BuildOptions{BaseURL: srv.URL})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	out, err := trail.MarshalTrail(&trail.Trail{Title: "Buy two iPhone items with a discount", App: "shop", Start: bt.Start, Steps: bt.Steps})
	if err != nil {
		t.Fatalf("MarshalTrail(built trail) failed: %v", err)
	}
	t.Logf("built trail:\n%s", out)

	want := []string{
		"Type ada into Username :: type",
		"Enter the password into Password :: type",
		"Click the Sign in button :: tap",
		"Check that the URL is /products :: assertUrl",
		"Type iphone into Search products and press Enter :: type, press",
		"Check that the URL is /products?q=iphone :: assertUrl",
		`Check that "3 results for “iphone”" is shown :: assertVisible`,
		"Click the Add to cart button in iPhone 17 :: tap",
		`Check that "Added iPhone 17 to your cart." is shown :: assertVisible`,
		"Click the Add to cart button in iPhone 17 Silicone Case :: tap",
		`Check that "Added iPhone 17 Silicone Case to your cart." is shown :: assertVisible`,
		"Click the Cart link :: tap",
		"Check that the URL is /cart :: assertUrl",
		"Click the Review order link :: tap",
		"Check that the URL is /checkout :: assertUrl",
		"Type SUMMER into Discount code :: type",
		"Click the Apply button :: tap",
		`Check that "SUMMER applied: 10% off" is shown :: assertVisible`,
		`Check that "$763.20" is shown :: assertVisible`,
		"Check that the URL is /checkout :: assertUrl",
	}
	var got []string
	for _, s := range bt.Steps {
		var kinds []string
		for _, a := range s.Actions {
			kinds = append(kinds, string(a.Kind()))
		}
		got = append(got, s.Intent+" :: "+strings.Join(kinds, ", "))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildSteps() steps =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if bt.Start != "/login" || len(bt.Notes) != 0 || strings.Join(bt.Secrets, ",") != "password" {
		t.Errorf("BuildSteps() start %q, notes %q, secrets %q; want /login, none, [password]", bt.Start, bt.Notes, bt.Secrets)
	}
	// The end of each step with actions is the page it led to.
	wantEnds := map[string]string{
		"Click the Sign in button":                                "/products",
		"Type iphone into Search products and press Enter":        "/products?q=iphone",
		"Click the Add to cart button in iPhone 17":               "/products?q=iphone",
		"Click the Cart link":                                     "/cart",
		"Click the Review order link":                             "/checkout",
		"Click the Apply button":                                  "/checkout",
		"Click the Add to cart button in iPhone 17 Silicone Case": "/products?q=iphone",
	}
	for _, s := range bt.Steps {
		if w, ok := wantEnds[s.Intent]; ok && (s.End == nil || s.End.URL != w) {
			t.Errorf("step %q ends with %+v, want url %s", s.Intent, s.End, w)
		}
	}
	for _, n := range []int{4, len(demo.Password)} {
		if strings.Contains(string(out), demo.Password[:n]) {
			t.Errorf("the trail holds %q of the password:\n%s", demo.Password[:n], out)
		}
	}
	r.checkSelectors(bt)
}

// liveRecording drives the shop in a tab and records what it does the way
// the extension reports it: each interaction with the screen captured just
// before it.
type liveRecording struct {
	t    *testing.T
	ctx  context.Context
	base string
	seq  int64
	recs []steps.RecordedInteraction
	// acted maps each recorded action (by Seq) to its screen and target,
	// for checking the built selectors.
	acted []steps.RecordedInteraction
}

func (r *liveRecording) capture() *screen.Screen {
	r.t.Helper()
	s, err := browser.Capture(r.ctx, browser.CaptureOptions{})
	if err != nil {
		r.t.Fatalf("capturing the screen: %v", err)
	}
	return s
}

// find returns the ref of the one element sel names on s.
func (r *liveRecording) find(s *screen.Screen, sel selector.Selector) string {
	r.t.Helper()
	got, err := selector.Match(s, sel)
	if err != nil || len(got) != 1 {
		r.t.Fatalf("finding %s on %s: %v", sel, s.URL, err)
	}
	return got[0].Ref
}

func (r *liveRecording) record(kind steps.InteractionKind, s *screen.Screen, ref string, set func(*steps.Interaction)) {
	r.seq++
	it := steps.Interaction{Seq: r.seq, Kind: kind, Time: time.Now().UnixMilli(), Tab: 1, Ref: ref}
	if s != nil {
		it.URL, it.Title, it.Screen = s.URL, s.Title, fmt.Sprintf("s%d", r.seq)
	}
	if set != nil {
		set(&it)
	}
	r.recs = append(r.recs, steps.RecordedInteraction{Interaction: it, Before: s})
}

// clickRef clicks the element's centre with the mouse.
func (r *liveRecording) clickRef(ref string) {
	r.t.Helper()
	p, err := chromedp.Run(r.ctx, browser.ScrollIntoView(ref))
	if err != nil {
		r.t.Fatalf("finding %s on the page: %v", ref, err)
	}
	if err := chromedp.Do(r.ctx, chromedp.MouseEvent(chromedp.MouseMoved, p.X, p.Y), chromedp.MouseClickXY(p.X, p.Y)); err != nil {
		r.t.Fatalf("clicking %s: %v", ref, err)
	}
}

// click clicks the element sel names; a transition says it loads another
// page, which is recorded as the navigation it caused.
func (r *liveRecording) click(sel selector.Selector, transition string) {
	r.t.Helper()
	s := r.capture()
	ref := r.find(s, sel)
	r.record(steps.InteractClick, s, ref, nil)
	r.clickRef(ref)
	if transition != "" {
		r.navigated(s, transition)
	}
}

// navigated waits for the page that replaced s's document and records the
// navigation at the time it began, as the extension does (the browser's
// time of the navigation, not the moment the rig saw its page): on a
// crowded machine the rig's looks at the new page can come more than
// causedNavigationWindow after the click that started it.
func (r *liveRecording) navigated(s *screen.Screen, transition string) {
	r.t.Helper()
	after := r.waitFor("a new page after "+s.URL, func(n *screen.Screen) bool { return n.Document != s.Document })
	began, err := chromedp.Run(r.ctx, chromedp.Evaluate[float64]("performance.timeOrigin"))
	if err != nil {
		r.t.Fatalf("reading when the navigation to %s began: %v", after.URL, err)
	}
	r.record(steps.InteractNavigate, nil, "", func(it *steps.Interaction) {
		it.URL, it.Transition, it.Time = after.URL, transition, int64(began)
	})
}

// typeInto clicks a field and types value over what it holds; a secret
// field's value is recorded only by its secret's name.
func (r *liveRecording) typeInto(sel selector.Selector, value, secret string) {
	r.t.Helper()
	s := r.capture()
	ref := r.find(s, sel)
	r.record(steps.InteractClick, s, ref, nil)
	r.clickRef(ref)
	focused := r.capture()
	r.record(steps.InteractType, focused, ref, func(it *steps.Interaction) {
		if secret != "" {
			it.Secret = secret
		} else {
			it.Value = value
		}
	})
	if err := chromedp.Do(r.ctx, chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(value)); err != nil {
		r.t.Fatalf("typing into %s: %v", sel, err)
	}
}

func (r *liveRecording) pressEnter(transition string) {
	r.t.Helper()
	s := r.capture()
	r.record(steps.InteractPress, s, s.Focused, func(it *steps.Interaction) { it.Key = "Enter" })
	if err := chromedp.Do(r.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		r.t.Fatalf("pressing Enter: %v", err)
	}
	if transition != "" {
		r.navigated(s, transition)
	}
}

func (r *liveRecording) assertVisible(sel selector.Selector) {
	r.t.Helper()
	s := r.waitFor(sel.String(), func(n *screen.Screen) bool {
		got, err := selector.Match(n, sel)
		return err == nil && len(got) == 1
	})
	r.record(steps.InteractAssertVisible, s, r.find(s, sel), nil)
}

func (r *liveRecording) assertURL() {
	s := r.capture()
	r.record(steps.InteractAssertURL, s, "", nil)
}

// waitFor captures the screen until cond holds.
func (r *liveRecording) waitFor(what string, cond func(*screen.Screen) bool) *screen.Screen {
	r.t.Helper()
	for {
		if s, err := browser.Capture(r.ctx, browser.CaptureOptions{}); err == nil && cond(s) {
			return s
		}
		select {
		case <-r.ctx.Done():
			r.t.Fatalf("waiting for %s: %v", what, r.ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// checkSelectors matches every action's selector on the screen of the
// interaction it was built from (actions and interactions with a target
// come in the same order) and checks that it names that element alone.
func (r *liveRecording) checkSelectors(bt *steps.BuiltTrail) {
	r.t.Helper()
	var targets []steps.RecordedInteraction
	for i, rec := range r.recs {
		// The click that only focused a field is dropped: its type stands for it.
		if rec.Kind == steps.InteractClick && i+1 < len(r.recs) && r.recs[i+1].Kind == steps.InteractType {
			continue
		}
		if rec.Ref != "" && rec.Kind != steps.InteractPress {
			targets = append(targets, rec)
		}
	}
	k := 0
	for _, s := range bt.Steps {
		for _, a := range s.Actions {
			sel, ok := trail.ActionSelector(a)
			if !ok {
				continue
			}
			if k >= len(targets) {
				r.t.Fatalf("more selectors than targets recorded")
			}
			rec := targets[k]
			k++
			got, err := selector.Match(rec.Before, sel)
			if err != nil || len(got) != 1 {
				r.t.Errorf("step %q: %s does not name one element on its screen: %v", s.Intent, sel, err)
				continue
			}
			if got[0].Ref != rec.Ref {
				r.t.Errorf("step %q: %s names %s, want %s", s.Intent, sel, got[0].Ref, rec.Ref)
			}
		}
	}
	if k != len(targets) {
		r.t.Errorf("%d selectors for %d recorded targets", k, len(targets))
	}
}
