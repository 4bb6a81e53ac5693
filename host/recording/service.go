package recording

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/secrets"
)

var (
	// screenIDRule is what the extension's screen ids may look like.
	screenIDRule = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)
	// refRule is a page model ref: e<N>, or f<K>e<N> inside a frame.
	refRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// Secrets hides the values of the secrets the host knows in what it
// writes. The service tells it each value it learns, and stores through it.
type Secrets interface {
	// Redact is the database's redactor: each known value becomes its
	// ${secret:NAME} reference.
	Redact(b []byte) []byte
	// Learn replaces the values hidden (by name; known are the names
	// learnt before), and logs once when one is too short to hide.
	Learn(values map[string]string, known map[string]bool, log *slog.Logger)
}

// An ExportFunc writes the saved trail slug into the folder dir as
// `host export` does, refusing a trail that holds one of secretValues. A
// refusal the person can act on is an *Error.
type ExportFunc func(ctx context.Context, db *storage.DB, slug, dir string, secretValues []string) (path string, unchanged bool, err error)

// Options are what a Service is made of; the door that starts it gives
// them.
type Options struct {
	// Config is nil when the configuration could not be read: every
	// operation that needs it fails with an Internal error.
	Config *config.Config
	Log    *slog.Logger
	// Secrets hides the secrets' values in the database (and the log);
	// nil hides none.
	Secrets Secrets
	// Getenv reads the environment the host was started with (the model's
	// key variable, TRAILPIN_SECRET_*); nil means os.Getenv.
	Getenv func(string) string
	// Environ lists that environment ("NAME=value"), for the secret values
	// the agent's redactor hides; nil lists none.
	Environ func() []string
	// LoadConfig loads the configuration with a project's trailpin.yaml
	// (its model and agent budgets win over the user config's); nil means
	// Config alone.
	LoadConfig func(projectFile string) (*config.Config, error)
	// Export writes a trail file (trail.export).
	Export ExportFunc
	// AgentMaxActions and AgentMaxCalls are the agent's budgets per goal
	// outside a project (replay's); a project's trailpin.yaml sets its own.
	AgentMaxActions, AgentMaxCalls int
}

// A Service is the recording of one host process, behind every door: each
// operation takes its typed request and returns its typed answer
// (host/PROTOCOL.md, Recording, says what each does). The database is
// opened on first use; everything a session needs to go on after a restart
// is in it, and the maps below are caches of it (except the screen a Stop
// sent, which Save in the same process uses).
type Service struct {
	opts Options
	log  *slog.Logger

	mu   sync.Mutex
	db   *storage.DB
	sess map[string]*recSession
	// secretValues are those secrets' values, by name, and the users'
	// passwords by "credentials.<user>.password".
	secretValues map[string]string
	// insecureSaid says the log has been told, once per process, that
	// model.allowInsecureHTTP sends the model's key over plain http.
	insecureSaid sync.Once
	// damaged is set once the database was found damaged: every operation
	// that needs it fails with a Damaged error from then on.
	damaged *storage.CorruptError
	// closed is set by Close: a database check still under way must not
	// open the database after it.
	closed bool
	// agent runs the goals the person asks the agent for while recording.
	agent *agentRunner
	// clientSpans are, by session, what outside agents performed through
	// the agent API (MarkClient), as this process noted them; they are
	// stored with the recording too.
	clientSpans map[string][]ClientSpan
}

// A recSession is what this process knows about one session.
type recSession struct {
	// screens maps the extension's screen ids to the stored screens.
	screens map[string]storage.ScreenHash
	// secretRefs lists, per stored screen, the refs of its secret nodes.
	secretRefs map[storage.ScreenHash]map[string]bool
	// stopped is set by Stop; final is the screen it sent.
	stopped bool
	final   *screen.Screen
	// review is the last record.review of the stopped recording, which
	// record.save applies.
	review *reviewState
}

