// Package redact replaces the values of secrets in text that leaves the
// process: the database, trace pages, JUnit files, status lines, logs and
// model requests. It is the one rule for all of them, so that a value is
// hidden the same way wherever it could show.
//
// A value is replaced whole, in each form it takes in an output: as typed,
// JSON-escaped, URL-encoded (%XX in either case, + or %20 for a space) and
// HTML-escaped (named or numeric character references), or any mixture of
// these. Each output chooses the placeholder that stands in for it: storage
// writes the reference ${secret:NAME}, which saving a recording turns back
// into a secret field; reports write [secret:NAME].
//
// Redaction is for outputs only. Replay matches selectors against the page
// as it is; a value hidden before matching would hide every page text that
// contains it.
//
// The package is pure: it imports only the standard library, and neither
// storage nor replay, both of which use it.
package redact
