// Package headless is a tab of a headless Chromium the host starts and
// drives itself, with Trailpin's page model (browser/): no extension and no
// person. `host mcp --headless` acts in it for an outside agent (docs/mcp.md):
// it captures screens, finds the element of a ref only in the document the
// ref was given out in, acts with trusted input, and says which pages the
// tab committed, so that the door can record what happened as the
// extension's recorder would (docs/recording.md).
//
// It knows nothing of trails or recordings: the door decides what is
// recorded.
package headless

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/extension"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// ErrStale says that a ref names no element of the page as it is now: the
// element is gone, or the page loaded another document since the ref was
// given out. Nothing was done.
var ErrStale = errors.New("stale ref")

// Options says how the tab's browser starts.
type Options struct {
	// ExecPath is the browser; browser.FindChrome's answer when empty.
	ExecPath string
	// Width and Height are the viewport in CSS pixels; 0 means
	// browser.DefaultViewportWidth x DefaultViewportHeight.
	Width, Height int
	// NavigationTimeout bounds a page load; 0 means 30s.
	NavigationTimeout time.Duration
	// Logf gets the browser's own log lines; nil discards them.
	Logf func(format string, args ...any)
}

// A Navigation is a page the tab's top frame committed.
type Navigation struct {
	URL  string
	Time time.Time
}

// A Tab is the one tab of a headless browser. Its methods are safe for one
// caller at a time (the door serialises its calls).
type Tab struct {
	b      *browser.Browser
	ctx    context.Context
	cancel context.CancelFunc
	opts   Options

	mu      sync.Mutex
	navs    []Navigation
	loading bool
	// changed is closed, and replaced, whenever loading changes.
	changed chan struct{}
}

// Start starts a headless browser with one blank tab.
func Start(ctx context.Context, o Options) (*Tab, error) {
	if o.Width == 0 && o.Height == 0 {
		o.Width, o.Height = browser.DefaultViewportWidth, browser.DefaultViewportHeight
	}
	if o.NavigationTimeout <= 0 {
		o.NavigationTimeout = 30 * time.Second
	}
	b, err := browser.Start(ctx, browser.Options{ExecPath: o.ExecPath, Headless: true, Logf: o.Logf})
	if err != nil {
		return nil, err
	}
	t := &Tab{b: b, opts: o, changed: make(chan struct{})}
	t.ctx, t.cancel = b.NewContext(t.listen)
	if err := chromedp.Do(t.ctx, chromedp.EmulateViewport(int64(o.Width), int64(o.Height))); err != nil {
		t.Close()
		return nil, fmt.Errorf("opening the tab: %w", err)
	}
	return t, nil
}

// Close closes the tab and ends the browser.
func (t *Tab) Close() error {
	if t.cancel != nil {
		t.cancel()
	}
	return t.b.Close()
}

// Viewport is the tab's layout viewport.
func (t *Tab) Viewport() screen.Viewport {
	return screen.Viewport{Width: t.opts.Width, Height: t.opts.Height}
}

// listen follows the top frame's page loads and commits.
func (t *Tab) listen(ev any) {
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		if ev.Frame != nil && ev.Frame.ParentID == "" && ev.Type == page.NavigationTypeNavigation {
			t.mu.Lock()
			t.navs = append(t.navs, Navigation{URL: ev.Frame.URL, Time: time.Now()})
			t.mu.Unlock()
		}
	case *page.EventFrameStartedLoading:
		t.setLoading(ev.FrameID, true)
	case *page.EventFrameStoppedLoading:
		t.setLoading(ev.FrameID, false)
	}
}

func (t *Tab) setLoading(frame cdp.FrameID, on bool) {
	c := chromedp.FromContext(t.ctx)
	if c == nil || c.Target == nil || string(frame) != string(c.Target.TargetID) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.loading != on {
		t.loading = on
		close(t.changed)
		t.changed = make(chan struct{})
	}
}

// TakeNavigations returns the pages the top frame committed since the last
// call, in order.
func (t *Tab) TakeNavigations() []Navigation {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.navs
	t.navs = nil
	return out
}

// loadGrace is how long settle waits for a page load an action may start
// (a link, a form): one starts within a few frames of the input or not at
// all.
const loadGrace = 300 * time.Millisecond

