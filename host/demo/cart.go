package demo

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// relatedCount is how many products the "You might also like" list shows.
const relatedCount = 3

// signedInPage fills the layout fields that every signed-in page shares, and
// takes the session's one-time message.
func signedInPage(r *http.Request, sess *session, title string, body any) pageData {
	return pageData{
		Title: title,
		User:  sess.user,
		Query: r.URL.Query().Get("q"),
		Items: sess.itemCount(),
		Flash: sess.takeFlash(),
		Body:  body,
	}
}

// productList is the body of products.html.
type productList struct {
	Query    string
	Products []product
	Summary  string // "12 products", "3 results for “iphone”"
	// Return is the page that Add to cart comes back to.
	Return string
}

func (s *shop) products(w http.ResponseWriter, r *http.Request, sess *session) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	found := search(variantOf(r), q)
	var summary string
	switch {
	case q == "":
		summary = fmt.Sprintf("%d products", len(found))
	case len(found) == 0:
		summary = fmt.Sprintf("No products match “%s”.", q)
	case len(found) == 1:
		summary = fmt.Sprintf("1 result for “%s”", q)
	default:
		summary = fmt.Sprintf("%d results for “%s”", len(found), q)
	}
	title := "Products"
	if q != "" {
		title = "Search: " + q
	}
	s.render(w, r, http.StatusOK, "products", signedInPage(r, sess, title, productList{
		Query: q, Products: found, Summary: summary, Return: r.URL.RequestURI(),
	}))
}

// productDetail is the body of product.html.
type productDetail struct {
	Product product
	Related []product
	InCart  int
}

func (s *shop) productPage(w http.ResponseWriter, r *http.Request, sess *session) {
	p, ok := findProduct(variantOf(r), r.PathValue("slug"))
	if !ok {
		s.renderError(w, r, sess, http.StatusNotFound, errorPage{
			Heading: "Product not found",
			Message: "We do not sell a product called " + r.PathValue("slug") + ".",
		})
		return
	}
	s.render(w, r, http.StatusOK, "product", signedInPage(r, sess, p.Name, productDetail{
		Product: p,
		Related: related(variantOf(r), p, relatedCount),
		InCart:  sess.quantity(p.Slug),
	}))
}

// cartPage is the body of cart.html.
type cartPage struct {
	Lines  []cartRow
	Totals totals
}

type cartRow struct {
	Product product
	Qty     int
	Total   cents
}

func (s *shop) cart(w http.ResponseWriter, r *http.Request, sess *session) {
	var c cartPage
	for _, l := range sess.cart {
		p, ok := findProduct(variantOf(r), l.slug)
		if !ok {
			continue
		}
		c.Lines = append(c.Lines, cartRow{Product: p, Qty: l.qty, Total: p.Price * cents(l.qty)})
	}
	c.Totals = sess.totals(variantOf(r))
	s.render(w, r, http.StatusOK, "cart", signedInPage(r, sess, "Cart", c))
}

// formProduct reads the product named by the form's id field; on failure it
// answers and returns false.
func (s *shop) formProduct(w http.ResponseWriter, r *http.Request, sess *session) (product, bool) {
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, sess, http.StatusBadRequest, errorPage{Heading: "That did not work", Message: "The form could not be read: " + err.Error()})
		return product{}, false
	}
	p, ok := findProduct(variantOf(r), r.PostForm.Get("id"))
	if !ok {
		s.renderError(w, r, sess, http.StatusBadRequest, errorPage{
			Heading: "That did not work",
			Message: fmt.Sprintf("There is no product %q; pick one from the list.", r.PostForm.Get("id")),
		})
		return product{}, false
	}
	return p, true
}

// cartAdd adds qty (default 1) of a product and goes back to the page the
// form came from.
func (s *shop) cartAdd(w http.ResponseWriter, r *http.Request, sess *session) {
	p, ok := s.formProduct(w, r, sess)
	if !ok {
		return
	}
	back := localPath(r.PostForm.Get("return"))
	qty := 1
	if v := strings.TrimSpace(r.PostForm.Get("qty")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxQuantity {
			sess.flash = fmt.Sprintf("Choose a quantity from 1 to %d.", maxQuantity)
			http.Redirect(w, r, back, http.StatusSeeOther)
			return
		}
		qty = n
	}
	have := sess.quantity(p.Slug)
	switch {
	case !p.InStock():
		sess.flash = p.Name + " is out of stock."
	case have+qty > maxQuantity:
		sess.setQuantity(p.Slug, maxQuantity)
		sess.flash = fmt.Sprintf("You can buy at most %d of each product; your cart now has %d × %s.", maxQuantity, maxQuantity, p.Name)
	default:
		sess.setQuantity(p.Slug, have+qty)
		if qty == 1 {
			sess.flash = "Added " + p.Name + " to your cart."
		} else {
			sess.flash = fmt.Sprintf("Added %d × %s to your cart.", qty, p.Name)
		}
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// cartUpdate sets a line's quantity: a number, or "dec"/"inc" from the − and
// + buttons. Zero removes the line.
func (s *shop) cartUpdate(w http.ResponseWriter, r *http.Request, sess *session) {
	p, ok := s.formProduct(w, r, sess)
	if !ok {
		return
	}
	have := sess.quantity(p.Slug)
	var qty int
	switch v := strings.TrimSpace(r.PostForm.Get("qty")); v {
	case "dec":
		qty = have - 1
	case "inc":
		qty = have + 1
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > maxQuantity {
			sess.flash = fmt.Sprintf("Enter a quantity from 0 to %d for %s.", maxQuantity, p.Name)
			http.Redirect(w, r, "/cart", http.StatusSeeOther)
			return
		}
		qty = n
	}
	qty = min(max(qty, 0), maxQuantity)
	sess.setQuantity(p.Slug, qty)
	if qty == 0 {
		sess.flash = "Removed " + p.Name + " from your cart."
	} else {
		sess.flash = fmt.Sprintf("%s: quantity %d.", p.Name, qty)
	}
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}

func (s *shop) cartRemove(w http.ResponseWriter, r *http.Request, sess *session) {
	p, ok := s.formProduct(w, r, sess)
	if !ok {
		return
	}
	sess.setQuantity(p.Slug, 0)
	sess.flash = "Removed " + p.Name + " from your cart."
	http.Redirect(w, r, "/cart", http.StatusSeeOther)
}
