// Package trail is the trail format (docs/trail-format.md): the Trail, Step
// and Action types, the strict loader that reports every problem with file,
// line and a fix (LoadTrail), the writer that gives the same bytes for the
// same trail (MarshalTrail), migration of older files, references to params
// and secrets, app paths, and trail file names (Slug).
//
// It imports recorder/selector, recorder/screen and recorder/yamlerr, never
// recorder/steps: building steps from a recording sits above the format.
package trail
