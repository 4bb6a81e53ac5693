package screendiff

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

// fixtureDir is the diff package's testdata.
var fixtureDir = filepath.Join("..", "..", "recorder", "screendiff", "testdata")

// fixtureHost is the name the pages are loaded under: the browser resolves
// it to the loopback server, so the URLs in the screens do not carry the
// server's random port.
const fixtureHost = "screendiff.test"

const fixtureOrigin = "http://" + fixtureHost

// pageTimeout bounds loading, stepping and capturing one page; generous,
// as the machine is shared.
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
	mapped, err := browsertest.MapHost(fixtureHost, srv.URL)
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

// fixtures serves the pages, and the real frameworks they load from the
// repository's node_modules.
func fixtures() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(filepath.Join(fixtureDir, "pages"))))
	mux.Handle("/node_modules/", http.StripPrefix("/node_modules/", http.FileServer(http.Dir(filepath.Join("..", "..", "node_modules")))))
	return mux
}
