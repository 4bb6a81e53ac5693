package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage/redact"
	"github.com/trailpin/trailpin/storage/secrets"
)

// Output formats of `host replay`.
const (
	// formatText: progress on standard error, the summary on standard
	// output.
	formatText = "text"
	// formatStatus: status lines (docs/ci.md) on standard output; progress
	// and the summary on standard error.
	formatStatus = "status"
)

func newReplayCmd(e *env) *cobra.Command {
	var o replayFlags
	cmd := &cobra.Command{
		Use:   "replay [--headless] [flags] [FILE|DIR|TRAIL…]",
		Short: "Replay trails in Chromium and report every failure with its cause",
		Long: "replay runs trail files, folders of *.trail.yaml files and trails saved in the database\n" +
			"(by slug or title), each in a fresh browser context, and reports every step. Without\n" +
			"arguments it replays trails.dir of the project's trailpin.yaml.\n\n" +
			"Paths in a trail are relative to its app's origin: --base-url, else apps.<app>.baseURL of\n" +
			"trailpin.yaml. Secrets come from TRAILPIN_SECRET_<NAME> and TRAILPIN_USER_<NAME>_<FIELD>,\n" +
			"then from the project config.\n\n" +
			"Progress goes to standard error: redrawn in place on a terminal, plain lines otherwise.\n" +
			"A trace page per failing trail goes to <results>/<trail-slug>/trace.md. Runs and step\n" +
			"results are stored in the database, except with CI set, where only --db (or TRAILPIN_DB)\n" +
			"stores them.\n\n" + exitcode.Help,
		RunE: func(cmd *cobra.Command, args []string) error {
			return replayExit(replayTrails(cmd, e, o, args))
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.headless, "headless", true, "run the browser without a window (--headless=false shows it)")
	f.StringVar(&o.chrome, "chrome", "", "the Chromium or Chrome executable (default: $CHROME_PATH, else the first one found)")
	f.StringVar(&o.browserURL, "browser-url", "", "attach to a running browser by its DevTools URL (ws://host:port/devtools/browser/…) instead of starting one")
	f.StringVar(&o.baseURL, "base-url", "", "the origin trail paths are relative to (default: apps.<app>.baseURL of trailpin.yaml)")
	f.StringArrayVar(&o.params, "param", nil, "override a trail param: --param coupon=WINTER (repeatable)")
	f.IntVar(&o.workers, "workers", 1, "trails to replay at once, each in its own browser context")
	f.StringVar(&o.shard, "shard", "", "replay only shard i of n of the trails (i/n, e.g. 2/3), to split a suite across CI machines")
	f.StringVar(&o.grep, "grep", "", "replay only the trails whose title matches this regular expression")
	f.IntVar(&o.retries, "retries", 0, "replay a failed trail up to N more times; a later pass is reported as flaky")
	f.StringVar(&o.format, "format", formatText, "output on standard output: text (a summary) or status (status lines, see docs/ci.md)")
	f.StringVar(&o.junit, "junit", "", "write a JUnit XML report to this file")
	f.StringVar(&o.trace, "trace", "", "trace pages to keep: on, off or retain-on-failure (default: $TRAILPIN_TRACE, else trace in trailpin.yaml, else retain-on-failure)")
	f.StringVar(&o.results, "results", report.DefaultResultsDir, "folder for trace pages, screenshots and the healed trails a read-only run leaves for host accept")
	f.BoolVar(&o.strict, "strict", false, "fail a step whose recording no longer replays with REPLAY_STALE instead of handing it to the agent (cache.strict)")
	f.BoolVar(&o.failOnHeal, "fail-on-heal", false, "count a trail the agent healed as failed (exit 1)")
	return cmd
}

type replayFlags struct {
	headless           bool
	chrome, browserURL string
	baseURL            string
	params             []string
	workers, retries   int
	shard, grep        string
	format, junit      string
	trace, results     string
	strict, failOnHeal bool
}

// replaySetup is everything a run needs, checked before a browser starts.
type replaySetup struct {
	suite.Options
	// redact hides the suite's secrets in the reports (nil: none).
	redact report.Redactor
}

// replayExit is the error a replay command returns: an *exitcode.Error
// with the run's exit code, silent when the output already said why.
func replayExit(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitcode.Error
	if errors.As(err, &ee) && ee.Err == nil {
		return &exitcode.Error{Code: ee.Code} // the output already said why
	}
	return &exitcode.Error{Code: exitcode.Of(err), Err: err}
}

// replayTrails checks the command line, selects the trails, starts the
// browser and runs the suite.
func replayTrails(cmd *cobra.Command, e *env, o replayFlags, args []string) error {
	if err := checkReplayURLs(&o); err != nil {
		return exitcode.UsageError(err)
	}
	s, err := setupReplay(cmd, e, o, args)
	if err != nil {
		return err
	}
	defer s.close()
	if len(s.Trails) == 0 {
		// A shard that got no trail passes: the other machines have them.
		fmt.Fprintf(e.stderr, "shard %s holds none of the selected trails; nothing to replay\n", o.shard)
		run := report.Run{Started: time.Now()}
		if o.format == formatStatus {
			if err := report.NewStatusWriter(e.stdout).Done(run); err != nil {
				return exitcode.EnvironmentError(err)
			}
		}
		return finishReports(e, o, s, run)
	}
	b, err := browser.Start(cmd.Context(), browser.Options{RemoteURL: o.browserURL, ExecPath: o.chrome, Headless: o.headless})
	if err != nil {
		return exitcode.EnvironmentError(fmt.Errorf("%w (install Chromium, or give --chrome, CHROME_PATH or --browser-url)", err))
	}
	defer b.Close()
	s.Browser = b
	if path := e.getenv(captureStatsEnv); path != "" {
		browser.CountCaptures()
		defer writeCaptureStats(e, path)
	}
	return runSuite(cmd.Context(), e, o, s)
}

// captureStatsEnv names a file where replay writes, as JSON, how many full
// captures of a page it made and how many nodes and bytes they moved
// (browser.CaptureStats): what e2e/bench/replay reports as looks per step.
const captureStatsEnv = "TRAILPIN_CAPTURE_STATS"

func writeCaptureStats(e *env, path string) {
	b, err := json.Marshal(browser.ReadCaptureStats())
	if err == nil {
		err = os.WriteFile(path, b, 0o644)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "writing the capture counts to %s (%s): %v\n", path, captureStatsEnv, err)
	}
}

