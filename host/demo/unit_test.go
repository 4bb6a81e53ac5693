package demo

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestCentsString(t *testing.T) {
	tests := []struct {
		in   cents
		want string
	}{
		{0, "$0.00"},
		{5, "$0.05"},
		{99, "$0.99"},
		{2999, "$29.99"},
		{79900, "$799.00"},
		{76320, "$763.20"},
		{100000, "$1,000.00"},
		{169600, "$1,696.00"},
		{123456789, "$1,234,567.89"},
		{-8480, "-$84.80"},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("cents(%d).String() = %q, want %q", int64(tt.in), got, tt.want)
		}
	}
}

func TestDiscountRounding(t *testing.T) {
	tests := []struct {
		slug string
		qty  int
		want string // total after 10% off
	}{
		{"wireless-mouse", 1, "$26.99"}, // 2999 - 299.9 rounds the discount to 300
		{"e-reader", 1, "$143.99"},      // 15999 - 1600
		{"iphone-17", 1, "$719.10"},
	}
	for _, tt := range tests {
		sess := &session{discount: discountCode}
		sess.setQuantity(tt.slug, tt.qty)
		if got := sess.totals(Normal).Total.String(); got != tt.want {
			t.Errorf("total of %d × %s with %s = %s, want %s", tt.qty, tt.slug, discountCode, got, tt.want)
		}
	}
}

func TestItemCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 items", 1: "1 item", 2: "2 items", 13: "13 items"} {
		if got := itemCount(n); got != want {
			t.Errorf("itemCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCatalogueShape(t *testing.T) {
	slugs, names := map[string]bool{}, map[string]bool{}
	for _, p := range catalogue {
		if slugs[p.Slug] || names[p.Name] {
			t.Errorf("product %q/%q is listed twice", p.Slug, p.Name)
		}
		slugs[p.Slug], names[p.Name] = true, true
		if p.Price <= 0 || p.Description == "" || len(p.Specs) == 0 {
			t.Errorf("product %q is incomplete: %+v", p.Slug, p)
		}
	}
	for _, want := range []string{"iPhone 17", "iPhone 18", "iPhone 17 Silicone Case"} {
		if !names[want] {
			t.Errorf("the catalogue has no %q", want)
		}
	}
	if n := len(catalogue); n != 12 {
		t.Errorf("the catalogue has %d products, want 12", n)
	}
}

func TestLocalPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/cart", "/cart"},
		{"/products?q=iphone", "/products?q=iphone"},
		{"", defaultNext},
		{"cart", defaultNext},
		{"//evil.example/", defaultNext},
		{`/\evil.example/`, defaultNext},
		{"https://evil.example/", defaultNext},
		{"/login", defaultNext},
		{"/login?next=/cart", defaultNext},
	}
	for _, tt := range tests {
		if got := localPath(tt.in); got != tt.want {
			t.Errorf("localPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzLocalPath: whatever a form sends as next or return, the redirect
// stays on this site.
func FuzzLocalPath(f *testing.F) {
	for _, s := range []string{"/cart", "//x", `/\x`, "http://x", "/login", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := localPath(in)
		if !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") || strings.HasPrefix(got, `/\`) {
			t.Errorf("localPath(%q) = %q, which can leave the site", in, got)
		}
	})
}

func TestBigPage(t *testing.T) {
	srv := newServer(t, Options{})
	c := newClient(t, srv)
	tests := []struct {
		query  string
		status int
		rows   int
		delay  string
	}{
		{"", http.StatusOK, bigRows(bigDefaultElements), fmt.Sprint(bigDefaultDelayMS)},
		{"?n=10000", http.StatusOK, 1997, "500"},
		{"?n=1000&delay=0", http.StatusOK, 197, "0"},
		{"?n=52", http.StatusOK, 7, "500"},
		{"?n=10", http.StatusBadRequest, 0, ""},
		{"?n=lots", http.StatusBadRequest, 0, ""},
		{"?n=1000000", http.StatusBadRequest, 0, ""},
		{"?delay=-1", http.StatusBadRequest, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			r := c.get("/big" + tt.query)
			if r.Status != tt.status {
				t.Fatalf("GET /big%s = %d, want %d: %s", tt.query, r.Status, tt.status, r.Body)
			}
			if tt.status != http.StatusOK {
				wantContains(t, "error", r.Body, "give a whole number from")
				return
			}
			if n := count(r.Body, "<li "); n != tt.rows {
				t.Errorf("GET /big%s has %d rows, want %d", tt.query, n, tt.rows)
			}
			if n := count(r.Body, ">Open target</button>"); n != 1 {
				t.Errorf("GET /big%s has %d Open target buttons, want 1", tt.query, n)
			}
			target := fmt.Sprintf(`<li id="row-%d">`, tt.rows/2+1)
			i := strings.Index(r.Body, target)
			if i < 0 || !strings.Contains(r.Body[i:i+300], "Open target") {
				t.Errorf("the target is not in the middle row %s", target)
			}
			wantContains(t, "big page", r.Body, `data-delay-ms="`+tt.delay+`"`, `role="status"`, `src="/static/big.js"`)
		})
	}
}
