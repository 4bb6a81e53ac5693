package replay

import (
	"context"

	"github.com/trailpin/trailpin/browser"
)

// Trails replay in a browser of package browser. These names let the callers
// that start one for a whole suite (host replay) keep speaking of replay's
// browser.

// Browser is the running browser trails replay in.
type Browser = browser.Browser

// BrowserOptions says which browser trails replay in.
type BrowserOptions = browser.Options

// StartBrowser launches a browser (or attaches to a remote one) for trails.
func StartBrowser(ctx context.Context, o BrowserOptions) (*Browser, error) {
	return browser.Start(ctx, o)
}