// checkReplayURLs checks the URL-valued flags, and writes --base-url as
// its origin.
func checkReplayURLs(o *replayFlags) error {
	if o.baseURL != "" {
		origin, err := checkBaseURL(o.baseURL)
		if err != nil {
			return err
		}
		o.baseURL = origin
	}
	if o.browserURL != "" {
		return checkBrowserURL(o.browserURL)
	}
	return nil
}

// setupReplay reads the flags, the config and the trails; every problem
// here is a usage error, except opening the database.
func setupReplay(cmd *cobra.Command, e *env, o replayFlags, args []string) (*replaySetup, error) {
	switch {
	case o.workers < 1:
		return nil, exitcode.UsageError(fmt.Errorf("--workers %d: replay at least 1 trail at a time", o.workers))
	case o.retries < 0:
		return nil, exitcode.UsageError(fmt.Errorf("--retries %d: give 0 (no retry) or more", o.retries))
	case o.format != formatText && o.format != formatStatus:
		return nil, exitcode.UsageError(fmt.Errorf("--format %q: use text or status", o.format))
	case o.results == "":
		return nil, exitcode.UsageError(errors.New("--results needs a folder"))
	}
	params, err := parseParams(o.params)
	if err != nil {
		return nil, exitcode.UsageError(err)
	}
	cfg, err := e.config(cmd)
	if err != nil {
		return nil, exitcode.UsageError(err)
	}
	if len(args) == 0 {
		if cfg.Project == nil {
			return nil, exitcode.UsageError(errors.New("give trail files, folders or names to replay (host replay trails/), or run it in a project with a trailpin.yaml"))
		}
		args = []string{cfg.Project.TrailsPath()} // the project's trails.dir
	}
	s := &replaySetup{Options: suite.Options{Apps: map[string]string{}, Workers: o.workers, Retries: o.retries,
		FailOnHeal: o.failOnHeal, BaseURL: o.baseURL, Results: o.results}}
	s.Engine = replay.Options{Params: params, Lookup: replay.EnvLookup(e.getenv)}
	// replay.*, trace and cache.* come from the layered config with or
	// without a trailpin.yaml: flags, then TRAILPIN_* variables, then the
	// file, then the defaults (docs/config.md).
	rc := cfg.Replay()
	s.Engine.ActionTimeout, s.Engine.TrailTimeout = rc.ActionTimeout, rc.TrailTimeout
	s.Engine.NavigationTimeout, s.Engine.ReplayTimeout = rc.NavigationTimeout, rc.ReplayTimeout
	if p := cfg.Project; p != nil {
		s.Apps, s.Origins = p.Apps, p.Origins
		s.Engine.Lookup = secrets.NewResolver(p.Secrets, e.getenv).Lookup
		s.ProjectDir = p.Dir
	}
	var sc secrets.Config
	if cfg.Project != nil {
		sc = cfg.Project.Secrets
	}
	s.Engine.Known = knownSecrets(e, sc)
	s.Engine.CacheMode, s.Engine.Strict = cacheSettings(cfg, isCI(e), o.strict)
	if s.Trace, err = report.ParseTraceMode(cfg.Trace()); err != nil {
		return nil, exitcode.UsageError(err)
	}
	if s.Store, err = openRunStore(cmd, e, cfg, args); err != nil {
		return nil, err
	}
	sel := suite.Selection{Args: args, Grep: o.grep, Shard: o.shard}
	if s.Store != nil {
		// Trail names are looked up where runs are stored: with CI set and
		// no --db, only files and folders can be given.
		sel.Lookup = s.Store.Lookup(cmd.Context())
	}
	if s.Trails, err = suite.Select(sel); err != nil {
		s.close()
		return nil, err
	}
	s.learnSecrets(e)
	if s.Engine.Agent, err = setupAgent(e, cfg, s); err != nil {
		s.close()
		return nil, exitcode.UsageError(err)
	}
	return s, nil
}

