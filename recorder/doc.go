// Package recorder holds the pure model of Trailpin, in subpackages that
// follow the way a recording becomes a trail:
//
//   - screen: a screen as the page model captures it (Screen, Node) and its
//     ARIA snapshot text, rendered and parsed back.
//   - selector: selectors on a screen: the model, the one matcher and the
//     generator (with the candidates a review offers).
//   - screendiff: what changed between two screens (the diff an
//     assertChange checks), and the matchers that read it.
//   - trail: the trail format: its types, the strict loader, the writer,
//     migration of older files and trail file names.
//   - steps: from the interactions of a recording to the steps of a trail,
//     with their intents.
//   - yamlerr: the error of a strict YAML reader (file, line, key, fix,
//     did-you-mean), shared by trails and host configuration.
//
// Imports point downward only: steps imports trail, screendiff, selector and
// screen; trail imports screendiff (the kinds and fields a change matcher may
// name), selector, screen and yamlerr; screendiff imports selector and screen; selector imports screen and
// yamlerr; screen and yamlerr import none of the others (TestImportsPointDown
// keeps it so). Test helpers that build screens sit in internal/screentest,
// on top of screen only.
//
// Nothing here does I/O or imports Trailpin's other packages: storage,
// replay and host build on the recorder, never the other way round.
package recorder
