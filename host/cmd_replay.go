package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/storage/redact"
	"github.com/trailpin/trailpin/storage/secrets"
)

// Output formats of `host replay`.
const (
	// formatText: progress on standard error, the summary on standard
	// output.
	formatText = "text"
	// formatStatus: status lines (DESIGN §8) on standard output; progress
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
			"stores them.\n\n" + replay.ExitCodesHelp,
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
	f.IntVar(&o.workers, "workers", 1, "trails to replay at once, each in its own browser context")
	f.StringVar(&o.shard, "shard", "", "replay only shard i of n of the trails (i/n, e.g. 2/3), to split a suite across CI machines")
	f.StringVar(&o.grep, "grep", "", "replay only the trails whose title matches this regular expression")
	f.IntVar(&o.retries, "retries", 0, "replay a failed trail up to N more times; a later pass is reported as flaky")
	f.StringVar(&o.format, "format", formatText, "output on standard output: text (a summary) or status (status lines, see docs/ci.md)")
	f.StringVar(&o.junit, "junit", "", "write a JUnit XML report to this file")
	f.StringVar(&o.trace, "trace", "", "trace pages to keep: on, off or retain-on-failure (default: trace in trailpin.yaml, else retain-on-failure)")
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
	opts   replay.Options
	apps   map[string]string
	suite  []replay.SuiteTrail
	trace  report.TraceMode
	redact report.Redactor
	store  *runStore // nil: runs are not stored
	// cacheMode is cache.mode in effect (read-write, read-only, off).
	cacheMode string
	// agent holds what the step runner hands a stale step to; nil when
	// no model is configured.
	agent *agentSetup
	// heals writes what the run's verified heals become.
	heals *healKeeper
	// origins are each app's other origins the agent may act on
	// (apps.<name>.origins).
	origins map[string][]string
}

// replayTrails checks the command line, selects the trails, starts the
// browser and runs the suite.
func replayTrails(cmd *cobra.Command, e *env, o replayFlags, args []string) error {
	if err := checkReplayURLs(&o); err != nil {
		return replay.UsageError(err)
	}
	s, err := setupReplay(cmd, e, o, args)
	if err != nil {
		return err
	}
	defer s.close()
	if len(s.suite) == 0 {
		// A shard that got no trail passes: the other machines have them.
		fmt.Fprintf(e.stderr, "shard %s holds none of the selected trails; nothing to replay\n", o.shard)
		run := report.Run{Started: time.Now()}
		if o.format == formatStatus {
			if err := report.NewStatusWriter(e.stdout).Done(run); err != nil {
				return replay.EnvironmentError(err)
			}
		}
		return finishReports(e, o, s, run)
	}
	browser, err := replay.StartBrowser(cmd.Context(), replay.BrowserOptions{RemoteURL: o.browserURL, ExecPath: o.chrome, Headless: o.headless})
	if err != nil {
		return replay.EnvironmentError(fmt.Errorf("%w (install Chromium, or give --chrome, CHROME_PATH or --browser-url)", err))
	}
	defer browser.Close()
	return runSuite(cmd.Context(), e, o, s, browser)
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
		return nil, replay.UsageError(fmt.Errorf("--workers %d: replay at least 1 trail at a time", o.workers))
	case o.retries < 0:
		return nil, replay.UsageError(fmt.Errorf("--retries %d: give 0 (no retry) or more", o.retries))
	case o.format != formatText && o.format != formatStatus:
		return nil, replay.UsageError(fmt.Errorf("--format %q: use text or status", o.format))
	case o.results == "":
		return nil, replay.UsageError(errors.New("--results needs a folder"))
	}
	params, err := parseParams(o.params)
	if err != nil {
		return nil, replay.UsageError(err)
	}
	cfg, err := e.config(cmd)
	if err != nil {
		return nil, replay.UsageError(err)
	}
	if len(args) == 0 {
		if cfg.Project == nil {
			return nil, replay.UsageError(errors.New("give trail files, folders or names to replay (host replay trails/), or run it in a project with a trailpin.yaml"))
		}
		args = []string{cfg.Project.TrailsPath()} // the project's trails.dir
	}
	s := &replaySetup{apps: map[string]string{}}
	s.opts = replay.Options{Params: params, Lookup: replay.EnvLookup(e.getenv)}
	// With a project, --trace is a layer of its trace key; without one,
	// the flag alone says.
	traceFlag := o.trace
	if p := cfg.Project; p != nil {
		s.apps, s.origins = p.Apps, p.Origins
		s.opts.ActionTimeout, s.opts.TrailTimeout = p.Replay.ActionTimeout, p.Replay.TrailTimeout
		s.opts.NavigationTimeout = p.Replay.NavigationTimeout
		s.opts.ReplayTimeout = p.Replay.ReplayTimeout
		s.opts.Lookup = secrets.NewResolver(p.Secrets, e.getenv).Lookup
		traceFlag = p.Trace
	}
	var sc secrets.Config
	if cfg.Project != nil {
		sc = cfg.Project.Secrets
	}
	s.opts.Known = knownSecrets(e, sc)
	s.cacheMode, s.opts.Strict = cacheSettings(cfg, isCI(e), o.strict)
	s.opts.CacheMode = s.cacheMode
	if s.trace, err = report.ParseTraceMode(traceFlag); err != nil {
		return nil, replay.UsageError(err)
	}
	if s.store, err = openRunStore(cmd, e, cfg, args); err != nil {
		return nil, err
	}
	sopts := replay.SuiteOptions{Args: args, Grep: o.grep, Shard: o.shard}
	if s.store != nil {
		// Trail names are looked up where runs are stored: with CI set and
		// no --db, only files and folders can be given.
		sopts.Lookup = s.store.lookup(cmd.Context())
	}
	if s.suite, err = replay.SelectTrails(sopts); err != nil {
		s.close()
		return nil, err
	}
	s.redact = s.learnSecrets(e)
	if s.agent, err = setupAgent(e, cfg, s); err != nil {
		s.close()
		return nil, replay.UsageError(err)
	}
	if s.agent != nil {
		s.opts.Agent = &s.agent.cfg
	}
	s.heals = &healKeeper{secrets: func(t *trail.Trail) []string {
		var values []string
		for _, sec := range replay.Secrets([]*trail.Trail{t}, s.opts) {
			values = append(values, sec.Value)
		}
		return values
	}}
	if cfg.Project != nil {
		s.heals.projectDir = cfg.Project.Dir
	}
	if s.store != nil {
		s.heals.db = s.store.db
	}
	return s, nil
}

