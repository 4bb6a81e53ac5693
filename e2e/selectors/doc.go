// Package selectors captures the selector corpus: it loads the fixture pages
// of recorder/selector/testdata/selectors in headless Chromium, captures each with the
// real page model, resolves the corpus's CSS targets to refs, and keeps the
// screen files the recorder's corpus tests read (screens/*.json, and the
// 10k-element benchmark screen) in step with the page model.
//
// It holds tests only (run with -update to rewrite the files). The recorder
// package stays free of browsers and I/O; this package is where the corpus
// meets Chromium.
package selectors
