package main

import (
	"fmt"
	"strings"
)

// generatePage writes an HTML page of about n elements (not counting html,
// head and body): a shop-like admin screen repeated — headings, paragraphs
// with inline markup, lists of links, labelled form fields, buttons and
// table rows — so that the mix of roles, names and text resembles a real
// application page.
func generatePage(n int) string {
	var b strings.Builder
	b.WriteString("<!doctype html><html><head><meta charset=utf-8><title>Bench ")
	fmt.Fprintf(&b, "%d", n)
	b.WriteString(`</title><style>
.card { border: 1px solid #ccc; margin: 8px; padding: 8px; }
.row { display: flex; gap: 8px; }
.muted { color: #666; }
.hidden { display: none; }
</style></head><body><header><nav><a href="#home">Home</a> <a href="#orders">Orders</a></nav></header><main>`)
	count := 5 // header, nav, a, a, main
	for i := 0; count < n; i++ {
		block := generateBlock(i)
		b.WriteString(block.html)
		count += block.elements
	}
	b.WriteString("</main></body></html>")
	return b.String()
}

type block struct {
	html     string
	elements int
}

// generateBlock returns one card; every element it writes is counted.
func generateBlock(i int) block {
	var b strings.Builder
	e := 0
	tag := func(s string) { b.WriteString(s); e++ }
	tag(fmt.Sprintf(`<section class="card" aria-label="Order %d">`, i))
	tag(fmt.Sprintf(`<h2>Order #%d</h2>`, 1000+i))
	tag(`<p>`)
	b.WriteString(fmt.Sprintf(`Placed by <b>Customer %d</b>`, i))
	e++
	b.WriteString(` on <time datetime="2024-01-01">Monday</time>`)
	e++
	b.WriteString(`, <span class="muted">3 items</span>.</p>`)
	e++
	tag(`<ul>`)
	for j := range 3 {
		tag(fmt.Sprintf(`<li><a href="/items/%d-%d">Item %d of order %d</a></li>`, i, j, j+1, i))
		e++ // the link
	}
	b.WriteString(`</ul>`)
	tag(`<div class="row">`)
	tag(fmt.Sprintf(`<label for="qty%d">Quantity</label>`, i))
	tag(fmt.Sprintf(`<input id="qty%d" type="number" value="%d">`, i, i%7+1))
	tag(`<button type="button">Update</button>`)
	tag(`<button type="button" aria-pressed="false">Flag</button>`)
	b.WriteString(`</div>`)
	tag(`<table>`)
	tag(`<tr>`)
	tag(`<th>SKU</th>`)
	tag(`<th>Price</th>`)
	b.WriteString(`</tr>`)
	tag(`<tr>`)
	tag(fmt.Sprintf(`<td>SKU-%05d</td>`, i))
	tag(fmt.Sprintf(`<td>$%d.%02d</td>`, 10+i%90, i%100))
	b.WriteString(`</tr></table>`)
	tag(`<div class="hidden">`)
	tag(`<button>Hidden action</button>`)
	b.WriteString(`</div></section>`)
	return block{html: b.String(), elements: e}
}
