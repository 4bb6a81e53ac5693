package replay

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// A tab is one tab of a trail's browser context and what replay knows
// about it: where its top frame is in its navigation, and its last screen.
type tab struct {
	r   *trailRun
	ctx context.Context // the tab's chromedp context
	id  target.ID
	nav *navState

	// screen is the last capture, matcher its index, seq the page's change
	// counter when it was taken (see wait.go). stale is set once replay acts
	// on the page, so the next look captures again.
	screen  *screen.Screen
	matcher *selector.Matcher
	seq     int64
	commit  int
	stale   bool
	// covered: screen was captured with the hit tests (lookCovered).
	covered bool
	// model is the page model's world of the top document, kept while
	// the document stays (modelCommit is the navigation it belongs to).
	model       *browser.Frame
	modelCommit int
	// lastTarget is the ref of the element replay last acted on or read,
	// for the closest nodes of a selector that then matched nothing.
	lastTarget string
	// dragStart is the screen the step's drag began on, for the evidence
	// of an end it did not reach (leftInPlace); nil when it has none.
	dragStart *screen.Screen
	// atPress, when set, reads the screen before an action an assertChange
	// checks once a pointer action (a tap, a check, a hover, a drag) has
	// scrolled its target into view, right before the press or the move:
	// the recorder reads that screen at the press too (docs/recording.md,
	// The step's boundary). pressing calls it.
	atPress func()
	// timersFollowed says the page's wrapper of setTimeout followed the
	// timers the last action set (wait_timers.go), for the hold of a
	// step's end values.
	timersFollowed bool
	// byPath keeps the last screen captured on each path during a step,
	// for the step's ARIA snapshot.
	byPath map[string]*screen.Screen
}

// location is the URL of the page's top document.
func (p *tab) location(ctx context.Context) string {
	var doc documentState
	if err := p.callInWorld(ctx, documentStateScript, false, &doc); err == nil {
		return doc.Href
	}
	p.nav.mu.Lock()
	defer p.nav.mu.Unlock()
	return p.nav.url
}

// target is the chromedp target of the tab.
func (p *tab) target() (*chromedp.Target, error) {
	c := chromedp.FromContext(p.ctx)
	if c == nil || c.Target == nil {
		return nil, errors.New("the tab is not attached")
	}
	return c.Target, nil
}

// call sends a protocol command to the tab.
func call[P, R any](ctx context.Context, p *tab, cmd cdp.Command[P, R], params P) (R, error) {
	t, err := p.target()
	if err != nil {
		var zero R
		return zero, err
	}
	return cdp.Call(ctx, t, cmd, params)
}

// navState follows the top frame of a tab through its navigations, from the
// tab's events. Waits read it (after a round trip that flushes the events
// sent before it) to tell whether an action started a navigation and
// whether the new document is ready.
type navState struct {
	mu    sync.Mutex
	frame cdp.FrameID // the top frame; a page target's top frame has the target's ID
	url   string
	// requested counts navigations of the top frame that started;
	// committed those that reached a document (or moved within one);
	// stopped the times the frame stopped loading.
	requested, committed, stopped int
	loading                       bool
	// ready: the committed document has fired DOMContentLoaded (or came
	// from the back/forward cache); loaded: it fired load.
	ready, loaded bool
	crashed       bool
	detached      bool
	// doc is what the network said of the top frame's document: the
	// request loading the next one (pending until it answers), the status
	// the current one answered, or why it failed to load.
	doc docState
	// target is the tab's session, for the dialog handler.
	target *chromedp.Target
	// wake is closed and replaced on every change, for waits to select on.
	wake chan struct{}
	// requests are the app's requests in flight, for the settle of an
	// absence (wait_settle.go).
	requests inFlight
}

func newNavState() *navState { return &navState{wake: make(chan struct{})} }

func (s *navState) changedLocked() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// docState follows the requests for the top frame's documents.
type docState struct {
	request    network.RequestID
	pending    bool
	pendingURL string
	url        string
	status     int64
	failed     string // net::ERR_… of a document that did not load
}

// snapshot is a copy of the counters, taken before an action.
type navMark struct{ requested, committed, stopped int }

func (s *navState) mark() navMark {
	s.mu.Lock()
	defer s.mu.Unlock()
	return navMark{s.requested, s.committed, s.stopped}
}

