// Package oracles checks Trailpin's page model against test suites written
// elsewhere: web-platform-tests' accessible-name cases and axe-core's
// implicit-role and accessible-text cases (testdata, with their licences).
//
// It holds tests only. It loads the real page model into real headless
// Chromium; it must not carry its own role or name logic, or the tests would
// check themselves.
package oracles