// New returns the recording service made of o.
func New(o Options) *Service {
	if o.Secrets == nil {
		o.Secrets = noSecrets{}
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	r := &Service{opts: o, log: log, sess: map[string]*recSession{}, secretValues: map[string]string{}}
	r.agent = newAgentRunner(r)
	return r
}

// noSecrets hides nothing.
type noSecrets struct{}

func (noSecrets) Redact(b []byte) []byte                                 { return b }
func (noSecrets) Learn(map[string]string, map[string]bool, *slog.Logger) {}

// errHostClosing is what a request gets after the session ended.
var errHostClosing = errors.New("the host is shutting down")

// explainDamage turns a damaged database met by an operation into a
// Damaged error, whose message says how to move the file aside and what
// that loses. The damage is remembered: later operations get the same
// answer without reading the file again. Every operation defers it.
func (r *Service) explainDamage(err *error) {
	var ce *storage.CorruptError
	if !errors.As(*err, &ce) {
		return
	}
	r.mu.Lock()
	r.noteDamage(ce)
	r.mu.Unlock()
	*err = &Error{Code: Damaged, Message: fmt.Sprintf(
		"%v. After moving it, press Retry connection in Trailpin's popup to start the host again.", ce)}
}

// noteDamage remembers that the database is damaged and logs it, once, with
// SQLite's own words. r.mu must be held.
func (r *Service) noteDamage(ce *storage.CorruptError) {
	if r.damaged != nil {
		return
	}
	r.damaged = ce
	detail := ce.Problems
	if cause := errors.Unwrap(ce); cause != nil {
		detail = append(detail, cause.Error())
	}
	r.log.Error("the database is damaged: recording is off until it is moved aside",
		"db", ce.Path, "fix", ce.MoveAside(), "sqlite", detail)
}

// CheckDatabase opens the database when the host starts, reading it whole
// (quick_check), so that a damaged file is found and explained before the
// person records into it rather than at whichever write meets a bad page.
// Requests wait for it.
func (r *Service) CheckDatabase(ctx context.Context) {
	if r.opts.Config == nil {
		return
	}
	_, err := r.database(ctx)
	if err != nil && !errors.Is(err, storage.ErrCorrupt) && !errors.Is(err, errHostClosing) {
		// Opened again at the first request, which reports it.
		r.log.Error("the database could not be opened", "err", err)
	}
}

// Close stops the goal under way and closes the database, when it was
// opened.
func (r *Service) Close() {
	if r.agent != nil {
		r.agent.close()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.db != nil {
		r.db.Close()
		r.db = nil
	}
}

// config returns the host's configuration, or an Internal error when it could not be
// read at start.
func (r *Service) config() (*config.Config, error) {
	if r.opts.Config == nil {
		return nil, &Error{Code: Internal, Message: "the host could not read its configuration (see host.log, or run `host doctor`)"}
	}
	return r.opts.Config, nil
}

// database opens the database on first use.
func (r *Service) database(ctx context.Context) (*storage.DB, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.damaged != nil:
		return nil, r.damaged
	case r.db != nil:
		return r.db, nil
	case r.closed:
		return nil, errHostClosing
	}
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	// The secrets' values are the last line of defence, should one reach
	// an interaction, a screen or a trail anyway.
	db, err := storage.Open(ctx, cfg.DBPath(), storage.WithQuickCheck(), storage.WithRedactor(r.opts.Secrets.Redact))
	var ce *storage.CorruptError
	if errors.As(err, &ce) {
		r.noteDamage(ce)
		return nil, ce
	}
	if err != nil {
		return nil, fmt.Errorf("opening the database: %w", err)
	}
	r.db = db
	return db, nil
}

// StorageError turns what storage refused because of the request (invalid,
// conflicting, or naming something that is not there) into an Invalid
// error; other errors stay as they are.
func StorageError(err error) error {
	if errors.Is(err, storage.ErrInvalid) || errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrNotFound) {
		return invalid("%v", err)
	}
	return err
}

