package suite

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage/redact"
)

// Options say how Run replays a suite. `host replay` builds them from its
// flags and trailpin.yaml, `host demo` from the demo shop.
type Options struct {
	// Trails are the suite, in order (Select).
	Trails []Trail
	// Browser replays every trail, each in a fresh browser context. It may
	// be nil only when Trails is empty.
	Browser *browser.Browser
	// Engine are the options every trail starts from: params, secrets,
	// timeouts, the cache mode, strict and the agent. Run adds each
	// trail's base URL, origins and slug, the attempt and the flows
	// earlier attempts healed.
	Engine replay.Options
	// BaseURL, when set (--base-url), is the origin of every trail's
	// paths; otherwise Apps gives each trail's app's.
	BaseURL string
	// Apps maps an app's name to its base URL (apps.<name>.baseURL).
	Apps map[string]string
	// Origins are each app's other origins the agent may act on
	// (apps.<name>.origins).
	Origins map[string][]string
	// Workers is how many trails replay at once (at least 1); Retries how
	// many more times a failed trail replays (a later pass is flaky).
	Workers, Retries int
	// FailOnHeal counts a trail the agent healed as failed.
	FailOnHeal bool
	// Results is the folder of trace pages, screenshots and the healed
	// trails a read-only run leaves for `host accept`.
	Results string
	// Trace says which trace pages are kept.
	Trace report.TraceMode
	// Redactor hides every secret the suite's trails can reach in the
	// trace pages and the database (Secrets); nil when there are none.
	Redactor *redact.Redactor
	// Store records the run in the database; nil: it is not stored.
	Store *Store
	// ProjectDir is the folder of trailpin.yaml, which healed records name
	// their trail file relative to; "" without a project.
	ProjectDir string
	// Events are told what happens, for progress and status lines.
	Events Events
}

// Events are what a run tells its caller as it goes. Each may be nil, and
// each may be called from several workers at once.
type Events struct {
	// TrailStarted: an attempt at a trail starts (attempt counts from 1).
	TrailStarted func(t Trail, attempt int)
	// StepStarted: a step of a trail starts (index counts from 1).
	StepStarted func(t Trail, index int, intent string)
	// AttemptDone: an attempt ended; willRetry when the trail replays
	// again.
	AttemptDone func(res replay.TrailResult, willRetry bool)
	// TrailFinished: a trail has its verdict, its trace page is written
	// and it is stored.
	TrailFinished func(t report.TrailRun)
	// Finished: every trail has its verdict, before the store records
	// how the run ended.
	Finished func(run report.Run)
}

// A Summary is what a run did.
type Summary struct {
	// Run holds every trail's attempts in suite order, why the run stopped
	// early, and the trace pages kept: what the summary, status lines and
	// JUnit are written from.
	Run report.Run
}

// ExitCode is the process exit code of the run (exitcode).
func (s *Summary) ExitCode() int { return s.Run.ExitCode() }

