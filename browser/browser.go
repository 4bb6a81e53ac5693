package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// ErrNoChrome is returned by FindChrome when no Chromium-based browser is found.
var ErrNoChrome = errors.New("no Chromium or Chrome executable found")

// chromeNames are tried in order on PATH or as absolute paths, per OS.
var chromeNames = map[string][]string{
	"linux": {
		"chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
		"/usr/bin/chromium", "/usr/bin/google-chrome", "/snap/bin/chromium",
		"microsoft-edge", "brave-browser",
	},
	"darwin": {
		"/Applications/Chromium.app/Contents/MacOS/Chromium",
		"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
		"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
		"/Applications/Brave Browser.app/Contents/MacOS/Brave Browser",
	},
	"windows": {
		"chrome.exe",
		`C:\Program Files\Google\Chrome\Application\chrome.exe`,
		`C:\Program Files (x86)\Google\Chrome\Application\chrome.exe`,
		`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`,
		"msedge.exe",
	},
}

// FindChrome returns the browser to replay with: $CHROME_PATH when set (it
// must exist), otherwise the first Chromium-based browser found for this OS.
func FindChrome() (string, error) {
	if p := os.Getenv("CHROME_PATH"); p != "" {
		found, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("CHROME_PATH=%s is not an executable: %w", p, err)
		}
		return found, nil
	}
	for _, name := range chromeNames[runtime.GOOS] {
		if found, err := exec.LookPath(name); err == nil {
			return found, nil
		}
	}
	return "", ErrNoChrome
}

// LaunchOptions says how to start a browser.
type LaunchOptions struct {
	// ExecPath is the browser executable; FindChrome's answer when empty.
	ExecPath string
	// Headless starts the browser without a window (--headless=new).
	Headless bool
	// UserDataDir is the profile folder; chromedp makes a temporary one when
	// empty.
	UserDataDir string
	// Extension, when set, is an unpacked extension folder to load; no other
	// extension is loaded.
	Extension string
	// Width and Height set the window size; 0 keeps the browser's default.
	Width, Height int
}

// startupTimeout bounds how long a browser that was started may take to say
// where its DevTools listen. chromedp's default, 20 s, is missed by a
// Chromium starting on a busy machine, which then fails a healthy run.
const startupTimeout = 2 * time.Minute