// checkSessionID checks a request's session field.
func checkSessionID(id string) error {
	switch {
	case id == "":
		return invalid("session is missing: send the id record.start returned")
	case !storage.ValidSessionID(id):
		return invalid("session %q is not a session id (1 to 64 letters, digits, '-' or '_'): send the id record.start returned", id)
	}
	return nil
}

// sessionState returns this process's state of a stored session, loading
// the screen ids it used from the database the first time.
func (r *Service) sessionState(ctx context.Context, db *storage.DB, id string) (storage.Session, *recSession, error) {
	sess, err := db.Session(ctx, id)
	if err != nil {
		return storage.Session{}, nil, StorageError(err)
	}
	r.mu.Lock()
	st := r.sess[id]
	r.mu.Unlock()
	if st != nil {
		return sess, st, nil
	}
	list, err := db.Interactions(ctx, id)
	if err != nil {
		return storage.Session{}, nil, err
	}
	st = &recSession{screens: map[string]storage.ScreenHash{}, secretRefs: map[storage.ScreenHash]map[string]bool{}}
	for _, in := range list {
		if in.Screen.IsZero() {
			continue
		}
		var p struct {
			Screen string `json:"screen"`
		}
		if err := json.Unmarshal(in.Payload, &p); err == nil && p.Screen != "" {
			st.screens[p.Screen] = in.Screen
		}
	}
	r.mu.Lock()
	if have := r.sess[id]; have != nil {
		st = have
	} else {
		r.sess[id] = st
	}
	r.mu.Unlock()
	return sess, st, nil
}

// forget drops this process's state of a session.
func (r *Service) forget(id string) {
	r.mu.Lock()
	delete(r.sess, id)
	r.mu.Unlock()
}

// decodeScreen reads a screen sent in the wire form (the one place the
// service decodes it); what it says is wrong is an Invalid error.
func decodeScreen(raw json.RawMessage, what string) (*screen.Screen, error) {
	s, err := screen.DecodeWire(raw)
	if err != nil {
		return nil, invalid("%s is not a screen in the page model's wire form (captureWire): %v", what, err)
	}
	if s.Schema != screen.ScreenSchema {
		return nil, invalid("%s has screen schema %d, this host reads %d: update the extension or the host", what, s.Schema, screen.ScreenSchema)
	}
	if s.Root == nil {
		return nil, invalid("%s has no root node", what)
	}
	return s, nil
}

// present reports whether an optional JSON field was sent with a value.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}

// secretRefsOf lists the refs of a screen's secret nodes.
func secretRefsOf(s *screen.Screen) map[string]bool {
	refs := map[string]bool{}
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		if n == nil {
			return
		}
		if n.Secret && n.Ref != "" {
			refs[n.Ref] = true
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	return refs
}

// millis is t in milliseconds since the epoch, 0 for the zero time.
func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// learnSecrets adds the values of p's secrets and user passwords that this
// process can read (from the environment Chrome started it with, or
// trailpin.yaml) to what storage redacts, and returns them.
func (r *Service) learnSecrets(p *config.Project) []string {
	res := secrets.NewResolver(p.Secrets, os.Getenv)
	found := map[string]string{}
	for name := range p.Secrets.Secrets {
		if v, err := res.Secret(name); err == nil && v != "" {
			found[name] = v
		}
	}
	for user := range p.Secrets.Credentials {
		if v, err := res.User(user, "password"); err == nil && v != "" {
			found["credentials."+user+".password"] = v
		}
	}
	r.learnValues(found)
	values := make([]string, 0, len(found))
	for _, v := range found {
		values = append(values, v)
	}
	return values
}

// learnValues adds secret values, by name, to what storage and the log
// redact.
func (r *Service) learnValues(found map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	known := map[string]bool{}
	for name := range r.secretValues {
		known[name] = true
	}
	for name, v := range found {
		if r.secretValues[name] != v {
			r.secretValues[name], changed = v, true
			delete(known, name)
		}
	}
	if changed {
		r.opts.Secrets.Learn(r.secretValues, known, r.log)
	}
}