// trailOptions are the run's options for one trail: its app's base URL
// (or baseURL, from --base-url) and the other origins its app trusts the
// agent with.
func (s *replaySetup) trailOptions(st replay.SuiteTrail, baseURL string) replay.Options {
	opts := s.opts
	opts.BaseURL = baseURL
	if opts.BaseURL == "" {
		opts.BaseURL = s.apps[st.Trail.App]
	}
	opts.Origins = s.origins[st.Trail.App]
	opts.Slug = st.Slug
	return opts
}

func (s *replaySetup) close() {
	if s.store != nil {
		s.store.close()
	}
}

// runSuite replays the suite in browser and writes every report.
func runSuite(ctx context.Context, e *env, o replayFlags, s *replaySetup, browser *replay.Browser) error {
	run := report.Run{Started: time.Now(), Traces: map[string]string{}, FailOnHeal: o.failOnHeal}
	term := writesToTerminal(e.stderr)
	columns, _ := strconv.Atoi(e.getenv("COLUMNS")) // the shell's width, when it exports it
	progress := report.NewProgress(e.stderr, len(s.suite), report.WithTerminal(term), report.WithRedactor(s.redact),
		report.WithWidth(columns))
	defer progress.Close()
	var status *report.StatusWriter
	if o.format == formatStatus {
		status = report.NewStatusWriter(e.stdout, report.WithRedactor(s.redact))
	}
	// The database records what happened even when the run is
	// interrupted.
	storeCtx := context.WithoutCancel(ctx)
	if s.store != nil {
		s.store.start(storeCtx, e)
	}
	var writeErr firstError
	var earlier healedFlows
	var tracesMu sync.Mutex
	r := &suiteRunner{
		workers: o.workers, retries: o.retries, now: time.Now,
		attempt: func(ctx context.Context, st replay.SuiteTrail, n int) *replay.TrailResult {
			opts := s.trailOptions(st, o.baseURL)
			opts.Attempt = n
			steps := st.Trail.Steps
			if len(steps) > 0 {
				progress.StepStarted(st.Slug, 1, steps[0].Intent)
			}
			opts.OnStep = func(sr replay.StepResult) {
				if sr.Index < len(steps) && (sr.Status == replay.StatusPassed || sr.Status == replay.StatusHealed) {
					progress.StepStarted(st.Slug, sr.Index+1, steps[sr.Index].Intent)
				}
			}
			opts.EarlierHeals = earlier.of(st.Slug)
			res := replay.RunTrail(ctx, browser, st.Trail, opts)
			if ctx.Err() == nil { // a cancelled run writes nothing
				s.keepHeals(ctx, st, res, s.cacheMode, o.results)
			}
			earlier.add(st.Slug, res)
			return res
		},
		started: func(st replay.SuiteTrail, n int) {
			progress.TrailStarted(st.Slug, st.Trail.Title, n, len(st.Trail.Steps))
		},
		attemptDone: func(res replay.TrailResult, willRetry bool) {
			if status != nil {
				writeErr.set(status.Trail(res))
			}
			if willRetry {
				progress.AttemptFailed(res)
			}
		},
		finished: func(i int, t report.TrailRun) {
			trace, err := keepTrace(o.results, s.trace, t, s.redact)
			if err != nil {
				writeErr.set(replay.EnvironmentError(err))
			}
			if trace != "" {
				tracesMu.Lock()
				run.Traces[t.Slug()] = trace
				tracesMu.Unlock()
			}
			if s.store != nil {
				s.store.trail(storeCtx, e, t, s.suite[i], trace)
			}
			progress.TrailFinished(t)
		},
	}
	run.Trails, run.Stopped = r.run(ctx, s.suite)
	run.Duration = time.Since(run.Started)
	progress.Close()
	if status != nil {
		writeErr.set(status.Done(run))
	}
	if s.store != nil {
		s.store.finish(e, run, ctx.Err() != nil)
	}
	err := finishReports(e, o, s, run)
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
			return replay.EnvironmentError(fmt.Errorf("%w (give --junit a file in a folder you can write to)", err))
		}
	}
	out := e.stdout
	if o.format == formatStatus {
		out = e.stderr
	}
	if err := report.WriteSummary(out, run, report.WithRedactor(s.redact)); err != nil {
		return replay.EnvironmentError(err)
	}
	if code := run.ExitCode(); code != replay.ExitPassed {
		return &replay.ExitError{Code: code}
	}
	return nil
}

