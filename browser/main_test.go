package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// browserCtx is the one headless browser the tests of this package share;
// each test opens its own tab.
var browserCtx context.Context

// site serves testdata; crossSite serves the same files from another origin
// of the same site (another port) and otherSite from another site
// ("localhost" rather than 127.0.0.1), which Chromium puts in another process.
var site, crossSite *httptest.Server

// testTimeout bounds one test's browser work: it catches a hang, never
// measures speed. Generous, as the machine is shared: the 6,000-row page of
// TestCaptureTopLarge, captured three times beside the package's other
// tests, took over 60 s at a load of 36 on two cores.
const testTimeout = 3 * time.Minute

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	site = httptest.NewServer(fixtures())
	defer site.Close()
	crossSite = httptest.NewServer(fixtures())
	defer crossSite.Close()
	return browsertest.RunShared(m, func(dir string) ([]chromedp.ExecAllocatorOption, error) {
		return AllocatorOptions(LaunchOptions{Headless: true, UserDataDir: dir})
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

// newTab opens a tab in the shared browser and loads path from the site.
func newTab(t *testing.T, url string) context.Context {
	t.Helper()
	browsertest.Need(t)
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, testTimeout)
	t.Cleanup(cancelTimeout)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	return ctx
}

func capture(t *testing.T, ctx context.Context, opts CaptureOptions) *screen.Screen {
	t.Helper()
	s, err := Capture(ctx, opts)
	if err != nil {
		t.Fatalf("Capture: %v", err)
	}
	return s
}

// evalJS runs JavaScript in the page's own world.
func evalJS(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](js)); err != nil {
		t.Fatalf("evaluating %q: %v", js, err)
	}
}

// walk calls fn for every node of the tree, parents first.
func walk(n *screen.Node, fn func(n *screen.Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, c := range n.Children {
		walk(c, fn)
	}
}

// byID returns the node whose element has this id, or fails the test.
func byID(t *testing.T, s *screen.Screen, id string) *screen.Node {
	t.Helper()
	var found *screen.Node
	walk(s.Root, func(n *screen.Node) {
		if n.ID == id && found == nil {
			found = n
		}
	})
	if found == nil {
		t.Fatalf("no node with id %q in the screen", id)
	}
	return found
}

// refs maps every ref of the screen to a description of its node.
func refs(s *screen.Screen) map[string]string {
	out := map[string]string{}
	walk(s.Root, func(n *screen.Node) {
		if n.Ref != "" {
			out[n.Ref] = n.Tag + "#" + n.ID + " " + n.Text
		}
	})
	return out
}
