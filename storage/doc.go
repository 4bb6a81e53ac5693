// Package storage keeps Trailpin's state: the SQLite database (sessions,
// interactions, screens, trails and runs) and trail files on disk.
//
// It imports recorder; it never imports replay or host.
package storage
