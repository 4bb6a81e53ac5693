package replay

import (
	"context"
	"errors"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

func TestClassify(t *testing.T) {
	login := &screen.Screen{URL: "http://shop.test/login", Root: &screen.Node{Tag: "html", Children: []*screen.Node{
		{Ref: "e5", Role: "textbox", Name: "Password", Tag: "input", Secret: true, Visible: true},
	}}}
	passwordOnly := &screen.Screen{URL: "http://shop.test/account", Root: login.Root}
	doc := func(step int, status int64) response {
		return response{step: step, status: status, document: true, main: true, url: "http://shop.test/x"}
	}
	xhr := func(step int, status int64) response {
		return response{step: step, status: status, url: "http://shop.test/api"}
	}
	notFound := &stepError{Reason: StopTargetNotFound, Selector: &selector.Selector{Role: "button", Name: "Apply"}}
	mismatch := &stepError{Reason: StopAssertionFailed, Expected: "$799.00", Actual: "$829.00"}
	tests := []struct {
		name string
		f    facts
		want FailureClass
	}{
		{"missing secret wins over everything", facts{err: &stepError{Reason: StopMissingData, Class: ClassMissingTestData}, crashed: true}, ClassMissingTestData},
		{"crash", facts{err: notFound, crashed: true}, ClassEnvIssue},
		{"tab gone", facts{err: &stepError{Reason: StopActionFailed, gone: true}}, ClassEnvIssue},
		{"page could not load", facts{err: &stepError{Reason: StopActionFailed, Err: &loadError{url: "http://x", text: "net::ERR_CONNECTION_REFUSED"}}}, ClassEnvIssue},
		{"500 document on screen", facts{err: notFound, step: 3, responses: []response{doc(2, 500)}}, ClassEnvIssue},
		{"500 XHR in the failing step", facts{err: mismatch, step: 3, responses: []response{doc(3, 200), xhr(3, 503)}}, ClassEnvIssue},
		{"500 XHR in an earlier step is old news", facts{err: mismatch, step: 3, responses: []response{xhr(1, 500), doc(2, 200)}}, ClassAppBug},
		{"401 document", facts{err: notFound, step: 2, responses: []response{doc(2, 401)}}, ClassAuthBlocked},
		{"403 XHR in the failing step", facts{err: mismatch, step: 2, responses: []response{doc(1, 200), xhr(2, 403)}}, ClassAuthBlocked},
		{"redirected to login", facts{err: &stepError{Reason: StopEndMismatch, ExpectedURL: "/products", Expected: "/products", Actual: "/login?expired=1"},
			url: "http://shop.test/login?expired=1", screen: login, startedOnLogin: true}, ClassAuthBlocked},
		{"a password field where the trail expected the account page", facts{err: notFound, url: passwordOnly.URL, screen: passwordOnly}, ClassAuthBlocked},
		{"a password field that was there when the step began", facts{err: notFound, url: passwordOnly.URL, screen: passwordOnly, startedWithPassword: true}, ClassSelectorDrift},
		{"a login page the trail expects", facts{err: &stepError{Reason: StopAssertionFailed, Selector: &selector.Selector{Text: "Wrong password"}},
			url: "http://shop.test/login", screen: login, startedOnLogin: true, responses: []response{doc(1, 401)}, step: 1}, ClassSelectorDrift},
		{"an assertUrl of the login page", facts{err: &stepError{Reason: StopAssertionFailed, ExpectedURL: "/login", Expected: "/login", Actual: "/products"},
			url: "http://shop.test/products"}, ClassAppBug},
		{"expected vs actual", facts{err: mismatch}, ClassAppBug},
		{"not found", facts{err: notFound}, ClassSelectorDrift},
		{"ambiguous", facts{err: &stepError{Reason: StopAmbiguous}}, ClassSelectorDrift},
		{"end state missing a node", facts{err: &stepError{Reason: StopEndMismatch}}, ClassSelectorDrift},
		{"a deadline", facts{err: asStepError(context.DeadlineExceeded)}, ClassEnvIssue},
		{"anything else", facts{err: asStepError(errors.New("protocol error"))}, ClassEnvIssue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := classify(tc.f); got != tc.want {
				t.Errorf("classify(%s) = %s, want %s", tc.name, got, tc.want)
			}
		})
	}
}

func TestIsLoginPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/login": true, "/login?next=%2F": true, "/users/sign-in": true, "/signin": true, "/auth/callback": true,
		"/log-in/": true, "/products": false, "/blogging": false, "/catalogue": false, "/products?q=login": false,
	} {
		if got := isLoginPath(path); got != want {
			t.Errorf("isLoginPath(%q) = %v, want %v", path, got, want)
		}
	}
}
