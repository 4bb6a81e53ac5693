package demo

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// The /big page lists rows of controls so that benchmarks can measure the
// cost of capturing a large screen. Its parameters and their bounds:
const (
	// bigDefaultElements is n when the query gives none.
	bigDefaultElements = 1000
	// bigMinElements leaves room for the page's frame and a few rows.
	bigMinElements = 50
	// bigMaxElements keeps one request from building a page that takes the
	// browser minutes to lay out.
	bigMaxElements = 200000
	// bigDefaultDelayMS is how long, in milliseconds, the page waits before
	// showing its Continue button: long enough that a replay must wait for
	// it, short enough to keep benchmarks fast.
	bigDefaultDelayMS = 500
	bigMaxDelayMS     = 10000
	// bigFrameElements is the number of elements outside the rows (html,
	// head and its 6 children, body, main, h1, two paragraphs, the delayed
	// control's container, the list). bigRowElements is one row's
	// (li, span, a, input, button).
	bigFrameElements = 15
	bigRowElements   = 5
)

// bigRows returns how many rows make a page of at most n elements.
func bigRows(n int) int { return (n - bigFrameElements) / bigRowElements }

// big serves /big?n=ELEMENTS&delay=MS: a page of about n elements (whole
// rows, never more than n) whose middle row holds the one button named
// "Open target", and a Continue button that appears delay milliseconds after
// the page loads. It needs no session.
func (s *shop) big(w http.ResponseWriter, r *http.Request) {
	n, err := queryInt(r, "n", bigDefaultElements, bigMinElements, bigMaxElements)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	delay, err := queryInt(r, "delay", bigDefaultDelayMS, 0, bigMaxDelayMS)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rows := bigRows(n)
	target := rows/2 + 1
	var b strings.Builder
	b.Grow(200 + rows*170)
	fmt.Fprintf(&b, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Big list — Trailpin Demo Shop</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/static/app.css">
<script src="/static/big.js" defer></script></head>
<body><main id="main"><h1>Big list</h1>
<p>%d rows, %d elements. The target is in row %d.</p>
<p role="status" id="big-status">Nothing opened yet</p>
<div id="later" data-delay-ms="%d"></div>
<ul id="rows" aria-label="Rows">
`, rows, bigFrameElements+rows*bigRowElements, target, delay)
	for i := 1; i <= rows; i++ {
		button := `<button type="button">Select</button>`
		if i == target {
			button = `<button type="button" data-testid="big-target">Open target</button>`
		}
		fmt.Fprintf(&b, `<li id="row-%d"><span>Row %d</span> <a href="#row-%d">Details</a> <input type="text" name="note-%d" aria-label="Note"> %s</li>`+"\n",
			i, i, i, i, button)
	}
	b.WriteString("</ul></main></body></html>\n")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(b.String()))
}

// queryInt reads a whole-number query parameter within [lo, hi], or def when
// it is absent.
func queryInt(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s=%q: give a whole number from %d to %d", name, v, lo, hi)
	}
	return n, nil
}
