package demo

import (
	"errors"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
)

// maxGiftNote is the largest gift note the checkout accepts (1 MiB): enough
// for a letter or a photo, small enough to keep in memory.
const maxGiftNote = 1 << 20

// maxCheckoutForm bounds the whole order form: the gift note plus room for
// the text fields and multipart framing.
const maxCheckoutForm = maxGiftNote + 64<<10

// checkoutPage is the body of checkout.html.
type checkoutPage struct {
	Lines  []orderLine
	Totals totals
	// DiscountError is the message after a code that did not apply.
	DiscountError string
	// PendingCode is a valid code that waits for its confirmation
	// (DiscountConfirm only).
	PendingCode string
	Countries   []string
	// Name and Country are what the person entered, kept when the order was
	// refused.
	Name, Country string
	Errors        []string
	// Invalid names the fields that Errors are about.
	Invalid map[string]bool
}

// Confirm is the question the Place order button asks before submitting.
func (c checkoutPage) Confirm() string {
	return "Place order for " + c.Totals.Total.String() + "?"
}

// serverErrorAnswer is ServerError's answer to every checkout request.
func (s *shop) serverErrorAnswer(w http.ResponseWriter, r *http.Request, sess *session) {
	s.logf("checkout failed on purpose: variant %s", ServerError)
	s.renderError(w, r, sess, http.StatusInternalServerError, errorPage{
		Heading:   "Something went wrong",
		Message:   "The checkout is not available right now. Your cart is safe; try again later.",
		Link:      "/cart",
		LinkText:  "Back to your cart",
		Reference: "E-500-CHECKOUT",
	})
}

func (s *shop) checkout(w http.ResponseWriter, r *http.Request, sess *session) {
	if variantOf(r) == ServerError {
		s.serverErrorAnswer(w, r, sess)
		return
	}
	if len(sess.cart) == 0 {
		sess.flash = "Your cart is empty. Add a product before checking out."
		http.Redirect(w, r, "/cart", http.StatusSeeOther)
		return
	}
	c := s.checkoutFor(r, sess)
	c.DiscountError, sess.discountError = sess.discountError, ""
	c.PendingCode, sess.pendingDiscount = sess.pendingDiscount, ""
	s.render(w, r, http.StatusOK, "checkout", signedInPage(r, sess, "Checkout", c))
}

func (s *shop) checkoutFor(r *http.Request, sess *session) checkoutPage {
	return checkoutPage{
		Lines:     sess.lines(variantOf(r)),
		Totals:    sess.totals(variantOf(r)),
		Countries: countries,
		Invalid:   map[string]bool{},
	}
}

// checkoutDiscount applies a code (case does not matter) or, with remove
// set, takes the applied one off.
func (s *shop) checkoutDiscount(w http.ResponseWriter, r *http.Request, sess *session) {
	if variantOf(r) == ServerError {
		s.serverErrorAnswer(w, r, sess)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "the discount form could not be read: "+err.Error(), http.StatusBadRequest)
		return
	}
	code := strings.ToUpper(strings.TrimSpace(r.PostForm.Get("code")))
	switch {
	case r.PostForm.Get("remove") != "":
		sess.discount = ""
		sess.flash = "Discount code removed."
	case code == "":
		sess.discountError = "Enter a discount code first."
	case code == discountCode && variantOf(r) == DiscountRefused:
		sess.discountError = "“" + code + "” has expired."
	case code == discountCode && variantOf(r) == DiscountConfirm && r.PostForm.Get("confirm") == "":
		sess.pendingDiscount = code
	case code == discountCode:
		sess.discount = code
	default:
		sess.discountError = "“" + code + "” is not a valid code."
	}
	http.Redirect(w, r, "/checkout", http.StatusSeeOther)
}

