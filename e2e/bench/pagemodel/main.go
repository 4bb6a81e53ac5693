// Command pagemodel benchmarks Trailpin's page model against Playwright's
// ARIA snapshots on generated pages of 1k, 10k and 50k elements, in one
// headless Chromium: for each page it times our capture inside the page and
// as a round trip from Go (evaluation, transfer and decoding into
// screen.Screen), then runs bench.mjs, which attaches Playwright to the same
// tab and times locator('body').ariaSnapshot() and page.ariaSnapshot({mode:
// 'ai'}). Under the table it prints where our round trip goes (capture in
// the page, packing into the wire form, moving it out of the browser,
// decoding it in Go, and the gzip form beside them) with the nodes and bytes
// of one look. Timings are medians; on a shared machine they are noisy.
//
//	go run ./e2e/bench/pagemodel [-sizes 1000,10000,50000] [-runs 7] [-launched]
//
// Run it from the repository root after `npm ci` (playwright-core).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/recorder/screen"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	sizes    []int
	runs     int
	warmup   int
	launched bool
	script   string
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("pagemodel", flag.ContinueOnError)
	sizes := fs.String("sizes", "1000,10000,50000", "page sizes in elements, comma-separated")
	runs := fs.Int("runs", 7, "timed runs per measurement (the median is reported)")
	warmup := fs.Int("warmup", 2, "untimed runs before each measurement")
	launched := fs.Bool("launched", false, "also time Playwright in a browser it launches itself (its usual setup)")
	script := fs.String("node-script", "", "path of bench.mjs (default: next to this program's source)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o := options{runs: *runs, warmup: *warmup, launched: *launched, script: *script}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("-sizes %q: want positive numbers such as 1000,10000", *sizes)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	if o.script == "" {
		_, file, _, _ := runtime.Caller(0)
		o.script = filepath.Join(filepath.Dir(file), "bench.mjs")
	}
	return bench(o, out)
}

// row is one page size's figures.
type row struct {
	elements, nodes        int
	inPage, roundTrip      time.Duration
	jsonBytes              int
	pwAria, pwAI           time.Duration
	pwAIChars, pwAriaChars int
	// interactiveChars is the length of our interactive snapshot text.
	interactiveChars         int
	pwLaunchAria, pwLaunchAI time.Duration
	// Medians of ours/theirs per interleaved run: on a busy machine, load
	// drifts between runs, and a ratio taken within one run cancels it.
	ratioAria, ratioAI float64
	// phases is where our round trip goes (breakdown.go).
	phases breakdown
}

func bench(o options, out io.Writer) error {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || n <= 0 {
			http.Error(w, "want ?n=<elements>", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, generatePage(n))
	}))
	defer srv.Close()

	dir, err := os.MkdirTemp("", "trailpin-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	opts, err := browser.AllocatorOptions(browser.LaunchOptions{Headless: true, UserDataDir: dir})
	if err != nil {
		return err
	}
	// A debugging port lets Playwright attach to this very browser.
	opts = append(opts, remote.WebSocket, chromedp.Flag("remote-debugging-port", "0"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil {
		return fmt.Errorf("starting Chromium: %w", err)
	}
	port, err := activePort(dir)
	if err != nil {
		return err
	}

	var rows []row
	for _, n := range o.sizes {
		url := fmt.Sprintf("%s/page?n=%d", srv.URL, n)
		r, err := measure(bctx, url, port, o)
		if err != nil {
			return fmt.Errorf("%d elements: %w", n, err)
		}
		r.elements = n
		rows = append(rows, r)
		fmt.Fprintf(os.Stderr, "%d elements done\n", n)
	}
	report(out, rows, o)
	return nil
}

// activePort reads the debugging port Chromium chose from its profile.
func activePort(dir string) (string, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort"))
		if err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				return port, nil
			}
		}
		if time.Now().After(deadline) {
			return "", errors.New("Chromium wrote no DevToolsActivePort")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// measure loads url in a new tab and times both sides on it, one run of
// each in turn, so that a busy machine slows both alike.
func measure(bctx context.Context, url, port string, o options) (row, error) {
	var r row
	ctx, cancel := chromedp.NewContext(bctx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(url)); err != nil {
		return r, err
	}
	// Inside the page: the same script in the page's own world, timed there.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](extension.PageModel())); err != nil {
		return r, err
	}
	pw, err := startPlaywright(o, "--cdp", "http://"+net.JoinHostPort("127.0.0.1", port), "--url", url)
	if err != nil {
		return r, err
	}
	defer pw.close()
	var launched *pwProcess
	if o.launched {
		if launched, err = startPlaywright(o, "--url", url); err != nil {
			return r, err
		}
		defer launched.close()
	}

	var inPage, trips, aria, ai, lAria, lAI []time.Duration
	var ratioAria, ratioAI []float64
	var phases []stepTimes
	var captured *screen.Screen
	for i := range o.warmup + o.runs {
		keep := i >= o.warmup
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](
			`(() => { const t0 = performance.now(); globalThis.__trailpinPageModel.capture(); return performance.now() - t0; })()`))
		if err != nil {
			return r, err
		}
		t0 := time.Now()
		s, err := browser.Capture(ctx, browser.CaptureOptions{})
		if err != nil {
			return r, err
		}
		trip := time.Since(t0)
		captured = s
		a, err := pw.run("aria")
		if err != nil {
			return r, err
		}
		b, err := pw.run("ai")
		if err != nil {
			return r, err
		}
		r.pwAriaChars, r.pwAIChars = a.Chars, b.Chars
		if keep {
			inPage = append(inPage, ms2d(ms))
			trips = append(trips, trip)
			aria = append(aria, ms2d(a.MS))
			ai = append(ai, ms2d(b.MS))
			ratioAria = append(ratioAria, float64(trip)/float64(ms2d(a.MS)))
			ratioAI = append(ratioAI, float64(trip)/float64(ms2d(b.MS)))
		}
		if keep {
			st, err := measurePhases(ctx)
			if err != nil {
				return r, fmt.Errorf("timing the phases: %w", err)
			}
			phases = append(phases, st)
		}
		if launched != nil {
			la, err := launched.run("aria")
			if err != nil {
				return r, err
			}
			lb, err := launched.run("ai")
			if err != nil {
				return r, err
			}
			if keep {
				lAria = append(lAria, ms2d(la.MS))
				lAI = append(lAI, ms2d(lb.MS))
			}
		}
	}
	r.inPage, r.roundTrip, r.pwAria, r.pwAI = median(inPage), median(trips), median(aria), median(ai)
	r.ratioAria, r.ratioAI = medianFloat(ratioAria), medianFloat(ratioAI)
	r.phases = medianBreakdown(phases)
	if launched != nil {
		r.pwLaunchAria, r.pwLaunchAI = median(lAria), median(lAI)
	}
	b, _ := json.Marshal(captured)
	r.jsonBytes = len(b)
	walkNodes(captured.Root, func(*screen.Node) { r.nodes++ })
	// What a model would read of this page: the interactive snapshot, to set
	// beside Playwright's AI snapshot.
	r.interactiveChars = len(screen.RenderSnapshot(captured, screen.SnapshotOptions{Interactive: true}))
	return r, nil
}

