package storage

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// shopScreen builds a realistic capture of a shop page with about nodes
// nodes: a banner with navigation, search and a cart link, a grid of product
// cards, an orders table and a footer. Refs are assigned in document order and
// every element carries its subtree text, as the page model writes them.
//
// step makes the small changes a person's interactions cause between two
// captures: the cart count, the search box value, the focused element, one
// card's button state and a status message. The same (nodes, step) always
// gives the same screen.
func shopScreen(nodes, step int) *screen.Screen {
	b := &screenBuilder{rnd: rand.New(rand.NewPCG(7, 11)), step: step}
	root := b.el("html", "document", "")
	body := b.add(root, b.el("body", "generic", ""))
	body.Children = append(body.Children, b.banner())
	main := b.add(body, b.el("main", "main", ""))
	b.add(main, b.heading("Products", 1))
	status := b.add(main, b.el("div", "status", ""))
	if step > 0 {
		b.text(status, fmt.Sprintf("Added item %d to your cart", step))
	}
	grid := b.add(main, b.el("ul", "list", "Products"))
	grid.TestID = "product-grid"
	orders := b.el("table", "table", "Recent orders")
	footer := b.footer()
	// Cards until the page holds the requested number of nodes, leaving
	// room for the orders table and the footer.
	reserve := 40*7 + count(footer)
	for i := 0; b.n+reserve < nodes; i++ {
		grid.Children = append(grid.Children, b.card(i))
	}
	for i := 0; i < 40 && b.n+count(footer) < nodes; i++ {
		orders.Children = append(orders.Children, b.orderRow(i))
	}
	main.Children = append(main.Children, orders)
	body.Children = append(body.Children, footer)
	fillText(root)
	return &screen.Screen{
		Schema:   screen.ScreenSchema,
		URL:      "http://127.0.0.1:41234/shop?q=" + b.query(),
		Title:    "Shop — Trailpin fixture",
		Viewport: screen.Viewport{Width: 1280, Height: 800},
		Focused:  b.focused,
		Root:     root,
	}
}

type screenBuilder struct {
	rnd     *rand.Rand
	step    int
	n       int // elements and text runs so far
	refs    int
	y       float64
	focused string
}

var productWords = []string{"Trail", "Runner", "Summit", "Canyon", "Ridge", "Alpine", "Forest", "River",
	"Jacket", "Boots", "Pack", "Tent", "Lamp", "Bottle", "Stove", "Poles", "Gloves", "Cap"}

func (b *screenBuilder) el(tag, role, name string) *screen.Node {
	b.refs++
	b.n++
	return &screen.Node{Ref: fmt.Sprintf("e%d", b.refs), Tag: tag, Role: role, Name: name, Visible: true,
		Box: &screen.Box{X: 0, Y: b.y, Width: 1280, Height: 20}}
}

func (b *screenBuilder) add(parent, child *screen.Node) *screen.Node {
	parent.Children = append(parent.Children, child)
	return child
}

func (b *screenBuilder) text(parent *screen.Node, s string) {
	b.n++
	parent.Children = append(parent.Children, &screen.Node{Tag: screen.TextTag, Text: s})
}

func (b *screenBuilder) heading(s string, level int) *screen.Node {
	h := b.el(fmt.Sprintf("h%d", level), "heading", s)
	h.Level = level
	b.text(h, s)
	return h
}

func (b *screenBuilder) query() string {
	const q = "waterproof boots"
	return q[:min(b.step, len(q))]
}

