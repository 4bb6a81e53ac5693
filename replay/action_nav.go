package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// A loadError is a page that could not be loaded at all (the server is not
// there, the name does not resolve): the environment, not the app.
type loadError struct {
	url  string
	text string // net::ERR_…
}

func (e *loadError) Error() string { return fmt.Sprintf("loading %s failed: %s", e.url, e.text) }

// A loadTimeoutError is a page load that did not finish within
// replay.navigationTimeout; the message names the setting to raise.
type loadTimeoutError struct{ limit time.Duration }

func (e *loadTimeoutError) Error() string {
	return fmt.Sprintf("page load did not finish within %s (replay.navigationTimeout)", e.limit)
}

// navigateTo goes to a path of the app, or back, forward, or reloads.
func (r *trailRun) navigateTo(to string) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		d := done{reached: true}
		defer p.acted()
		switch to {
		case trail.NavigateBack, trail.NavigateForward:
			if err := p.history(ctx, to); err != nil {
				return d, err
			}
			d.summary = "went " + to + " to " + r.appPath(p.location(ctx))
			return d, nil
		case trail.NavigateReload:
			if err := p.reload(ctx); err != nil {
				return d, err
			}
			d.summary = "reloaded " + r.appPath(p.location(ctx))
			return d, nil
		}
		path, err := r.vals.url(to, "navigate")
		if err != nil {
			return d, err
		}
		if err := p.load(ctx, r.resolveURL(path)); err != nil {
			return d, err
		}
		d.summary = "opened " + r.vals.public(to)
		return d, nil
	}
}

// load opens url in the page and waits for its load event, up to the
// navigation timeout (which also bounds the wait for the server's answer).
func (p *tab) load(ctx context.Context, url string) error {
	return p.loading(ctx, func(ctx context.Context) (bool, error) {
		res, err := call(ctx, p, page.Navigate, page.NavigateParams{URL: url})
		if err != nil {
			return false, err
		}
		if res.ErrorText != "" {
			return false, &loadError{url: url, text: res.ErrorText}
		}
		return res.LoaderID != "", nil // no loader: a move within the document (a fragment)
	})
}

// reload loads the page again and waits for its load event, as load does.
func (p *tab) reload(ctx context.Context) error {
	return p.loading(ctx, func(ctx context.Context) (bool, error) {
		_, err := call(ctx, p, page.Reload, page.ReloadParams{})
		return err == nil, err
	})
}

// loading runs start, which asks the tab for a navigation and says whether
// it loads a document, and waits for that document to load. Both share one
// deadline, replay.navigationTimeout; when it passes the error is a
// *loadTimeoutError.
func (p *tab) loading(ctx context.Context, start func(ctx context.Context) (bool, error)) error {
	limit := p.r.opts.NavigationTimeout
	lctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	mark := p.nav.mark()
	loads, err := start(lctx)
	if err == nil && loads {
		err = p.waitLoaded(lctx, mark)
	}
	if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// A document that is ready but never finishes loading (a request
	// that hangs) is accepted: the next action's wait decides.
	p.nav.mu.Lock()
	ready := p.nav.committed > mark.committed && p.nav.ready
	p.nav.mu.Unlock()
	if ready {
		return nil
	}
	p.stopLoading(ctx)
	return &loadTimeoutError{limit: limit}
}

// stopLoading stops a page load that took too long, as a person would
// press Stop: the tab stays on what it shows, so it can still be read (for
// the next action, and for the screen at failure).
func (p *tab) stopLoading(ctx context.Context) {
	sctx, cancel := context.WithTimeout(ctx, stopLoadingTimeout)
	defer cancel()
	_, _ = call(sctx, p, page.StopLoading, cdp.Empty{})
}

// stopLoadingTimeout bounds the command that stops a page load that took
// too long; a tab that does not answer it is reported by the next wait.
const stopLoadingTimeout = 5 * time.Second

// waitLoaded waits until a navigation started after mark committed and its
// document fired load (or came from the back/forward cache, which fires
// none), or ctx ends.
func (p *tab) waitLoaded(ctx context.Context, mark navMark) error {
	for {
		p.nav.mu.Lock()
		committed, loaded, wake := p.nav.committed > mark.committed, p.nav.loaded, p.nav.wake
		p.nav.mu.Unlock()
		if err := p.nav.gone(); err != nil {
			return err
		}
		if committed && loaded {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		}
	}
}

