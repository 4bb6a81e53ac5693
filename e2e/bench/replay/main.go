// Command replay benchmarks `host replay --headless` against Playwright on the
// demo shop, side by side in one run: the 45-step full shopping journey
// (typing, clicks, navigation, dialogs, a new tab, 40 assertions) and the
// short flow on /big?n=10000, where capturing a large screen while waiting
// shows. Each tool runs each flow as a whole process (launch Chromium, run,
// close), several times, alternating; the report gives the median wall
// time, the spread and the ratio Trailpin / Playwright. Both drive the same
// Chromium. On a shared machine the numbers are noisy.
//
//	go build -o bin/host ./host && npm ci
//	go run ./e2e/bench/replay [-runs 5] [-flows long,big] [-host bin/host]
//	go run ./e2e/bench/replay -serve 127.0.0.1:8080   # only serve the shop
//
// Trailpin's side replays host/demo/trails (the same flows as trail files)
// with CI=true (no database, read-only cache) and --trace off; under the
// timings the report gives the looks at the page of Trailpin's last run of
// each flow (per step, with nodes and bytes per look). When the
// host has no replay command yet, the report says so and shows Playwright's
// figures alone.
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
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/demo"
)

// A flow is measured under both tools.
type flow struct {
	key   string // the Playwright script's name for it
	trail string // its trail file in host/demo/trails
	what  string
	steps int
}

var flows = []flow{
	{"long", "full-shopping-journey.trail.yaml", "full shopping journey (45 steps, 82 actions)", 45},
	{"big", "big-page.trail.yaml", "big page /big?n=10000 (3 steps, 5 actions)", 3},
}

