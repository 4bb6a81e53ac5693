package demo

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
)

// sessionCookie names the cookie that carries the session token.
const sessionCookie = "demo_session"

// rememberMeAge is how long a "remember me" cookie lasts (30 days, in
// seconds). It is a Max-Age, not an Expires date, so response headers carry
// no clock time.
const rememberMeAge = 30 * 24 * 60 * 60

// maxSessions bounds memory when benchmarks open a fresh browser context per
// run: past it, the oldest session is forgotten.
const maxSessions = 10000

// firstOrderNumber is the number of a session's first order: each session
// counts from here, so the confirmation page reads the same on every run.
const firstOrderNumber = 1001

// maxQuantity is the most of one product a cart line holds.
const maxQuantity = 10

// discountCode and discountPercent are the one valid code and what it takes
// off the subtotal.
const (
	discountCode    = "SUMMER"
	discountPercent = 10
)

// store holds every session in memory. It is never written anywhere.
type store struct {
	mu       sync.Mutex
	sessions map[string]*session
	created  []string // tokens in creation order, for eviction
}

func newStore() *store { return &store{sessions: map[string]*session{}} }

// session is one signed-in browser's state. Its mutex is held for the whole
// of a request that reads or changes it.
type session struct {
	mu sync.Mutex

	user     string
	cart     []cartLine // in the order products were first added
	discount string     // the applied code, or ""
	// discountError is shown once, on the checkout page after a wrong code.
	discountError string
	// pendingDiscount is a valid code waiting for its confirmation, shown
	// once (DiscountConfirm).
	pendingDiscount string
	// flash is a one-time message shown in the next page's status region.
	flash  string
	orders []*order
}

type cartLine struct {
	slug string
	qty  int
}

type order struct {
	Number   int
	Lines    []orderLine
	Totals   totals
	Name     string
	Country  string
	GiftNote string // the attached file's name, or ""
}

type orderLine struct {
	Name  string
	Qty   int
	Price cents
	Total cents
}

// totals is what a cart costs, with the session's discount applied.
type totals struct {
	Items    int
	Subtotal cents
	Code     string
	Discount cents // positive: the amount taken off
	Total    cents
}

// newToken returns an unguessable session token. Tokens live only in the
// cookie, never in a page, so they do not make pages differ between runs.
func newToken() string {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand documents it)
	return hex.EncodeToString(b)
}

// create starts a session for user and returns its token.
func (s *store) create(user string) string {
	token := newToken()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[token] = &session{user: user}
	s.created = append(s.created, token)
	for len(s.created) > maxSessions {
		delete(s.sessions, s.created[0])
		s.created = s.created[1:]
	}
	return token
}

// lookup returns the session of the request's cookie, or nil.
func (s *store) lookup(r *http.Request) *session {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[c.Value]
}

// end forgets the request's session.
func (s *store) end(r *http.Request) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, c.Value)
}

// reset forgets every session.
func (s *store) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions = map[string]*session{}
	s.created = nil
}

// takeFlash returns the one-time message and clears it.
func (sess *session) takeFlash() string {
	f := sess.flash
	sess.flash = ""
	return f
}

// quantity returns how many of slug the cart holds.
func (sess *session) quantity(slug string) int {
	for _, l := range sess.cart {
		if l.slug == slug {
			return l.qty
		}
	}
	return 0
}

// setQuantity sets the cart's quantity of slug, adding or removing the line;
// qty is clamped to [0, maxQuantity].
func (sess *session) setQuantity(slug string, qty int) {
	qty = min(max(qty, 0), maxQuantity)
	for i, l := range sess.cart {
		if l.slug == slug {
			if qty == 0 {
				sess.cart = append(sess.cart[:i], sess.cart[i+1:]...)
			} else {
				sess.cart[i].qty = qty
			}
			return
		}
	}
	if qty > 0 {
		sess.cart = append(sess.cart, cartLine{slug: slug, qty: qty})
	}
}

// itemCount is the number of items in the cart (quantities added up).
func (sess *session) itemCount() int {
	n := 0
	for _, l := range sess.cart {
		n += l.qty
	}
	return n
}

// lines prices the cart with the variant's catalogue.
func (sess *session) lines(variant string) []orderLine {
	var out []orderLine
	for _, l := range sess.cart {
		p, ok := findProduct(variant, l.slug)
		if !ok {
			continue
		}
		out = append(out, orderLine{Name: p.Name, Qty: l.qty, Price: p.Price, Total: p.Price * cents(l.qty)})
	}
	return out
}

// totals prices the cart and applies the discount, rounding the discount to
// the nearest cent (halves up).
func (sess *session) totals(variant string) totals {
	var t totals
	for _, l := range sess.lines(variant) {
		t.Items += l.Qty
		t.Subtotal += l.Total
	}
	if sess.discount != "" {
		t.Code = sess.discount
		t.Discount = (t.Subtotal*discountPercent + 50) / 100
	}
	t.Total = t.Subtotal - t.Discount
	return t
}

// findOrder returns the session's order with the number, or nil.
func (sess *session) findOrder(number int) *order {
	for _, o := range sess.orders {
		if o.Number == number {
			return o
		}
	}
	return nil
}
