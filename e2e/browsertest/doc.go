// Package browsertest is for tests only: it decides, the same way in every
// test package, what a test that needs Chromium does when there is none.
// With CI set the test fails, because a CI job that skips its browser tests
// passes without having tested anything; elsewhere it is skipped. Either way
// it says how to get a browser.
//
// It holds no product code and imports nothing of Trailpin's, so that any
// package's tests can use it (replay's own tests included) without an import
// cycle: callers find the browser their own way (browser.FindChrome,
// browser.AllocatorOptions) and hand the error or the options over. A package
// whose tests share one browser calls RunShared from its TestMain.
package browsertest
