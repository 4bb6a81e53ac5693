package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/recorder"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage"
)

// Exit codes of host replay, as its help lists them.
const (
	exitReplayFailed = 1 // a trail failed
	exitReplayUsage  = 2 // bad arguments or configuration; no trail ran
)

// Configuration keys of replay (DESIGN §12).
const (
	keyActionTimeout = "replay.actionTimeout"
	keyTrailTimeout  = "replay.trailTimeout"
)

func newReplayCmd(e *env) *cobra.Command {
	var o replayFlags
	cmd := &cobra.Command{
		Use:   "replay [--headless] [--base-url URL] [--param NAME=VALUE]… FILE|DIR…",
		Short: "Replay trails in Chromium and report every step",
		Long: "replay runs trail files (or every *.trail.yaml under a folder) one after another, each in a\n" +
			"fresh browser context, and prints a line per step and per trail.\n\n" +
			"Paths in a trail are relative to its app's origin: --base-url, else apps.<app>.baseURL of\n" +
			"trailpin.yaml. Secrets come from TRAILPIN_SECRET_<NAME> and TRAILPIN_USER_<NAME>_<FIELD>.\n\n" +
			"Exit codes: 0 every trail passed; 1 a trail failed; 2 bad arguments or configuration\n" +
			"(no trail ran).",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := replayFiles(cmd, e, o, args); err != nil {
				var ee *exitError
				if errors.As(err, &ee) {
					return err
				}
				return &exitError{code: exitReplayUsage, err: err}
			}
			return nil
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
	actionT, trailT    time.Duration
	paramValues        map[string]string
	appBaseURL         func(app string) string
}

// replayFiles loads the trails, starts the browser and replays them.
func replayFiles(cmd *cobra.Command, e *env, o replayFlags, args []string) error {
	if len(args) == 0 {
		return errors.New("give trail files or folders to replay: host replay trails/")
	}
	var err error
	if o.paramValues, err = parseParams(o.params); err != nil {
		return err
	}
	cfg, err := e.config(cmd)
	if err != nil {
		return err
	}
	if o.actionT, err = configDuration(cfg, keyActionTimeout); err != nil {
		return err
	}
	if o.trailT, err = configDuration(cfg, keyTrailTimeout); err != nil {
		return err
	}
	o.appBaseURL = func(app string) string { return cfg.v.GetString("apps." + app + ".baseURL") }
	trails, err := loadTrails(args)
	if err != nil {
		return err
	}
	browser, err := replay.StartBrowser(cmd.Context(), replay.BrowserOptions{RemoteURL: o.browserURL, ExecPath: o.chrome, Headless: o.headless})
	if err != nil {
		return fmt.Errorf("%w (install Chromium, or give --chrome or CHROME_PATH)", err)
	}
	defer browser.Close()

	failed := 0
	for _, t := range trails {
		res := replayTrail(cmd, e, o, browser, t)
		if res.Status != replay.StatusPassed {
			failed++
		}
	}
	fmt.Fprintf(e.stdout, "%d passed, %d failed\n", len(trails)-failed, failed)
	if failed > 0 {
		return &exitError{code: exitReplayFailed}
	}
	return nil
}

func replayTrail(cmd *cobra.Command, e *env, o replayFlags, b *replay.Browser, t *recorder.Trail) *replay.TrailResult {
	base := o.baseURL
	if base == "" {
		base = o.appBaseURL(t.App)
	}
	slug := replay.TrailSlug(t)
	res := replay.RunTrail(cmd.Context(), b, t, replay.Options{
		BaseURL: base, Params: o.paramValues, Lookup: replay.EnvLookup(e.getenv),
		ActionTimeout: o.actionT, TrailTimeout: o.trailT,
		OnStep: func(s replay.StepResult) { printStep(e.stdout, slug, s) },
	})
	printTrail(e.stdout, res)
	return res
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

// configDuration reads a Go duration from the configuration; 0 when unset.
func configDuration(c *config, key string) (time.Duration, error) {
	if !c.v.IsSet(key) {
		return 0, nil
	}
	raw := c.v.GetString(key)
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: %q is not a positive duration; write it as 10s or 2m", key, raw)
	}
	return d, nil
}

// loadTrails loads trail files and every trail file under folders, in the
// order given.
func loadTrails(args []string) ([]*recorder.Trail, error) {
	var trails []*recorder.Trail
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
		if st.IsDir() {
			ts, err := storage.LoadTrailDir(a)
			if err != nil {
				return nil, err
			}
			if len(ts) == 0 {
				return nil, fmt.Errorf("%s: no *%s files in it", a, recorder.TrailFileExt)
			}
			trails = append(trails, ts...)
			continue
		}
		t, err := storage.LoadTrailFile(a)
		if err != nil {
			return nil, err
		}
		trails = append(trails, t)
	}
	return trails, nil
}
