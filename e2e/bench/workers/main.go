// Command workers benchmarks `host replay --workers N`: the throughput of
// replaying a suite of trails with several workers against one, and the
// host process's peak memory while it does. The suite is the demo shop's
// example trails (host/demo/trails), copied under new titles until it holds
// -trails trails; each configuration runs it as a whole process (launch
// Chromium, replay, close), alternating, several times. On a shared machine
// the numbers are noisy: the report gives every run.
//
//	go build -o bin/host ./host
//	go run ./e2e/bench/workers [-runs 3] [-trails 24] [-workers 1,4] [-host bin/host]
//
// Throughput is trails per second of wall time; the speed-up is the ratio of
// median wall times against the first -workers value. The host's peak RSS is
// VmHWM of its /proc status, read every 50 ms while it runs (the last read
// before it exits stands); the browser's is the largest sum of VmRSS over
// the host's descendant processes seen at a read (Chromium's processes share
// pages, so the sum overstates it).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/demo"
)

// runTimeout bounds one replay of the suite: a run that takes longer is a
// hang, not a measurement.
const runTimeout = 20 * time.Minute

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	runs, trails int
	workers      []int
	only         []string
	host         string
}

// A sample is one replay of the suite.
type sample struct {
	wall           time.Duration
	hostKiB        int64 // the host's VmHWM
	browserPeakKiB int64 // the largest sum of its descendants' VmRSS
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("workers", flag.ContinueOnError)
	var o options
	var workerList, onlyList string
	fs.IntVar(&o.runs, "runs", 3, "timed runs per configuration (the median is reported)")
	fs.IntVar(&o.trails, "trails", 24, "trails in the suite (the demo's example trails, copied)")
	fs.StringVar(&workerList, "workers", "1,4", "--workers values to compare; the first is the baseline")
	fs.StringVar(&onlyList, "only", "", "demo trails to copy, by file name without .trail.yaml (default: all)")
	fs.StringVar(&o.host, "host", "bin/host", "the host binary (go build -o bin/host ./host)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, w := range strings.Split(workerList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 {
			return fmt.Errorf("-workers %q: give numbers of at least 1, separated by commas", workerList)
		}
		o.workers = append(o.workers, n)
	}
	if onlyList != "" {
		o.only = strings.Split(onlyList, ",")
	}
	if o.runs < 1 || o.trails < 1 {
		return fmt.Errorf("-runs %d -trails %d: give at least 1 of each", o.runs, o.trails)
	}
	if _, err := os.Stat(o.host); err != nil {
		return fmt.Errorf("%s does not exist; build it with `go build -o %s ./host`", o.host, o.host)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("listening for the demo shop: %w", err)
	}
	srv := &http.Server{Handler: demo.New(demo.Options{}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	chrome, err := browser.FindChrome()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "bench-workers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	names, err := writeSuite(work, base, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "demo shop: %s\nChromium: %s\nsuite: %d trails (%s)\nruns: %d per configuration, alternating\n\n",
		base, chrome, o.trails, strings.Join(names, ", "), o.runs)

	samples := map[int][]sample{}
	for i := range o.runs {
		for _, w := range o.workers {
			s, err := replayOnce(o, w, work, chrome)
			if err != nil {
				return fmt.Errorf("--workers %d: %w", w, err)
			}
			fmt.Fprintf(out, "run %d --workers %d: %s, host peak %s, browser peak %s\n", i+1, w,
				secs(s.wall), mib(s.hostKiB), mib(s.browserPeakKiB))
			samples[w] = append(samples[w], s)
		}
	}
	fmt.Fprintln(out)

	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "workers\tmedian\tmin\tmax\ttrails/s\tspeed-up\thost peak RSS (max)\tbrowser peak RSS (max)")
	baseline := median(walls(samples[o.workers[0]]))
	for _, w := range o.workers {
		ss := samples[w]
		ws := walls(ss)
		m := median(ws)
		var host, br int64
		for _, s := range ss {
			host = max(host, s.hostKiB)
			br = max(br, s.browserPeakKiB)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.2f\t%.2f×\t%s\t%s\n", w, secs(m), secs(slices.Min(ws)), secs(slices.Max(ws)),
			float64(o.trails)/m.Seconds(), baseline.Seconds()/m.Seconds(), mib(host), mib(br))
	}
	return tw.Flush()
}

