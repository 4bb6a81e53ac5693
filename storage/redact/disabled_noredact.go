//go:build trailpin_noredact

package redact

// disabled: this build redacts nothing. It exists only so that a test can
// show the leak scanner finds every form of a secret that redaction would
// have hidden; never ship it.
const disabled = true
