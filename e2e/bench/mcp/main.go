// Command mcp benchmarks `host mcp --headless` against @playwright/mcp,
// side by side in one run, both driving the same headless Chromium on the
// demo shop served on loopback. Each run starts each server afresh (an MCP
// client over the command transport, as a coding agent's configuration
// does) and drives the same short flow by ref: go to the sign-in page, take
// a snapshot, type the user name and password, click Sign in, type a search
// and click Search, take a snapshot, click the first Add to cart, take a
// snapshot, then go to /big?n=10000 and take a snapshot. It times each tool
// call as the client sees it and counts the characters of text each
// snapshot returns. The report gives, per tool, the median and the range
// over the runs, and the ratio Trailpin / Playwright MCP. Tools alternate
// run by run, so a slow spell of a shared machine hits both.
//
//	go build -o bin/host ./host && npm ci
//	go run ./e2e/bench/mcp [-runs 5] [-host bin/host]
//
// The start of each server and the first call of a run (which may start
// the browser) are not measured as actions: each run first goes to the
// shop's /healthz.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/demo"
)

// runTimeout bounds one run of one tool: longer is a hang.
const runTimeout = 5 * time.Minute

// bigURL is the big page measured.
const bigURL = "/big?n=10000"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	runs       int
	host       string
	node       string
	playwright string
	keep       string
}

// A tool is one MCP server under measurement.
type tool struct {
	name  string
	start func() *exec.Cmd
	// password is what is typed in the password field: Trailpin types a
	// secret by its name, Playwright MCP the value.
	password string
	// refArg is the argument that names the element acted on: Trailpin
	// takes `ref`, Playwright MCP 0.0.86 `target`.
	refArg string
}

