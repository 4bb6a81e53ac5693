package demo

import (
	"context"
	"html/template"
	"net/http"
)

// The demo account. Tests type these into the login form; Password is what
// leak tests search for.
const (
	Username = "ada"
	// Password is deliberately unlike anything the shop shows or any common
	// word: leak tests search recordings, exports and logs for every prefix
	// of it longer than three characters, so "zq7-" must occur nowhere else.
	Password = "zq7-velvet-otter-4921"
)

// Options configure a shop.
type Options struct {
	// Variant is the mutation the shop serves (one of Variants), or Normal.
	Variant string
	// Logf, when set, gets one line per request (method, path and query,
	// status) and every server-side error. It never gets a request body, so
	// a password, which is always posted, cannot reach a log through it.
	Logf func(format string, args ...any)
}

// shop is the demo app's http.Handler.
type shop struct {
	variant string
	logf    func(format string, args ...any)
	store   *store
	pages   map[string]*template.Template
	mux     *http.ServeMux
}

// New returns the demo shop. Every shop starts with the same catalogue and no
// sessions; state lives in memory, per session cookie, until POST /reset or
// the end of the process.
//
// New panics if opts.Variant is not Normal or one of Variants: check names
// that come from outside with ValidateVariant first.
func New(opts Options) http.Handler {
	if err := ValidateVariant(opts.Variant); err != nil {
		panic("demo.New: " + err.Error())
	}
	s := &shop{
		variant: opts.Variant,
		logf:    opts.Logf,
		store:   newStore(),
		pages:   parsePages(),
		mux:     http.NewServeMux(),
	}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	s.routes()
	return s
}

// routes registers every route; the package documentation lists them.
func (s *shop) routes() {
	m := s.mux
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("GET /login", s.loginPage)
	m.HandleFunc("POST /login", s.login)
	m.HandleFunc("POST /logout", s.logout)
	m.HandleFunc("GET /help", s.help)

	m.HandleFunc("GET /products", s.signedIn(s.products))
	m.HandleFunc("GET /products/{slug}", s.signedIn(s.productPage))
	m.HandleFunc("GET /cart", s.signedIn(s.cart))
	m.HandleFunc("POST /cart/add", s.signedIn(s.cartAdd))
	m.HandleFunc("POST /cart/update", s.signedIn(s.cartUpdate))
	m.HandleFunc("POST /cart/remove", s.signedIn(s.cartRemove))
	m.HandleFunc("GET /checkout", s.signedIn(s.checkout))
	m.HandleFunc("POST /checkout/discount", s.signedIn(s.checkoutDiscount))
	m.HandleFunc("POST /checkout/place", s.signedIn(s.checkoutPlace))
	m.HandleFunc("GET /orders", s.signedIn(s.orders))
	m.HandleFunc("GET /orders/{number}", s.signedIn(s.orderPage))
	m.HandleFunc("GET /orders/{number}/receipt", s.signedIn(s.receipt))

	m.HandleFunc("GET /big", s.big)
	m.HandleFunc("POST /reset", s.reset)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(staticFS())))
	m.HandleFunc("GET /", s.notFound)
}

type variantKey struct{}

// variantOf returns the variant the request is served as.
func variantOf(r *http.Request) string {
	v, _ := r.Context().Value(variantKey{}).(string)
	return v
}

// ServeHTTP picks the request's variant, serves it and logs the outcome.
func (s *shop) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v, err := headerVariant(r.Header.Get(VariantHeader), s.variant)
	if err != nil {
		http.Error(w, VariantHeader+": "+err.Error(), http.StatusBadRequest)
		s.logf("%s %s %d (%v)", r.Method, r.URL.RequestURI(), http.StatusBadRequest, err)
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), variantKey{}, v))
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	s.mux.ServeHTTP(rec, r)
	// The path and query are logged, never the body: form values (the
	// password above all) stay out of logs.
	s.logf("%s %s %d", r.Method, r.URL.RequestURI(), rec.status)
}

// statusRecorder remembers the status a handler wrote, for the log line.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (s *shop) home(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, "/products", http.StatusSeeOther)
}

// reset forgets every session, cart and order: tests call it between runs
// that share one server.
func (s *shop) reset(w http.ResponseWriter, r *http.Request) {
	s.store.reset()
	w.WriteHeader(http.StatusNoContent)
}

func (s *shop) notFound(w http.ResponseWriter, r *http.Request) {
	sess := s.store.lookup(r)
	if sess != nil {
		sess.mu.Lock()
		defer sess.mu.Unlock()
	}
	s.renderError(w, r, sess, http.StatusNotFound, errorPage{
		Heading: "Page not found",
		Message: "There is no page at " + r.URL.Path + ".",
	})
}

func (s *shop) help(w http.ResponseWriter, r *http.Request) {
	d := pageData{Title: "Help"}
	if sess := s.store.lookup(r); sess != nil && variantOf(r) != Unauthorized && variantOf(r) != LoginRedirect {
		sess.mu.Lock()
		defer sess.mu.Unlock()
		d.User, d.Items = sess.user, sess.itemCount()
	}
	s.render(w, r, http.StatusOK, "help", d)
}
