package trail

import (
	"errors"
	"strings"
)

// Categories of trail errors, for errors.Is on a *yamlerr.Error (beside
// yamlerr.ErrUnknownKey).
var (
	// ErrLegacyText: expectedText or textMatchMode, which `host migrate`
	// folds into the selector.
	ErrLegacyText = errors.New("legacy expectedText")
	// ErrInvalidTrail: any other problem with a trail's content.
	ErrInvalidTrail = errors.New("invalid trail")
)

// maxTrailErrors caps how many problems one file reports: past this many, a
// file is usually not a trail at all and more lines would bury the first.
const maxTrailErrors = 30

// quoteList renders words for a message: "a", "b" and "c".
func quoteList(words []string) string {
	return strings.Join(words, ", ")
}

// ErrLegacyForm is a key written in a form version 1 files used before
// (assertChange's retry as a bare number), which `host migrate` rewrites.
var ErrLegacyForm = errors.New("legacy form")