// runTimeout bounds one process: a run that takes longer is a hang, not a
// measurement.
const runTimeout = 3 * time.Minute

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	runs  int
	flows []string
	host  string
	node  string
	serve string
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	var o options
	var flowList string
	fs.IntVar(&o.runs, "runs", 5, "timed runs per tool and flow (the median is reported), after one warm-up run each")
	fs.StringVar(&flowList, "flows", "long,big", "flows to measure: long, big")
	fs.StringVar(&o.host, "host", "bin/host", "the host binary (go build -o bin/host ./host)")
	fs.StringVar(&o.node, "node", "node", "the Node.js binary for the Playwright script")
	fs.StringVar(&o.serve, "serve", "", "only serve the demo shop on this address (e.g. 127.0.0.1:8080) until interrupted")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.flows = strings.Split(flowList, ",")
	if o.runs < 1 {
		return fmt.Errorf("-runs %d: give at least 1", o.runs)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if o.serve != "" {
		ln, err = net.Listen("tcp", o.serve)
	}
	if err != nil {
		return fmt.Errorf("listening for the demo shop: %w", err)
	}
	srv := &http.Server{Handler: demo.New(demo.Options{}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	if o.serve != "" {
		fmt.Fprintf(out, "demo shop at %s (password %s); Ctrl-C stops it\n", base, demo.Password)
		select {}
	}

	chrome, err := browser.FindChrome()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bench-replay-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := writeProject(work, base); err != nil {
		return err
	}

	hostReady, why := hostReplayAvailable(o.host)
	fmt.Fprintf(out, "demo shop: %s\nChromium: %s\nruns: %d per tool and flow, after a warm-up run\n", base, chrome, o.runs)
	if !hostReady {
		fmt.Fprintf(out, "\nTrailpin: NOT MEASURED: %s\n", why)
	}
	fmt.Fprintln(out)

	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "flow\ttool\tmedian\tmin\tmax\truns\tTrailpin / Playwright")
	var costs []string
	for _, f := range flows {
		if !slices.Contains(o.flows, f.key) {
			continue
		}
		tools := map[string]func() *exec.Cmd{
			"playwright": func() *exec.Cmd { return playwrightCmd(o, f, base, work, chrome) },
		}
		order := []string{"playwright"}
		if hostReady {
			tools["trailpin"] = func() *exec.Cmd { return trailpinCmd(o, f, work, chrome) }
			order = []string{"trailpin", "playwright"}
		}
		times, err := measure(o.runs, order, tools)
		if err != nil {
			return fmt.Errorf("%s: %w", f.what, err)
		}
		ratio := "-"
		if hostReady {
			ratio = fmt.Sprintf("%.2f", median(times["trailpin"]).Seconds()/median(times["playwright"]).Seconds())
		}
		for _, tool := range order {
			ts := times[tool]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\n", f.what, tool,
				secs(median(ts)), secs(slices.Min(ts)), secs(slices.Max(ts)), len(ts), ratio)
		}
		if hostReady {
			costs = append(costs, captureCosts(f, work))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(costs) > 0 {
		fmt.Fprintln(out, "\nTrailpin's looks at the page in its last run of each flow (full captures; a cross-origin frame's counts as one more):")
		for _, c := range costs {
			fmt.Fprintln(out, "  "+c)
		}
	}
	return nil
}

// captureStatsFile is where a run of f writes its capture counts
// (TRAILPIN_CAPTURE_STATS, host/cmd_replay.go); each run overwrites it.
func captureStatsFile(f flow, work string) string {
	return filepath.Join(work, "capture-stats-"+f.key+".json")
}

// captureCosts says what f's last Trailpin run spent looking at the page:
// looks per step, nodes and bytes moved per look.
func captureCosts(f flow, work string) string {
	b, err := os.ReadFile(captureStatsFile(f, work))
	if err != nil {
		return fmt.Sprintf("%s: no capture counts (%v)", f.what, err)
	}
	var st browser.CaptureStats
	if err := json.Unmarshal(b, &st); err != nil || st.Looks == 0 {
		return fmt.Sprintf("%s: no capture counts (%s)", f.what, b)
	}
	return fmt.Sprintf("%s: %d looks, %.1f per step, %d nodes and %d bytes per look",
		f.what, st.Looks, float64(st.Looks)/float64(f.steps), st.Nodes/st.Looks, st.WireBytes/st.Looks)
}

// writeProject writes the demo's trails and a trailpin.yaml pointing at the
// shop into dir.
func writeProject(dir, base string) error {
	if err := demo.WriteTrails(dir); err != nil {
		return fmt.Errorf("writing the demo trails: %w", err)
	}
	cfg := fmt.Sprintf("apps:\n  shop:\n    baseURL: %s\ntrails:\n  dir: %s\n", base, demo.TrailsDir)
	return os.WriteFile(filepath.Join(dir, demo.ConfigFile), []byte(cfg), 0o644)
}

// hostReplayAvailable checks that the host binary exists and has a replay
// command, and says why not otherwise.
func hostReplayAvailable(host string) (bool, string) {
	if _, err := os.Stat(host); err != nil {
		return false, fmt.Sprintf("%s does not exist; build it with `go build -o %s ./host`", host, host)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	outp, err := exec.CommandContext(ctx, host, "replay", "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(outp), "replay") || strings.Contains(string(outp), "unknown command") {
		return false, fmt.Sprintf("`%s replay` is not available in this build (the replay engine has not landed in it yet); rebuild it with `go build -o %s ./host` once it has", host, host)
	}
	return true, ""
}

func trailpinCmd(o options, f flow, work, chrome string) *exec.Cmd {
	cmd := exec.Command(o.host, "replay", "--headless",
		"--config", filepath.Join(work, demo.ConfigFile),
		"--trace", "off", "--results", filepath.Join(work, "results"),
		filepath.Join(work, demo.TrailsDir, f.trail))
	cmd.Env = append(os.Environ(),
		"CI=true", // no database, read-only cache: a CI run
		"CHROME_PATH="+chrome,
		"TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password,
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_DATA_HOME="+filepath.Join(work, "data"),
		"TRAILPIN_CAPTURE_STATS="+captureStatsFile(f, work),
	)
	return cmd
}

func playwrightCmd(o options, f flow, base, work, chrome string) *exec.Cmd {
	cmd := exec.Command(o.node, filepath.Join("e2e", "bench", "replay", "flows.mjs"), f.key, base, filepath.Join(work, demo.TrailsDir))
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chrome, "TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password)
	return cmd
}

// measure runs each tool once to warm up, then runs times in turn
// (alternating, so a slow spell of the machine hits both), timing each
// whole process. A run that fails ends the measurement with its output.
func measure(runs int, order []string, tools map[string]func() *exec.Cmd) (map[string][]time.Duration, error) {
	times := map[string][]time.Duration{}
	for i := -1; i < runs; i++ {
		for _, tool := range order {
			d, err := timeRun(tools[tool]())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", tool, err)
			}
			if i >= 0 {
				times[tool] = append(times[tool], d)
			}
		}
	}
	return times, nil
}

func timeRun(cmd *exec.Cmd) (time.Duration, error) {
	var outp strings.Builder
	cmd.Stdout, cmd.Stderr = &outp, &outp
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		d := time.Since(start)
		if err != nil {
			return 0, fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, tail(outp.String(), 4000))
		}
		return d, nil
	case <-time.After(runTimeout):
		cmd.Process.Kill()
		<-done
		return 0, errors.New(strings.Join(cmd.Args, " ") + ": still running after " + runTimeout.String())
	}
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func secs(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
