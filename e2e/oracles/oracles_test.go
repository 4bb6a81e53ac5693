package oracles

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/extension"
)

// Targets from the issue: Chromium's own accessibility tree passes 522 of
// the 537 WPT assertions; every axe-core role case must pass.
const (
	wptTarget   = 522
	wptTotal    = 537
	axeRoleMiss = 0
	// axeTextTargets is the number of accessible-text targets; all pass, and
	// the test keeps it so (the issue sets no target for these).
	axeTextTargets = 146
)

// maxTabs bounds how many pages load at once on a small shared machine.
const maxTabs = 4

var (
	browserCtx context.Context
	server     *httptest.Server
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	server = httptest.NewServer(handler())
	defer server.Close()
	return browsertest.RunShared(m, func(dir string) ([]chromedp.ExecAllocatorOption, error) {
		return browser.AllocatorOptions(browser.LaunchOptions{Headless: true, UserDataDir: dir})
	}, &browserCtx)
}

// handler serves the WPT files at the paths the pages expect, our stand-ins
// for the WPT harness scripts, and the axe-core cases.
func handler() http.Handler {
	mux := http.NewServeMux()
	wpt := http.FileServer(http.Dir("testdata/wpt-accname"))
	mux.Handle("/accname/", wpt)
	mux.Handle("/wai-aria/scripts/manual.css", wpt)
	harness := func(file string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/javascript")
			http.ServeFile(w, r, filepath.Join("testdata/harness", file))
		}
	}
	mux.Handle("/resources/testharness.js", harness("testharness.js"))
	mux.Handle("/resources/", harness("empty.js"))
	mux.Handle("/wai-aria/scripts/ATTAcomm.js", harness("ATTAcomm.js"))
	mux.Handle("/wai-aria/scripts/aria-utils.js", harness("aria-utils.js"))
	mux.Handle("/axe-core/", http.StripPrefix("/axe-core/", http.FileServer(http.Dir("testdata/axe-core"))))
	mux.HandleFunc("/axe.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, "testdata/harness/axe.html")
	})
	return mux
}

// outcome is one oracle assertion and what the page model said.
type outcome struct {
	id       string
	expected string
	got      string
	// captured is what capture() reported for the same node when a person
	// sees it; it must agree with got.
	captured *string
	missing  bool
}

func (o outcome) pass() bool {
	if o.missing || norm(o.got) != norm(o.expected) {
		return false
	}
	return o.captured == nil || norm(*o.captured) == norm(o.got)
}

var asciiSpace = regexp.MustCompile(`[ \t\n\f\r]+`)

// norm collapses ASCII whitespace and trims it, as WPT compares names.
func norm(s string) string {
	return strings.Trim(asciiSpace.ReplaceAllString(s, " "), " ")
}

// tally is a suite's results.
type tally struct {
	mu       sync.Mutex
	outcomes []outcome
}

func (t *tally) add(o ...outcome) {
	t.mu.Lock()
	t.outcomes = append(t.outcomes, o...)
	t.mu.Unlock()
}

// report logs the failures and the count, and returns passed and failed.
// Skipped cases are failures that the skip list explains.
func (t *tally) report(tb testing.TB, title string, skips map[string]string, used map[string]bool) (passed, failed int) {
	sort.Slice(t.outcomes, func(i, j int) bool { return t.outcomes[i].id < t.outcomes[j].id })
	for _, o := range t.outcomes {
		if o.pass() {
			passed++
			if reason, ok := skips[o.id]; ok {
				tb.Errorf("%s passes but is in skips.txt (%s): take it off the list", o.id, reason)
				used[o.id] = true
			}
			continue
		}
		failed++
		if reason, ok := skips[o.id]; ok {
			used[o.id] = true
			tb.Logf("skipped %s: %s", o.id, reason)
			continue
		}
		switch {
		case o.missing:
			tb.Logf("FAIL %s: target not found", o.id)
		case norm(o.got) != norm(o.expected):
			tb.Logf("FAIL %s: got %q, want %q", o.id, o.got, o.expected)
		default:
			tb.Logf("FAIL %s: describe says %q but capture says %q", o.id, o.got, *o.captured)
		}
	}
	tb.Logf("%s: %d passed, %d failed", title, passed, failed)
	fmt.Printf("%s: %d passed, %d failed\n", title, passed, failed)
	return passed, failed
}