// Run replays the suite: Workers trails at once, each failed trail again up
// to Retries times, until every trail has a verdict or the circuit breaker
// (4 trails in a row failed with env-issue or auth-blocked) or ctx stops
// the run; the trails not started are skipped. After each attempt it keeps
// the verified heals (HealKeeper); after each trail it writes or removes
// the trail's trace page and stores its results.
//
// The error is the first trace page that could not be written (an
// environment error); the summary is complete even then. A cancelled ctx
// ends the run early, and nothing more is written for the attempts it
// ended.
func Run(ctx context.Context, o Options) (*Summary, error) {
	run := report.Run{Started: time.Now(), Traces: map[string]string{}, FailOnHeal: o.FailOnHeal}
	if len(o.Trails) == 0 {
		run.Duration = time.Since(run.Started)
		if o.Events.Finished != nil {
			o.Events.Finished(run)
		}
		return &Summary{Run: run}, nil
	}
	ev := o.Events
	var rep report.Redactor
	if o.Redactor != nil {
		rep = o.Redactor.String
	}
	if o.Store != nil {
		o.Store.Redact(o.Redactor)
	}
	heals := &HealKeeper{ProjectDir: o.ProjectDir, Secrets: func(t *trail.Trail) []string {
		var values []string
		for _, sec := range replay.Secrets([]*trail.Trail{t}, o.Engine) {
			values = append(values, sec.Value)
		}
		return values
	}}
	if o.Store != nil {
		heals.DB = o.Store.db
	}
	// The database records what happened even when the run is
	// interrupted.
	storeCtx := context.WithoutCancel(ctx)
	if o.Store != nil {
		o.Store.start(storeCtx)
	}
	var traceErr firstError
	var earlier healedFlows
	var tracesMu sync.Mutex
	r := &runner{
		workers: o.Workers, retries: o.Retries, now: time.Now,
		attempt: func(ctx context.Context, st Trail, n int) *replay.TrailResult {
			opts := o.trailOptions(st)
			opts.Attempt = n
			steps := st.Trail.Steps
			if len(steps) > 0 && ev.StepStarted != nil {
				ev.StepStarted(st, 1, steps[0].Intent)
			}
			opts.OnStep = func(sr replay.StepResult) {
				if sr.Index < len(steps) && (sr.Status == replay.StatusPassed || sr.Status == replay.StatusHealed) && ev.StepStarted != nil {
					ev.StepStarted(st, sr.Index+1, steps[sr.Index].Intent)
				}
			}
			opts.EarlierHeals = earlier.of(st.Slug)
			res := replay.RunTrail(ctx, o.Browser, st.Trail, opts)
			if ctx.Err() == nil { // a cancelled run writes nothing
				o.keepHeals(ctx, heals, st, res)
			}
			earlier.add(st.Slug, res)
			return res
		},
		started:     ev.TrailStarted,
		attemptDone: ev.AttemptDone,
		finished: func(i int, t report.TrailRun) {
			trace, err := keepTrace(o.Results, o.Trace, t, rep)
			if err != nil {
				traceErr.set(exitcode.EnvironmentError(err))
			}
			if trace != "" {
				tracesMu.Lock()
				run.Traces[t.Slug()] = trace
				tracesMu.Unlock()
			}
			if o.Store != nil {
				o.Store.trail(storeCtx, t, o.Trails[i], trace)
			}
			if ev.TrailFinished != nil {
				ev.TrailFinished(t)
			}
		},
	}
	run.Trails, run.Stopped = r.run(ctx, o.Trails)
	run.Duration = time.Since(run.Started)
	if ev.Finished != nil {
		ev.Finished(run)
	}
	if o.Store != nil {
		o.Store.finish(run, ctx.Err() != nil)
	}
	return &Summary{Run: run}, traceErr.get()
}

// trailOptions are the run's options for one trail: its app's base URL
// (or BaseURL, from --base-url) and the other origins its app trusts the
// agent with.
func (o *Options) trailOptions(st Trail) replay.Options {
	opts := o.Engine
	opts.BaseURL = o.BaseURL
	if opts.BaseURL == "" {
		opts.BaseURL = o.Apps[st.Trail.App]
	}
	opts.Origins = o.Origins[st.Trail.App]
	opts.Slug = st.Slug
	return opts
}

// keepHeals decides what becomes of the saveable heals of one attempt
// (replay.Heal.Saveable): it sets each one's Decision and Reason, and
// writes them (heals.go): in read-write mode into the trail file and a new
// trail version, in read-only mode into the results folder for `host
// accept`. The mode is the cache mode in effect (read-write, read-only,
// off). Under cache.strict nothing is written: the agent performed only
// steps with no recording, and their flows are reported (docs/agent.md).
// Run calls it after each attempt, before the trace page, JUnit and the
// database are written, and never for an attempt the run's cancel ended (a
// cancelled run writes nothing).
func (o *Options) keepHeals(ctx context.Context, k *HealKeeper, st Trail, res *replay.TrailResult) {
	mode := o.Engine.CacheMode
	if o.Engine.Strict {
		mode = heal.ModeStrict
	}
	k.Keep(ctx, st, res, mode, o.Results)
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

// Secrets are the secret values the suite's trails can reach with opts:
// what the reports, the database and the model's requests must not show.
func Secrets(trails []Trail, opts replay.Options) []redact.Secret {
	ts := make([]*trail.Trail, len(trails))
	for i, st := range trails {
		ts[i] = st.Trail
	}
	return replay.Secrets(ts, opts)
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