func (b *screenBuilder) banner() *screen.Node {
	banner := b.el("header", "banner", "")
	nav := b.add(banner, b.el("nav", "navigation", "Main"))
	list := b.add(nav, b.el("ul", "list", ""))
	for _, s := range []string{"Home", "New", "Men", "Women", "Kids", "Outdoor", "Sale", "Help"} {
		li := b.add(list, b.el("li", "listitem", ""))
		a := b.add(li, b.el("a", "link", s))
		a.URL = "http://127.0.0.1:41234/" + strings.ToLower(s)
		b.text(a, s)
	}
	search := b.add(banner, b.el("form", "search", ""))
	box := b.add(search, b.el("input", "searchbox", "Search products"))
	box.Placeholder = "Search products"
	box.Value = b.query()
	if b.step%3 == 1 {
		b.focused = box.Ref
	}
	btn := b.add(search, b.el("button", "button", "Search"))
	b.text(btn, "Search")
	cart := b.add(banner, b.el("a", "link", fmt.Sprintf("Cart (%d)", b.step)))
	cart.TestID = "cart-link"
	b.text(cart, fmt.Sprintf("Cart (%d)", b.step))
	b.y += 120
	return banner
}

func (b *screenBuilder) card(i int) *screen.Node {
	name := productWords[b.rnd.IntN(len(productWords))] + " " + productWords[b.rnd.IntN(len(productWords))] +
		fmt.Sprintf(" %d", 100+i)
	price := fmt.Sprintf("$%d.%02d", 5+b.rnd.IntN(300), b.rnd.IntN(100))
	x := float64(i%4) * 310
	if i%4 == 0 {
		b.y += 360
	}
	li := b.el("li", "listitem", "")
	li.Box = &screen.Box{X: x, Y: b.y, Width: 300, Height: 350}
	li.Visible = b.y < 800
	art := b.add(li, b.el("article", "article", name))
	img := b.add(art, b.el("img", "img", name))
	img.Box = &screen.Box{X: x, Y: b.y, Width: 300, Height: 200}
	h := b.add(art, b.heading(name, 3))
	h.Box = &screen.Box{X: x, Y: b.y + 210, Width: 300, Height: 24}
	p := b.add(art, b.el("p", "paragraph", ""))
	b.text(p, price)
	r := b.add(art, b.el("span", "generic", ""))
	b.text(r, fmt.Sprintf("%.1f stars (%d reviews)", 3+b.rnd.Float64()*2, b.rnd.IntN(900)))
	label := "Add to cart"
	if i < b.step {
		label = "In cart"
	}
	btn := b.add(art, b.el("button", "button", label))
	btn.TestID = fmt.Sprintf("add-%d", 100+i)
	btn.Box = &screen.Box{X: x + 10, Y: b.y + 300, Width: 120, Height: 36}
	notCovered := false
	btn.Covered = &notCovered
	btn.Pressed = fmt.Sprint(i < b.step)
	b.text(btn, label)
	link := b.add(art, b.el("a", "link", "Details"))
	link.URL = fmt.Sprintf("http://127.0.0.1:41234/product/%d", 100+i)
	b.text(link, "Details")
	return li
}

func (b *screenBuilder) orderRow(i int) *screen.Node {
	row := b.el("tr", "row", "")
	cells := []string{fmt.Sprintf("#%05d", 40000+i), fmt.Sprintf("2026-0%d-%02d", 1+i%9, 1+i%28),
		[]string{"Shipped", "Delivered", "Processing"}[i%3]}
	for _, c := range cells {
		td := b.add(row, b.el("td", "cell", c))
		b.text(td, c)
	}
	return row
}

func (b *screenBuilder) footer() *screen.Node {
	f := b.el("footer", "contentinfo", "")
	for _, s := range []string{"About", "Privacy", "Terms", "Contact"} {
		a := b.add(f, b.el("a", "link", s))
		a.URL = "http://127.0.0.1:41234/" + strings.ToLower(s)
		b.text(a, s)
	}
	return f
}

func count(n *screen.Node) int {
	c := 1
	for _, ch := range n.Children {
		c += count(ch)
	}
	return c
}

// fillText sets each element's Text to its subtree's text, one line per
// block, as the page model does.
func fillText(n *screen.Node) string {
	if n.IsText() {
		return n.Text
	}
	var lines []string
	for _, ch := range n.Children {
		if t := fillText(ch); t != "" {
			lines = append(lines, t)
		}
	}
	n.Text = strings.Join(lines, "\n")
	return n.Text
}
