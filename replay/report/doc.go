// Package report turns replay results into what people and machines read
// after a run: live progress on a terminal (plain lines elsewhere), status
// lines (--format status, docs/ci.md), JUnit XML (--junit), a trace page per
// failing trail (<results>/<trail-slug>/trace.md with its screenshot), and
// the summary printed at the end of a run.
//
// Everything here is built from replay.TrailResult values alone (grouped
// into a Run): the package never drives a browser, reads a trail file or
// touches the database, so every report can be tested from hand-made
// results. Results are redacted by the engine already; each writer also
// takes a Redactor and applies it to every string before escaping it, so a
// secret that slipped into a result still never reaches a report.
//
// It imports replay, recorder and storage/atomicfile (which imports only
// the standard library); nothing in replay imports it.
package report
