package replay

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
)

// browserCtx is the one headless browser the tests of this package share;
// each test opens its own tab.
var browserCtx context.Context

// site serves testdata; crossSite serves the same files from another origin
// of the same site (another port) and otherSite from another site
// ("localhost" rather than 127.0.0.1), which Chromium puts in another process.
var site, crossSite *httptest.Server

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// The tests share one browser and spend most of their time waiting for
	// it: four at a time keep two cores busy where two left them idle.
	flag.Parse()
	browsertest.DefaultParallel(4)
	site = httptest.NewServer(fixtures())
	defer site.Close()
	crossSite = httptest.NewServer(fixtures())
	defer crossSite.Close()
	return browsertest.RunShared(m, func(dir string) ([]chromedp.ExecAllocatorOption, error) {
		return browser.AllocatorOptions(browser.LaunchOptions{Headless: true, UserDataDir: dir})
	}, &browserCtx)
}

// fixtures serves testdata, plus pages that embed another origin's frame.
func fixtures() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata")))
	mux.HandleFunc("/embed", func(w http.ResponseWriter, r *http.Request) {
		src := r.URL.Query().Get("src")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Embed</title><h1>Host page</h1>
<iframe id="frame" src=%q style="position:absolute; left:50px; top:100px; width:400px; height:200px; border:0"></iframe>`, src)
	})
	return mux
}

// otherSiteURL is path on the second server under another site's name.
func otherSiteURL(path string) string {
	return strings.Replace(crossSite.URL, "127.0.0.1", "localhost", 1) + path
}
