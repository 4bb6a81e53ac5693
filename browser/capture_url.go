package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Playwright's default viewport, so screens of the same page compare.
const (
	DefaultViewportWidth  = 1280
	DefaultViewportHeight = 720
)

// CaptureURLOptions says how CaptureURL loads the page.
type CaptureURLOptions struct {
	// Width and Height of the viewport in CSS pixels; 0 means the default
	// 1280x720.
	Width, Height int
	// ExecPath is the browser; FindChrome's answer when empty.
	ExecPath string
	Capture  CaptureOptions
}

// CaptureURL starts a headless browser with a fresh profile, loads url,
// waits for its load event and captures the screen. It is what
// `host snapshot` runs.
func CaptureURL(ctx context.Context, url string, o CaptureURLOptions) (*screen.Screen, error) {
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = DefaultViewportWidth, DefaultViewportHeight
	}
	if o.Width <= 0 || o.Height <= 0 {
		return nil, fmt.Errorf("viewport %dx%d: width and height must be positive", o.Width, o.Height)
	}
	opts, err := AllocatorOptions(LaunchOptions{ExecPath: o.ExecPath, Headless: true, Width: o.Width, Height: o.Height})
	if err != nil {
		return nil, err
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx,
		chromedp.EmulateViewport(int64(o.Width), int64(o.Height)),
		chromedp.Navigate(url),
	); err != nil {
		return nil, fmt.Errorf("loading %s: %w", url, err)
	}
	return Capture(bctx, o.Capture)
}
