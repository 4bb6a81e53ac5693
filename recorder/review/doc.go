// Package review is the save-time selector review (docs/review.md): for a
// recorded step it builds the menu of selectors that name the step's
// element alone on every captured screen of the session where it appears,
// says in words what each option checks and what it survives, and answers
// with a small, explainable decision engine which option fits the step's
// intent, with a probability. It also fits the engine's weights from a
// labelled dataset and evaluates it against the recorder's choice.
//
// The package is pure: it reads no file and calls no model. Screens come
// from the caller, a dataset's screen files through a function the caller
// gives, and the model that answers when the engine is unsure is an
// Answerer the caller provides. Every option comes from the one generator
// and is checked by the one matcher of recorder/selector; there is no
// second selector engine here.
package review
