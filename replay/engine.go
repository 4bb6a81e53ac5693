package replay

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
	"github.com/trailpin/trailpin/storage/redact"
)

// The engine: RunTrail replays one trail in a fresh browser context of a
// Browser and reports a TrailResult. A trail is a list of steps; a step's
// recording is a list of recorded actions; each recorded action is played
// as one Action value (action.go) — find the target, act on it, settle —
// that returns what it found and did. The step runner (runStep) applies a
// step's actions in order and stops at the first error; it is the seam the
// agent hand-off continues from: it returns how many recorded actions it
// performed, what each did, and why it stopped.

// Defaults of docs/config.md.
const (
	// DefaultActionTimeout is how long an action waits for its target, an
	// assertion for its condition, and a step for its end state.
	DefaultActionTimeout = 10 * time.Second
	// DefaultNavigationTimeout is how long a page load may take: the start
	// page, a navigate action, and a navigation an action starts. As
	// Playwright's, it is longer than the action timeout: a slow or busy
	// machine loads a large page in more than 10s, and that is no reason to
	// fail a healthy trail.
	DefaultNavigationTimeout = 30 * time.Second
	// DefaultTrailTimeout bounds one attempt at a trail.
	DefaultTrailTimeout = 5 * time.Minute
)

// Options are what a replay needs beyond the trail.
type Options struct {
	// BaseURL gives the origin every path of the trail is relative to
	// (--base-url, or apps.<app>.baseURL of the project config).
	BaseURL string
	// Origins are the other origins the agent may act on besides BaseURL's
	// (apps.<name>.origins), each an origin (scheme://host[:port]). The
	// agent acts on no page or frame outside BaseURL's origin and these.
	Origins []string
	// Known are every secret value the process could fill in, named as
	// their placeholders show them ("secret:NAME", "user:NAME.password"):
	// the project's secrets and credential passwords, and every
	// TRAILPIN_SECRET_* and TRAILPIN_USER_*_PASSWORD variable. A run fills
	// in only those its trail names, and hides all of them in what it
	// writes and sends.
	Known []redact.Secret
	// Params override the trail's param defaults (--param name=value).
	Params map[string]string
	// Lookup fills in ${secret:…} and ${user:…}; nil reads TRAILPIN_SECRET_*
	// and TRAILPIN_USER_* from the environment (EnvLookup(os.Getenv)).
	Lookup Lookup
	// ActionTimeout, NavigationTimeout and TrailTimeout are
	// replay.actionTimeout, replay.navigationTimeout and
	// replay.trailTimeout; zero means the defaults.
	ActionTimeout     time.Duration
	NavigationTimeout time.Duration
	TrailTimeout      time.Duration
	// Attempt numbers this attempt (1 when zero); retries count up.
	Attempt int
	// Slug names the trail in the result (suite.Select gives each trail of
	// a suite a unique one); TrailSlug(t) when empty.
	Slug string
	// TestIDAttributes are the attributes read as test ids; nil means the
	// page model's defaults.
	TestIDAttributes []string
	// Dir is the folder upload paths are relative to; the trail file's
	// folder when empty.
	Dir string
	// OnStep, when set, is called after each step with its result, for
	// live progress. It must return quickly.
	OnStep func(StepResult)

	// Agent is what a step whose recording no longer replays is handed to
	// (docs/agent.md); nil when no model is configured. Its Client and Calls
	// are shared by every trail of the run; the engine fills in each
	// trail's secrets (Sensitive, Redact).
	Agent *agent.Config
	// CacheMode is cache.mode in effect: CacheModeReadWrite (also for ""),
	// CacheModeReadOnly or CacheModeOff (every step's intent runs with the
	// agent).
	CacheMode string
	// Strict is cache.strict: a step whose recording no longer replays
	// fails with REPLAY_STALE, and no model is called.
	Strict bool
	// EarlierHeals are the flows earlier attempts of this run healed, by
	// step index (0-based): a step healed once is never handed to the
	// agent again in the run, and its healed flow replays in place of its
	// recording.
	EarlierHeals map[int][]trail.Action
	// ReplayTimeout is replay.replayTimeout: how long a recorded action
	// waits for its target when the agent could take over; zero means
	// DefaultReplayTimeout.
	ReplayTimeout time.Duration
}

// Cache modes (cache.mode).
const (
	CacheModeReadWrite = "read-write"
	CacheModeReadOnly  = "read-only"
	CacheModeOff       = "off"
)

