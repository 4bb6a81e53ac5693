package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/secrets"
)

// newReplayCmd is a thin `host replay` over the engine: it selects the
// trails, starts (or attaches to) a browser, replays the trails one after
// another and prints a plain line per step. Workers, retries, the circuit
// breaker, reports and the database build on the same calls.
func newReplayCmd(e *env) *cobra.Command {
	var o replayFlags
	cmd := &cobra.Command{
		Use:   "replay [--headless] [--base-url URL] [--param NAME=VALUE]… FILE|DIR…",
		Short: "Replay trails in Chromium and report every step",
		Long: "replay runs trail files (or every *.trail.yaml under a folder) one after another, each in a\n" +
			"fresh browser context, and prints a line per step and per trail.\n\n" +
			"Paths in a trail are relative to its app's origin: --base-url, else apps.<app>.baseURL of\n" +
			"trailpin.yaml. Secrets come from TRAILPIN_SECRET_<NAME> and TRAILPIN_USER_<NAME>_<FIELD>,\n" +
			"then from the project config.\n\n" + replay.ExitCodesHelp,
		RunE: func(cmd *cobra.Command, args []string) error {
			err := replayTrails(cmd, e, o, args)
			if err == nil {
				return nil
			}
			var ee *replay.ExitError
			if errors.As(err, &ee) && ee.Err == nil {
				return &exitError{code: ee.Code} // the output already said why
			}
			return &exitError{code: replay.ExitCodeOf(err), err: err}
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.headless, "headless", true, "run the browser without a window (--headless=false shows it)")
	f.StringVar(&o.chrome, "chrome", "", "the Chromium or Chrome executable (default: $CHROME_PATH, else the first one found)")
	f.StringVar(&o.browserURL, "browser-url", "", "attach to a running browser by its DevTools URL (ws://host:port/devtools/browser/…) instead of starting one")
	f.StringVar(&o.baseURL, "base-url", "", "the origin trail paths are relative to (default: apps.<app>.baseURL of trailpin.yaml)")
	f.StringArrayVar(&o.params, "param", nil, "override a trail param: --param coupon=WINTER (repeatable)")
	return cmd
}

type replayFlags struct {
	headless           bool
	chrome, browserURL string
	baseURL            string
	params             []string
}

// replayTrails selects the trails, starts the browser and replays them.
func replayTrails(cmd *cobra.Command, e *env, o replayFlags, args []string) error {
	if len(args) == 0 {
		return replay.UsageError(errors.New("give trail files or folders to replay: host replay trails/"))
	}
	params, err := parseParams(o.params)
	if err != nil {
		return replay.UsageError(err)
	}
	cfg, err := e.config(cmd)
	if err != nil {
		return replay.UsageError(err)
	}
	opts := replay.Options{Params: params, Lookup: replay.EnvLookup(e.getenv)}
	apps := map[string]string{}
	if p := cfg.Project; p != nil {
		apps = p.Apps
		opts.ActionTimeout, opts.TrailTimeout = p.Replay.ActionTimeout, p.Replay.TrailTimeout
		opts.Lookup = secrets.NewResolver(p.Secrets, e.getenv).Lookup
	}
	suite, err := replay.SelectTrails(replay.SuiteOptions{Args: args})
	if err != nil {
		return err
	}
	browser, err := replay.StartBrowser(cmd.Context(), replay.BrowserOptions{RemoteURL: o.browserURL, ExecPath: o.chrome, Headless: o.headless})
	if err != nil {
		return replay.EnvironmentError(fmt.Errorf("%w (install Chromium, or give --chrome, CHROME_PATH or --browser-url)", err))
	}
	defer browser.Close()

	failed := 0
	for _, st := range suite {
		trailOpts := opts
		trailOpts.BaseURL = o.baseURL
		if trailOpts.BaseURL == "" {
			trailOpts.BaseURL = apps[st.Trail.App]
		}
		trailOpts.Slug = st.Slug
		trailOpts.OnStep = func(s replay.StepResult) { printStep(e.stdout, st.Slug, s) }
		res := replay.RunTrail(cmd.Context(), browser, st.Trail, trailOpts)
		printTrail(e.stdout, res)
		if res.Status != replay.StatusPassed {
			failed++
		}
	}
	fmt.Fprintf(e.stdout, "%d passed, %d failed\n", len(suite)-failed, failed)
	if code := replay.RunExitCode(false, failed > 0); code != replay.ExitPassed {
		return &replay.ExitError{Code: code}
	}
	return nil
}

// printStep writes one plain line per step as it ends.
func printStep(w io.Writer, slug string, s replay.StepResult) {
	fmt.Fprintf(w, "%-4s %s-%d  %s  (%s)\n", statusWord(s.Status), slug, s.Index, s.Intent, s.Duration.Round(10*time.Millisecond))
}

// printTrail writes the trail's outcome and, for a failure, its class and
// where to look.
func printTrail(w io.Writer, r *replay.TrailResult) {
	fmt.Fprintf(w, "%-4s %s  %s  (%s)\n", statusWord(r.Status), r.Slug, r.Title, r.Duration.Round(10*time.Millisecond))
	if r.Status == replay.StatusPassed {
		return
	}
	where := r.File
	if r.Line > 0 {
		where = fmt.Sprintf("%s:%d", r.File, r.Line)
	}
	fmt.Fprintf(w, "     %s at %s: %s\n", r.Class, where, r.Error)
	if r.Expected != "" || r.Actual != "" {
		fmt.Fprintf(w, "     expected %q, actual %q\n", r.Expected, r.Actual)
	}
	if r.Failure != nil {
		for _, c := range r.Failure.Closest {
			fmt.Fprintf(w, "     closest: %s (%.2f: %s)\n", c.Line, c.Score, c.Why)
		}
	}
}

func statusWord(s replay.Status) string {
	switch s {
	case replay.StatusPassed:
		return "PASS"
	case replay.StatusFailed:
		return "FAIL"
	}
	return "SKIP"
}

// parseParams reads --param NAME=VALUE flags.
func parseParams(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--param %q: write NAME=VALUE, for example --param coupon=WINTER", f)
		}
		out[name] = value
	}
	return out, nil
}
