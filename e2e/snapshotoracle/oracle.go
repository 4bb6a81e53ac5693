package snapshotoracle

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
)

//go:embed playwright.cjs
var playwrightScript []byte

// Viewport is the page size both tools render at.
const (
	ViewportWidth  = 1280
	ViewportHeight = 720
)

// PageTimeout bounds each page in each tool: loading it, running its
// script and capturing it. A hang guard on a busy machine, not a speed
// claim; a comparison of many pages gets this much for each of them.
const PageTimeout = 2 * time.Minute

// A Result is one page in one mode, as both tools wrote it.
type Result struct {
	URL string
	// Mode is screen.ModeAria (locator('body').ariaSnapshot()) or
	// screen.ModeAI (page.ariaSnapshot({mode: 'ai'})).
	Mode screen.SnapshotMode
	// Trailpin and Playwright are the two texts, in Playwright's quoted
	// form, refs removed in the AI mode (the tools number elements
	// differently).
	Trailpin, Playwright string
}

// Equal reports whether both tools wrote the same text.
func (r Result) Equal() bool { return r.Trailpin == r.Playwright }

// String says where the texts part, or that they agree.
func (r Result) String() string {
	if r.Equal() {
		return fmt.Sprintf("%s --mode %s: same as Playwright", r.URL, r.Mode)
	}
	got := strings.Split(r.Trailpin, "\n")
	want := strings.Split(r.Playwright, "\n")
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("%s --mode %s: line %d\n  trailpin:   %q\n  playwright: %q\n--- trailpin\n%s\n--- playwright\n%s",
				r.URL, r.Mode, i+1, g, w, r.Trailpin, r.Playwright)
		}
	}
	return ""
}

// Tools are what Compare needs besides the browser: node, playwright-core
// from the repository's node_modules, and Chromium.
type Tools struct {
	Node, PlaywrightCore, Chromium string
}

// FindTools looks for node on PATH, playwright-core in the node_modules of
// the module that holds the working directory, and Chromium as replay
// does. The error says what is missing and how to get it.
func FindTools() (Tools, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return Tools{}, errors.New("node is not on PATH: install Node.js to compare snapshots with Playwright's")
	}
	root, err := moduleRoot()
	if err != nil {
		return Tools{}, err
	}
	core := filepath.Join(root, "node_modules", "playwright-core")
	if _, err := os.Stat(filepath.Join(core, "package.json")); err != nil {
		return Tools{}, fmt.Errorf("playwright-core is not installed in %s: run npm ci in the repository root", root)
	}
	chrome, err := browser.FindChrome()
	if err != nil {
		return Tools{}, err
	}
	return Tools{Node: node, PlaywrightCore: core, Chromium: chrome}, nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s: run from inside the Trailpin repository", dir)
		}
	}
}

// A Page is one page state both tools render: the page at URL once it
// has loaded and, when Script is set, once that JavaScript expression
// (awaited when it gives a promise) has run in it, to wait for what the app
// renders late or to bring it to a state after some use (items added, a
// panel opened). The script must leave the page in the same state whichever
// browser runs it.
type Page struct {
	URL, Script string
}

// Pages are the URLs as they load.
func Pages(urls ...string) []Page {
	out := make([]Page, len(urls))
	for i, u := range urls {
		out[i] = Page{URL: u}
	}
	return out
}

// Compare renders each page with Trailpin's page model, in a new tab of the
// browser that browserCtx (a chromedp context) belongs to, and with
// playwright-core in a browser of its own, and returns two Results per
// page: aria, then ai. A page's state must not depend on who loads it first.
func Compare(browserCtx context.Context, tools Tools, pages ...Page) ([]Result, error) {
	theirs, err := Playwright(browserCtx, tools, pages...)
	if err != nil {
		return nil, err
	}
	var out []Result
	for i, p := range pages {
		aria, ai, err := Trailpin(browserCtx, p)
		if err != nil {
			return nil, err
		}
		out = append(out,
			Result{URL: p.URL, Mode: screen.ModeAria, Trailpin: aria, Playwright: theirs[i].Aria},
			Result{URL: p.URL, Mode: screen.ModeAI, Trailpin: ai, Playwright: withoutRefs(theirs[i].AI)})
	}
	return out, nil
}

