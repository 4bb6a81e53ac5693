// Package e2e holds the tests that drive real headless Chromium with the real
// extension loaded and the real host installed, on pages served from
// loopback, and the harness they share (harness.go): later features add their
// end-to-end tests here and build on it.
//
// Nothing outside tests imports it; it starts browsers and processes only
// through the harness, which cleans them up.
package e2e