// DefaultReplayTimeout is replay.replayTimeout's default: longer than the
// action timeout, since once it passes the step costs model calls.
const DefaultReplayTimeout = 15 * time.Second

func (o Options) withDefaults() Options {
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = DefaultActionTimeout
	}
	if o.NavigationTimeout <= 0 {
		o.NavigationTimeout = DefaultNavigationTimeout
	}
	if o.TrailTimeout <= 0 {
		o.TrailTimeout = DefaultTrailTimeout
	}
	if o.Attempt <= 0 {
		o.Attempt = 1
	}
	if o.ReplayTimeout <= 0 {
		o.ReplayTimeout = DefaultReplayTimeout
	}
	if o.CacheMode == "" {
		o.CacheMode = CacheModeReadWrite
	}
	if o.Lookup == nil {
		o.Lookup = EnvLookup(os.Getenv)
	}
	return o
}

// evidenceTimeout bounds collecting the screen at failure, which runs after
// the trail's own deadline may have passed.
const evidenceTimeout = 20 * time.Second

// trailRun is one attempt at one trail.
type trailRun struct {
	browser *browser.Browser
	trail   *trail.Trail
	opts    Options
	res     *TrailResult
	vals    *values
	// secrets are the trail's secrets; redactor hides their values in
	// every result string. Matching sees the page as it is.
	secrets  []redact.Secret
	redactor *redact.Redactor
	origin   *url.URL
	dir      string
	// uploads is the attempt's folder of copies of the files it uploads
	// (uploadFiles); "" until the first upload.
	uploads string
	log     *eventLog
	dialogs *dialogs

	// root is the first tab's chromedp context; page is the tab actions
	// act on; pages are all tabs attached so far.
	root    context.Context
	page    *tab
	pages   map[target.ID]*tab
	closers []context.CancelFunc

	// stepStartedWithPassword: the current step began on a screen with a
	// visible password field (see classify); stepStart is that screen, for
	// an end state that did not show (diagnose.StillThere).
	stepStartedWithPassword bool
	stepStart               *screen.Screen
	failure                 *stepError
	failed                  int // index of the failed step, -1 when none

	// replaying is set while a recorded action of a step the agent could
	// take over looks for its target (it waits replay.replayTimeout).
	replaying bool
	// pending is a healed step whose proof is a later check: the next
	// assertion or end state that passes; nil when none waits.
	pending *Heal
	// changes are the run's stored diffs and the live checks' baseline;
	// diffIDs the ids of the actions replay observes (trail.DiffIDs).
	changes assertchange.Store
	diffIDs map[trail.ActionAt]string
}

// RunTrail replays t in a fresh browser context of b: its viewport, locale
// and time zone, from its start path, step by step until a step fails.
// It always returns a result; every string in it is redacted of the
// trail's secrets.
func RunTrail(ctx context.Context, b *browser.Browser, t *trail.Trail, opts Options) *TrailResult {
	r := newTrailRun(b, t, opts)
	r.execute(ctx)
	r.finish()
	return r.res
}

func newTrailRun(b *browser.Browser, t *trail.Trail, opts Options) *trailRun {
	r := &trailRun{browser: b, trail: withEarlierHeals(t, opts.EarlierHeals), opts: opts.withDefaults(), log: newEventLog(),
		pages: map[target.ID]*tab{}, failed: -1}
	t = r.trail
	r.diffIDs = trail.DiffIDs(t.Steps)
	r.changes.IDs = len(r.diffIDs)
	r.res = newResult(t, r.opts.Attempt)
	if r.opts.Slug != "" {
		r.res.Slug = r.opts.Slug
	}
	r.dialogs = newDialogs(r)
	return r
}

func newResult(t *trail.Trail, attempt int) *TrailResult {
	res := &TrailResult{File: t.File, Slug: TrailSlug(t), Title: t.Title, Attempt: attempt,
		Status: StatusSkipped, Started: time.Now()}
	for i, s := range t.Steps {
		sr := StepResult{Index: i + 1, Intent: s.Intent, Line: s.Line, Status: StatusSkipped, Cache: CacheNone}
		for _, a := range s.Actions {
			sr.Actions = append(sr.Actions, ActionResult{Kind: a.Kind(), Line: a.SourceLine(), Status: StatusSkipped})
		}
		res.Steps = append(res.Steps, sr)
	}
	return res
}

