package agent

import (
	"context"
	"errors"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// A Page is the page the agent acts on. Refs are those of the last screen
// Screen returned: an implementation acts on exactly the element a ref
// named there, or fails with ErrStaleRef (wrapped) when that element is
// gone or the page loaded another document. It never takes a ref for
// another element.
//
// Each method returns a sentence saying what it did, for the model and the
// trace ("tapped button \"Redeem\""), with secrets left as references.
type Page interface {
	// Screen captures the page as it is now.
	Screen(ctx context.Context) (*screen.Screen, error)
	// Tap clicks the element of ref.
	Tap(ctx context.Context, ref string) (string, error)
	// Type replaces the value of the field of ref with text. text may hold
	// ${secret:NAME} references, which the Page fills in at the moment it
	// types, and never returns or logs.
	Type(ctx context.Context, ref, text string) (string, error)
	// Select chooses the option labelled option in the select or listbox
	// of ref.
	Select(ctx context.Context, ref, option string) (string, error)
	// Press presses a key (Enter, Escape, Tab, ArrowDown, a character) on
	// the focused element.
	Press(ctx context.Context, key string) (string, error)
	// Navigate goes to a path of the app (with query), or back, forward,
	// reload.
	Navigate(ctx context.Context, path string) (string, error)
	// AssertVisible checks that the element of ref is visible.
	AssertVisible(ctx context.Context, ref string) (string, error)
	// AssertNotVisibleWithText checks that no visible element's text or
	// name is text.
	AssertNotVisibleWithText(ctx context.Context, text string) (string, error)
	// AssertChange checks spec (its references filled in) through the
	// code a trail's assertChange runs: its stored checks on the diff from
	// before to after, the screens around the agent's last action (id
	// names it), or its live checks on the page now against before. An
	// error is a page that could not be read; a check that cannot be made
	// is evidence that does not pass.
	AssertChange(ctx context.Context, spec trail.AssertChange, id string, before, after *screen.Screen) (*assertchange.Evidence, error)
}

var (
	// ErrStaleRef is what a Page's error wraps when the element of a ref is
	// no longer on the page (or the page loaded another document): the
	// agent refuses the call and shows the model a fresh snapshot.
	ErrStaleRef = errors.New("stale ref")
	// ErrPageGone is what a Page's error wraps when the page cannot be used
	// any more (the tab crashed or was closed): the agent stops.
	ErrPageGone = errors.New("the page is gone")
)

// An OffOriginError is what a Page returns when, at the moment it would
// act, the page or the frame of the element is on an origin the agent may
// not act on (Config.Origins): it did nothing there, and the agent stops,
// refused. A Page checks this itself, since the page can move between the
// screen the model was shown and the action.
type OffOriginError struct {
	// Origin is the refused origin; Why says where it was met ("the page
	// is on https://evil.example").
	Origin, Why string
}

func (e *OffOriginError) Error() string { return e.Why + ", which is not one of the app's origins" }
