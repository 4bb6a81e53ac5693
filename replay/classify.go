package replay

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// Failure classes. Every failure gets exactly one; the most specific
// evidence wins, in this order:
//
//  1. missing-test-data — the trail asked for something the run was not
//     given: a secret or param without a value (names the variable), an
//     upload file that is not there, a base URL that is not set, a step
//     that only has a goal for the agent, an assertion replay cannot run
//     yet. Nothing about the app is known from such a failure.
//  2. env-issue — the app or browser was not there to test: the page
//     crashed, the tab or browser went away, a page could not be loaded at
//     all (net::ERR_…), the main document on screen answered 5xx, or a
//     document or XHR/fetch answered 5xx in the failing step.
//  3. auth-blocked — the app refused the session: the main document on
//     screen, or a document or XHR/fetch in the failing step, answered 401
//     or 403; or the page is a login page (login/signin in its path, or a
//     password field that was not there when the step began) where the
//     trail expected another page. A
//     login page the trail expected (it asserts one, or the step began on
//     one and names no other) is not auth-blocked.
//  4. app-bug — a check failed with clear evidence: what it expected and
//     what the page showed instead (a price, a URL, a value, a state; an
//     element that stayed disabled or covered, or a slider that does not
//     take the focus a set needs; a text shown in its place
//     with other numbers or a word changed; an end state's node that shows
//     other text in its place; a row or other scope in its place with
//     other values, replay/diagnose/scope.go; an end state's node the step made
//     where the page still shows only what it showed when the step began,
//     as a delete that left a row does; an element a drag should have put
//     in a list still where it was when the drag began). A control counts only when its
//     numbers or a few words changed: one that reads otherwise was
//     renamed.
//  5. selector-drift — a selector matched nothing with nothing in its
//     place to compare (a control gone or renamed), or several elements,
//     or the step's end state is missing a node and nothing says the app
//     did otherwise.
//  6. env-issue — anything else (a protocol error, the trail's deadline).
//
// The HTTP evidence comes first because a refused or broken page explains
// every missing element after it: on a 500 page, the Apply button is
// missing because the server failed, not because the app changed.

// facts is what the classifier weighs.
type facts struct {
	err       *stepError
	step      int // 1-based step the trail stopped in
	responses []response
	crashed   bool
	// url is the page's URL at failure; screen its screen (may be nil).
	url    string
	screen *screen.Screen
	// startedOnLogin: the failing step began on a login page;
	// startedWithPassword: on a page with a visible password field.
	startedOnLogin, startedWithPassword bool
}

func (r *trailRun) facts() facts {
	f := facts{err: r.failure, step: r.failed + 1, responses: r.log.responsesCopy(), crashed: r.log.hasCrashed()}
	if r.res.Failure != nil {
		f.url = r.res.Failure.URL
	}
	if r.page != nil {
		f.screen = r.page.screen
	}
	if r.failed >= 0 && r.failed < len(r.res.Steps) {
		f.startedOnLogin = isLoginPath(r.res.Steps[r.failed].Path)
		f.startedWithPassword = r.stepStartedWithPassword
	}
	return f
}

func classify(f facts) FailureClass {
	e := f.err
	if e == nil {
		return ClassEnvIssue
	}
	if e.Class != "" {
		return e.Class
	}
	var load *loadError
	if f.crashed || e.gone || errors.As(e.Err, &load) {
		return ClassEnvIssue
	}
	doc := mainDocument(f.responses)
	if doc != nil && doc.status >= 500 || anyStatus(f.responses, f.step, func(s int64) bool { return s >= 500 }) {
		return ClassEnvIssue
	}
	refused := func(s int64) bool { return s == 401 || s == 403 }
	onLogin := isLoginPath(pathOf(f.url)) || (diagnose.HasPasswordField(f.screen) && !f.startedWithPassword)
	if !expectsLogin(f) && ((doc != nil && refused(doc.status)) || anyStatus(f.responses, f.step, refused) || onLogin) {
		return ClassAuthBlocked
	}
	if e.Expected != "" && e.Actual != "" {
		return ClassAppBug
	}
	switch e.Reason {
	case StopTargetNotFound, StopAmbiguous, StopEndMismatch, StopAssertionFailed, StopKeyMismatch:
		return ClassSelectorDrift
	}
	return ClassEnvIssue
}

// mainDocument is the last response of a tab's top document.
func mainDocument(rs []response) *response {
	for i := len(rs) - 1; i >= 0; i-- {
		if rs[i].main {
			return &rs[i]
		}
	}
	return nil
}

// anyStatus reports a document or XHR/fetch response of step with a status
// bad says is bad.
func anyStatus(rs []response, step int, bad func(int64) bool) bool {
	for _, r := range rs {
		if r.step == step && bad(r.status) {
			return true
		}
	}
	return false
}

// loginPath matches the paths of sign-in pages.
var loginPath = regexp.MustCompile(`(?i)(^|[/_.-])(log-?in|sign-?in|signon|auth)([/_.?-]|$)`)

func isLoginPath(p string) bool {
	p, _, _ = strings.Cut(p, "?")
	return loginPath.MatchString(p)
}

func pathOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Path
}

// expectsLogin reports whether the trail expected a login page where it
// failed: the failing check names a login URL, or, naming none, the step
// began on a login page.
func expectsLogin(f facts) bool {
	if f.err.ExpectedURL != "" {
		return isLoginPath(f.err.ExpectedURL)
	}
	return f.startedOnLogin
}

// classWhy is a short reason for a class, for messages.
func classWhy(class FailureClass, f facts) string {
	doc := mainDocument(f.responses)
	switch class {
	case ClassEnvIssue:
		if f.crashed {
			return "the page crashed"
		}
		if doc != nil && doc.status >= 500 {
			return fmt.Sprintf("%s answered %d", shortURL(doc.url), doc.status)
		}
	case ClassAuthBlocked:
		if doc != nil && (doc.status == 401 || doc.status == 403) {
			return fmt.Sprintf("%s answered %d", shortURL(doc.url), doc.status)
		}
		if isLoginPath(pathOf(f.url)) {
			return "redirected to the login page " + shortURL(f.url)
		}
	}
	return ""
}
