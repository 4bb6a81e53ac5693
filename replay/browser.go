package replay

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"github.com/chromedp/chromedp"
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

// AllocatorOptions returns chromedp options for a quiet, isolated browser:
// no first-run UI, no background network traffic, no component updates, and
// no sandbox when running as root (the sandbox refuses root).
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