// history moves back or forward one entry and waits for that entry's URL
// and a complete document. A page restored from the back/forward cache
// fires no load event, so the wait is on the URL and the document.
func (p *tab) history(ctx context.Context, dir string) error {
	h, err := call(ctx, p, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		return err
	}
	i := int(h.CurrentIndex) + 1
	if dir == trail.NavigateBack {
		i = int(h.CurrentIndex) - 1
	}
	if i < 0 || i >= len(h.Entries) {
		return fmt.Errorf("there is no page to go %s to", dir)
	}
	entry := h.Entries[i]
	if _, err := call(ctx, p, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: entry.ID}); err != nil {
		return err
	}
	var at string
	err = p.pollLoad(ctx, func() (bool, error) {
		var state documentState
		if err := p.callInWorld(ctx, documentStateScript, false, &state); err != nil {
			return false, nil
		}
		at = state.Href
		return state.Href == entry.URL && state.Ready == "complete", nil
	})
	if err != nil {
		return fmt.Errorf("going %s to %s: the page is at %s: %w", dir, entry.URL, at, err)
	}
	return nil
}

// switchTab makes a tab the app opened (or the first one) the page that the
// following actions act on (the done's page), found by its path or its
// title.
func (r *trailRun) switchTab(a trail.SwitchTab) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		var d done
		wantURL, err := r.vals.url(a.URL, "switchTab")
		if err != nil {
			return d, err
		}
		wantTitle, err := r.vals.expand(a.Title)
		if err != nil {
			return d, err
		}
		what := "the tab at " + wantURL
		if wantURL == "" {
			what = fmt.Sprintf("the tab titled %q", wantTitle)
		}
		var id target.ID
		var seen []string
		var reads readLog
		deadline := time.Now().Add(r.opts.ActionTimeout)
		for attempt := 0; id == ""; attempt++ {
			id, seen, err = r.findTab(ctx, wantURL, wantTitle)
			if id != "" {
				break
			}
			if err == nil {
				reads.add("tabs: " + strings.Join(seen, ", "))
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				d.reads = reads.items
				return d, &stepError{Reason: StopActionFailed, Expected: what, Actual: "tabs " + strings.Join(seen, ", "),
					Msg: fmt.Sprintf("switchTab: no tab shows %s (open tabs: %s)", strings.TrimPrefix(what, "the tab "), strings.Join(seen, ", "))}
			}
			select {
			case <-ctx.Done():
			case <-time.After(backoff(attempt)):
			}
		}
		d.reads = reads.items
		np := r.pages[id]
		if np == nil {
			if np, err = r.openPage(ctx, id); err != nil {
				return d, err
			}
		} else if _, err := call(ctx, np, page.BringToFront, struct{}{}); err != nil {
			return d, err
		}
		d.page = np
		np.acted()
		// A tab the app just opened may still be loading.
		if err := np.pollLoad(ctx, func() (bool, error) {
			var doc documentState
			err := np.callInWorld(ctx, documentStateScript, false, &doc)
			return err == nil && doc.Ready == "complete", nil
		}); err != nil {
			return d, fmt.Errorf("switchTab: %s: %w", what, err)
		}
		d.summary = "switched to " + what
		return d, nil
	}
}

// findTab looks for a page of the trail's browser context at wantURL (a
// path) or titled wantTitle; it also returns what every tab shows.
func (r *trailRun) findTab(ctx context.Context, wantURL, wantTitle string) (target.ID, []string, error) {
	infos, err := chromedp.Targets(r.root)
	if err != nil {
		return "", nil, err
	}
	own := chromedp.FromContext(r.root).BrowserContextID
	var seen []string
	for _, info := range infos {
		if info.Type != "page" || (own != "" && info.BrowserContextID != own) {
			continue
		}
		path := r.appPath(info.URL)
		seen = append(seen, fmt.Sprintf("%s %q", path, info.Title))
		if (wantURL != "" && diagnose.SamePath(path, wantURL)) || (wantURL == "" && info.Title == wantTitle) {
			return info.TargetID, seen, nil
		}
	}
	return "", seen, nil
}