// keepTrace writes the trail's trace page when the mode keeps it, and
// removes a page an earlier run left otherwise. It returns the page's path
// ("" when none).
func keepTrace(results string, mode report.TraceMode, t report.TrailRun, redact report.Redactor) (string, error) {
	if t.Status() == replay.StatusSkipped {
		return "", nil
	}
	if !mode.Keep(t) {
		if err := report.RemoveTrace(results, t.Slug()); err != nil {
			return "", fmt.Errorf("removing the old trace page of %s: %w", t.Slug(), err)
		}
		return "", nil
	}
	path, err := report.WriteTrace(results, t, redact)
	if err != nil {
		return "", fmt.Errorf("%w (give --results a folder you can write to)", err)
	}
	return path, nil
}

// learnSecrets returns the redactor of every secret value the suite's
// trails can reach, for the text the reports add around results (titles,
// files, the run's own messages; the engine redacts its results itself),
// and hands it to the run store. It says once, on standard error, when a
// value is too short to be redacted inside other text.
func (s *replaySetup) learnSecrets(e *env) report.Redactor {
	secrets := replay.Secrets(suiteTrails(s.suite), s.opts)
	if note := replay.ShortSecretNotice(secrets); note != "" {
		fmt.Fprintf(e.stderr, "host: %s\n", note)
	}
	r := redact.New(secrets, replay.SecretPlaceholder)
	if s.store != nil {
		s.store.redact.Store(r)
	}
	if r == nil {
		return nil
	}
	return r.String
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

// suiteTrails are the trails of a suite.
func suiteTrails(suite []replay.SuiteTrail) []*trail.Trail {
	trails := make([]*trail.Trail, len(suite))
	for i, st := range suite {
		trails[i] = st.Trail
	}
	return trails
}