// Trailpin captures the page in a new tab and renders both modes as Compare
// compares them.
func Trailpin(browserCtx context.Context, p Page) (aria, ai string, err error) {
	s, err := capturePage(browserCtx, p)
	if err != nil {
		return "", "", err
	}
	aria = screen.RenderSnapshot(s, screen.SnapshotOptions{Mode: screen.ModeAria, Quoted: true})
	ai = withoutRefs(screen.RenderSnapshot(s, screen.SnapshotOptions{Mode: screen.ModeAI, Quoted: true}))
	return aria, ai, nil
}

// capturePage loads the page in a new tab of browserCtx's browser, runs its
// script and captures it. The tab has a browser context of its own, as each
// page of Playwright's has: what one page stored (an app's localStorage)
// does not reach the next.
func capturePage(browserCtx context.Context, p Page) (*screen.Screen, error) {
	tab, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	defer cancel()
	// The tab closes when this deadline passes; it closes at return anyway.
	tab, cancelTimeout := context.WithTimeout(tab, PageTimeout)
	defer cancelTimeout()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(ViewportWidth, ViewportHeight), chromedp.Navigate(p.URL)); err != nil {
		return nil, fmt.Errorf("loading %s: %w", p.URL, err)
	}
	if p.Script != "" {
		if _, err := chromedp.Run(tab, chromedp.Evaluate[chromedp.Void](p.Script, chromedp.EvalAwaitPromise)); err != nil {
			return nil, fmt.Errorf("running the script of %s: %w", p.URL, err)
		}
	}
	s, err := browser.Capture(tab, browser.CaptureOptions{})
	if err != nil {
		return nil, fmt.Errorf("capturing %s: %w", p.URL, err)
	}
	return s, nil
}

// A PlaywrightSnapshot is what playwright-core wrote for one page.
type PlaywrightSnapshot struct {
	URL  string `json:"url"`
	Aria string `json:"aria"`
	AI   string `json:"ai"`
}

// Playwright runs playwright-core on the pages, one browser for all.
func Playwright(ctx context.Context, tools Tools, pages ...Page) ([]PlaywrightSnapshot, error) {
	dir, err := os.MkdirTemp("", "trailpin-snapshotoracle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "playwright.cjs")
	if err := os.WriteFile(script, playwrightScript, 0o600); err != nil {
		return nil, err
	}
	type wirePage struct {
		URL    string `json:"url"`
		Script string `json:"script,omitempty"`
	}
	list := make([]wirePage, len(pages))
	for i, p := range pages {
		list[i] = wirePage{p.URL, p.Script}
	}
	input, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(len(pages))*PageTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tools.Node, script)
	cmd.Stdin = bytes.NewReader(input)
	cmd.Env = append(os.Environ(),
		"TRAILPIN_PLAYWRIGHT_CORE="+tools.PlaywrightCore,
		"TRAILPIN_CHROMIUM="+tools.Chromium,
		"TRAILPIN_VIEWPORT_WIDTH="+strconv.Itoa(ViewportWidth),
		"TRAILPIN_VIEWPORT_HEIGHT="+strconv.Itoa(ViewportHeight),
		"TRAILPIN_PAGE_TIMEOUT_MS="+strconv.FormatInt(PageTimeout.Milliseconds(), 10))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("playwright-core: %v\n%s", err, stderr.String())
	}
	var out []PlaywrightSnapshot
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("reading playwright-core's snapshots: %w", err)
	}
	if len(out) != len(pages) {
		return nil, fmt.Errorf("playwright-core gave %d snapshots for %d pages", len(out), len(pages))
	}
	return out, nil
}

var refMark = regexp.MustCompile(` \[ref=(?:f\d+)*e\d+\]`)

// withoutRefs removes [ref=…] marks.
func withoutRefs(s string) string { return refMark.ReplaceAllString(s, "") }

// CheckInteractive captures the page in a new tab of browserCtx's browser
// and runs screen.CheckDistinguishable on it: in the interactive form, no
// two interactive lines may read the same with their context.
func CheckInteractive(browserCtx context.Context, p Page) error {
	s, err := capturePage(browserCtx, p)
	if err != nil {
		return err
	}
	if err := screen.CheckDistinguishable(s); err != nil {
		return fmt.Errorf("%s: %w", p.URL, err)
	}
	return nil
}
