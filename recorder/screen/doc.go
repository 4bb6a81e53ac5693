// Package screen is a page as Trailpin sees it: the Screen and Node tree the
// page model captures (docs/screen-schema.md), its text normalisation, and
// the ARIA snapshot text of a screen, rendered (whole, interactive only,
// quoted) and parsed back to the same nodes.
//
// It is the lowest layer of the recorder: it imports none of the other
// recorder packages, and selectors, trails and steps build on it.
package screen
