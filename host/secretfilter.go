package main

import (
	"io"
	"log/slog"
	"sync/atomic"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/redact"
)

// A secretFilter hides the values of the secrets this host process knows
// (the projects' secrets and users' passwords it has loaded) in what it
// writes: the database, with each value stored as its ${secret:NAME}
// reference, and the log, with [secret:NAME]. It learns values as projects
// load, so each output asks it at the moment it writes.
type secretFilter struct {
	db, log atomic.Pointer[redact.Redactor]
}

// learn replaces the secrets the filter hides with values (by name). It
// logs once, for the names that are new, when a value is too short to be
// redacted inside other text.
func (f *secretFilter) learn(values map[string]string, known map[string]bool, log *slog.Logger) {
	list := storage.SecretList(values)
	f.db.Store(redact.New(list, storage.SecretReference))
	f.log.Store(redact.New(list, func(name string) string { return replay.SecretPlaceholder("secret:" + name) }))
	var short []string
	for _, name := range redact.TooShort(list) {
		if !known[name] {
			short = append(short, storage.SecretReference(name))
		}
	}
	if note := redact.ShortNotice(short); note != "" && log != nil {
		log.Warn(note)
	}
}

// database is the storage.Redactor of the database.
func (f *secretFilter) database(b []byte) []byte { return f.db.Load().Bytes(b) }

// writer returns w with every write passed through the log's redactor:
// slog writes each record in one call, so a value is never split.
func (f *secretFilter) writer(w io.Writer) io.Writer { return redactingWriter{w: w, f: f} }

type redactingWriter struct {
	w io.Writer
	f *secretFilter
}

func (w redactingWriter) Write(b []byte) (int, error) {
	if _, err := w.w.Write(w.f.log.Load().Bytes(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}
