package snapshotoracle

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

// Tabs is how many pages each tool renders at a time in the process, each
// in a tab (and browser context) of its own. Most of a page's time
// is spent waiting (for its load, its script, the browser's answer), so a
// few at once use the waits; more would only queue for the same cores. Each
// page keeps its own PageTimeout whatever runs beside it.
const Tabs = 3

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
	// Screen is the capture Trailpin's text was rendered from, for further
	// checks of the same page state (CheckScreen) without loading it again.
	Screen *screen.Screen
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

// Compare renders each page with Trailpin's page model, in new tabs of the
// browser that browserCtx (a chromedp context) belongs to, and with
// playwright-core in a browser of its own, both tools at once and each Tabs
// pages at a time, and returns two Results per page: aria, then ai. A page's
// state must not depend on who loads it first, nor on what loads beside it.
func Compare(browserCtx context.Context, tools Tools, pages ...Page) ([]Result, error) {
	ctx, cancel := context.WithCancel(browserCtx)
	defer cancel()
	// The first failure, of either tool, stops the other and is the one
	// reported.
	var once sync.Once
	var failure error
	fail := func(err error) { once.Do(func() { failure = err; cancel() }) }
	var theirs []PlaywrightSnapshot
	done := make(chan struct{})
	go func() {
		defer close(done)
		var err error
		if theirs, err = playwright(ctx, tools, playwrightSlots, pages...); err != nil {
			fail(err)
		}
	}()
	mine, err := capture(ctx, trailpinSlots, pages...)
	if err != nil {
		fail(err)
	}
	<-done
	if failure != nil {
		return nil, failure
	}
	return results(pages, mine, theirs), nil
}

// CompareInTurn is Compare with each tool rendering one page at a time,
// Playwright's run before Trailpin's, and no slots shared with other
// comparisons: for heavy sites compared side by side on a busy machine,
// where pages loading beside one another in the same browsers can take
// longer than PageTimeout.
func CompareInTurn(browserCtx context.Context, tools Tools, pages ...Page) ([]Result, error) {
	theirs, err := playwright(browserCtx, tools, make(chan struct{}, 1), pages...)
	if err != nil {
		return nil, err
	}
	mine, err := capture(browserCtx, make(chan struct{}, 1), pages...)
	if err != nil {
		return nil, err
	}
	return results(pages, mine, theirs), nil
}

// results pairs the two tools' renderings of each page: aria, then ai.
func results(pages []Page, mine []*screen.Screen, theirs []PlaywrightSnapshot) []Result {
	var out []Result
	for i, p := range pages {
		aria, ai := Render(mine[i])
		out = append(out,
			Result{URL: p.URL, Mode: screen.ModeAria, Trailpin: aria, Playwright: theirs[i].Aria, Screen: mine[i]},
			Result{URL: p.URL, Mode: screen.ModeAI, Trailpin: ai, Playwright: withoutRefs(theirs[i].AI), Screen: mine[i]})
	}
	return out
}

// Capture captures each page with Trailpin's page model, each in a new tab
// of browserCtx's browser once a slot of the process-wide Tabs for Trailpin
// is free, and returns the screens in the pages' order. The first page that
// fails stops the rest, and its error is the one returned.
func Capture(browserCtx context.Context, pages ...Page) ([]*screen.Screen, error) {
	return capture(browserCtx, trailpinSlots, pages...)
}