// pwProcess is a running bench.mjs.
type pwProcess struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

type pwAnswer struct {
	Ready bool    `json:"ready"`
	MS    float64 `json:"ms"`
	Chars int     `json:"chars"`
	Error string  `json:"error"`
}

func startPlaywright(o options, args ...string) (*pwProcess, error) {
	cmd := exec.Command("node", append([]string{o.script}, args...)...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting node: %w", err)
	}
	p := &pwProcess{cmd: cmd, in: in, out: bufio.NewScanner(out)}
	p.out.Buffer(make([]byte, 64*1024), 64*1024*1024)
	if a, err := p.read(); err != nil || !a.Ready {
		p.close()
		return nil, fmt.Errorf("bench.mjs did not start: %v", err)
	}
	return p, nil
}

func (p *pwProcess) run(what string) (pwAnswer, error) {
	if _, err := io.WriteString(p.in, what+"\n"); err != nil {
		return pwAnswer{}, err
	}
	a, err := p.read()
	if err == nil && a.Error != "" {
		err = errors.New(a.Error)
	}
	return a, err
}

func (p *pwProcess) read() (pwAnswer, error) {
	var a pwAnswer
	if !p.out.Scan() {
		if err := p.out.Err(); err != nil {
			return a, err
		}
		return a, io.ErrUnexpectedEOF
	}
	err := json.Unmarshal(p.out.Bytes(), &a)
	return a, err
}

func (p *pwProcess) close() {
	io.WriteString(p.in, "quit\n")
	p.in.Close()
	p.cmd.Wait()
}

func ms2d(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

func medianFloat(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

func walkNodes(n *screen.Node, fn func(*screen.Node)) {
	fn(n)
	for _, c := range n.Children {
		walkNodes(c, fn)
	}
}

func report(out io.Writer, rows []row, o options) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "elements\tscreen nodes\tours in page\tours round trip\tPW ariaSnapshot\tPW ai snapshot\tours/PW aria\tours/PW ai\tours JSON\tPW ai chars\tours interactive chars\t")
	if o.launched {
		fmt.Fprintf(tw, "PW launched aria\tPW launched ai\t")
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t%d\t%d\t%d\t", r.elements, r.nodes, d(r.inPage), d(r.roundTrip), d(r.pwAria), d(r.pwAI), r.ratioAria, r.ratioAI, r.jsonBytes, r.pwAIChars, r.interactiveChars)
		if o.launched {
			fmt.Fprintf(tw, "%s\t%s\t", d(r.pwLaunchAria), d(r.pwLaunchAI))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(out, "medians of %d interleaved runs after %d warm-up runs; ours/PW is the median of per-run ratios (below 1: ours is faster)\n", o.runs, o.warmup)
	fmt.Fprintln(out, "one shared headless Chromium; timings are noisy on a busy machine; ours JSON is the plain screen JSON (a capture moves the packed wire form, gzipped when large: see the bytes per look below)")
	reportBreakdown(out, rows)
}

func d(v time.Duration) string { return fmt.Sprintf("%.1fms", float64(v)/float64(time.Millisecond)) }
