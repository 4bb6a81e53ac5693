package browsertest

import (
	"fmt"
	"os"
	"testing"
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
