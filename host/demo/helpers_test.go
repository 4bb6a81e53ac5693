package demo

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// logRecorder keeps what the shop logs, for tests that read it.
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (l *logRecorder) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logRecorder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// newServer starts a shop on loopback for the test.
func newServer(t *testing.T, opts Options) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(New(opts))
	t.Cleanup(srv.Close)
	return srv
}

// client is one browser: a cookie jar, and redirects left to the test.
type client struct {
	t      *testing.T
	base   string
	hc     *http.Client
	header http.Header // sent with every request
}

type response struct {
	Status   int
	Location string
	Header   http.Header
	Body     string
}

func newClient(t *testing.T, srv *httptest.Server) *client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &client{
		t:    t,
		base: srv.URL,
		hc: &http.Client{
			Jar:           jar,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		header: http.Header{},
	}
}

func (c *client) do(req *http.Request) response {
	c.t.Helper()
	for k, v := range c.header {
		req.Header[k] = v
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	return response{Status: resp.StatusCode, Location: resp.Header.Get("Location"), Header: resp.Header, Body: string(body)}
}

func (c *client) get(path string) response {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodGet, c.base+path, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.do(req)
}

func (c *client) post(path string, form url.Values) response {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

// postMultipart sends the order form; file, when not empty, is the gift
// note's name and content.
func (c *client) postMultipart(path string, fields url.Values, fileName string, file []byte) response {
	c.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range fields {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	if fileName != "" {
		fw, err := mw.CreateFormFile("gift_note", fileName)
		if err != nil {
			c.t.Fatal(err)
		}
		fw.Write(file)
	}
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, c.base+path, &buf)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.do(req)
}

// follow GETs the redirect target of r.
func (c *client) follow(r response) response {
	c.t.Helper()
	if r.Status != http.StatusSeeOther {
		c.t.Fatalf("status = %d, want 303 to follow; body:\n%s", r.Status, r.Body)
	}
	return c.get(r.Location)
}

// login signs in as the demo account and checks where it lands.
func (c *client) login() {
	c.t.Helper()
	r := c.post("/login", url.Values{"username": {Username}, "password": {Password}, "next": {"/products"}})
	if r.Status != http.StatusSeeOther || r.Location != "/products" {
		c.t.Fatalf("POST /login = %d to %q, want 303 to /products", r.Status, r.Location)
	}
}

// add puts qty of a product into the cart.
func (c *client) add(slug string, qty int) {
	c.t.Helper()
	r := c.post("/cart/add", url.Values{"id": {slug}, "qty": {fmt.Sprint(qty)}, "return": {"/cart"}})
	if r.Status != http.StatusSeeOther {
		c.t.Fatalf("POST /cart/add %s = %d, want 303; body:\n%s", slug, r.Status, r.Body)
	}
}

// wantContains fails unless body holds every one of want.
func wantContains(t *testing.T, what, body string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("%s does not contain %q", what, w)
		}
	}
}

func wantNotContains(t *testing.T, what, body string, unwanted ...string) {
	t.Helper()
	for _, w := range unwanted {
		if strings.Contains(body, w) {
			t.Errorf("%s contains %q", what, w)
		}
	}
}

var (
	reTag       = regexp.MustCompile(`<[^>]*>`)
	reSpace     = regexp.MustCompile(`\s+`)
	reH1        = regexp.MustCompile(`(?s)<h1[^>]*>(.*?)</h1>`)
	reButton    = regexp.MustCompile(`(?s)<button([^>]*)>(.*?)</button>`)
	reLabel     = regexp.MustCompile(`(?s)<label[^>]*>(.*?)</label>`)
	reAriaLabel = regexp.MustCompile(`aria-label="([^"]*)"`)
	reTestID    = regexp.MustCompile(`data-testid="([^"]*)"`)
	reID        = regexp.MustCompile(`\sid="([^"]*)"`)
	rePrice     = regexp.MustCompile(`\$[0-9,]+\.[0-9]{2}`)
	reCardName  = regexp.MustCompile(`<h2 id="[^"]*"><a href="/products/[^"]*">([^<]*)</a></h2>`)
)

// text strips tags and collapses whitespace, roughly as a reader sees it.
func text(html string) string {
	return strings.TrimSpace(reSpace.ReplaceAllString(reTag.ReplaceAllString(html, " "), " "))
}

func allMatches(re *regexp.Regexp, s string, group int) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, text(m[group]))
	}
	return out
}

func count(s, sub string) int { return strings.Count(s, sub) }
