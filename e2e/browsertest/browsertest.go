package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// Hint says how to get a browser the tests can start.
const Hint = "install Chromium (Debian: apt-get install chromium), or set CHROME_PATH to a Chromium-based browser's executable"

// InCI reports whether the tests run in CI: every CI service sets CI.
func InCI() bool { return os.Getenv("CI") != "" }

// Missing ends a test that needs a browser and could not find or start one
// (why says what went wrong): it fails under CI and is skipped elsewhere,
// with the hint in both cases.
func Missing(tb testing.TB, why error) {
	tb.Helper()
	msg := message(why)
	if InCI() {
		tb.Fatal(msg)
		return
	}
	tb.Skip(msg)
}

// MissingInMain is Missing for a TestMain that starts one browser for the
// whole package, before any test runs: it prints the same message and
// returns the test binary's exit status, 1 under CI and 0 (no test run)
// elsewhere.
func MissingInMain(why error) int {
	msg := message(why)
	if InCI() {
		fmt.Fprintln(os.Stderr, "FAIL: this package's tests", msg)
		return 1
	}
	fmt.Fprintln(os.Stderr, "SKIP: every test of this package", msg)
	return 0
}

func message(why error) string {
	state := "skipped"
	if InCI() {
		state = "failed, as CI is set"
	}
	return fmt.Sprintf("needs Chromium (%v): %s. To run it, %s", why, state, Hint)
}

// Options gives the launch options of a headless browser whose profile is
// the fresh directory userDataDir: the caller's browser.AllocatorOptions,
// as this package imports nothing of Trailpin's.
type Options func(userDataDir string) ([]chromedp.ExecAllocatorOption, error)

// RunShared is the TestMain of a package whose tests share one headless
// browser: it starts the browser in a fresh profile with options and
// extra, sets *browser to its context, runs the tests and returns the test
// binary's exit status. Without a browser it answers as MissingInMain.
func RunShared(m *testing.M, options Options, browser *context.Context, extra ...chromedp.ExecAllocatorOption) int {
	dir, err := os.MkdirTemp("", "trailpin-browser-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	opts, err := options(dir)
	if err != nil {
		return MissingInMain(err)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil {
		fmt.Fprintln(os.Stderr, "starting Chromium:", err)
		return 1
	}
	*browser = bctx
	return m.Run()
}

// MapHost makes the browser resolve the host name to the server at
// serverURL, so that pages load under a fixed name and the URLs in what
// they capture do not carry the server's random port.
func MapHost(name, serverURL string) (chromedp.ExecAllocatorOption, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	return chromedp.Flag("host-resolver-rules", "MAP "+name+" "+u.Host), nil
}