// readSkips reads skips.txt: "<case id> => <reason>" per line.
func readSkips(tb testing.TB) map[string]string {
	f, err := os.Open("skips.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	skips := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		id, reason, ok := strings.Cut(text, " => ")
		if !ok || strings.TrimSpace(reason) == "" {
			tb.Fatalf("skips.txt:%d: want \"<case id> => <reason>\", got %q", line, text)
		}
		skips[strings.TrimSpace(id)] = strings.TrimSpace(reason)
	}
	return skips
}

// tabs holds the open tabs; pages load in whichever is free, so a tab is
// opened maxTabs times at most rather than once per page.
var (
	tabs     = make(chan context.Context, maxTabs)
	tabsOnce sync.Once
)

func openTabs(tb testing.TB) {
	tabsOnce.Do(func() {
		for range maxTabs {
			ctx, _ := chromedp.NewContext(browserCtx) // closed with the browser
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)); err != nil {
				tb.Fatalf("opening a tab: %v", err)
			}
			tabs <- ctx
		}
	})
}

// evaluatePage loads path in a free tab, installs the page model in the
// page's world and evaluates script there.
func evaluatePage(t *testing.T, path, script string, out any) {
	t.Helper()
	openTabs(t)
	tab := <-tabs
	defer func() { tabs <- tab }()
	ctx, cancel := context.WithTimeout(tab, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(server.URL+path),
		chromedp.Evaluate[chromedp.Void](extension.PageModel()),
	); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](script))
	if err != nil {
		t.Fatalf("checking %s: %v", path, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("reading results of %s: %v", path, err)
	}
}

