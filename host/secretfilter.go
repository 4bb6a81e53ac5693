package main

import (
	"io"
	"log/slog"
	"maps"
	"strings"
	"sync/atomic"

	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/redact"
	"github.com/trailpin/trailpin/storage/secrets"
)

// knownSecrets are every secret value this process could fill in, from
// sc and the environment (secrets.Resolver.Known), named as replay's
// placeholders show them: what each output's redactor hides, whether or
// not a trail or a goal names it.
func knownSecrets(e *env, sc secrets.Config) []redact.Secret {
	var environ []string
	if e.environ != nil {
		environ = e.environ()
	}
	var out []redact.Secret
	for _, k := range secrets.NewResolver(sc, e.getenv).Known(environ) {
		out = append(out, redact.Secret{Name: string(k.Ref.Kind) + ":" + k.Ref.Name, Value: k.Value})
	}
	return out
}

// A secretFilter hides the values of the secrets this host process knows
// (the projects' secrets and users' passwords it has loaded) in what it
// writes: the database, with each value stored as its ${secret:NAME}
// reference, and the log, with [secret:NAME]. It learns values as projects
// load, so each output asks it at the moment it writes.
type secretFilter struct {
	db, log atomic.Pointer[redact.Redactor]
	// env are the secret values the environment gives the process (every
	// TRAILPIN_SECRET_* and TRAILPIN_USER_*_PASSWORD), by name as learn
	// takes them: hidden from the start, whatever project loads.
	env map[string]string
}

// newSecretFilter is a filter that hides the secret values of e's
// environment from the start.
func newSecretFilter(e *env) *secretFilter {
	f := &secretFilter{env: map[string]string{}}
	for _, s := range knownSecrets(e, secrets.Config{}) {
		name := strings.TrimPrefix(s.Name, "secret:")
		if rest, ok := strings.CutPrefix(s.Name, "user:"); ok {
			name = "credentials." + rest
		}
		f.env[name] = s.Value
	}
	f.learn(nil, nil, nil)
	return f
}

// learn replaces the secrets the filter hides with values (by name), and
// those of the environment. It logs once, for the names that are new,
// when a value is too short to be redacted inside other text.
func (f *secretFilter) learn(values map[string]string, known map[string]bool, log *slog.Logger) {
	all := maps.Clone(f.env)
	if all == nil {
		all = map[string]string{}
	}
	maps.Copy(all, values)
	list := storage.SecretList(all)
	f.db.Store(redact.New(list, storage.SecretReference))
	f.log.Store(redact.New(list, func(name string) string { return replay.SecretPlaceholder("secret:" + name) }))
	var short []string
	for _, name := range redact.TooShort(list) {
		if _, fromEnv := f.env[name]; !known[name] && !fromEnv {
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
