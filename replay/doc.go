// Package replay runs trails in Chromium through chromedp: it matches each
// action's selector on the live screen with the recorder's matcher, acts with
// trusted input, checks assertions and end states, and reports every failure
// with its cause.
//
// It drives the page through package browser, and imports recorder and
// storage; it never imports host.
package replay
