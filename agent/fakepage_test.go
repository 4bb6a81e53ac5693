package agent_test

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// checkoutPage is a fake Page: a checkout form with a discount code field,
// a Redeem button (what replay's recording still calls Apply), a Cart link
// and a password field. Redeem with the code SUMMER shows "10% off".
// Secrets typed as ${secret:NAME} are filled in from secrets, as replay's
// page does.
type checkoutPage struct {
	mu      sync.Mutex
	secrets map[string]string
	// doc numbers the document; refs are per document, shifted by ten on
	// each rerender.
	doc     int
	code    string
	applied bool
	// password is the value typed into the password field, filled in.
	password string
	// rerenderOnTap makes the first tap of Redeem find the form replaced
	// (a new document): the ref is stale.
	rerenderOnTap bool
	// calls logs each call the agent made, as "tap e2".
	calls []string
	// slowScreen delays every capture until the context ends.
	blockScreens bool
	// url is where the page is ("" for http://shop.test/checkout); a tap
	// of Cart takes it to cartTo when that is set.
	url, cartTo string
	// cartURL is where the Cart link says it goes ("" for the app's cart).
	cartURL string
	// offAtAct makes a tap find the page on that origin when it acts, as
	// replay's page checks at that moment.
	offAtAct string
	// frame, when set, adds a cross-origin payment frame of that origin
	// ("?" for one whose origin the capture did not read) holding a Card
	// number field, f1e1.
	frame string
	// card is what was typed into the frame's field; focused is the
	// focused ref; title the page's title ("" for Checkout).
	card, focused, title string
}

func (p *checkoutPage) ref(n int) string { return fmt.Sprintf("e%d", p.doc*10+n) }

func (p *checkoutPage) log(s string) {
	p.calls = append(p.calls, s)
}