// TrailSlug names a trail in reports: its file name without the extension
// (which already has any -2 suffix), else the slug of its title.
func TrailSlug(t *trail.Trail) string {
	if t.File != "" {
		if base, ok := strings.CutSuffix(filepath.Base(t.File), trail.TrailFileExt); ok && base != "" {
			return base
		}
	}
	return trail.Slug(t.Title)
}

func (r *trailRun) execute(ctx context.Context) {
	defer r.closeAll()
	if err := r.prepare(); err != nil {
		r.stop(0, err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.TrailTimeout)
	defer cancel()
	go r.dialogs.serve(ctx)

	p, err := r.openPage(ctx, "")
	if err != nil && ctx.Err() != nil {
		// The trail's deadline passed (or the run was cancelled) while
		// the tab opened: that is the trail's time running out, not a
		// browser that could not open one.
		r.stop(0, asStepError(ctx.Err()))
		return
	}
	if err != nil {
		r.stop(0, &stepError{Reason: StopActionFailed, Msg: "could not open a browser tab: " + err.Error(), Err: err, gone: true})
		return
	}
	r.page = p
	if err := r.openStart(ctx); err != nil {
		r.stop(0, err)
		r.collectFailure()
		return
	}
	for i := range r.trail.Steps {
		if !r.playStep(ctx, i) {
			r.collectFailure()
			return
		}
	}
}

// prepare checks what the trail needs before a browser is touched: an
// origin, and a value for every reference.
func (r *trailRun) prepare() error {
	r.vals = newValues(r.trail, r.opts.Params, r.opts.Lookup)
	u, err := url.Parse(r.opts.BaseURL)
	if r.opts.BaseURL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		what := fmt.Sprintf("the base URL %q is not an http(s) URL", r.opts.BaseURL)
		if r.opts.BaseURL == "" {
			what = "no base URL"
		}
		variable := "apps." + r.trail.App + ".baseURL"
		return &stepError{Reason: StopMissingData, Class: ClassMissingTestData, Missing: variable,
			Msg: fmt.Sprintf("%s for app %q: set %s in trailpin.yaml or pass --base-url", what, r.trail.App, variable)}
	}
	r.origin = &url.URL{Scheme: u.Scheme, Host: u.Host}
	if e, line := urlRefs(r.trail); e != nil {
		return &stepError{Reason: StopMissingData, Class: ClassMissingTestData, Line: line, Err: e, Msg: e.Error()}
	}
	secrets, err := r.vals.check(r.trail)
	if err != nil {
		return missingValue(err)
	}
	secrets = withKnown(secrets, r.opts.Known)
	r.secrets, r.redactor = secrets, redact.New(secrets, SecretPlaceholder)
	if note := ShortSecretNotice(secrets); note != "" {
		r.res.Notes = append(r.res.Notes, note)
	}
	r.dir = r.opts.Dir
	if r.dir == "" && r.trail.File != "" {
		r.dir = filepath.Dir(r.trail.File)
	}
	return nil
}

// missingValue turns a reference without a value into the step error that
// names the variable to set.
func missingValue(err error) *stepError {
	var m *MissingValueError
	if errors.As(err, &m) {
		return &stepError{Reason: StopMissingData, Class: ClassMissingTestData, Missing: m.Variable, Err: err, Msg: m.Error()}
	}
	return &stepError{Reason: StopMissingData, Class: ClassMissingTestData, Err: err, Msg: err.Error()}
}

// firstUse is the step (and the line of the action) that first uses a
// reference, for a failure found before the trail started.
func firstUse(t *trail.Trail, ref trail.Ref) (step, line int) {
	for i, s := range t.Steps {
		for _, a := range s.Actions {
			one := trail.Trail{Steps: []trail.Step{{Actions: []trail.Action{a}}}}
			if slices.Contains(one.References(), ref) {
				return i, a.SourceLine()
			}
		}
		if s.End != nil {
			one := trail.Trail{Steps: []trail.Step{{End: s.End}}}
			if slices.Contains(one.References(), ref) {
				return i, s.End.Line
			}
		}
	}
	return 0, 0
}