// onEvent updates the state from one event of the tab. It runs in the
// tab's event loop: it only takes a lock.
func (s *navState) onEvent(ev any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	top := func(id cdp.FrameID) bool { return s.frame != "" && id == s.frame }
	switch ev := ev.(type) {
	case *page.EventFrameRequestedNavigation:
		if top(ev.FrameID) && ev.Disposition == page.ClientNavigationDispositionCurrentTab {
			s.requested++
		}
	case *page.EventFrameStartedLoading:
		if top(ev.FrameID) {
			s.requested++
			s.loading = true
		}
	case *page.EventFrameStoppedLoading:
		if top(ev.FrameID) {
			s.stopped++
			s.loading = false
		}
	case *page.EventFrameNavigated:
		if ev.Frame == nil || ev.Frame.ParentID != "" {
			return
		}
		if s.frame == "" {
			s.frame = ev.Frame.ID
		}
		if ev.Frame.ID != s.frame {
			return
		}
		s.url = ev.Frame.URL + ev.Frame.URLFragment
		s.committed++
		// A page restored from the back/forward cache is complete and
		// fires no load event.
		restored := ev.Type == page.NavigationTypeBackForwardCacheRestore
		s.ready, s.loaded = restored, restored
		if restored {
			s.doc = docState{} // no request: what it answered is not known
		}
	case *page.EventNavigatedWithinDocument:
		if top(ev.FrameID) {
			s.url = ev.URL
			s.committed++
		}
	case *network.EventRequestWillBeSent:
		if ev.Type != network.ResourceTypeDocument || !top(ev.FrameID) || ev.Request == nil {
			return
		}
		s.doc.request, s.doc.pending, s.doc.pendingURL = ev.RequestID, true, ev.Request.URL
	case *network.EventResponseReceived:
		if !s.doc.pending || ev.RequestID != s.doc.request || ev.Response == nil {
			return
		}
		s.doc = docState{request: ev.RequestID, url: ev.Response.URL, status: ev.Response.Status}
	case *network.EventLoadingFailed:
		if !s.doc.pending || ev.RequestID != s.doc.request {
			return
		}
		s.doc.pending = false
		if !ev.Canceled { // a cancelled navigation leaves the document there
			s.doc = docState{request: ev.RequestID, url: s.doc.pendingURL, failed: ev.ErrorText}
		}
	case *page.EventDomContentEventFired:
		s.ready = true
	case *page.EventLoadEventFired:
		s.ready, s.loaded = true, true
	case *inspector.EventTargetCrashed:
		s.crashed = true
	case *inspector.EventDetached:
		s.detached = true
	default:
		return
	}
	s.changedLocked()
}

// done reports whether the navigations started since m are over: the last
// one reached a ready document, or the frame stopped loading without one
// (a download, a 204, a cancelled navigation).
func (s *navState) done(m navMark) (bool, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.crashed || s.detached:
		return true, s.wake
	case s.requested == m.requested:
		return true, s.wake
	case s.committed > m.committed && s.ready:
		return true, s.wake
	case s.stopped > m.stopped && !s.loading && s.committed == m.committed:
		return true, s.wake
	}
	return false, s.wake
}

// gone returns why the tab cannot be used any more, or nil.
func (s *navState) gone() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.crashed:
		return errTabCrashed
	case s.detached:
		return errTabGone
	}
	return nil
}

// documentError ends a wait at once: the page's document answered 5xx,
// 401 or 403, or did not load, so what the wait waits for will not show.
// The classifier reads the status from the trail's log (env-issue,
// auth-blocked) and a load failure from err.
type documentError struct {
	url    string
	status int64
	err    *loadError // the document did not load
}

func (e *documentError) Error() string {
	switch {
	case e.err != nil:
		return "stopped waiting at once: " + e.err.Error()
	case e.status >= 500:
		return fmt.Sprintf("stopped waiting at once: the app failed to serve the page (%s answered %d)", shortURL(e.url), e.status)
	}
	return fmt.Sprintf("stopped waiting at once: the app refused the page (%s answered %d)", shortURL(e.url), e.status)
}

func (e *documentError) Unwrap() error {
	if e.err != nil {
		return e.err
	}
	return nil
}

// brokenDocument returns a *documentError when the top frame's document
// answered 5xx or failed to load, or answered 401 or 403 and is no login
// page (a login page the trail may expect, with a wrong password's 401);
// nil otherwise, and while another document is on its way.
func (p *tab) brokenDocument() error {
	p.nav.mu.Lock()
	d := p.nav.doc
	p.nav.mu.Unlock()
	switch {
	case d.pending:
		return nil
	case d.failed != "":
		return &documentError{err: &loadError{url: d.url, text: d.failed}}
	case d.status >= 500:
		return &documentError{url: d.url, status: d.status}
	case (d.status == 401 || d.status == 403) && !isLoginPath(pathOf(d.url)) && !diagnose.HasPasswordField(p.screen):
		return &documentError{url: d.url, status: d.status}
	}
	return nil
}

