// Package screendiff captures the screens the diff tests of
// recorder/screendiff read: it loads each fixture page of
// recorder/screendiff/testdata/pages in headless Chromium, captures it with
// the real page model through browser.Capture, runs the page's steps (a menu
// opening, a React list rendered again, a transition paused halfway, a
// history.pushState) and captures after each, and keeps the screen files
// (testdata/screens/<page>.<step>.json) in step with what the page model
// sees, comparing the diff of the live screens with the diff of the stored
// ones.
//
// It holds tests only (run with -update to rewrite the files). The recorder
// package stays free of browsers and I/O; this package is where its
// fixtures meet Chromium.
package screendiff
