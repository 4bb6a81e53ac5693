// Package golden is for tests only: the one way every package compares
// output with a golden file under testdata/ and rewrites it. A test binary
// that imports it has one -update flag; with it, Check writes what the test
// produced instead of comparing, and Update tells tests that capture their
// golden input from a browser to capture it again.
//
// Like browsertest, it holds no product code and imports nothing of
// Trailpin's, so that any package's tests can use it without an import
// cycle.
package golden