// capture is Capture with a page started once it has one of slots.
func capture(browserCtx context.Context, slots chan struct{}, pages ...Page) ([]*screen.Screen, error) {
	ctx, cancel := context.WithCancel(browserCtx)
	defer cancel()
	var once sync.Once
	var failure error
	out := make([]*screen.Screen, len(pages))
	var wg sync.WaitGroup
	for i, p := range pages {
		if acquire(ctx, slots) != nil {
			break
		}
		wg.Go(func() {
			defer release(slots)
			s, err := capturePage(ctx, p)
			if err != nil {
				once.Do(func() { failure = err; cancel() })
				return
			}
			out[i] = s
		})
	}
	wg.Wait()
	if failure != nil {
		return nil, failure
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// The slots of each tool: how many pages it renders at once, across every
// comparison in the process (a test may compare several sites side by
// side). A page's PageTimeout starts once it has its slot.
var (
	trailpinSlots   = make(chan struct{}, Tabs)
	playwrightSlots = make(chan struct{}, Tabs)
)

// acquire takes a slot, or gives up when ctx ends.
func acquire(ctx context.Context, slots chan struct{}) error {
	select {
	case slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func release(slots chan struct{}) { <-slots }

// Render writes a captured screen in both modes as Compare compares them.
func Render(s *screen.Screen) (aria, ai string) {
	aria = screen.RenderSnapshot(s, screen.SnapshotOptions{Mode: screen.ModeAria, Quoted: true})
	ai = withoutRefs(screen.RenderSnapshot(s, screen.SnapshotOptions{Mode: screen.ModeAI, Quoted: true}))
	return aria, ai
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

// Playwright runs playwright-core on the pages, one browser for all, each
// page once a slot of the process-wide Tabs for Playwright is free.
func Playwright(ctx context.Context, tools Tools, pages ...Page) ([]PlaywrightSnapshot, error) {
	return playwright(ctx, tools, playwrightSlots, pages...)
}

// playwright is Playwright with a page started once it has one of slots.
func playwright(ctx context.Context, tools Tools, slots chan struct{}, pages ...Page) ([]PlaywrightSnapshot, error) {
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, tools.Node, script)
	cmd.Env = append(os.Environ(),
		"TRAILPIN_PLAYWRIGHT_CORE="+tools.PlaywrightCore,
		"TRAILPIN_CHROMIUM="+tools.Chromium,
		"TRAILPIN_VIEWPORT_WIDTH="+strconv.Itoa(ViewportWidth),
		"TRAILPIN_VIEWPORT_HEIGHT="+strconv.Itoa(ViewportHeight),
		"TRAILPIN_PAGE_TIMEOUT_MS="+strconv.FormatInt(PageTimeout.Milliseconds(), 10))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("playwright-core: %w", err)
	}
	// Each answer frees its page's slot; the reader ends when node closes
	// its output (done or failed).
	out := make([]PlaywrightSnapshot, len(pages))
	got := make([]bool, len(pages))
	var readErr error
	asked, answered := 0, 0
	read := make(chan struct{})
	go func() {
		defer close(read)
		dec := json.NewDecoder(stdout)
		for {
			var a struct {
				Index int `json:"index"`
				PlaywrightSnapshot
			}
			if err := dec.Decode(&a); err != nil {
				if !errors.Is(err, io.EOF) {
					readErr = fmt.Errorf("reading playwright-core's snapshots: %w", err)
				}
				if answered < len(pages) {
					cancel() // node ended early: ask for nothing more
				}
				return
			}
			if a.Index < 0 || a.Index >= len(pages) || got[a.Index] {
				readErr = fmt.Errorf("playwright-core answered for page %d of %d twice or out of range", a.Index, len(pages))
				cancel()
				return
			}
			out[a.Index], got[a.Index] = a.PlaywrightSnapshot, true
			answered++
			release(slots)
		}
	}()
	sendErr := func() error {
		if _, err := fmt.Fprintf(stdin, "%s\n", input); err != nil {
			return err
		}
		for i := range pages {
			if err := acquire(ctx, slots); err != nil {
				return err
			}
			if _, err := fmt.Fprintf(stdin, "%d\n", i); err != nil {
				release(slots)
				return err
			}
			asked++
		}
		return nil
	}()
	stdin.Close()
	<-read
	waitErr := cmd.Wait()
	// The slots of the pages asked for and never answered.
	for range asked - answered {
		release(slots)
	}
	switch {
	case waitErr != nil:
		return nil, fmt.Errorf("playwright-core: %v\n%s", waitErr, stderr.String())
	case readErr != nil:
		return nil, readErr
	case sendErr != nil:
		return nil, fmt.Errorf("playwright-core: %w", sendErr)
	}
	for i, ok := range got {
		if !ok {
			return nil, fmt.Errorf("playwright-core gave no snapshot of %s", pages[i].URL)
		}
	}
	return out, nil
}

var refMark = regexp.MustCompile(` \[ref=(?:f\d+)*e\d+\]`)

// withoutRefs removes [ref=…] marks.
func withoutRefs(s string) string { return refMark.ReplaceAllString(s, "") }

// CheckScreen runs screen.CheckDistinguishable on a capture of the page at
// url: in the interactive form, no two interactive lines may read the same
// with their context.
func CheckScreen(url string, s *screen.Screen) error {
	if err := screen.CheckDistinguishable(s); err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	return nil
}
