package browsertest

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strconv"
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

// ShortSkip is why a test that starts Chromium does not run under -short.
const ShortSkip = "starts Chromium: skipped under -short (go test without -short runs it)"

// Need skips the test under -short: every test that starts Chromium, or
// uses a browser RunShared started, calls it first, so that `go test
// -short ./...` runs what needs no browser, quickly.
func Need(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip(ShortSkip)
	}
}

// DefaultParallel raises how many of the package's parallel tests run at
// once to n, unless the command line set -parallel. Call it from TestMain,
// after flag.Parse. Go's default is GOMAXPROCS, which fits tests that keep
// a core busy; tests that drive a browser spend most of their time waiting
// for it, so on a machine with two cores two at a time leaves the cores
// idle.
func DefaultParallel(n int) {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if set || n <= runtime.GOMAXPROCS(0) {
		return
	}
	if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
		panic(err) // the testing package always defines it
	}
}

// RunShared is the TestMain of a package whose tests share one headless
// browser: it starts the browser in a fresh profile with options and
// extra, sets *browser to its context, runs the tests and returns the test
// binary's exit status. Without a browser it answers as MissingInMain.
// Under -short it starts no browser and *browser stays nil: the tests that
// use it call Need first.
func RunShared(m *testing.M, options Options, browser *context.Context, extra ...chromedp.ExecAllocatorOption) int {
	if !flag.Parsed() {
		flag.Parse()
	}
	if testing.Short() {
		return m.Run()
	}
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

// LongSkip is why a test that takes tens of seconds does not run under
// -short.
const LongSkip = "takes tens of seconds (it builds or restarts the host many times): skipped under -short (go test without -short runs it)"

// Long skips under -short a test that needs no browser but takes tens of
// seconds, so that the inner loop stays under a minute.
func Long(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip(LongSkip)
	}
}
