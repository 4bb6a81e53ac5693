package replay

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
)

// Settling. Most checks wait for what they expect and pass the moment it
// shows. An absence ("nothing visible reads X") cannot: at the first look
// after a change, the app has often not answered yet (a validation that
// runs a moment after the value changed, a message that comes with the
// server's reply), and a check made then passes on a page that shows X a
// moment later. So an absence is checked on a page that has settled after
// the action before it. What the app does a moment later it does from a
// timer the action's handler set, or when a request the action began
// answers. Where the page's wrapper of setTimeout followed the action
// (wait_timers.go) and the action began no request, settled means: the
// timers the action set (and those they set in turn) have run, then two
// of the page's frames passed with no change (the change watcher of
// wait.go counts mutations and user-visible events). Otherwise (a
// request, an action in a frame or on another document, a chain of
// timers still running after typingSettleMax) it means: the page has not
// changed for settleQuiet, and none of the app's requests (fetch and XHR)
// begun since that action is still in flight; a request that answers
// brings the wait back to the quiet. It waits as long as that takes, up
// to the action timeout; a page that never comes to rest (a clock that
// ticks faster than settleQuiet, a request that never ends) is checked at
// the timeout as it is then, and the assertion's summary says so.

// settleQuiet is how long the page must not change to count as settled
// for an absence. Longer than the agent's quiet (agentQuiet): an app
// checks a value a moment after it changed (debounced validation usually
// waits 150–500 ms after the last change) with nothing on the page moving
// meanwhile, and the absence has no sign to wait for but the page's
// silence.
const settleQuiet = 500 * time.Millisecond

// inFlight follows the app's fetch and XHR requests of a tab, for the
// settle of an absence. Requests begun before the last action replay
// performed (from) are not waited for: a long poll the page keeps open
// belongs to no action.
type inFlight struct {
	mu sync.Mutex
	// begun counts the requests begun so far; from is begun when replay
	// last acted.
	begun, from int64
	open        map[network.RequestID]flight
}

// A flight is one request in flight: the order it began in, and what it
// is ("GET /api/validate?field=age").
type flight struct {
	n    int64
	what string
}

// onEvent follows one event of the tab. It runs in the tab's event loop:
// it only takes a lock.
func (f *inFlight) onEvent(ev any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		if ev.Request == nil || (ev.Type != network.ResourceTypeFetch && ev.Type != network.ResourceTypeXHR) {
			return
		}
		if _, redirected := f.open[ev.RequestID]; redirected {
			return
		}
		if f.open == nil {
			f.open = map[network.RequestID]flight{}
		}
		f.begun++
		if len(f.open) < maxTrackedRequests {
			f.open[ev.RequestID] = flight{n: f.begun, what: ev.Request.Method + " " + shortURL(ev.Request.URL)}
		}
	case *network.EventLoadingFinished:
		delete(f.open, ev.RequestID)
	case *network.EventLoadingFailed:
		delete(f.open, ev.RequestID)
	case *page.EventFrameNavigated:
		// A new top document: what the old one asked for is not its.
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			clear(f.open)
		}
	}
}

// began says whether a request has begun since replay last acted.
func (f *inFlight) began() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.begun > f.from
}

// acting notes that replay is about to act: the requests begun from now
// on are the action's.
func (f *inFlight) acting() {
	f.mu.Lock()
	f.from = f.begun
	f.mu.Unlock()
}

// pending names the earliest request begun since replay last acted that
// is still in flight, "" for none.
func (f *inFlight) pending() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var first flight
	for _, fl := range f.open {
		if fl.n > f.from && (first.n == 0 || fl.n < first.n) {
			first = fl
		}
	}
	return first.what
}

// A settle is what awaitSettled waited for.
type settle struct {
	// settled: the page came to rest; false when the deadline came first
	// (or the page could not be read).
	settled bool
	// took is how long the check had waited when the wait ended.
	took time.Duration
	// request is the request still in flight when the deadline came, ""
	// for none.
	request string
	// err is why the page could not be read, when that ended the wait.
	err error
	// quiet is how long the page had not changed when it settled.
	quiet time.Duration
	// timers is how many timers the typing set had not run when the
	// deadline came (afterTyping).
	timers int
	// frames: it settled over two of the page's frames, not a quiet of
	// a set length (awaitFrames).
	frames bool
}

// awaitSettled waits until the page has settled (see above) or until
// deadline, noting in reads each request it waited for; the check that
// waits began at start.
func (p *tab) awaitSettled(ctx context.Context, start, deadline time.Time, reads *readLog) settle {
	if p.timersFollowed && !p.nav.requests.began() &&
		p.actionTimers(ctx, "idle", max(0, min(typingSettleMax, time.Until(deadline)))) == 0 {
		return p.awaitFrames(ctx, start, deadline, settleQuiet, reads)
	}
	return p.awaitQuietFor(ctx, start, deadline, settleQuiet, reads)
}