func (s *replaySetup) close() {
	if s.Store != nil {
		s.Store.Close()
	}
}

// openRunStore opens the database runs are stored in: the configured one
// when run locally; with CI set, only one given with --db (or
// TRAILPIN_DB), so a CI job leaves nothing behind but its reports. nil
// means runs are not stored.
func openRunStore(cmd *cobra.Command, e *env, cfg *config.Config, args []string) (*suite.Store, error) {
	if isCI(e) && !dbGiven(cfg) {
		return nil, nil
	}
	return suite.OpenStore(cmd.Context(), suite.StoreOptions{Path: cfg.DBPath(), Named: dbGiven(cfg), Args: args,
		CI: isCI(e), ProgramVersion: Version, Warnings: e.stderr})
}

// dbGiven reports whether this invocation names a database itself (--db
// or TRAILPIN_DB) rather than using the configured or default one.
func dbGiven(cfg *config.Config) bool {
	return cfg.Source(config.KeyDB).Layer >= config.LayerEnv
}

// cacheSettings is cache.mode in effect and cache.strict (or --strict).
func cacheSettings(cfg *config.Config, ci, strictFlag bool) (mode string, strict bool) {
	c := cfg.Cache()
	return c.ModeFor(ci), c.Strict || strictFlag
}

// setupAgent makes the agent a run hands stale steps to when a model is
// configured (nil without one), and says on stderr when
// model.allowInsecureHTTP lets its key go over plain http. A model that is
// configured but cannot be used (its key's variable is not set) is an
// error saying what to set.
func setupAgent(e *env, cfg *config.Config, s *replaySetup) (*agent.Config, error) {
	mc, err := cfg.Model()
	if err != nil {
		return nil, err
	}
	if !mc.Configured() {
		return nil, nil
	}
	if n := mc.InsecureNotice(); n != "" {
		// The config allowed it in words; the run says so once.
		fmt.Fprintf(e.stderr, "host: %s\n", n)
	}
	ac := cfg.Agent()
	o := suite.AgentOptions{Model: mc, Secrets: suite.Secrets(s.Trails, s.Engine), Getenv: e.getenv,
		MaxActions: ac.MaxActions, StepDeadline: ac.StepDeadline, MaxCalls: ac.MaxCalls}
	return suite.NewAgent(o)
}