// checkoutPlace places the order. A refused order renders the checkout again
// with 422 and says what to fix.
func (s *shop) checkoutPlace(w http.ResponseWriter, r *http.Request, sess *session) {
	if variantOf(r) == ServerError {
		s.serverErrorAnswer(w, r, sess)
		return
	}
	if len(sess.cart) == 0 {
		sess.flash = "Your cart is empty. Add a product before checking out."
		http.Redirect(w, r, "/cart", http.StatusSeeOther)
		return
	}
	c := s.checkoutFor(r, sess)
	r.Body = http.MaxBytesReader(w, r.Body, maxCheckoutForm)
	giftNote, problem := readOrderForm(r)
	if problem != "" {
		c.Errors = append(c.Errors, problem)
		c.Invalid["gift-note"] = true
		if r.MultipartForm == nil {
			// Nothing else could be read: asking for the name and the
			// country as well would only mislead.
			s.render(w, r, http.StatusUnprocessableEntity, "checkout", signedInPage(r, sess, "Checkout", c))
			return
		}
	}
	c.Name = strings.TrimSpace(r.FormValue("name"))
	c.Country = r.FormValue("country")
	if c.Name == "" {
		c.Errors = append(c.Errors, "Enter the full name of the person the parcel is for.")
		c.Invalid["name"] = true
	}
	if !slices.Contains(countries, c.Country) {
		c.Errors = append(c.Errors, "Choose the country to deliver to.")
		c.Invalid["country"] = true
	}
	if r.FormValue("terms") == "" {
		c.Errors = append(c.Errors, "Accept the terms and conditions to place the order.")
		c.Invalid["terms"] = true
	}
	if len(c.Errors) > 0 {
		if giftNote != "" {
			c.Errors = append(c.Errors, "Choose the gift note again: a browser does not keep a chosen file.")
		}
		s.render(w, r, http.StatusUnprocessableEntity, "checkout", signedInPage(r, sess, "Checkout", c))
		return
	}
	o := &order{
		Number:   firstOrderNumber + len(sess.orders),
		Lines:    c.Lines,
		Totals:   c.Totals,
		Name:     c.Name,
		Country:  c.Country,
		GiftNote: giftNote,
	}
	sess.orders = append(sess.orders, o)
	sess.cart, sess.discount = nil, ""
	http.Redirect(w, r, "/orders/"+strconv.Itoa(o.Number), http.StatusSeeOther)
}

// giftNoteTooLarge is the message for a gift note over maxGiftNote.
const giftNoteTooLarge = "The gift note is larger than 1 MB; choose a smaller file."

// readOrderForm parses the multipart order form and returns the gift note's
// file name ("" when none was chosen; only the name is kept) and, when the
// form could not be read, a message for the person.
func readOrderForm(r *http.Request) (name, problem string) {
	if err := r.ParseMultipartForm(maxCheckoutForm); err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return "", giftNoteTooLarge
		case errors.Is(err, http.ErrNotMultipart):
			if r.ParseForm() == nil {
				return "", ""
			}
		}
		return "", "The order form could not be read; reload the page and try again."
	}
	f, h, err := r.FormFile("gift_note")
	if errors.Is(err, http.ErrMissingFile) {
		return "", ""
	}
	if err != nil {
		return "", "The gift note could not be read; choose it again."
	}
	f.Close()
	name = path.Base(strings.ReplaceAll(h.Filename, `\`, "/"))
	if h.Size > maxGiftNote {
		return name, giftNoteTooLarge
	}
	return name, ""
}

// ordersPage is the body of orders.html.
type ordersPage struct{ Orders []*order }

func (s *shop) orders(w http.ResponseWriter, r *http.Request, sess *session) {
	s.render(w, r, http.StatusOK, "orders", signedInPage(r, sess, "Your orders", ordersPage{Orders: sess.orders}))
}

// sessionOrder finds the order named in the path; on failure it answers 404
// and returns nil.
func (s *shop) sessionOrder(w http.ResponseWriter, r *http.Request, sess *session) *order {
	n, err := strconv.Atoi(r.PathValue("number"))
	var o *order
	if err == nil {
		o = sess.findOrder(n)
	}
	if o == nil {
		s.renderError(w, r, sess, http.StatusNotFound, errorPage{
			Heading:  "Order not found",
			Message:  "You have no order " + r.PathValue("number") + ".",
			Link:     "/orders",
			LinkText: "See your orders",
		})
	}
	return o
}

func (s *shop) orderPage(w http.ResponseWriter, r *http.Request, sess *session) {
	if o := s.sessionOrder(w, r, sess); o != nil {
		s.render(w, r, http.StatusOK, "order", signedInPage(r, sess, "Order TP-"+strconv.Itoa(o.Number), o))
	}
}

// receipt is the printable page that the confirmation opens in a new tab.
func (s *shop) receipt(w http.ResponseWriter, r *http.Request, sess *session) {
	if o := s.sessionOrder(w, r, sess); o != nil {
		// No signedInPage: the receipt has no header, and must not take
		// the flash meant for the tab that opened it.
		s.render(w, r, http.StatusOK, "receipt", pageData{
			Title: "Receipt TP-" + strconv.Itoa(o.Number),
			User:  sess.user,
			Bare:  true,
			Body:  o,
		})
	}
}