// measures holds, per measure name (such as "browser_click"), what each
// run gave: milliseconds for latencies, characters for sizes.
type measures map[string][]float64

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.runs, "runs", 5, "timed runs per tool (the median is reported), after one warm-up run each")
	fs.StringVar(&o.host, "host", "bin/host", "the host binary (go build -o bin/host ./host)")
	fs.StringVar(&o.node, "node", "node", "the Node.js binary for Playwright MCP")
	fs.StringVar(&o.playwright, "playwright-mcp", filepath.Join("node_modules", "@playwright", "mcp", "cli.js"), "Playwright MCP's command-line script (npm ci installs it)")
	fs.StringVar(&o.keep, "keep", "", "write each tool's replies of the last run into this folder, to read them")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.runs < 1 {
		return fmt.Errorf("-runs %d: give at least 1", o.runs)
	}
	for _, p := range []*string{&o.host, &o.playwright} {
		if _, err := os.Stat(*p); err != nil {
			return fmt.Errorf("%s is missing: build the host with `go build -o bin/host ./host` and install Playwright MCP with `npm ci`", *p)
		}
		abs, err := filepath.Abs(*p) // the servers run in a folder of their own
		if err != nil {
			return err
		}
		*p = abs
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
	work, err := os.MkdirTemp("", "bench-mcp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	cfg := fmt.Sprintf("apps:\n  shop:\n    baseURL: %s\ntrails:\n  dir: trails\nsecrets:\n  demo-password: null\n", base)
	if err := os.WriteFile(filepath.Join(work, "trailpin.yaml"), []byte(cfg), 0o644); err != nil {
		return err
	}

	tools := []tool{
		{name: "trailpin", password: "${secret:demo-password}", refArg: "ref", start: func() *exec.Cmd {
			cmd := exec.Command(o.host, "mcp", "--headless", "--chrome", chrome)
			cmd.Dir = work
			cmd.Env = append(os.Environ(),
				"TRAILPIN_SECRET_DEMO_PASSWORD="+demo.Password,
				"XDG_CONFIG_HOME="+filepath.Join(work, "config"),
				"XDG_DATA_HOME="+filepath.Join(work, "data"),
			)
			return cmd
		}},
		{name: "playwright-mcp", password: demo.Password, refArg: "target", start: func() *exec.Cmd {
			args := []string{o.playwright, "--headless", "--isolated", "--executable-path", chrome,
				"--output-dir", filepath.Join(work, "playwright-output")}
			if os.Geteuid() == 0 {
				args = append(args, "--no-sandbox") // the sandbox refuses root, as for Trailpin's Chromium
			}
			cmd := exec.Command(o.node, args...)
			cmd.Dir = work
			return cmd
		}},
	}

	fmt.Fprintf(out, "demo shop: %s\nChromium: %s\nruns: %d per tool, after a warm-up run each, alternating\n\n", base, chrome, o.runs)
	got := map[string]measures{}
	for i := -1; i < o.runs; i++ {
		for _, t := range tools {
			keep := ""
			if o.keep != "" {
				keep = filepath.Join(o.keep, t.name)
				if err := os.MkdirAll(keep, 0o755); err != nil {
					return err
				}
			}
			m, err := runFlow(t, base, keep)
			if err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			if i < 0 {
				continue
			}
			if got[t.name] == nil {
				got[t.name] = measures{}
			}
			for k, v := range m {
				got[t.name][k] = append(got[t.name][k], v...)
			}
		}
	}
	report(out, got, tools)
	return nil
}

// rows are the report's lines, in order: a measure and its unit.
var rows = []struct{ key, unit string }{
	{"browser_navigate /login", "ms"},
	{"browser_navigate " + bigURL, "ms"},
	{"browser_snapshot", "ms"},
	{"browser_snapshot " + bigURL, "ms"},
	{"browser_click", "ms"},
	{"browser_type", "ms"},
	{"snapshot chars /login", "chars"},
	{"snapshot chars /products?q=", "chars"},
	{"snapshot chars after Add to cart", "chars"},
	{"snapshot chars " + bigURL, "chars"},
	{"reply chars browser_type", "chars"},
	{"reply chars browser_click", "chars"},
	{"reply chars browser_navigate " + bigURL, "chars"},
}

func report(out io.Writer, got map[string]measures, tools []tool) {
	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "measure\tunit\t")
	for _, t := range tools {
		fmt.Fprintf(tw, "%s median\tmin\tmax\tn\t", t.name)
	}
	fmt.Fprintln(tw, "trailpin / playwright-mcp\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t", r.key, r.unit)
		var meds []float64
		for _, t := range tools {
			vs := got[t.name][r.key]
			if len(vs) == 0 {
				fmt.Fprint(tw, "-\t-\t-\t0\t")
				meds = append(meds, 0)
				continue
			}
			med := median(vs)
			meds = append(meds, med)
			fmt.Fprintf(tw, "%.0f\t%.0f\t%.0f\t%d\t", med, slices.Min(vs), slices.Max(vs), len(vs))
		}
		if len(meds) == 2 && meds[1] > 0 {
			fmt.Fprintf(tw, "%.2f\t", meds[0]/meds[1])
		} else {
			fmt.Fprint(tw, "-\t")
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// session is one MCP client's connection to a tool under measurement.
type session struct {
	ctx context.Context
	cs  *mcp.ClientSession
	m   measures
	// keep is a folder each reply is written into (the last run's stay),
	// n the number of calls so far.
	keep string
	n    int
}

// call calls a tool, times it under the key (when given) and returns the
// text it answered.
func (s *session) call(key, name string, args map[string]any) (string, error) {
	start := time.Now()
	res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	d := time.Since(start)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError {
		return "", fmt.Errorf("%s %v failed: %s", name, args, tail(b.String(), 2000))
	}
	if s.keep != "" {
		s.n++
		os.WriteFile(filepath.Join(s.keep, fmt.Sprintf("%02d-%s.txt", s.n, name)), []byte(b.String()), 0o644)
	}
	if key != "" {
		s.m[key] = append(s.m[key], float64(d.Microseconds())/1000)
	}
	return b.String(), nil
}

// snapshot takes a snapshot, timed under key, and counts its characters
// under size (when given).
func (s *session) snapshot(key, size string) (string, error) {
	text, err := s.call(key, "browser_snapshot", map[string]any{})
	if err == nil && size != "" {
		s.m[size] = append(s.m[size], float64(len([]rune(text))))
	}
	return text, err
}

// ref finds the ref of the first element whose snapshot line holds line.
// Both tools write an element as `role "name" ... [ref=eN]`.
func ref(snapshot, line string) (string, error) {
	m := regexp.MustCompile(regexp.QuoteMeta(line) + `[^\n]*\[ref=([A-Za-z0-9_-]+)\]`).FindStringSubmatch(snapshot)
	if m == nil {
		return "", fmt.Errorf("the snapshot has no %s with a ref:\n%s", line, tail(snapshot, 3000))
	}
	return m[1], nil
}

// runFlow starts the tool and drives the flow once.
func runFlow(t tool, base, keep string) (measures, error) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := t.start()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-mcp", Version: "1.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting: %w\n%s", err, tail(stderr.String(), 2000))
	}
	defer cs.Close()
	s := &session{ctx: ctx, cs: cs, m: measures{}, keep: keep}
	if err := flow(s, t, base); err != nil {
		return nil, fmt.Errorf("%w\n%s", err, tail(stderr.String(), 2000))
	}
	return s.m, nil
}