// settle waits for a page load under way, or one the action that just ran
// started, to end (at most NavigationTimeout). Every action and navigation
// settles before it returns.
func (t *Tab) settle(ctx context.Context) {
	t.settleWithin(ctx, loadGrace)
}

// settleWithin is settle that waits grace for a load to start: 0 when no
// input went out since the last settle, as before a capture.
func (t *Tab) settleWithin(ctx context.Context, grace0 time.Duration) {
	grace := time.NewTimer(grace0)
	defer grace.Stop()
	deadline := time.NewTimer(t.opts.NavigationTimeout)
	defer deadline.Stop()
	for {
		t.mu.Lock()
		loading, changed := t.loading, t.changed
		t.mu.Unlock()
		if loading {
			select {
			case <-changed:
				continue
			case <-deadline.C:
				return
			case <-ctx.Done():
				return
			}
		}
		select {
		case <-changed:
		case <-grace.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// run runs actions in the tab, bounded by ctx as well as the tab's life.
func (t *Tab) run(ctx context.Context, fn func(ctx context.Context) error) error {
	tctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	err := fn(tctx)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// Screen captures the page as it is now, once a load under way ended. It
// gives no grace for a load to start: the action before it, if any, waited
// for that before it returned.
func (t *Tab) Screen(ctx context.Context) (*screen.Screen, error) {
	t.settleWithin(ctx, 0)
	var s *screen.Screen
	err := t.run(ctx, func(ctx context.Context) error {
		var err error
		s, err = browser.Capture(ctx, browser.CaptureOptions{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("capturing the page: %w", err)
	}
	return s, nil
}

// Navigate loads url and waits for its load event.
func (t *Tab) Navigate(ctx context.Context, url string) error {
	err := t.run(ctx, func(ctx context.Context) error {
		nctx, cancel := context.WithTimeout(ctx, t.opts.NavigationTimeout)
		defer cancel()
		return chromedp.Do(nctx, chromedp.Navigate(url))
	})
	if err != nil {
		return fmt.Errorf("loading %s: %w", url, err)
	}
	t.settle(ctx)
	return nil
}

// A Target is the element an action is aimed at: its ref, in the document
// the ref was given out in. Before runs once the element was found, right
// before the first input goes out; an error from it stops the action with
// nothing sent. (A list box's choice runs it once the page read the choice
// back as asked instead: a choice the page changed records nothing.)
type Target struct {
	Ref, Document string
	Before        func() error
}

// staleError turns a ref the page model cannot find into ErrStale.
func staleError(ref string, err error) error {
	var re *browser.RefError
	if errors.As(err, &re) {
		return fmt.Errorf("%w: %s", ErrStale, re.Message)
	}
	return err
}

// aim scrolls the element of tg into view and says where to click it.
func (t *Tab) aim(ctx context.Context, tg Target) (*browser.RefPoint, error) {
	p, err := chromedp.Run(ctx, browser.ScrollIntoView(tg.Ref, browser.InDocument(tg.Document)))
	if err != nil {
		return nil, staleError(tg.Ref, err)
	}
	return p, nil
}

func (t *Tab) target() (*chromedp.Target, error) {
	c := chromedp.FromContext(t.ctx)
	if c == nil || c.Target == nil {
		return nil, errors.New("the tab is closed")
	}
	return c.Target, nil
}

func (t *Tab) input() (browser.Mouse, browser.Keyboard) {
	reached := new(bool)
	return browser.Mouse{Target: t.target, Reached: reached}, browser.Keyboard{Target: t.target, Reached: reached}
}

// before runs tg.Before, when set.
func (tg Target) before() error {
	if tg.Before == nil {
		return nil
	}
	return tg.Before()
}

// A Click is how Tap clicks: Count times (0 is once) with Button (""
// is the left one), Modifiers held.
type Click struct {
	Count     int
	Button    trail.MouseButton
	Modifiers []trail.Modifier
}

// Tap clicks the centre of the element of tg as c says, then waits for a
// page load it started.
func (t *Tab) Tap(ctx context.Context, tg Target, c Click) error {
	button := c.Button
	if button == "" {
		button = trail.ButtonLeft
	}
	return t.pointer(ctx, tg, func(ctx context.Context, mouse browser.Mouse, x, y float64) error {
		return mouse.Click(ctx, x, y, button, max(c.Count, 1), c.Modifiers)
	})
}

// Hover moves the mouse onto the centre of the element of tg, pressing
// nothing, so that what the page shows on :hover or mouseenter shows.
func (t *Tab) Hover(ctx context.Context, tg Target) error {
	return t.pointer(ctx, tg, func(ctx context.Context, mouse browser.Mouse, x, y float64) error {
		return mouse.Move(ctx, x, y, 0)
	})
}

// pointer aims at the centre of the element of tg, runs tg's last check,
// does act with the mouse there, then waits for a page load it started:
// what Tap and Hover share.
func (t *Tab) pointer(ctx context.Context, tg Target, act func(ctx context.Context, mouse browser.Mouse, x, y float64) error) error {
	err := t.run(ctx, func(ctx context.Context) error {
		p, err := t.aim(ctx, tg)
		if err != nil {
			return err
		}
		if err := tg.before(); err != nil {
			return err
		}
		mouse, _ := t.input()
		return act(ctx, mouse, p.X, p.Y)
	})
	if err != nil {
		return err
	}
	t.settle(ctx)
	return nil
}

// Type clicks into the field of tg, clears it and types text key by key.
// It returns the field's value once typed.
func (t *Tab) Type(ctx context.Context, tg Target, text string) (string, error) {
	var value string
	err := t.run(ctx, func(ctx context.Context) error {
		p, err := t.aim(ctx, tg)
		if err != nil {
			return err
		}
		if err := tg.before(); err != nil {
			return err
		}
		mouse, kb := t.input()
		if err := mouse.Click(ctx, p.X, p.Y, trail.ButtonLeft, 1, nil); err != nil {
			return err
		}
		var at struct {
			Focused bool `json:"focused"`
		}
		if err := t.onElement(ctx, tg, typingTargetScript, &at); err != nil {
			return err
		}
		if !at.Focused {
			return fmt.Errorf("%s does not take the focus, so nothing was typed: is it a text field?", tg.Ref)
		}
		if err := kb.ClearField(ctx); err != nil {
			return err
		}
		if err := kb.TypeText(ctx, text); err != nil {
			return err
		}
		var v struct {
			Value string `json:"value"`
		}
		if err := t.onElement(ctx, tg, fieldValueScript, &v); err != nil {
			return err
		}
		value = v.Value
		return nil
	})
	if err != nil {
		return "", err
	}
	t.settle(ctx)
	return value, nil
}

// Select chooses the options labelled labels in the drop-down (<select>) of
// tg, as a person's choice does, and returns the labels chosen.
func (t *Tab) Select(ctx context.Context, tg Target, labels []string) ([]string, error) {
	var answer struct {
		Missing  string   `json:"missing"`
		Single   bool     `json:"single"`
		Options  []string `json:"options"`
		Chosen   []string `json:"chosen"`
		Selected []string `json:"selected"`
	}
	err := t.run(ctx, func(ctx context.Context) error {
		if _, err := t.aim(ctx, tg); err != nil {
			return err
		}
		var probe struct {
			Tag string `json:"tag"`
		}
		if err := t.onElement(ctx, tg, tagScript, &probe); err != nil {
			return err
		}
		if probe.Tag != "select" {
			chosen, err := t.chooseInListBox(ctx, tg, labels)
			answer.Chosen = chosen
			return err
		}
		// A label the select does not have, or several for a select of
		// one choice, is refused before anything is recorded or chosen.
		if err := t.onElementArgs(ctx, tg, selectOptionsScript, &answer, labels, true); err != nil || answer.Single || answer.Missing != "" {
			return err
		}
		if err := tg.before(); err != nil {
			return err
		}
		return t.onElementArgs(ctx, tg, selectOptionsScript, &answer, labels, false)
	})
	switch {
	case err != nil:
		return nil, err
	case answer.Single:
		return nil, fmt.Errorf("%s takes one option, and %d were given", tg.Ref, len(labels))
	case answer.Missing != "":
		return nil, fmt.Errorf("%s has no option %q (it has %s)", tg.Ref, answer.Missing, strings.Join(answer.Options, ", "))
	}
	t.settle(ctx)
	return answer.Chosen, nil
}

// chooseInListBox chooses exactly the options labelled labels in the ARIA
// list box (role=listbox) of tg as a person does: a trusted click on the
// first option, a Control-click on each other one (aria-multiselectable).
// A label the list box lacks, an empty or repeated label, or several for a
// list box of one choice is refused before anything is recorded or
// clicked. It reads the choice back (aria-selected) and returns the labels
// selected; a page that ended with another choice is an error, and then
// tg's Before never runs: the clicks reached the page, but the choice is
// not recorded, since replay, which reads the choice back too, would fail
// on it. Before runs once the choice read back holds, so the interaction
// it records comes right after the clicks, with nothing in between.
func (t *Tab) chooseInListBox(ctx context.Context, tg Target, labels []string) ([]string, error) {
	var list struct {
		ListBox  bool     `json:"listbox"`
		Several  bool     `json:"several"`
		Self     string   `json:"self"`
		Refs     []string `json:"refs"`
		Missing  *string  `json:"missing"`
		Options  []string `json:"options"`
		Selected []string `json:"selected"`
	}
	if err := t.onElementArgs(ctx, tg, listBoxScript, &list, labels); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range labels {
		n := strings.Join(strings.Fields(l), " ")
		if n == "" || seen[n] {
			return nil, fmt.Errorf("%s: the label %q is empty or given twice; nothing was chosen", tg.Ref, l)
		}
		seen[n] = true
	}
	switch {
	case !list.ListBox:
		return nil, fmt.Errorf("%s is not a drop-down (<select>) or a list box (role listbox): click its options instead", tg.Ref)
	case list.Missing != nil:
		return nil, fmt.Errorf("%s has no option %q (it has %s)", tg.Ref, *list.Missing, strings.Join(list.Options, ", "))
	case !list.Several && len(labels) > 1:
		return nil, fmt.Errorf("%s takes one option, and %d were given", tg.Ref, len(labels))
	case len(list.Refs) != len(labels) || !strings.HasSuffix(tg.Ref, list.Self):
		return nil, fmt.Errorf("%s: its options could not be found", tg.Ref)
	}
	// Refs in a frame carry the frame's prefix; the page model there gives
	// the local ones.
	prefix := strings.TrimSuffix(tg.Ref, list.Self)
	points := make([]*browser.RefPoint, len(list.Refs))
	check := func(i int) error {
		p, err := t.aim(ctx, Target{Ref: prefix + list.Refs[i], Document: tg.Document})
		if err != nil {
			return err
		}
		covered := p.Covered != nil && *p.Covered
		if !p.InViewport || covered || p.Box.Width <= 0 || p.Box.Height <= 0 {
			why := "it is outside the viewport"
			switch {
			case covered:
				why = "another element (" + p.Hit + ") covers it"
			case p.InViewport:
				why = "it has no size"
			}
			return fmt.Errorf("the option %q of %s cannot be clicked: %s; nothing was chosen", labels[i], tg.Ref, why)
		}
		points[i] = p
		return nil
	}
	// Every option must be clickable before any is clicked.
	for i := range list.Refs {
		if err := check(i); err != nil {
			return nil, err
		}
	}
	mouse, _ := t.input()
	for i := range list.Refs {
		if i > 0 {
			// Scrolled into view again: the first click may have moved it.
			if err := check(i); err != nil {
				return nil, err
			}
		}
		var mods []trail.Modifier
		if i > 0 {
			mods = []trail.Modifier{trail.ModifierControl}
		}
		if err := mouse.Click(ctx, points[i].X, points[i].Y, trail.ButtonLeft, 1, mods); err != nil {
			return nil, err
		}
	}
	if err := t.onElementArgs(ctx, tg, listBoxScript, &list, []string{}); err != nil {
		return nil, err
	}
	got := map[string]bool{}
	for _, s := range list.Selected {
		got[s] = true
	}
	same := len(got) == len(seen)
	for l := range seen {
		same = same && got[l]
	}
	if !same {
		return nil, fmt.Errorf("%s ended with %s selected, not %s: the page changed the choice. The options were clicked, and nothing was recorded", tg.Ref, quoteAll(list.Selected), quoteAll(labels))
	}
	if err := tg.before(); err != nil {
		return nil, err
	}
	return list.Selected, nil
}

// quoteAll quotes each label, or says nothing.
func quoteAll(labels []string) string {
	if len(labels) == 0 {
		return "nothing"
	}
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = strconv.Quote(l)
	}
	return strings.Join(q, ", ")
}

// Press presses key (a character or a key name such as Enter, with
// modifiers as Control+a) where the focus is.
func (t *Tab) Press(ctx context.Context, key string, before func() error) error {
	name, mods := ParseKey(key)
	k, ok := browser.KeyFor(name)
	if !ok {
		return fmt.Errorf("key %q: give a character or a key name such as Enter, Tab, ArrowDown or Escape", key)
	}
	err := t.run(ctx, func(ctx context.Context) error {
		if before != nil {
			if err := before(); err != nil {
				return err
			}
		}
		_, kb := t.input()
		return kb.Press(ctx, k, mods)
	})
	if err != nil {
		return err
	}
	t.settle(ctx)
	return nil
}

// ParseKey splits "Control+Shift+a" into its key and modifiers.
func ParseKey(key string) (string, []trail.Modifier) {
	parts := strings.Split(key, "+")
	if len(parts) < 2 || parts[len(parts)-1] == "" {
		return key, nil
	}
	var mods []trail.Modifier
	for _, p := range parts[:len(parts)-1] {
		mods = append(mods, trail.Modifier(p))
	}
	return parts[len(parts)-1], mods
}

// Location is the address of the page the tab shows now.
func (t *Tab) Location(ctx context.Context) (string, error) {
	var loc string
	err := t.run(ctx, func(ctx context.Context) error {
		var err error
		loc, err = chromedp.Run(ctx, chromedp.Location())
		return err
	})
	return loc, err
}

// onElement calls fn on the element of tg, in its frame's page-model world.
func (t *Tab) onElement(ctx context.Context, tg Target, fn string, out any) error {
	c, err := t.target()
	if err != nil {
		return err
	}
	err = browser.WithElement(ctx, c, tg.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
		return m.CallOn(ctx, obj, fn, out)
	})
	return staleError(tg.Ref, err)
}

func (t *Tab) onElementArgs(ctx context.Context, tg Target, fn string, out any, args ...any) error {
	c, err := t.target()
	if err != nil {
		return err
	}
	err = browser.WithElement(ctx, c, tg.Ref, func(m *browser.Frame, obj runtime.RemoteObjectID) error {
		return m.CallOnArgs(ctx, obj, fn, out, args...)
	})
	return staleError(tg.Ref, err)
}

var (
	selectOptionsScript = extension.ReplayScript("select-options.js")
	typingTargetScript  = extension.ReplayScript("typing-target.js")
)

// fieldValueScript reads a field's value (an input's, a text area's, or an
// editable element's text).
const fieldValueScript = `function () {
  const v = 'value' in this ? this.value : this.textContent;
  return { value: typeof v === 'string' ? v : '' };
}`

// listBoxScript reads an ARIA list box (this): whether it is one, whether
// it takes several options, its own ref and those of the options labelled
// labels (by aria-label, else text; whitespace folded) in the page
// model's world, or the first label it lacks with the labels it has, and
// the labels of the options selected now (aria-selected="true").
const listBoxScript = `function (labels) {
  const norm = (s) => String(s).replace(/\s+/g, ' ').trim();
  if (this.getAttribute('role') !== 'listbox') return { listbox: false };
  const pm = globalThis.__trailpinPageModel;
  const options = [...this.querySelectorAll('[role=option]')].filter((o) => o.closest('[role=listbox]') === this);
  const names = options.map((o) => norm(o.getAttribute('aria-label') || o.textContent || ''));
  const selected = options.filter((o) => o.getAttribute('aria-selected') === 'true').map((o) => norm(o.getAttribute('aria-label') || o.textContent || ''));
  const refs = [];
  for (const l of labels || []) {
    const i = names.indexOf(norm(l));
    if (i < 0) return { listbox: true, missing: l, options: names, selected };
    refs.push(pm.refForElement(options[i]));
  }
  return { listbox: true, several: this.getAttribute('aria-multiselectable') === 'true', self: pm.refForElement(this), refs, selected };
}`

// tagScript reads the element's tag name.
const tagScript = `function () { return { tag: this.localName }; }`
