package replay

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// openRun opens tr's start page in a fresh browser context of the test
// browser and returns the run, ready for its actions.
func openRun(t *testing.T, tr *trail.Trail, base string, opts Options) (*trailRun, context.Context) {
	t.Helper()
	engineSlots <- struct{}{}
	t.Cleanup(func() { <-engineSlots })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	opts.BaseURL = base
	if opts.Lookup == nil {
		opts.Lookup = demoPassword
	}
	r := newTrailRun(testBrowser(t), tr, opts)
	t.Cleanup(r.closeAll)
	if err := r.prepare(); err != nil {
		t.Fatal(err)
	}
	go r.dialogs.serve(ctx)
	p, err := r.openPage(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	r.page = p
	if err := r.openStart(ctx); err != nil {
		t.Fatal(err)
	}
	return r, ctx
}

// TestActByRef: the acts a recorded action uses work on an element found
// by its ref, as the agent's tools will find it; the value they return says
// what they landed on and did. A ref the page no longer shows, or a ref of
// a document the page has left, is refused at once and never taken for
// another element.
func TestActByRef(t *testing.T) {
	t.Parallel()
	srv := fixtureServer(t)
	tr := inlineTrail(t, "version: 1\ntrail: Refs\napp: fixture\nstart: /fixture\nsteps:\n  - intent: Nothing\n    actions:\n      - press: {key: Tab}\n")
	// A refusal that waited for the ref would take the whole action
	// timeout: a minute, which no refusal at once takes on a loaded machine.
	r, ctx := openRun(t, tr, srv.URL, Options{ActionTimeout: time.Minute})
	p := r.page
	s, m, err := p.look(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := m.Match(selector.Selector{Role: "button", Name: "Twice"})
	if err != nil {
		t.Fatal(err)
	}
	ref, doc := nodes[0].Ref, s.Document

	tapTwice := onElement(findRef(ref, doc, needActionable), func(f found) Action[done] {
		return tap(f, trail.Tap{Button: trail.ButtonLeft, Count: 2})
	})
	d, err := settled(tapTwice)(ctx, p)
	if err != nil {
		t.Fatalf("tapping %s by its ref: %v", ref, err)
	}
	if d.node == nil || d.node.Ref != ref || !d.reached || d.summary != `double-tapped button "Twice"` {
		t.Errorf("tap by ref returned node %v, reached %v, summary %q; want %s, true, a double tap of Twice", d.node, d.reached, d.summary, ref)
	}
	seen, err := r.play(trail.AssertVisible{Selector: selector.Selector{ID: "log", Text: "double"}})(ctx, p)
	if err != nil {
		t.Fatalf("the page did not see the double tap: %v (read %q)", err, seen.reads)
	}
	if seen.node == nil || seen.node.Text != "double" || seen.reached {
		t.Errorf("assertVisible returned node %v, reached %v; want the log it read and no input", seen.node, seen.reached)
	}

	// A ref this document never showed.
	start := time.Now()
	if _, err := findRef("e99999", doc, needActionable)(ctx, p); !errors.Is(err, browser.ErrStaleRef) {
		t.Errorf("findRef of a ref the page does not show: %v, want browser.ErrStaleRef", err)
	}
	if took := time.Since(start); took >= r.opts.ActionTimeout {
		t.Errorf("refusing a ref the page does not show took %s: it waited for it instead of refusing at once", took)
	}
	// The same ref after the page loaded another document: refs are
	// numbered per document, so the old one must not name an element of
	// the new page.
	if err := p.load(ctx, srv.URL+"/fixture"); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	_, err = findRef(ref, doc, needActionable)(ctx, p)
	if !errors.Is(err, browser.ErrStaleRef) || !strings.Contains(err.Error(), "another document") {
		t.Errorf("findRef of a ref from before a navigation: %v, want browser.ErrStaleRef saying the page loaded another document", err)
	}
	if took := time.Since(start); took >= r.opts.ActionTimeout {
		t.Errorf("refusing a ref from before a navigation took %s: it waited for it instead of refusing at once", took)
	}
}
