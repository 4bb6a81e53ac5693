// Package recorder holds the pure model of Trailpin: screens captured by the
// page model, their ARIA snapshot text, selectors (the model, the one matcher
// and the generator) and the steps of a trail.
//
// It does no I/O and imports none of Trailpin's other packages: storage,
// replay and host build on it, never the other way round.
package recorder