// emulate applies the trail's viewport, locale and time zone to a tab.
func (r *trailRun) emulate(ctx context.Context, p *tab) error {
	w, h := int64(r.trail.Viewport.Width), int64(r.trail.Viewport.Height)
	if w <= 0 || h <= 0 {
		w, h = browser.DefaultViewportWidth, browser.DefaultViewportHeight
	}
	if _, err := call(ctx, p, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: w, Height: h, DeviceScaleFactor: 1, ScreenWidth: w, ScreenHeight: h,
	}); err != nil {
		return fmt.Errorf("setting the viewport %dx%d: %w", w, h, err)
	}
	if loc := r.trail.Locale; loc != "" {
		if _, err := call(ctx, p, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: loc}); err != nil {
			return fmt.Errorf("setting the locale %s: %w", loc, err)
		}
		if _, err := call(ctx, p, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
			UserAgent: r.browser.UserAgent(), AcceptLanguage: loc,
		}); err != nil {
			return fmt.Errorf("setting Accept-Language %s: %w", loc, err)
		}
	}
	if tz := r.trail.TimeZone; tz != "" {
		if _, err := call(ctx, p, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: tz}); err != nil {
			return fmt.Errorf("setting the time zone %s: %w", tz, err)
		}
	}
	// A tab in the background gets no animation frames.
	_, err := call(ctx, p, page.BringToFront, struct{}{})
	return err
}

// openStart loads the trail's start path.
func (r *trailRun) openStart(ctx context.Context) error {
	start, err := r.vals.url(r.trail.Start, "the start page")
	if err != nil {
		return missingValue(err)
	}
	if err := r.page.load(ctx, r.resolveURL(start)); err != nil {
		if ctx.Err() != nil {
			// The trail's deadline (or a cancel) ended the load: that is
			// the run's time, not the page's.
			return asStepError(ctx.Err())
		}
		return &stepError{Reason: StopActionFailed, Msg: fmt.Sprintf("opening the start page %s: %v", start, err), Err: err}
	}
	return nil
}

// resolveURL puts a trail path on the app's origin.
func (r *trailRun) resolveURL(path string) string {
	return r.origin.String() + path
}

// appPath is a page URL as a trail writes it: path and query on the app's
// origin, the whole URL elsewhere.
func (r *trailRun) appPath(u string) string {
	p, err := trail.AppPath(u, r.origin.String())
	if err != nil {
		return u
	}
	return p
}

// captureOptions: the page as it is, secrets included, so that a selector
// matches what a person sees (a secret's value can be part of a label);
// results are redacted when they are handed out. No hit tests: replay asks
// where to act on the one target it found (see tab.ready), which is cheaper
// than testing every control.
func (o Options) captureOptions() browser.CaptureOptions {
	return browser.CaptureOptions{TestIDAttributes: o.TestIDAttributes, NoCoverage: true}
}

// stop records that the trail stopped in step i (0-based) with err.
func (r *trailRun) stop(i int, err error) {
	se := asStepError(err)
	if se.Reason == StopMissingData {
		var m *MissingValueError
		if errors.As(se.Err, &m) && se.Line == 0 {
			i, se.Line = firstUse(r.trail, m.Ref)
		}
	}
	if i >= len(r.res.Steps) {
		i = len(r.res.Steps) - 1
	}
	r.failure, r.failed = se, i
	if i >= 0 {
		sr := &r.res.Steps[i]
		sr.Status = StatusFailed
		sr.Error = se.Msg
		if sr.Stopped == "" {
			sr.Stopped = se.Reason
		}
	}
}

func (r *trailRun) closeAll() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// finish completes the result: status, class, duration, redaction.
func (r *trailRun) finish() {
	res := r.res
	res.Duration = time.Since(res.Started)
	res.Log = r.log.snapshot()
	r.settleHeals()
	if r.failure == nil {
		res.Status = StatusPassed
		if healedSteps(res) > 0 {
			res.Status = StatusHealed
		}
	} else {
		f := r.failure
		res.Status = StatusFailed
		res.Error = f.Msg
		res.Expected, res.Actual, res.Missing = f.Expected, f.Actual, f.Missing
		res.Line = f.Line
		if res.Line == 0 && r.failed >= 0 {
			res.Line = r.trail.Steps[r.failed].Line
		}
		facts := r.facts()
		res.Class = classify(facts)
		if why := classWhy(res.Class, facts); why != "" && !strings.Contains(res.Error, why) {
			res.Error += " (" + why + ")"
		}
	}
	redactResult(res, r.redactor)
}
