package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/chromedp/cdproto/runtime"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/replay/assertchange"
	"github.com/trailpin/trailpin/replay/diagnose"
)

// Waiting. Replay never sleeps a fixed time: it looks at the page, and when
// what it waits for is not there yet, it waits for the page to change — a
// DOM mutation, an input, a scroll, a transition's end, a navigation — or
// for a short, growing backoff, whichever comes first, and looks again.
//
// The change signal comes from a small watcher installed next to the page
// model in its isolated world: a counter that every mutation and user-visible
// event bumps. The counter also says when a capture can be reused: if it has
// not moved since the last capture, and replay has not acted since, the
// screen is still the page (boxes moved by a CSS animation alone are checked
// again before acting, see actionable).

// backoff is the longest wait for a change between two looks at the
// page (assertchange.Backoff).
func backoff(attempt int) time.Duration { return assertchange.Backoff(attempt) }

// world returns the page model's world of the top document, kept while
// the document stays (a navigation replaces the world).
func (p *tab) world(ctx context.Context) (*browser.Frame, error) {
	p.nav.mu.Lock()
	commit := p.nav.committed
	p.nav.mu.Unlock()
	if p.model != nil && p.modelCommit == commit {
		return p.model, nil
	}
	t, err := p.target()
	if err != nil {
		return nil, err
	}
	m, err := browser.TopFrame(ctx, t)
	if err != nil {
		return nil, err
	}
	// Cross-origin frames are entered from the model's chromedp context,
	// which must be the tab's, not the caller's plain one.
	m.SetTabContext(p.ctx)
	p.model, p.modelCommit = m, commit
	return m, nil
}

// inWorld runs fn in the top document's world, and once more in a fresh
// one when the kept world went away with its document.
func (p *tab) inWorld(ctx context.Context, fn func(m *browser.Frame) error) error {
	m, err := p.world(ctx)
	if err != nil {
		return err
	}
	if err = fn(m); err == nil || ctx.Err() != nil {
		return err
	}
	p.model = nil
	if m, err = p.world(ctx); err != nil {
		return err
	}
	return fn(m)
}

// callInWorld calls fn, one of the replay scripts, with args in the page
// model's world of the top frame and decodes its value into out (nil to
// ignore it).
func (p *tab) callInWorld(ctx context.Context, fn string, await bool, out any, args ...any) error {
	return p.inWorld(ctx, func(m *browser.Frame) error {
		r, err := m.CallFunction(ctx, fn, await, args...)
		if err != nil {
			return err
		}
		if out == nil || r == nil {
			return nil
		}
		return json.Unmarshal(r.Value, out)
	})
}

// changeSeq returns the page's change counter. Every document gets the
// watcher as it starts (see openPage); one that did not (it was loaded
// before) gets it here.
func (p *tab) changeSeq(ctx context.Context) (int64, error) {
	var n int64
	err := p.callInWorld(ctx, watchCountScript, false, &n)
	if err == nil && n < 0 {
		err = p.callInWorld(ctx, watchScript, false, &n)
	}
	return n, err
}

// waitChange waits until the page changed since seq, or up to max. A
// navigation ends it too (the world it waits in goes away).
func (p *tab) waitChange(ctx context.Context, seq int64, max time.Duration) {
	wctx, cancel := context.WithTimeout(ctx, max+time.Second)
	defer cancel()
	if err := p.callInWorld(wctx, watchNextScript, true, nil, seq, max.Milliseconds()); err != nil {
		// The document went away, or the page is busy: fall back to
		// waiting for the tab's own events or the backoff.
		p.nav.mu.Lock()
		wake := p.nav.wake
		p.nav.mu.Unlock()
		select {
		case <-ctx.Done():
		case <-wake:
		case <-time.After(max):
		}
	}
}

// look returns the page's screen: the last capture when nothing changed
// since, a new one otherwise.
func (p *tab) look(ctx context.Context) (*screen.Screen, *selector.Matcher, error) {
	return p.lookWith(ctx, false)
}

// lookCovered is look with the page model's hit tests: interactive nodes
// say whether they are covered. Only what an assertChange reads pays for
// them (replay's own waits test the one target they act on).
func (p *tab) lookCovered(ctx context.Context) (*screen.Screen, *selector.Matcher, error) {
	return p.lookWith(ctx, true)
}