func readFile(tb testing.TB, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

type checkResult struct {
	Got      string  `json:"got"`
	Captured *string `json:"captured"`
	Missing  bool    `json:"missing"`
	Testname string  `json:"testname"`
	Expected string  `json:"expected"`
}

func TestWPTAccname(t *testing.T) {
	browsertest.Need(t)
	check := readFile(t, "testdata/harness/wpt-check.js")
	skips := readSkips(t)
	names, descriptions := &tally{}, &tally{}

	pages, err := filepath.Glob("testdata/wpt-accname/accname/name/comp_*.html")
	if err != nil {
		t.Fatal(err)
	}
	shadow, _ := filepath.Glob("testdata/wpt-accname/accname/name/shadowdom/*.html")
	pages = append(pages, shadow...)

	var manual []struct {
		File, Selector, Property, Expected string
	}
	if err := json.Unmarshal([]byte(readFile(t, "testdata/wpt-accname/manual-cases.json")), &manual); err != nil {
		t.Fatal(err)
	}

	t.Run("pages", func(t *testing.T) {
		for _, page := range pages {
			rel := strings.TrimPrefix(filepath.ToSlash(page), "testdata/wpt-accname/")
			t.Run(rel, func(t *testing.T) {
				t.Parallel()
				var results []checkResult
				evaluatePage(t, "/"+rel, strings.Replace(check, "(CASES)", "(null)", 1), &results)
				if len(results) == 0 {
					t.Errorf("%s: no assertions found", rel)
				}
				for _, r := range results {
					names.add(outcome{id: rel + ": " + r.Testname, expected: r.Expected, got: r.Got, captured: r.Captured})
				}
			})
		}
		for _, c := range manual {
			rel := "accname/manual/" + c.File
			t.Run(rel, func(t *testing.T) {
				t.Parallel()
				cases, _ := json.Marshal([]map[string]string{{"selector": c.Selector, "property": c.Property}})
				var results []checkResult
				evaluatePage(t, "/"+rel, strings.Replace(check, "(CASES)", "("+string(cases)+")", 1), &results)
				if len(results) != 1 {
					t.Fatalf("%s: %d results, want 1", rel, len(results))
				}
				r := results[0]
				o := outcome{id: rel, expected: c.Expected, got: r.Got, captured: r.Captured, missing: r.Missing}
				if c.Property == "description" {
					descriptions.add(o)
				} else {
					names.add(o)
				}
			})
		}
	})

	used := map[string]bool{}
	np, nf := names.report(t, "WPT accname names", skips, used)
	dp, df := descriptions.report(t, "WPT accname descriptions", skips, used)
	total := np + nf + dp + df
	msg := fmt.Sprintf("WPT accname: %d passed, %d failed (of %d)", np+dp, nf+df, total)
	t.Log(msg)
	fmt.Println(msg)
	if total != wptTotal {
		t.Errorf("found %d WPT assertions, want %d: the oracle pages did not all run", total, wptTotal)
	}
	if np+dp < wptTarget {
		t.Errorf("WPT accname: %d passed, want at least %d", np+dp, wptTarget)
	}
	checkSkipsUsed(t, skips, used, "accname/")
}

func TestAxeCore(t *testing.T) {
	browsertest.Need(t)
	skips := readSkips(t)
	var results struct {
		Roles []struct {
			Index    int     `json:"index"`
			Target   string  `json:"target"`
			HTML     string  `json:"html"`
			Expected *string `json:"expected"`
			Got      string  `json:"got"`
			Missing  bool    `json:"missing"`
		} `json:"roles"`
		Texts []struct {
			Index    int    `json:"index"`
			Target   string `json:"target"`
			HTML     string `json:"html"`
			Expected string `json:"expected"`
			Got      string `json:"got"`
			Missing  bool   `json:"missing"`
		} `json:"texts"`
	}
	evaluatePage(t, "/axe.html", readFile(t, "testdata/harness/axe-check.js"), &results)

	roles, texts := &tally{}, &tally{}
	for _, r := range results.Roles {
		// axe says null where HTML-AAM and Playwright say generic, none or
		// presentation.
		expected := "null"
		if r.Expected != nil {
			expected = *r.Expected
		}
		got := r.Got
		if expected == "null" && (got == "generic" || got == "none" || got == "presentation") {
			got = "null"
		}
		roles.add(outcome{id: fmt.Sprintf("axe implicit-role #%d %s %s", r.Index, r.Target, r.HTML), expected: expected, got: got, missing: r.Missing})
	}
	for _, r := range results.Texts {
		texts.add(outcome{id: fmt.Sprintf("axe accessible-text #%d %s", r.Index, r.Target), expected: r.Expected, got: r.Got, missing: r.Missing})
	}
	used := map[string]bool{}
	rp, rf := roles.report(t, "axe-core implicit roles", skips, used)
	tp, tf := texts.report(t, "axe-core accessible text", skips, used)
	if rp+rf != 88 {
		t.Errorf("found %d axe role cases, want 88", rp+rf)
	}
	if rf > axeRoleMiss {
		t.Errorf("axe-core implicit roles: %d failed, want every case to pass", rf)
	}
	if tp+tf != axeTextTargets {
		t.Errorf("found %d axe accessible-text targets, want %d", tp+tf, axeTextTargets)
	}
	if tf > 0 {
		t.Errorf("axe-core accessible text: %d failed, want every case to pass", tf)
	}
	checkSkipsUsed(t, skips, used, "axe ")
}

// checkSkipsUsed fails for skip-list entries of this suite that match no case:
// a stale entry would hide nothing but mislead the reader.
func checkSkipsUsed(t *testing.T, skips map[string]string, used map[string]bool, prefix string) {
	for id := range skips {
		if strings.HasPrefix(id, prefix) && !used[id] {
			t.Errorf("skips.txt lists %q, which matches no case", id)
		}
	}
}