func (p *checkoutPage) Screen(ctx context.Context) (*screen.Screen, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.blockScreens {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	code := &screen.Node{Ref: p.ref(1), Role: "textbox", Name: "Discount code", Tag: "input", Label: "Discount code", Value: p.code}
	pass := &screen.Node{Ref: p.ref(4), Role: "textbox", Name: "Password", Tag: "input", Label: "Password", Secret: true}
	redeem := &screen.Node{Ref: p.ref(2), Role: "button", Name: "Redeem", Tag: "button", Text: "Redeem"}
	cartURL := "http://shop.test/cart"
	if p.cartURL != "" {
		cartURL = p.cartURL
	}
	cart := &screen.Node{Ref: p.ref(3), Role: "link", Name: "Cart", Tag: "a", Text: "Cart", URL: cartURL}
	kids := []*screen.Node{
		{Ref: p.ref(5), Role: "heading", Name: "Checkout", Tag: "h1", Level: 1, Text: "Checkout",
			Children: []*screen.Node{{Tag: screen.TextTag, Text: "Checkout"}}},
		code, pass, redeem, cart,
	}
	if p.applied {
		kids = append(kids, &screen.Node{Ref: p.ref(6), Role: "status", Tag: "p", Text: "10% off",
			Children: []*screen.Node{{Tag: screen.TextTag, Text: "10% off"}}})
	}
	if p.password != "" {
		// An app that echoes what was typed: the redactor must hide it.
		kids = append(kids, &screen.Node{Ref: p.ref(0), Role: "button", Name: "Signed in with " + p.password, Tag: "button", Disabled: true,
			Text: "Signed in with " + p.password})
	}
	if p.frame != "" {
		origin := p.frame
		if origin == "?" {
			origin = ""
		}
		card := &screen.Node{Ref: "f1e1", Role: "textbox", Name: "Card number", Tag: "input", Label: "Card number", Value: p.card}
		visible(card, 0)
		doc := &screen.Node{Ref: "f1e2", Tag: "html", Children: []*screen.Node{card}}
		visible(doc, 0)
		kids = append(kids, &screen.Node{Ref: p.ref(0) + "1", Role: "iframe", Tag: "iframe", Frame: "f1", CrossOrigin: true, Origin: origin,
			Children: []*screen.Node{doc}})
	}
	for i, n := range kids {
		visible(n, float64(i))
	}
	main := &screen.Node{Ref: p.ref(7), Role: "main", Tag: "main", Children: kids}
	visible(main, 0)
	body := &screen.Node{Ref: p.ref(8), Tag: "body", Children: []*screen.Node{main}}
	visible(body, 0)
	root := &screen.Node{Ref: p.ref(9), Tag: "html", Children: []*screen.Node{body}}
	visible(root, 0)
	url := "http://shop.test/checkout"
	if p.url != "" {
		url = p.url
	}
	title := "Checkout"
	if p.title != "" {
		title = p.title
	}
	return &screen.Screen{Schema: screen.ScreenSchema, Document: fmt.Sprint("doc", p.doc), URL: url, Focused: p.focused,
		Title: title, Viewport: screen.Viewport{Width: 1280, Height: 720}, Root: root}, nil
}

func visible(n *screen.Node, row float64) {
	n.Visible = true
	if n.Box == nil {
		n.Box = &screen.Box{X: 10, Y: 10 + 40*row, Width: 200, Height: 30}
	}
	for _, c := range n.Children {
		if c.Tag == screen.TextTag {
			c.Visible = true
		}
	}
}

// element names the element of ref on the current document, or "".
func (p *checkoutPage) element(ref string) string {
	for n, name := range map[int]string{1: "code", 2: "redeem", 3: "cart", 4: "password"} {
		if ref == p.ref(n) {
			return name
		}
	}
	if ref == "f1e1" && p.frame != "" {
		return "card"
	}
	return ""
}

func (p *checkoutPage) stale(ref string) error {
	return fmt.Errorf("%w: ref %s is not on the page any more", agent.ErrStaleRef, ref)
}

func (p *checkoutPage) Tap(ctx context.Context, ref string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log("tap " + ref)
	if p.offAtAct != "" {
		return "", &agent.OffOriginError{Origin: p.offAtAct, Why: "the page is on " + p.offAtAct}
	}
	switch p.element(ref) {
	case "redeem":
		if p.rerenderOnTap {
			p.rerenderOnTap = false
			p.doc++
			return "", p.stale(ref)
		}
		p.applied = p.code == "SUMMER"
		return `tapped button "Redeem"`, nil
	case "cart":
		if p.cartTo != "" {
			p.url = p.cartTo
			p.doc++
		}
		return `tapped link "Cart"`, nil
	case "":
		return "", p.stale(ref)
	}
	return "tapped " + ref, nil
}

func (p *checkoutPage) Type(ctx context.Context, ref, text string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log("type " + ref + " " + text)
	value := text
	for name, v := range p.secrets {
		if text == "${secret:"+name+"}" {
			value = v
		}
	}
	switch p.element(ref) {
	case "code":
		p.code = value
	case "password":
		p.password = value
	case "card":
		p.card = value
	case "":
		return "", p.stale(ref)
	default:
		return "", fmt.Errorf("%s is not a text field", ref)
	}
	return fmt.Sprintf("typed %q into %s", text, ref), nil
}

func (p *checkoutPage) Select(ctx context.Context, ref, option string) (string, error) {
	return "", fmt.Errorf("%s is not a drop-down", ref)
}

func (p *checkoutPage) Press(ctx context.Context, key string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log("press " + key)
	return "pressed " + key, nil
}

func (p *checkoutPage) Navigate(ctx context.Context, path string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log("navigate " + path)
	if strings.HasPrefix(path, "/") {
		p.url = "http://shop.test" + path
	}
	return "opened " + path, nil
}

func (p *checkoutPage) AssertVisible(ctx context.Context, ref string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log("assertVisible " + ref)
	if p.element(ref) == "" && !(p.applied && ref == p.ref(6)) {
		return "", p.stale(ref)
	}
	return "saw " + ref, nil
}

func (p *checkoutPage) AssertNotVisibleWithText(ctx context.Context, text string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.log("assertNotVisible " + text)
	if p.applied && text == "10% off" {
		return "", fmt.Errorf("%q is visible", text)
	}
	return fmt.Sprintf("nothing visible reads %q", text), nil
}

func (p *checkoutPage) log2() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.calls...)
}

// AssertChange checks through replay's code (assertchange.Check), as replay's and the
// recorded tab's Pages do.
func (p *checkoutPage) AssertChange(ctx context.Context, spec trail.AssertChange, id string, before, after *screen.Screen) (*assertchange.Evidence, error) {
	p.log("assertChange " + id)
	path := func(u string) string { return strings.TrimPrefix(u, "http://shop.test") }
	return assertchange.Check(ctx, spec, id, before, after, p.Screen, path)
}