var (
	errTabCrashed = errors.New("the page crashed")
	errTabGone    = errors.New("the tab was closed")
)

// listener is what a tab's events go to: its navigation state, the
// trail's log and the dialog handler.
func (r *trailRun) listener(nav *navState) func(ev any) {
	return func(ev any) {
		nav.onEvent(ev)
		nav.requests.onEvent(ev)
		nav.mu.Lock()
		frame := string(nav.frame)
		nav.mu.Unlock()
		r.log.onEvent(ev, frame)
		switch ev := ev.(type) {
		case *page.EventFrameNavigated:
			if ev.Frame != nil && ev.Frame.ParentID == "" && string(ev.Frame.ID) == frame {
				r.log.add(LogNavigation, "", "navigated to "+shortURL(ev.Frame.URL+ev.Frame.URLFragment), ev.Frame.URL+ev.Frame.URLFragment)
			}
		case *page.EventNavigatedWithinDocument:
			if string(ev.FrameID) == frame {
				r.log.add(LogNavigation, "", "moved within the page to "+shortURL(ev.URL), ev.URL)
			}
		case *inspector.EventTargetCrashed:
			r.log.mu.Lock()
			r.log.crashed = true
			r.log.addLocked(LogException, "error", "the page crashed", "")
			r.log.mu.Unlock()
		case *page.EventJavascriptDialogOpening:
			// Answering needs a command, which must not run in the event
			// loop; the dialog blocks the page until it is answered.
			select {
			case r.dialogs.opened <- openedDialog{nav: nav, ev: ev}:
			default:
				r.log.add(LogConsole, "warning", "a dialog opened while another was being answered: "+ev.Message, ev.URL)
			}
		}
	}
}

// openPage attaches to a tab of the trail's browser context (the first one
// when id is empty, a tab the app opened otherwise) and sets it up: the
// trail's viewport, locale and time zone.
func (r *trailRun) openPage(ctx context.Context, id target.ID) (*tab, error) {
	nav := newNavState()
	var tctx context.Context
	if id == "" {
		var cancel context.CancelFunc
		tctx, cancel = r.browser.NewContext(r.listener(nav))
		r.closers = append(r.closers, cancel)
	} else {
		var cancel context.CancelFunc
		tctx, cancel = chromedp.NewContext(r.root, chromedp.WithTargetID(id), chromedp.WithListener(r.listener(nav)))
		r.closers = append(r.closers, cancel)
	}
	// The first command attaches (and for a new context, creates) the tab;
	// it must run on a context without the trail's deadline, or the
	// deadline would end the tab with the step that opened it.
	if err := chromedp.Do(tctx); err != nil {
		return nil, fmt.Errorf("opening a tab: %w", err)
	}
	t := chromedp.FromContext(tctx).Target
	nav.mu.Lock()
	nav.frame = cdp.FrameID(t.TargetID)
	nav.target = t
	nav.mu.Unlock()
	if id == "" {
		r.root = tctx
	}
	p := &tab{r: r, ctx: tctx, id: t.TargetID, nav: nav}
	if err := r.emulate(ctx, p); err != nil {
		return nil, err
	}
	// Every document the tab loads gets the page model and the change
	// watcher in replay's world as it starts, so no capture waits for an
	// install and the watcher sees the document from its first mutation.
	if _, err := call(ctx, p, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: extension.PageModel() + ";\n(" + watchScript + ")();", WorldName: browser.WorldName, RunImmediately: new(true),
	}); err != nil {
		return nil, fmt.Errorf("preparing the tab: %w", err)
	}
	// And, in the page's own world before its scripts, the wrapper of
	// setTimeout that tells the wait after typing which timers the typing
	// set (wait_timers.go).
	if _, err := call(ctx, p, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: timersScript, RunImmediately: new(true),
	}); err != nil {
		return nil, fmt.Errorf("preparing the tab: %w", err)
	}
	r.pages[p.id] = p
	return p, nil
}

// in returns a context for calls that follow refs into cross-origin frames,
// which attach to the frame's target from the tab's chromedp context: the
// tab's context, ended with ctx.
func (p *tab) in(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(p.ctx)
	stop := context.AfterFunc(ctx, cancel)
	if d, ok := ctx.Deadline(); ok {
		var cancelDeadline context.CancelFunc
		c, cancelDeadline = context.WithDeadline(c, d)
		return c, func() { stop(); cancelDeadline(); cancel() }
	}
	return c, func() { stop(); cancel() }
}
