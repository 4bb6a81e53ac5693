//go:build !trailpin_noredact

package redact

// disabled is set only in the test build that proves the leak scanner finds
// what redaction hides (build tag trailpin_noredact).
const disabled = false
