package selectors

import (
	"bytes"
	"fmt"
	"html"
	"math/rand/v2"
	"path/filepath"
	"sync"
)

// The large page: a shop of about ten thousand elements, generated from a
// fixed seed, captured like the corpus pages into a compressed screen file
// that the recorder's Generate and Match benchmarks read. It has what makes
// naming elements hard at scale: a hidden copy of the navigation, sections
// named by their headings, product cards whose "Add to cart" buttons repeat
// (some sharing a test id, some with generated ids), prices and item counts,
// iPhone 17 beside iPhone 18, table rows with an Edit link each, sign-up
// forms with labels and a password, a toast wrapped in divs with the same
// text, icon buttons, repeated copy, hidden elements and a remembered
// sensitive value.

// largePage is the page's name on the fixture server.
const largePage = "shop-10k.html"

// largePageElements is the fewest elements the page must have: the
// benchmarks' targets are for a 10k-element screen.
const largePageElements = 10000

// largeSensitive is the value the session marked sensitive on the page.
const largeSensitive = "carol@example.com"

// largeTargets are the elements the benchmarks generate selectors for, one
// of each kind a recording meets.
var largeTargets = []string{
	`section[data-key="s30"] li[data-key="p3"] button.add`,
	`section[data-key="s30"] li[data-key="p3"] button.add span`,
	`section[data-key="s30"] li[data-key="p3"] .price`,
	`section[data-key="s31"] li[data-key="p1"] button.remove svg`,
	`section[data-key="s20"] tr[data-key="o2"] a`,
	`section[data-key="s20"] tr[data-key="o2"] td.items`,
	`section[data-key="s10"] input[type="email"]`,
	`section[data-key="s10"] input[type="password"]`,
	`section[data-key="s25"] .toast span`,
	`section[data-key="s5"] p.review`,
	`section[data-key="s0"] li[data-key="p0"] h3`,
	`header nav[aria-label="Main"] a[href="/deals"]`,
	`header .who`,
	`footer a[href="/privacy"]`,
}

func largePageSpec() pageSpec {
	return pageSpec{
		page:        largePage,
		sensitive:   []string{largeSensitive},
		targets:     largeTargets,
		path:        filepath.Join(corpusDir, "bench", "shop-10k.json.gz"),
		minElements: largePageElements,
	}
}

var largePageOnce = sync.OnceValue(func() []byte { return buildLargePage(1) })

func largePageHTML() []byte { return largePageOnce() }

// buildLargePage writes the page from a seeded random source, so the same
// seed gives the same page, byte for byte.
func buildLargePage(seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 42))
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	esc := html.EscapeString
	elements := 0
	// count adds n to the elements written so far (the html, head parts
	// excepted); the loop below stops once the page is large enough.
	count := func(n int) { elements += n }

	w("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Trailshop: everything</title>\n")
	w("<style>body{font-family:sans-serif} .card{display:inline-block;width:220px;vertical-align:top} li{list-style:none}</style>\n</head>\n<body>\n")
	count(2)
	navLinks := func(label string, hidden bool) {
		attr := ""
		if hidden {
			attr = " hidden"
		}
		w("<nav aria-label=%q%s>", label, attr)
		for _, l := range []struct{ href, text string }{{"/", "Home"}, {"/phones", "Phones"}, {"/laptops", "Laptops"}, {"/deals", "Deals"}, {"/help", "Help"}} {
			w("<a href=%q>%s</a> ", l.href, l.text)
		}
		w("</nav>\n")
		count(6)
	}
	w("<header>\n<a class=\"logo\" href=\"/\"><img alt=\"Trailshop\" width=\"32\" height=\"32\" src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\"></a>\n")
	count(3)
	navLinks("Main", false)
	navLinks("Mobile", true)
	w("<form role=\"search\"><input type=\"search\" aria-label=\"Search products\"></form>\n")
	w("<button id=\"ember%d\" aria-label=\"Account\"><svg aria-hidden=\"true\" width=\"16\" height=\"16\"><circle cx=\"8\" cy=\"8\" r=\"8\"></circle></svg></button>\n", r.IntN(999))
	w("<span class=\"who\" data-testid=\"account-email\">%s</span>\n</header>\n<main>\n", largeSensitive)
	count(7)

	for s := 0; elements < largePageElements; s++ {
		w("<section data-key=\"s%d\" aria-labelledby=\"s%d-h\">\n<h2 id=\"s%d-h\">Section %d</h2>\n<ul>\n", s, s, s, s)
		count(3)
		for j := range 6 + r.IntN(6) {
			title := fmt.Sprintf("Phone %d-%d", s, j)
			if s == 0 && j < 2 {
				title = fmt.Sprintf("iPhone %d", 17+j)
			}
			attrs := ""
			if r.Float64() < 0.3 {
				attrs += ` data-testid="add-to-cart"`
			}
			if r.Float64() < 0.2 {
				attrs += fmt.Sprintf(` id="btn-%x"`, r.Uint32()|0x10000000)
			}
			w("<li data-key=\"p%d\"><div class=\"card\"><h3>%s</h3><p class=\"price\">$%d.%02d</p><span class=\"count\">%d items</span>\n",
				j, esc(title), 100+r.IntN(900), r.IntN(100), 1+r.IntN(5))
			w("<button class=\"add\"%s><span>Add to cart</span></button>", attrs)
			w("<button class=\"remove\" aria-label=\"Remove %s\"><svg aria-hidden=\"true\" width=\"12\" height=\"12\"><rect width=\"12\" height=\"12\"></rect></svg></button></div></li>\n", esc(title))
			count(10)
		}
		w("</ul>\n<table>\n<thead><tr><th>Order</th><th>Items</th><th>Action</th></tr></thead>\n<tbody>\n")
		count(7)
		for j := range 4 + r.IntN(5) {
			w("<tr data-key=\"o%d\"><td>Order %d/%d</td><td class=\"items\">%d items</td><td><a href=\"/orders/%d/%d\">Edit</a></td></tr>\n", j, s, j, 1+r.IntN(9), s, j)
			count(5)
		}
		w("</tbody>\n</table>\n")
		emailID := ""
		if r.Float64() < 0.5 {
			emailID = fmt.Sprintf(` id=":r%d:"`, s)
		}
		signupID := ""
		if r.Float64() < 0.5 {
			signupID = fmt.Sprintf(` data-testid="signup-%d"`, s)
		}
		w("<form aria-label=\"Sign up %d\" onsubmit=\"return false\">\n", s)
		w("<label>Email <input type=\"email\"%s></label>\n<label>Password <input type=\"password\"></label>\n", emailID)
		w("<label><input type=\"checkbox\"> Remember me</label>\n<button%s>Sign up</button>\n</form>\n", signupID)
		w("<div class=\"toast\"><div><span>Saved</span></div></div>\n")
		w("<p>Free shipping</p>\n<p class=\"review\">Review sale<br>%d items</p>\n<p hidden>Out of stock</p>\n</section>\n", 1+r.IntN(9))
		count(15)
	}
	w("</main>\n<footer><a href=\"/privacy\">Privacy</a> <a href=\"/terms\">Terms</a><p>Free shipping</p></footer>\n</body>\n</html>\n")
	return b.Bytes()
}