// AllocatorOptions returns chromedp options for a quiet, isolated browser:
// no first-run UI, no background network traffic, no component updates, and
// no sandbox when running as root (the sandbox refuses root); it waits
// startupTimeout for the browser to start.
// chromedp.DefaultExecAllocatorOptions is not used because it disables
// extensions.
func AllocatorOptions(o LaunchOptions) ([]chromedp.ExecAllocatorOption, error) {
	path := o.ExecPath
	if path == "" {
		var err error
		if path, err = FindChrome(); err != nil {
			return nil, err
		}
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.Flag("disable-hang-monitor", true),
		chromedp.Flag("disable-popup-blocking", true),
		chromedp.Flag("disable-prompt-on-repost", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.WSURLReadTimeout(startupTimeout),
	}
	if o.Headless {
		opts = append(opts, chromedp.Flag("headless", "new"), chromedp.Flag("hide-scrollbars", true), chromedp.Flag("mute-audio", true))
	}
	if runtime.GOOS == "linux" && os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	if o.UserDataDir != "" {
		opts = append(opts, chromedp.UserDataDir(o.UserDataDir))
	}
	if o.Extension != "" {
		opts = append(opts,
			chromedp.Flag("load-extension", o.Extension),
			chromedp.Flag("disable-extensions-except", o.Extension),
		)
	} else {
		opts = append(opts, chromedp.Flag("disable-extensions", true))
	}
	if o.Width > 0 && o.Height > 0 {
		opts = append(opts, chromedp.WindowSize(o.Width, o.Height))
	}
	return opts, nil
}

// Options says which browser trails replay in: one launched here, or
// a remote one (a grid, a browser in another container) attached to by its
// DevTools websocket URL.
type Options struct {
	// RemoteURL, when set, attaches to a running browser (ws://host:port/…,
	// or http://host:port to look the websocket up) instead of launching
	// one; the other fields are then ignored.
	RemoteURL string
	// ExecPath is the browser executable; FindChrome's answer when empty.
	ExecPath string
	// Headless starts the browser without a window.
	Headless bool
	// UserDataDir is the profile folder; a temporary one, removed on Close,
	// when empty.
	UserDataDir string
	// Logf gets chromedp's own log and error lines (protocol oddities it
	// recovered from); nil discards them, so they never mix with a report.
	Logf func(format string, args ...any)
}

// A Browser is a running browser that trails replay in, each in an isolated
// browser context of its own (no cookies, storage or cache shared between
// trails). It is safe for concurrent use by several trails.
type Browser struct {
	ctx    context.Context // a chromedp context that holds the browser, without a tab of its own
	cancel context.CancelFunc
	// userAgent is the browser's own user agent, which a locale override
	// keeps while it changes Accept-Language.
	userAgent string
	tmpDir    string
}

// Start launches a browser (or attaches to RemoteURL) and returns it
// ready for trails. Close it when done.
func Start(ctx context.Context, o Options) (*Browser, error) {
	b := &Browser{}
	var actx context.Context
	var cancelAlloc context.CancelFunc
	if o.RemoteURL != "" {
		// chromedp gives the websocket's handshake 10 s; a browser that
		// twenty replay processes attach to at once on a loaded machine
		// took longer to answer, and it is running: it gets the time a
		// browser has to start.
		actx, cancelAlloc = remote.NewAllocator(ctx, o.RemoteURL, remote.WithDialTimeout(startupTimeout))
	} else {
		dir := o.UserDataDir
		if dir == "" {
			var err error
			if dir, err = os.MkdirTemp("", "trailpin-replay-"); err != nil {
				return nil, fmt.Errorf("making a browser profile folder: %w", err)
			}
			b.tmpDir = dir
		}
		opts, err := AllocatorOptions(LaunchOptions{ExecPath: o.ExecPath, Headless: o.Headless, UserDataDir: dir})
		if err != nil {
			b.removeTemp()
			return nil, err
		}
		// Every tab replay, the demo and the headless tab use is opened in
		// a browser context of its own (NewContext), so the window Chromium
		// opens at start would only cost a renderer process while the
		// browser starts: it starts with none.
		opts = append(opts, chromedp.Flag("no-startup-window", true))
		actx, cancelAlloc = chromedp.NewExecAllocator(ctx, opts...)
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	bctx, cancel := chromedp.NewContext(actx, chromedp.WithBrowserOption(
		chromedp.WithBrowserLogf(logf), chromedp.WithBrowserErrorf(logf)))
	b.ctx = bctx
	b.cancel = func() { cancel(); cancelAlloc() }
	v, err := chromedp.CallBrowser(bctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		b.cancel()
		b.removeTemp()
		if o.RemoteURL != "" {
			return nil, fmt.Errorf("attaching to the browser at %s: %w", o.RemoteURL, err)
		}
		return nil, fmt.Errorf("starting the browser: %w", err)
	}
	b.userAgent = v.UserAgent
	return b, nil
}

// FromContext wraps a chromedp context whose browser already runs
// (tests share one browser this way). Close on the result releases nothing:
// the browser belongs to ctx.
func FromContext(ctx context.Context) (*Browser, error) {
	v, err := chromedp.CallBrowser(ctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return nil, fmt.Errorf("reaching the browser: %w", err)
	}
	return &Browser{ctx: ctx, cancel: func() {}, userAgent: v.UserAgent}, nil
}

// Close ends the browser (or detaches from a remote one) and removes the
// temporary profile.
func (b *Browser) Close() error {
	b.cancel()
	b.removeTemp()
	return nil
}

func (b *Browser) removeTemp() {
	if b.tmpDir != "" {
		_ = os.RemoveAll(b.tmpDir)
		b.tmpDir = ""
	}
}

// UserAgent is the browser's own user agent, which a locale override keeps
// while it changes Accept-Language.
func (b *Browser) UserAgent() string { return b.userAgent }

// NewContext opens a fresh isolated browser context with one tab, whose
// events go to listen from the very first one. Cancelling the returned
// context closes the tab and disposes of the browser context with every
// tab the app opened in it.
func (b *Browser) NewContext(listen func(ev any)) (context.Context, context.CancelFunc) {
	return chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(), chromedp.WithListener(listen))
}