func (p *tab) lookWith(ctx context.Context, coverage bool) (*screen.Screen, *selector.Matcher, error) {
	seq, commit, err := p.lookStart(ctx)
	if err != nil {
		return nil, nil, err
	}
	if p.fresh(seq, commit) && (p.covered || !coverage) {
		return p.screen, p.matcher, nil
	}
	var s *screen.Screen
	co := p.r.opts.captureOptions()
	co.NoCoverage = !coverage
	if err := p.inWorld(ctx, func(m *browser.Frame) error {
		s, err = browser.CaptureTop(ctx, m, co)
		return err
	}); err != nil {
		return nil, nil, err
	}
	p.screen, p.matcher, p.seq, p.commit, p.stale, p.covered = s, selector.NewMatcher(s), seq, commit, false, coverage
	if p.byPath != nil {
		p.byPath[p.r.appPath(s.URL)] = s
	}
	return p.screen, p.matcher, nil
}

// lookStart reads the page's change counter and the navigation it is at,
// before a look.
func (p *tab) lookStart(ctx context.Context) (seq int64, commit int, err error) {
	if err := p.nav.gone(); err != nil {
		return 0, 0, err
	}
	seq, err = p.changeSeq(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("looking at the page: %w", err)
	}
	// The round trip above delivered the navigation events sent before it.
	p.nav.mu.Lock()
	commit = p.nav.committed
	p.nav.mu.Unlock()
	return seq, commit, nil
}

// fresh reports whether the last whole screen is still the page, at seq
// and commit.
func (p *tab) fresh(seq int64, commit int) bool {
	return p.screen != nil && !p.stale && seq == p.seq && commit == p.commit
}