// dialogs answers the JavaScript dialogs of a trail's tabs. A dialog blocks
// its page, often inside the click that opened it, so the answer is armed
// before the action that opens it runs (the dialog action that follows it
// in the trail says how) and given by a goroutine as soon as the dialog
// opens. A dialog nothing armed is dismissed (a beforeunload one is
// accepted, so the navigation the trail asked for goes ahead) and logged.
type dialogs struct {
	r      *trailRun
	opened chan openedDialog

	mu      sync.Mutex
	armed   *trail.Dialog
	handled []handledDialog
	// armedAt is len(handled) when the answer was armed: the dialog action
	// waits for one handled after it.
	armedAt int
	changed chan struct{}
}

type openedDialog struct {
	nav *navState
	ev  *page.EventJavascriptDialogOpening
}

type handledDialog struct {
	kind     page.DialogType
	message  string
	accepted bool
	armed    bool
	err      error
}

func newDialogs(r *trailRun) *dialogs {
	return &dialogs{r: r, opened: make(chan openedDialog, 8), changed: make(chan struct{})}
}

func (d *dialogs) arm(a trail.Dialog) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.armed = &a
	d.armedAt = len(d.handled)
}

func (d *dialogs) disarm() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.armed = nil
}

// serve answers dialogs until ctx ends.
func (d *dialogs) serve(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case o := <-d.opened:
			d.answer(ctx, o)
		}
	}
}

func (d *dialogs) answer(ctx context.Context, o openedDialog) {
	d.mu.Lock()
	armed := d.armed
	d.armed = nil
	d.mu.Unlock()
	h := handledDialog{kind: o.ev.Type, message: o.ev.Message, armed: armed != nil}
	params := page.HandleJavaScriptDialogParams{Accept: o.ev.Type == page.DialogTypeBeforeunload}
	if armed != nil {
		params.Accept = armed.Accept
		if armed.Accept && armed.PromptText != "" {
			text, err := d.r.vals.expand(armed.PromptText)
			if err != nil {
				h.err = err
				params.Accept = false
			}
			params.PromptText = text
		}
	}
	h.accepted = params.Accept
	o.nav.mu.Lock()
	t := o.nav.target
	o.nav.mu.Unlock()
	if t == nil {
		h.err = errors.New("the dialog's tab is not attached")
	} else if _, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, params); err != nil && h.err == nil {
		h.err = err
	}
	params.PromptText = ""
	if armed == nil {
		verb := "dismissed"
		if h.accepted {
			verb = "accepted"
		}
		d.r.log.add(LogConsole, "warning", fmt.Sprintf("%s dialog %q %s: the trail has no dialog action for it", o.ev.Type, o.ev.Message, verb), o.ev.URL)
	}
	d.mu.Lock()
	d.handled = append(d.handled, h)
	close(d.changed)
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

// awaitDialog checks that the dialog the previous action opened was
// answered as the trail says.
func (r *trailRun) awaitDialog(a trail.Dialog) Action[done] {
	return func(ctx context.Context, p *tab) (done, error) {
		timer := time.NewTimer(r.opts.ActionTimeout)
		defer timer.Stop()
		d := r.dialogs
		for {
			d.mu.Lock()
			var h *handledDialog
			if len(d.handled) > d.armedAt {
				got := d.handled[d.armedAt]
				h = &got
				d.armedAt++
			}
			changed := d.changed
			d.mu.Unlock()
			if h != nil {
				if h.err != nil {
					return done{}, fmt.Errorf("answering the %s dialog %q: %w", h.kind, h.message, h.err)
				}
				verb := "dismissed"
				if h.accepted {
					verb = "accepted"
				}
				return done{summary: fmt.Sprintf("%s the %s dialog %q", verb, h.kind, h.message),
					landed: fmt.Sprintf("- dialog %q", h.message)}, nil
			}
			select {
			case <-ctx.Done():
				return done{}, ctx.Err()
			case <-timer.C:
				return done{}, &stepError{Reason: StopActionFailed, Expected: "a dialog", Actual: "no dialog opened",
					Msg: fmt.Sprintf("dialog: no JavaScript dialog opened within %s of the previous action", r.opts.ActionTimeout)}
			case <-changed:
			}
		}
	}
}
