package demo

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"
)

// defaultNext is where signing in leads when the login form names no page.
const defaultNext = "/products"

// loginForm is the body of login.html.
type loginForm struct {
	Next     string
	Username string
	// Error says why the last attempt failed; Notice says why the person is
	// here (signed out, session expired).
	Error, Notice string
}

// signedIn wraps a handler that needs a session. Without one, GET requests
// are sent to the login page and come back after it. Unauthorized and
// LoginRedirect refuse every session here, which is how those variants
// expire a session right after signing in.
func (s *shop) signedIn(h func(http.ResponseWriter, *http.Request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sess := s.store.lookup(r)
		switch {
		case sess == nil:
			redirectToLogin(w, r, false)
		case variantOf(r) == Unauthorized:
			s.renderError(w, r, nil, http.StatusUnauthorized, errorPage{
				Heading:   "Your session has expired",
				Message:   "Sign in again to continue.",
				Link:      "/login",
				LinkText:  "Sign in again",
				Reference: "E-401-SESSION",
			})
		case variantOf(r) == LoginRedirect:
			redirectToLogin(w, r, true)
		default:
			sess.mu.Lock()
			defer sess.mu.Unlock()
			h(w, r, sess)
		}
	}
}

// redirectToLogin sends the browser to the login page, which brings it back
// to this page (for a GET) afterwards.
func redirectToLogin(w http.ResponseWriter, r *http.Request, expired bool) {
	q := url.Values{}
	if r.Method == http.MethodGet {
		q.Set("next", r.URL.RequestURI())
	}
	if expired {
		q.Set("expired", "1")
	}
	target := "/login"
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// localPath returns p when it is a path on this site, else defaultNext, so
// the login form cannot be used to send people elsewhere.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") ||
		strings.HasPrefix(p, "/login") {
		return defaultNext
	}
	return p
}

// loginPage always shows the form, even to a signed-in browser: in
// LoginRedirect a session is refused everywhere else, and redirecting away
// from here would loop.
func (s *shop) loginPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := loginForm{Next: localPath(q.Get("next"))}
	switch {
	case q.Get("expired") == "1":
		f.Notice = "Your session has expired. Sign in again to continue."
	case q.Get("signed-out") == "1":
		f.Notice = "You have signed out."
	}
	s.render(w, r, http.StatusOK, "login", pageData{Title: "Sign in", Body: f})
}

// login checks the credentials. A failure answers 401 with the form again,
// keeping the username and never the password.
func (s *shop) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "the login form could not be read: "+err.Error(), http.StatusBadRequest)
		return
	}
	user := strings.TrimSpace(r.PostForm.Get("username"))
	f := loginForm{Next: localPath(r.PostForm.Get("next")), Username: user}
	if !validCredentials(user, r.PostForm.Get("password")) {
		f.Error = "Wrong username or password."
		if user == "" || r.PostForm.Get("password") == "" {
			f.Error = "Enter your username and your password."
		}
		// Not even the username is logged: people type passwords into
		// username fields.
		s.logf("login refused")
		s.render(w, r, http.StatusUnauthorized, "login", pageData{Title: "Sign in", Body: f})
		return
	}
	s.store.end(r)
	c := &http.Cookie{
		Name:     sessionCookie,
		Value:    s.store.create(user),
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteLaxMode,
	}
	if r.PostForm.Get("remember") != "" {
		c.MaxAge = rememberMeAge
	}
	http.SetCookie(w, c)
	http.Redirect(w, r, f.Next, http.StatusSeeOther)
}

// validCredentials compares in constant time, as a real shop would.
func validCredentials(user, password string) bool {
	u := subtle.ConstantTimeCompare([]byte(user), []byte(Username))
	p := subtle.ConstantTimeCompare([]byte(password), []byte(Password))
	return u&p == 1
}

func (s *shop) logout(w http.ResponseWriter, r *http.Request) {
	s.store.end(r)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/login?signed-out=1", http.StatusSeeOther)
}
