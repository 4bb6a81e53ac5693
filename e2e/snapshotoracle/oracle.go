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

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay"
)

//go:embed playwright.cjs
var playwrightScript []byte

// Viewport is the page size both tools render at.
const (
	ViewportWidth  = 1280
	ViewportHeight = 720
)

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
	chrome, err := replay.FindChrome()
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

// Compare renders each URL with Trailpin's page model, in a new tab of the
// browser that browserCtx (a chromedp context) belongs to, and with
// playwright-core in a browser of its own, and returns two Results per
// URL: aria, then ai. A page's state must not depend on who loads it first.
func Compare(browserCtx context.Context, tools Tools, urls ...string) ([]Result, error) {
	theirs, err := Playwright(browserCtx, tools, urls...)
	if err != nil {
		return nil, err
	}
	var out []Result
	for i, u := range urls {
		aria, ai, err := Trailpin(browserCtx, u)
		if err != nil {
			return nil, err
		}
		out = append(out,
			Result{URL: u, Mode: screen.ModeAria, Trailpin: aria, Playwright: theirs[i].Aria},
			Result{URL: u, Mode: screen.ModeAI, Trailpin: ai, Playwright: withoutRefs(theirs[i].AI)})
	}
	return out, nil
}

// Trailpin captures url in a new tab and renders both modes as Compare
// compares them.
func Trailpin(browserCtx context.Context, url string) (aria, ai string, err error) {
	tab, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(ViewportWidth, ViewportHeight), chromedp.Navigate(url)); err != nil {
		return "", "", fmt.Errorf("loading %s: %w", url, err)
	}
	s, err := replay.Capture(tab, replay.CaptureOptions{})
	if err != nil {
		return "", "", fmt.Errorf("capturing %s: %w", url, err)
	}
	aria = screen.RenderSnapshot(s, screen.SnapshotOptions{Mode: screen.ModeAria, Quoted: true})
	ai = withoutRefs(screen.RenderSnapshot(s, screen.SnapshotOptions{Mode: screen.ModeAI, Quoted: true}))
	return aria, ai, nil
}

// A PlaywrightSnapshot is what playwright-core wrote for one page.
type PlaywrightSnapshot struct {
	URL  string `json:"url"`
	Aria string `json:"aria"`
	AI   string `json:"ai"`
}

// Playwright runs playwright-core on the URLs, one browser for all.
func Playwright(ctx context.Context, tools Tools, urls ...string) ([]PlaywrightSnapshot, error) {
	dir, err := os.MkdirTemp("", "trailpin-snapshotoracle-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	script := filepath.Join(dir, "playwright.cjs")
	if err := os.WriteFile(script, playwrightScript, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, tools.Node, append([]string{script}, urls...)...)
	cmd.Env = append(os.Environ(),
		"TRAILPIN_PLAYWRIGHT_CORE="+tools.PlaywrightCore,
		"TRAILPIN_CHROMIUM="+tools.Chromium,
		"TRAILPIN_VIEWPORT_WIDTH="+strconv.Itoa(ViewportWidth),
		"TRAILPIN_VIEWPORT_HEIGHT="+strconv.Itoa(ViewportHeight))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("playwright-core: %v\n%s", err, stderr.String())
	}
	var out []PlaywrightSnapshot
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("reading playwright-core's snapshots: %w", err)
	}
	if len(out) != len(urls) {
		return nil, fmt.Errorf("playwright-core gave %d snapshots for %d pages", len(out), len(urls))
	}
	return out, nil
}

var refMark = regexp.MustCompile(` \[ref=(?:f\d+)*e\d+\]`)

// withoutRefs removes [ref=…] marks.
func withoutRefs(s string) string { return refMark.ReplaceAllString(s, "") }

// CheckInteractive captures url in a new tab of browserCtx's browser and
// runs screen.CheckDistinguishable on it: in the interactive form, no two
// interactive lines may read the same with their context.
func CheckInteractive(browserCtx context.Context, url string) error {
	tab, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(ViewportWidth, ViewportHeight), chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("loading %s: %w", url, err)
	}
	s, err := replay.Capture(tab, replay.CaptureOptions{})
	if err != nil {
		return fmt.Errorf("capturing %s: %w", url, err)
	}
	if err := screen.CheckDistinguishable(s); err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	return nil
}
