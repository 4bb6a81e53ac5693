// Package screendiff is what changed between two screens of a page (docs/screen-diffs.md
// ): Diff compares a screen captured before an action with one captured
// after it and lists the changes, and a Result answers change matchers (the
// {change, selector} items of assertChange) with found, found with its
// identity ambiguous, or not found.
//
// # Identity
//
// Before and after nodes are paired by the page model's refs first: a ref
// stays with its element while the element is connected and is never given
// to another one (docs/screen-schema.md, Refs), so two nodes with the same
// ref in two screens of one document are the same element, wherever it went
// in the tree. Screens of two documents (Screen.Document differs) share no
// element, and nothing is paired by ref.
//
// What is left unpaired was added or removed. When a re-render throws an
// element away and puts an equivalent one in its place (a keyed list
// rendered again under new keys), a removed subtree root and an added one
// under the same parent, reading the same (tag, role, name, text, id, test
// id and states), are paired by that equivalence instead: one
// possible-replacement change, in document order when several read alike.
// Nothing proves they are the same thing to a person, so a matcher for added
// (reading the after side) or removed (reading only the before side) that
// finds its node through one says its identity is ambiguous, never a plain
// pass.
//
// # Roots
//
// An added or removed subtree is one change at its root: a dialog that opens
// with forty nodes inside is one added dialog, and a matcher for a node
// inside it finds that change. Likewise a node whose visibility or disabled
// state changes with its parent's is folded into the parent's change, a node
// carried along by its parent's move is not moved itself, and a box that
// grows or shrinks around a change inside it, or moves because a sibling
// appeared, vanished or changed size, is a consequence and not listed
// (MinMove, MinResize and docs/screen-diffs.md give the rules).
//
// # What it must not do
//
// It is pure: no I/O, no browser, no clock. The same two screens give the
// same changes in the same order (document order of the after screen,
// removals where they were). It reads screens as the page model wrote them,
// so secrets stay out of a diff the way they stay out of a screen. It
// imports only recorder/screen and recorder/selector, whose one matcher
// resolves the ignore list and a matcher's selector.
package screendiff
