// Package selector holds the selectors a step names its element by
// (docs/selectors.md): the Selector model and its validation, the one matcher that
// evaluates a selector on a screen (Match, Matcher), and the generator that
// writes the shortest selector that names an element alone (Generate,
// Retarget) together with the candidates a review offers (Candidates).
//
// Recording, review and replay all match through this package: there is no
// second selector engine. Roles lists the roles a selector may name, for the
// generator, the matcher and the trail loader alike. It imports only
// recorder/screen and recorder/yamlerr; the YAML form of a selector belongs
// to the trail format (recorder/trail).
package selector