// runSuite replays the suite in s.Browser and writes every report: the
// progress on standard error, status lines, JUnit and the summary.
func runSuite(ctx context.Context, e *env, o replayFlags, s *replaySetup) error {
	term := writesToTerminal(e.stderr)
	columns, _ := strconv.Atoi(e.getenv("COLUMNS")) // the shell's width, when it exports it
	progress := report.NewProgress(e.stderr, len(s.Trails), report.WithTerminal(term), report.WithRedactor(s.redact),
		report.WithWidth(columns))
	defer progress.Close()
	var status *report.StatusWriter
	if o.format == formatStatus {
		status = report.NewStatusWriter(e.stdout, report.WithRedactor(s.redact))
	}
	var writeErr firstError
	s.Events = suite.Events{
		TrailStarted: func(st suite.Trail, n int) {
			progress.TrailStarted(st.Slug, st.Trail.Title, n, len(st.Trail.Steps))
		},
		StepStarted: func(st suite.Trail, index int, intent string) {
			progress.StepStarted(st.Slug, index, intent)
		},
		AttemptDone: func(res replay.TrailResult, willRetry bool) {
			if status != nil {
				writeErr.set(status.Trail(res))
			}
			if willRetry {
				progress.AttemptFailed(res)
			}
		},
		TrailFinished: progress.TrailFinished,
		Finished: func(run report.Run) {
			progress.Close()
			if status != nil {
				writeErr.set(status.Done(run))
			}
		},
	}
	sum, traceErr := suite.Run(ctx, s.Options)
	err := finishReports(e, o, s, sum.Run)
	if traceErr != nil {
		return traceErr
	}
	if werr := writeErr.get(); werr != nil {
		return werr
	}
	return err
}

// finishReports writes the JUnit file and the summary, and returns the
// run's exit code as an error.
func finishReports(e *env, o replayFlags, s *replaySetup, run report.Run) error {
	if o.junit != "" {
		if err := report.WriteJUnitFile(o.junit, run, report.WithRedactor(s.redact)); err != nil {
			return exitcode.EnvironmentError(fmt.Errorf("%w (give --junit a file in a folder you can write to)", err))
		}
	}
	out := e.stdout
	if o.format == formatStatus {
		out = e.stderr
	}
	if err := report.WriteSummary(out, run, report.WithRedactor(s.redact)); err != nil {
		return exitcode.EnvironmentError(err)
	}
	if code := run.ExitCode(); code != exitcode.Passed {
		return &exitcode.Error{Code: code}
	}
	return nil
}

// learnSecrets makes the redactor of every secret value the suite's
// trails can reach, for the text the reports add around results (titles,
// files, the run's own messages; the engine redacts its results itself),
// the trace pages and the run store. It says once, on standard error, when
// a value is too short to be redacted inside other text.
func (s *replaySetup) learnSecrets(e *env) {
	secrets := suite.Secrets(s.Trails, s.Engine)
	if note := replay.ShortSecretNotice(secrets); note != "" {
		fmt.Fprintf(e.stderr, "host: %s\n", note)
	}
	s.Redactor = redact.New(secrets, replay.SecretPlaceholder)
	if s.Redactor != nil {
		s.redact = s.Redactor.String
	}
}

// writesToTerminal reports whether w is a terminal, where progress is
// redrawn in place.
func writesToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// isCI reports whether the process runs in CI: every CI service sets CI.
func isCI(e *env) bool {
	v := strings.ToLower(strings.TrimSpace(e.getenv("CI")))
	return v != "" && v != "0" && v != "false"
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

// firstError keeps the first error several workers report.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) set(err error) {
	if err == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