func flow(s *session, t tool, base string) error {
	steps := []func() error{}
	var snap string
	var err error
	do := func(f func() error) { steps = append(steps, f) }
	do(func() error {
		_, err := s.call("", "browser_navigate", map[string]any{"url": base + "/healthz"})
		return err
	})
	do(func() error {
		_, err := s.call("browser_navigate /login", "browser_navigate", map[string]any{"url": base + "/login"})
		return err
	})
	do(func() error { snap, err = s.snapshot("browser_snapshot", "snapshot chars /login"); return err })
	typ := func(line, element, text string) func() error {
		return func() error {
			r, err := ref(snap, line)
			if err != nil {
				return err
			}
			text, err := s.call("browser_type", "browser_type", map[string]any{"element": element, t.refArg: r, "text": text})
			s.m["reply chars browser_type"] = append(s.m["reply chars browser_type"], float64(len([]rune(text))))
			return err
		}
	}
	click := func(line, element string) func() error {
		return func() error {
			r, err := ref(snap, line)
			if err != nil {
				return err
			}
			text, err := s.call("browser_click", "browser_click", map[string]any{"element": element, t.refArg: r})
			s.m["reply chars browser_click"] = append(s.m["reply chars browser_click"], float64(len([]rune(text))))
			return err
		}
	}
	do(typ(`textbox "Username"`, "Username", demo.Username))
	do(typ(`textbox "Password"`, "Password", t.password))
	do(click(`button "Sign in"`, "Sign in"))
	do(func() error { snap, err = s.snapshot("", ""); return err })
	do(typ(`searchbox "Search products"`, "Search products", "iPhone"))
	do(click(`button "Search"`, "Search"))
	do(func() error { snap, err = s.snapshot("browser_snapshot", "snapshot chars /products?q="); return err })
	do(click(`button "Add to cart"`, "Add to cart"))
	do(func() error {
		snap, err = s.snapshot("browser_snapshot", "snapshot chars after Add to cart")
		return err
	})
	do(func() error {
		text, err := s.call("browser_navigate "+bigURL, "browser_navigate", map[string]any{"url": base + bigURL})
		if err == nil {
			k := "reply chars browser_navigate " + bigURL
			s.m[k] = append(s.m[k], float64(len([]rune(text))))
		}
		return err
	})
	do(func() error { snap, err = s.snapshot("browser_snapshot "+bigURL, "snapshot chars "+bigURL); return err })
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