// writeSuite writes the demo's trails, copied under new titles until there
// are o.trails of them, and a trailpin.yaml pointing at the shop, into dir.
// It returns the names of the trails copied.
func writeSuite(dir, base string, o options) ([]string, error) {
	src := filepath.Join(dir, "demo")
	if err := demo.WriteTrails(src); err != nil {
		return nil, fmt.Errorf("writing the demo trails: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(src, demo.TrailsDir, "*.trail.yaml"))
	if err != nil {
		return nil, err
	}
	var picked []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".trail.yaml")
		if len(o.only) == 0 || slices.Contains(o.only, name) {
			picked = append(picked, f)
		}
	}
	if len(picked) == 0 {
		return nil, fmt.Errorf("-only %s: no such demo trail", strings.Join(o.only, ","))
	}
	suiteDir := filepath.Join(dir, demo.TrailsDir)
	if err := os.MkdirAll(suiteDir, 0o755); err != nil {
		return nil, err
	}
	// Files a trail attaches (an upload) sit beside it.
	others, _ := filepath.Glob(filepath.Join(src, demo.TrailsDir, "*"))
	for _, f := range others {
		if strings.HasSuffix(f, ".trail.yaml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(suiteDir, filepath.Base(f)), data, 0o644); err != nil {
			return nil, err
		}
	}
	var names []string
	for i := range o.trails {
		f := picked[i%len(picked)]
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".trail.yaml")
		if i < len(picked) {
			names = append(names, name)
		}
		// Titles name a trail's results: each copy gets its own.
		lines := strings.SplitN(string(data), "\n", -1)
		for j, l := range lines {
			if strings.HasPrefix(l, "trail: ") {
				lines[j] = fmt.Sprintf("%s (copy %d)", l, i+1)
				break
			}
		}
		dst := filepath.Join(suiteDir, fmt.Sprintf("%02d-%s.trail.yaml", i+1, name))
		if err := os.WriteFile(dst, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			return nil, err
		}
	}
	cfg := fmt.Sprintf("apps:\n  shop:\n    baseURL: %s\ntrails:\n  dir: %s\n", base, demo.TrailsDir)
	return names, os.WriteFile(filepath.Join(dir, demo.ConfigFile), []byte(cfg), 0o644)
}

// replayOnce replays the suite with the given number of workers and
// measures it.
func replayOnce(o options, workers int, work, chrome string) (sample, error) {
	cmd := exec.Command(o.host, "replay", "--headless", "--workers", strconv.Itoa(workers),
		"--config", filepath.Join(work, demo.ConfigFile),
		"--trace", "off", "--results", filepath.Join(work, "results"),
		filepath.Join(work, demo.TrailsDir))
	cmd.Env = append(os.Environ(),
		"CI=true", // no database, read-only cache: a CI run
		"CHROME_PATH="+chrome,
		"TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password,
		"XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"XDG_DATA_HOME="+filepath.Join(work, "data"),
	)
	var outp bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outp, &outp
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var s sample
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(runTimeout)
	for {
		select {
		case err := <-done:
			s.wall = time.Since(start)
			if err != nil {
				return s, fmt.Errorf("%v\n%s", err, tail(outp.String(), 3000))
			}
			return s, nil
		case <-deadline:
			cmd.Process.Kill()
			<-done
			return s, fmt.Errorf("no result in %s\n%s", runTimeout, tail(outp.String(), 3000))
		case <-tick.C:
			pid := cmd.Process.Pid
			if hwm := statusKiB(pid, "VmHWM:"); hwm > 0 {
				s.hostKiB = hwm
			}
			var sum int64
			for _, d := range descendants(pid) {
				sum += statusKiB(d, "VmRSS:")
			}
			s.browserPeakKiB = max(s.browserPeakKiB, sum)
		}
	}
}

// statusKiB reads a field of /proc/<pid>/status given in kB; 0 when the
// process is gone.
func statusKiB(pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			v, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v
		}
	}
	return 0
}

// descendants lists the processes under pid, at any depth.
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces: the fields
		// after the last ')' are state, then the parent's pid.
		at := bytes.LastIndexByte(stat, ')')
		fields := strings.Fields(string(stat[at+1:]))
		if len(fields) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	todo := []int{pid}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, c := range children[p] {
			out = append(out, c)
			todo = append(todo, c)
		}
	}
	return out
}

func walls(ss []sample) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = s.wall
	}
	return out
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func secs(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

func mib(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
