// Package e2e holds the tests that drive real headless Chromium with the real
// extension loaded and the real host installed, on pages served from loopback.
package e2e
