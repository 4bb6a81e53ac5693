// Package storage keeps Trailpin's state: the SQLite database (sessions,
// interactions, screens, trails and runs) and trail files on disk.
//
// Secret values are hidden in everything it stores by the one redactor of
// storage/redact; storage/storagetest holds the checks only tests use (the
// integrity check, the secret scan of a database).
//
// It imports recorder; it never imports replay or host.
package storage