// lookFor is look for a wait on sel: the last whole screen when nothing
// changed since, else a partial screen (Screen.Partial) of the nodes sel
// could match, on which the matcher finds what it finds on the whole page.
// A partial screen is never kept as the page's screen. It also returns the
// change counter the screen was taken at.
func (p *tab) lookFor(ctx context.Context, sel selector.Selector) (*screen.Screen, *selector.Matcher, int64, error) {
	seq, commit, err := p.lookStart(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	if p.fresh(seq, commit) {
		return p.screen, p.matcher, seq, nil
	}
	var s *screen.Screen
	co := p.r.opts.captureOptions()
	co.NoCoverage = true
	co.Only, co.FieldRoles = selectorParts(sel), selector.FieldRoles()
	if err := p.inWorld(ctx, func(m *browser.Frame) error {
		s, err = browser.CaptureTop(ctx, m, co)
		return err
	}); err != nil {
		return nil, nil, 0, err
	}
	return s, selector.NewMatcher(s), seq, nil
}

// selectorParts is what a partial capture for sel filters by.
func selectorParts(sel selector.Selector) []browser.SelectorPart {
	var out []browser.SelectorPart
	for _, s := range selector.Parts(sel) {
		out = append(out, browser.SelectorPart{Role: s.Role, Name: s.Name, Text: s.Text, TextRegex: s.TextRegex,
			TestID: s.TestID, ID: s.ID, Label: s.Label, Placeholder: s.Placeholder})
	}
	return out
}

// acted marks the page as changed by replay: the next look captures again.
func (p *tab) acted() { p.stale = true }

// pressing is called by a pointer action right before its press or move,
// once its target is in view: the screen before the action is read there
// when an assertChange checks the action (atPress).
func (p *tab) pressing() {
	if p.atPress != nil {
		p.atPress()
	}
}

// readiness is what a target must be before replay uses it.
type readiness int

const (
	// needVisible: exactly one shown match (assertions).
	needVisible readiness = iota
	// needActionable: also visible itself, enabled, in the viewport, stable
	// and not covered (taps, typing, checks).
	needActionable
	// needPointable: actionable without being enabled (hover).
	needPointable
	// needAttached: exactly one match, hidden or not (a file input, set
	// through the protocol).
	needAttached
	// needEditable: actionable and not read-only (typing, setting a value):
	// a person cannot change a read-only field, and a script could, so
	// replay waits for it to become editable as for a disabled one.
	needEditable
)

// notActionableError says why a matched element could not be acted on.
type notActionableError struct {
	node  *screen.Node
	state string // "disabled", "covered by …", "moving", …
}

func (e *notActionableError) Error() string {
	return fmt.Sprintf("%s is %s", diagnose.Describe(e.node), e.state)
}

// resolve waits until sel names exactly one element that is ready as need
// says, up to the action timeout, noting what it saw on the way. It fails
// with the last reason: a *selector.NotFoundError, a
// *selector.AmbiguousError or a *notActionableError.
func (p *tab) resolve(ctx context.Context, sel selector.Selector, need readiness) (found, error) {
	var opts []selector.MatchOption
	if need == needAttached {
		opts = append(opts, selector.IncludeHidden())
	}
	return p.await(ctx, need, &sel, func(_ *screen.Screen, m *selector.Matcher) (*screen.Node, error) {
		nodes, err := m.Match(sel, opts...)
		if err != nil {
			return nil, err
		}
		return nodes[0], nil
	})
}

// resolveRef waits until the element of ref, on the screen of document
// (Screen.Document), is ready as need says, up to the action timeout. A ref
// that the page's screen does not show, or a screen of another document,
// fails at once with a *browser.RefError (see findRef).
func (p *tab) resolveRef(ctx context.Context, ref, document string, need readiness) (found, error) {
	return p.await(ctx, need, nil, func(s *screen.Screen, m *selector.Matcher) (*screen.Node, error) {
		if s.Document != document {
			return nil, &browser.RefError{Ref: ref, Code: "stale", Message: "ref " + ref + ": the page has loaded another document since"}
		}
		n := m.Node(ref)
		if n == nil {
			return nil, &browser.RefError{Ref: ref, Code: "stale", Message: "ref " + ref + " is not on the page any more"}
		}
		return n, nil
	})
}

// await looks at the page until pick names a node that is ready as need
// says, waiting for the page to change between looks, up to the action
// timeout. pick failing with a *browser.RefError ends the wait at once.
//
// With sel (the selector pick matches), the looks after the first one are
// partial (lookFor): only the nodes sel could match are captured, and pick
// finds on them what it would find on the whole page. What a partial look
// finds is taken again on a whole screen, which the action acts from and
// which checks where to act; a wait that runs out ends on a whole screen
// too, for the failure's evidence.
func (p *tab) await(ctx context.Context, need readiness, sel *selector.Selector, pick func(s *screen.Screen, m *selector.Matcher) (*screen.Node, error)) (found, error) {
	deadline := time.Now().Add(p.r.targetTimeout())
	var reads readLog
	whole := true // the next look is of the whole page
	for attempt := 0; ; attempt++ {
		var s *screen.Screen
		var m *selector.Matcher
		var seq int64
		var err error
		if whole || sel == nil {
			s, m, err = p.look(ctx)
			seq = p.seq
		} else {
			s, m, seq, err = p.lookFor(ctx, *sel)
		}
		partial := err == nil && s.Partial
		var last error
		moving := false
		if err == nil {
			n, merr := pick(s, m)
			var bad *browser.RefError
			switch {
			case errors.As(merr, &bad):
				return found{reads: reads.items}, merr
			case merr == nil && partial:
				if state := nodeState(n, need); state != "" {
					last = &notActionableError{node: n, state: state}
					reads.add(last.Error())
					break
				}
				// Found: take it again on the whole page, at once.
				whole = true
				continue
			case merr == nil:
				got, state, perr := p.ready(ctx, s, m, n, need)
				switch {
				case perr != nil:
					last = perr
				case state == "":
					got.reads, got.on = reads.items, s
					return got, nil
				default:
					last = &notActionableError{node: n, state: state}
					reads.add(last.Error())
					moving = state == stateMoving
				}
			default:
				last = merr
				reads.add(merr.Error())
			}
		} else {
			last = err
		}
		whole = false
		f := found{reads: reads.items}
		if gone := p.nav.gone(); gone != nil {
			return f, gone
		}
		if broken := p.brokenDocument(); broken != nil {
			return f, broken
		}
		if ctx.Err() != nil {
			return f, ctx.Err()
		}
		if time.Now().After(deadline) {
			if partial {
				// The failure is told from the whole page: one last look.
				whole = true
				continue
			}
			return f, last
		}
		if moving {
			// A box that moves without a change to the page (a CSS
			// transition, a script's animation) wakes no watcher: the
			// next look is at once, and ready's two frames pace it, so
			// the action goes out within a frame or two of the box
			// coming to rest, as a person's click would.
			continue
		}
		p.waitChange(ctx, seq, min(backoff(attempt), time.Until(deadline)+time.Millisecond))
	}
}

// nodeState is what need asks of a matched node that the node itself
// says, "" when it is ready so far: where to act on it is checked apart
// (ready).
func nodeState(n *screen.Node, need readiness) string {
	switch need {
	case needVisible, needAttached:
		return ""
	}
	switch {
	case !n.Visible:
		return "not visible (its box is empty or hidden)"
	case (need == needActionable || need == needEditable) && n.Disabled:
		return "disabled"
	case need == needEditable && n.ReadOnly:
		return "read-only"
	case n.Inert:
		return "inert (behind a modal dialog)"
	}
	return ""
}

// ready checks what need asks of a matched node beyond the match, and says
// where to act on it. It returns a non-empty state when the node is not
// ready yet.
func (p *tab) ready(ctx context.Context, s *screen.Screen, m *selector.Matcher, n *screen.Node, need readiness) (found, string, error) {
	switch need {
	case needVisible, needAttached:
		return found{node: n}, "", nil
	}
	if state := nodeState(n, need); state != "" {
		return found{}, state, nil
	}
	first, second, err := p.aim(ctx, n.Ref, s.Document)
	p.acted() // scrolling changed the page
	if err != nil {
		if errors.Is(err, browser.ErrStaleRef) || errors.Is(err, browser.ErrUnknownRef) {
			return found{}, "gone from the page", nil
		}
		return found{}, "", err
	}
	switch {
	case second.Animating, moved(first.Box, second.Box):
		return found{}, stateMoving, nil
	case second.Box.Width <= 0 || second.Box.Height <= 0:
		return found{}, "not visible (its box is empty)", nil
	case !second.InViewport:
		return found{}, "outside the viewport", nil
	case second.Covered != nil && *second.Covered:
		by := "another element"
		if hit := m.Node(second.Hit); hit != nil {
			by = diagnose.Describe(hit)
		}
		return found{}, "covered by " + by, nil
	}
	return found{node: n, point: second}, "", nil
}

// stateMoving is ready's state of an element whose box moved between the
// two frames aim waited, or that a transition or animation is moving.
const stateMoving = "moving"

// moved says whether a target's box moved between aim's two frames as far
// as a click cares: its corner went by a pixel or more, or the middle of
// where it is now lies outside where it was. A box whose corner stays
// while its far edges come or go is not moving: a sibling's transition
// that makes room beside it (a row's hover effect, set off by a pointer
// that rests where the last action left it) changes its width for half a
// second, and the click lands on it either way. A transition on the
// target itself, around it or in what it controls still holds the action
// (Animating).
func moved(a, b screen.Box) bool {
	if math.Abs(a.X-b.X) >= 1 || math.Abs(a.Y-b.Y) >= 1 {
		return true
	}
	mx, my := b.X+b.Width/2, b.Y+b.Height/2
	return mx < a.X || mx > a.X+a.Width || my < a.Y || my > a.Y+a.Height
}

// aim scrolls the element of ref to the middle of the viewport and returns
// where it was right after the scroll and two frames later.
func (p *tab) aim(ctx context.Context, ref, document string) (first, second *browser.RefPoint, err error) {
	if inFrame(ref) {
		return p.aimInFrame(ctx, ref, document)
	}
	var text string
	err = p.callInWorld(ctx, aimScript, true, &text, ref, document)
	if err == nil && text == "" {
		err = browser.ErrNotInstalled
	}
	if err != nil {
		return nil, nil, err
	}
	return browser.ReadAim(text, ref)
}

// aimInFrame is aim for an element inside a cross-origin frame, through
// the frames on the way.
func (p *tab) aimInFrame(ctx context.Context, ref, document string) (first, second *browser.RefPoint, err error) {
	t, err := p.target()
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := p.in(ctx)
	defer cancel()
	doc := browser.InDocument(document)
	if first, err = browser.ScrollIntoView(ref, doc)(ctx, t); err != nil {
		return nil, nil, err
	}
	if err := p.callInWorld(ctx, nextFrameScript, true, nil); err != nil {
		return nil, nil, err
	}
	second, err = browser.Point(ref, doc)(ctx, t)
	return first, second, err
}

// settle waits, after an action, for the navigation it started (if any) to
// reach a ready document, up to the navigation timeout. A click that
// submits a form starts the navigation while the click is handled; the
// round trip first makes sure its events have arrived. When the timeout
// passes, expired is true and the load is stopped, so the tab stays on what
// it shows and the next action's wait decides whether that matters.
func (p *tab) settle(ctx context.Context, before navMark) (expired bool, err error) {
	sctx, cancel := context.WithTimeout(ctx, p.r.opts.NavigationTimeout)
	defer cancel()
	if _, err := call(sctx, p, runtime.Evaluate, runtime.EvaluateParams{Expression: "0", Silent: new(true)}); err != nil {
		if gone := p.nav.gone(); gone != nil {
			return false, gone
		}
		// A page busy navigating may not answer; the wait below decides.
	}
	for {
		over, wake := p.nav.done(before)
		if over {
			return false, p.nav.gone()
		}
		select {
		case <-sctx.Done():
			if ctx.Err() != nil {
				return false, ctx.Err()
			}
			p.stopLoading(ctx)
			return true, nil
		case <-wake:
		}
	}
}

// readLog keeps each distinct observation once, in order.
type readLog struct {
	seen  map[string]bool
	items []string
}

// maxReads bounds what one wait notes: a page that keeps changing must not
// fill a report.
const maxReads = 20

func (l *readLog) add(s string) {
	if l == nil || s == "" {
		return
	}
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	if l.seen[s] || len(l.items) >= maxReads {
		return
	}
	l.seen[s] = true
	l.items = append(l.items, s)
}