// awaitQuietFor is awaitSettled with the page quiet for want (not
// settleQuiet) to count as settled.
func (p *tab) awaitQuietFor(ctx context.Context, start, deadline time.Time, want time.Duration, reads *readLog) settle {
	seq, err := p.changeSeq(ctx)
	for err == nil && ctx.Err() == nil && p.nav.gone() == nil {
		req := p.nav.requests.pending()
		if req != "" {
			reads.add("waited for " + req + " to answer")
		}
		left := time.Until(deadline)
		if left <= 0 {
			return settle{took: time.Since(start), request: req}
		}
		quiet := min(want, left)
		began := time.Now()
		p.waitChange(ctx, seq, quiet)
		var next int64
		if next, err = p.changeSeq(ctx); err != nil {
			break
		}
		// Quiet means the whole quiet went by without a change, and no
		// request of the action was in flight before or after it (a
		// request's event may arrive a moment after the page sent it).
		if next == seq && req == "" && quiet == want && time.Since(began) >= quiet && p.nav.requests.pending() == "" {
			return settle{settled: true, took: time.Since(start), quiet: want}
		}
		seq = next
	}
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = p.nav.gone()
	}
	return settle{took: time.Since(start), err: err}
}

// String says what the wait came to, for an assertion's summary.
func (s settle) String() string {
	switch {
	case s.settled && s.frames:
		return fmt.Sprintf("once the page had settled (after %s: no change over two frames and no request in flight)", s.took.Round(10*time.Millisecond))
	case s.settled:
		return fmt.Sprintf("once the page had settled (after %s: no change for %s and no request in flight)", s.took.Round(10*time.Millisecond), s.quiet)
	case s.timers > 0:
		return fmt.Sprintf("the page did not settle in %s (%d of the timers the typing set had not run), so it was read as it was then", s.took.Round(10*time.Millisecond), s.timers)
	case s.err != nil:
		return fmt.Sprintf("the page could not be read after %s (%v), so it was read as it was then", s.took.Round(10*time.Millisecond), s.err)
	case s.request != "":
		return fmt.Sprintf("the page did not settle in %s (%s was still in flight), so it was read as it was then", s.took.Round(10*time.Millisecond), s.request)
	}
	return fmt.Sprintf("the page did not settle in %s (it kept changing), so it was read as it was then", s.took.Round(10*time.Millisecond))
}

// typingSettleMax bounds the wait after typing (afterTyping): a page that
// keeps changing (a clock, a spinner) is acted on once it has passed.
const typingSettleMax = 3 * time.Second

// afterTyping waits, after a type and before the action that follows it,
// for what the typing set off, up to typingSettleMax. An app often acts on
// typed text a moment after the last key, with nothing to wait for on the
// page: a tree editor adds the change to its undo history and validates
// the document behind a debounce (JSONEditor, 150 ms each). The person
// looked before acting again, so the press or key that follows found that
// done: an Undo took back the typing, a Tab reached the error icon the
// validation added. Pressed at once, the Undo takes back the entry before
// and the Tab passes the icon that is not there yet (docs/trail-format.md,
// type).
//
// When timed (the page's wrapper of setTimeout followed the typing,
// wait_timers.go), it waits for the timers the typing set to run, then
// until two of the page's frames pass without a change (awaitFrames):
// what the keys and those timers set off that is no timer (a render the
// framework put off to the next frame or to a message task, a promise's
// work) is written by then. A typing that began a request waits instead,
// once no request of it is in flight, for typingQuiet without a change:
// the app handles an answer a moment after the browser has it, which no
// frame tells. Otherwise it waits as an absence does: no change for
// settleQuiet, no request in flight. What the wait read goes with the
// type's reads.
func (p *tab) afterTyping(ctx context.Context, d *done, timed bool) {
	var reads readLog
	start := time.Now()
	deadline := start.Add(typingSettleMax)
	pending := -1
	if timed {
		pending = p.actionTimers(ctx, "idle", typingSettleMax)
	}
	var st settle
	switch {
	case pending > 0:
		st = settle{took: time.Since(start), timers: pending}
	case pending == 0:
		st = p.awaitFrames(ctx, start, deadline, typingQuiet, &reads)
	default:
		st = p.awaitSettled(ctx, start, deadline, &reads)
	}
	if !st.settled {
		// Said in the summary too, which a trace shows for an action
		// that passed: a wait cut short is where an Undo or a Tab after
		// the typing goes astray.
		reads.add("after the typing, " + st.String())
		d.summary += "; after the typing, " + strings.Replace(st.String(), ", so it was read as it was then", ", and the next action went on", 1)
	}
	d.addReads(reads.items)
}

// awaitFrames waits until two of the page's frames pass with no change to
// the page (its change counter, wait.go) and no request begun since replay
// acted, or until deadline. A request begun on the way hands the wait to
// awaitQuietFor with quiet: the app handles an answer a moment after the
// browser has it, which no frame tells.
func (p *tab) awaitFrames(ctx context.Context, start, deadline time.Time, quiet time.Duration, reads *readLog) settle {
	for {
		if p.nav.requests.began() {
			return p.awaitQuietFor(ctx, start, deadline, quiet, reads)
		}
		if err := cmp.Or(ctx.Err(), p.nav.gone()); err != nil {
			return settle{took: time.Since(start), err: err}
		}
		if time.Now().After(deadline) {
			return settle{took: time.Since(start)}
		}
		seq, err := p.changeSeq(ctx)
		if err == nil {
			err = p.callInWorld(ctx, nextFrameScript, true, nil)
		}
		var next int64
		if err == nil {
			next, err = p.changeSeq(ctx)
		}
		if err != nil {
			return settle{took: time.Since(start), err: err}
		}
		if next == seq && !p.nav.requests.began() {
			return settle{settled: true, took: time.Since(start), frames: true}
		}
	}
}
