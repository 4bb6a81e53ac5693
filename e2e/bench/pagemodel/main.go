// Command pagemodel benchmarks Trailpin's page model against Playwright's
// ARIA snapshots on generated pages of 1k, 10k and 50k elements, in one
// headless Chromium: for each page it times our capture inside the page and
// as a round trip from Go (evaluation, transfer and decoding into
// recorder.Screen), then runs bench.mjs, which attaches Playwright to the same
// tab and times locator('body').ariaSnapshot() and page.ariaSnapshot({mode:
// 'ai'}). Timings are medians; on a shared machine they are noisy.
//
//	go run ./e2e/bench/pagemodel [-sizes 1000,10000,50000] [-runs 7] [-launched]
//
// Run it from the repository root after `npm ci` (playwright-core).
package main

import (
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

	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/recorder"
	"github.com/trailpin/trailpin/replay"
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
	elements, nodes          int
	inPage, roundTrip        time.Duration
	jsonBytes                int
	pwAria, pwAI             time.Duration
	pwAIChars, pwAriaChars   int
	pwLaunchAria, pwLaunchAI time.Duration
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
	opts, err := replay.AllocatorOptions(replay.LaunchOptions{Headless: true, UserDataDir: dir})
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

// measure loads url in a new tab and times both sides on it.
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
	var inPage []time.Duration
	for i := range o.warmup + o.runs {
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](
			`(() => { const t0 = performance.now(); globalThis.__trailpinPageModel.capture(); return performance.now() - t0; })()`))
		if err != nil {
			return r, err
		}
		if i >= o.warmup {
			inPage = append(inPage, time.Duration(ms*float64(time.Millisecond)))
		}
	}
	r.inPage = median(inPage)

	// From Go: what replay pays for a screen.
	var trips []time.Duration
	var screen *recorder.Screen
	for i := range o.warmup + o.runs {
		t0 := time.Now()
		s, err := replay.Capture(ctx, replay.CaptureOptions{})
		if err != nil {
			return r, err
		}
		if i >= o.warmup {
			trips = append(trips, time.Since(t0))
		}
		screen = s
	}
	r.roundTrip = median(trips)
	b, _ := json.Marshal(screen)
	r.jsonBytes = len(b)
	walkNodes(screen.Root, func(*recorder.Node) { r.nodes++ })

	pw, err := playwright(o, "--cdp", "http://"+net.JoinHostPort("127.0.0.1", port), "--url", url)
	if err != nil {
		return r, err
	}
	r.pwAria, r.pwAI = ms(pw.AriaSnapshotMs), ms(pw.AISnapshotMs)
	r.pwAIChars, r.pwAriaChars = pw.AISnapshotChars, pw.AriaSnapshotChars
	if o.launched {
		pl, err := playwright(o, "--url", url)
		if err != nil {
			return r, err
		}
		r.pwLaunchAria, r.pwLaunchAI = ms(pl.AriaSnapshotMs), ms(pl.AISnapshotMs)
	}
	return r, nil
}

type pwResult struct {
	AriaSnapshotMs    float64 `json:"ariaSnapshotMs"`
	AISnapshotMs      float64 `json:"aiSnapshotMs"`
	AriaSnapshotChars int     `json:"ariaSnapshotChars"`
	AISnapshotChars   int     `json:"aiSnapshotChars"`
}

// playwright runs bench.mjs and reads its one line of JSON.
func playwright(o options, args ...string) (pwResult, error) {
	var res pwResult
	args = append([]string{o.script, "--runs", strconv.Itoa(o.runs), "--warmup", strconv.Itoa(o.warmup)}, args...)
	cmd := exec.Command("node", args...)
	cmd.Stderr = os.Stderr
	outb, err := cmd.Output()
	if err != nil {
		return res, fmt.Errorf("node %s: %w", strings.Join(args, " "), err)
	}
	lines := strings.Split(strings.TrimSpace(string(outb)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		return res, fmt.Errorf("reading bench.mjs output %q: %w", outb, err)
	}
	return res, nil
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

func walkNodes(n *recorder.Node, fn func(*recorder.Node)) {
	fn(n)
	for _, c := range n.Children {
		walkNodes(c, fn)
	}
}

func report(out io.Writer, rows []row, o options) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "elements\tscreen nodes\tours in page\tours round trip\tPW ariaSnapshot\tPW ai snapshot\tours JSON\tPW ai chars\tours interactive chars\t")
	if o.launched {
		fmt.Fprintf(tw, "PW launched aria\tPW launched ai\t")
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t", r.elements, r.nodes, d(r.inPage), d(r.roundTrip), d(r.pwAria), d(r.pwAI), r.jsonBytes, r.pwAIChars, interactiveChars())
		if o.launched {
			fmt.Fprintf(tw, "%s\t%s\t", d(r.pwLaunchAria), d(r.pwLaunchAI))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(out, "medians of %d runs after %d warm-up runs; one shared headless Chromium; noisy on a busy machine\n", o.runs, o.warmup)
}

func d(v time.Duration) string { return fmt.Sprintf("%.1fms", float64(v)/float64(time.Millisecond)) }

// interactiveChars is the length of our interactive snapshot text. The
// renderer (recorder.RenderSnapshot) is not in this branch yet, so the figure
// is pending rather than estimated.
func interactiveChars() string { return "pending" }
