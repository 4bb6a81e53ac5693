package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage/secrets"
)

// newDemoCmd is `host demo`: the whole of replay in one command, with
// nothing to set up. It serves the bundled demo shop on loopback, replays
// its example trails against it headless, and prints the report and where
// the trace pages are.
func newDemoCmd(e *env) *cobra.Command {
	var o replayFlags
	var variant string
	cmd := &cobra.Command{
		Use:   "demo [--variant NAME] [--headless=false]",
		Short: "Replay the demo shop's example trails against the shop, served on loopback",
		Long: "demo serves the bundled demo shop on a free loopback port and replays its example trails\n" +
			"(sign in, a wrong password, a discount, a 45-step shopping journey and a page of 10,000\n" +
			"elements) against it in headless Chromium, then prints the report and where the trace\n" +
			"pages are. Nothing is stored in the database.\n\n" +
			"--variant serves a mutated shop instead, to see how replay explains a failure (or\n" +
			"rightly ignores a change):\n  " +
			strings.Join(demoVariantLines(), "\n  ") + "\n\n" + exitcode.Help,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return replayExit(runDemo(cmd.Context(), e, o, variant))
		},
	}
	f := cmd.Flags()
	f.StringVar(&variant, "variant", "", "serve a mutated shop: "+strings.Join(demo.Variants(), ", "))
	f.BoolVar(&o.headless, "headless", true, "run the browser without a window (--headless=false shows it)")
	f.StringVar(&o.chrome, "chrome", "", "the Chromium or Chrome executable (default: $CHROME_PATH, else the first one found)")
	f.IntVar(&o.workers, "workers", 2, "trails to replay at once")
	f.StringVar(&o.format, "format", formatText, "output on standard output: text or status")
	f.StringVar(&o.junit, "junit", "", "write a JUnit XML report to this file")
	f.StringVar(&o.trace, "trace", string(report.TraceOn), "trace pages to keep: on, off or retain-on-failure")
	f.StringVar(&o.results, "results", report.DefaultResultsDir, "folder for trace pages and screenshots")
	return cmd
}

func demoVariantLines() []string {
	var lines []string
	for _, name := range demo.Variants() {
		v, _ := demo.VariantInfo(name)
		lines = append(lines, fmt.Sprintf("%-18s %s", name, v.Change))
	}
	return lines
}

// demoTrailsDir is the folder under --results the example trails are
// written to.
const demoTrailsDir = "example-trails"

// runDemo serves the shop, writes the example trails to a temporary
// folder and replays them.
func runDemo(ctx context.Context, e *env, o replayFlags, variant string) error {
	if err := demo.ValidateVariant(variant); err != nil {
		return exitcode.UsageError(err)
	}
	switch {
	case o.workers < 1:
		return exitcode.UsageError(fmt.Errorf("--workers %d: replay at least 1 trail at a time", o.workers))
	case o.format != formatText && o.format != formatStatus:
		return exitcode.UsageError(fmt.Errorf("--format %q: use text or status", o.format))
	}
	trace, err := report.ParseTraceMode(o.trace)
	if err != nil {
		return exitcode.UsageError(err)
	}
	// The example trails go beside the trace pages, which name their
	// lines, so that what a page points at is there to read.
	dir := filepath.Join(o.results, demoTrailsDir)
	if err := os.RemoveAll(dir); err != nil {
		return exitcode.EnvironmentError(fmt.Errorf("replacing the example trails in %s: %w", dir, err))
	}
	if err := demo.WriteTrails(dir); err != nil {
		return exitcode.EnvironmentError(fmt.Errorf("%w (give --results a folder you can write to)", err))
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return exitcode.EnvironmentError(fmt.Errorf("serving the demo shop on loopback: %w", err))
	}
	srv := &http.Server{Handler: demo.New(demo.Options{Variant: variant}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	shopURL := "http://" + ln.Addr().String()

	trails, err := suite.Select(suite.Selection{Args: []string{filepath.Join(dir, demo.TrailsDir)}})
	if err != nil {
		return err
	}
	s := &replaySetup{Options: suite.Options{Trails: trails, Apps: map[string]string{}, Trace: trace,
		Workers: o.workers, Results: o.results}}
	s.Engine = replay.Options{Lookup: demoLookup(replay.EnvLookup(e.getenv)), Known: knownSecrets(e, secrets.Config{})}
	for _, st := range trails {
		s.Apps[st.Trail.App] = shopURL
	}
	s.learnSecrets(e)

	shop := "the demo shop"
	if variant != "" {
		v, _ := demo.VariantInfo(variant)
		shop = fmt.Sprintf("the demo shop, variant %s (%s)", variant, strings.TrimSuffix(v.Change, "."))
	}
	fmt.Fprintf(e.stderr, "Serving %s at %s; replaying %d example trails headless.\n", shop, shopURL, len(trails))

	b, err := browser.Start(ctx, browser.Options{ExecPath: o.chrome, Headless: o.headless})
	if err != nil {
		return exitcode.EnvironmentError(fmt.Errorf("%w (install Chromium, or give --chrome or CHROME_PATH)", err))
	}
	defer b.Close()
	s.Browser = b
	runErr := runSuite(ctx, e, o, s)

	out := e.stdout
	if o.format == formatStatus {
		out = e.stderr
	}
	if pages := tracePages(o.results, trails); len(pages) > 0 {
		abs, _ := filepath.Abs(o.results)
		fmt.Fprintf(out, "\nTrace pages (%d) are in %s:\n", len(pages), abs)
		for _, p := range pages {
			fmt.Fprintf(out, "  %s\n", p)
		}
	}
	if variant == "" {
		fmt.Fprintf(out, "\nThe example trails are in %s. To see failures explained, serve a broken shop: host demo --variant %s\n",
			filepath.Join(dir, demo.TrailsDir), demo.ControlRemoved)
	}
	return runErr
}

// demoLookup provides the demo account's password, which is no secret,
// and everything else from next.
func demoLookup(next replay.Lookup) replay.Lookup {
	return func(ref trail.Ref) (string, error) {
		if ref.Kind == trail.RefSecret && ref.Name == "demo-password" {
			return demo.Password, nil
		}
		return next(ref)
	}
}

// tracePages lists the trace pages of the suite's trails that exist.
func tracePages(results string, trails []suite.Trail) []string {
	var pages []string
	for _, st := range trails {
		p := report.TracePath(results, st.Slug)
		if _, err := os.Stat(p); err == nil {
			pages = append(pages, p)
		}
	}
	return pages
}
