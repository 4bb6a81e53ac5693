package selectors

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
)

// corpusDir is the selector corpus in the recorder's testdata.
var corpusDir = filepath.Join("..", "..", "recorder", "selector", "testdata", "selectors")

// corpusHost is the name the fixture pages are loaded under. The browser
// resolves it to the loopback server, so the URLs in the captured screens
// (the page's, and every link's resolved href) do not carry the server's
// random port and stay the same from one capture to the next.
const corpusHost = "selectors.test"

// corpusOrigin is where the fixture pages are loaded from.
const corpusOrigin = "http://" + corpusHost

// pageTimeout bounds loading and capturing one page; generous, as the
// machine is shared and the large page takes a while.
const pageTimeout = 2 * time.Minute

// browserCtx is the one headless browser the tests share; each page is
// loaded in a fresh browser context of its own.
var browserCtx context.Context

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	srv := httptest.NewServer(fixtures())
	defer srv.Close()
	mapped, err := browsertest.MapHost(corpusHost, srv.URL)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return browsertest.RunShared(m, headless, &browserCtx, mapped)
}

// headless is how the tests launch their browser.
func headless(dir string) ([]chromedp.ExecAllocatorOption, error) {
	return browser.AllocatorOptions(browser.LaunchOptions{Headless: true, UserDataDir: dir})
}

// fixtures serves the corpus pages, and the generated large page.
func fixtures() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(filepath.Join(corpusDir, "pages"))))
	mux.HandleFunc("/"+largePage, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(largePageHTML())
	})
	return mux
}
