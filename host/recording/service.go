package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"time"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/secrets"
)

// The recording's message types (host/PROTOCOL.md, Recording).
const (
	typeRecordStart       = "record.start"
	typeRecordInteraction = "record.interaction"
	typeRecordResume      = "record.resume"
	typeRecordStatus      = "record.status"
	typeRecordStop        = "record.stop"
	typeRecordSave        = "record.save"
	typeRecordDiscard     = "record.discard"
	typeTrailExport       = "trail.export"
	typeProjectList       = "project.list"
	typeProjectSet        = "project.set"
	typeProjectAddApp     = "project.addApp"
)

var (
	// sessionIDRule is storage's rule for session ids, checked here so a
	// bad id gets a message about the field.
	sessionIDRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	// screenIDRule is what the extension's screen ids may look like.
	screenIDRule = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)
	// refRule is a page model ref: e<N>, or f<K>e<N> inside a frame.
	refRule = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// A recording serves the recording's messages for one host process. The
// database is opened on first use; everything a session needs to go on
// after a restart is in it, and the maps below are caches of it (except the
// screen a record.stop sent, which record.save of the same process uses).
type recording struct {
	s *nativeSession

	mu   sync.Mutex
	db   *storage.DB
	sess map[string]*recSession
	// secretValues are those secrets' values, by name, and the users'
	// passwords by "credentials.<user>.password".
	secretValues map[string]string
	// insecureSaid says the log has been told, once per process, that
	// model.allowInsecureHTTP sends the model's key over plain http.
	insecureSaid sync.Once
	// damaged is set once the database was found damaged: every request
	// that needs it is answered with error 7 from then on.
	damaged *storage.CorruptError
	// closed is set by close: a database check still under way must not
	// open the database after it.
	closed bool
	// agent runs the goals the person asks the agent for while recording.
	agent *agentRunner
}

// A recSession is what this process knows about one session.
type recSession struct {
	// screens maps the extension's screen ids to the stored screens.
	screens map[string]storage.ScreenHash
	// secretRefs lists, per stored screen, the refs of its secret nodes.
	secretRefs map[storage.ScreenHash]map[string]bool
	// stopped is set by record.stop; final is the screen it sent.
	stopped bool
	final   *screen.Screen
}

func registerRecording(srv *nativemsg.Server, s *nativeSession) *recording {
	if s.Secrets == nil {
		s.Secrets = &secretFilter{}
	}
	r := &recording{s: s, sess: map[string]*recSession{}, secretValues: map[string]string{}}
	handle := func(typ string, h nativemsg.Handler) { srv.Handle(typ, r.explainDamage(h)) }
	handle(typeRecordStart, r.start)
	handle(typeRecordInteraction, r.interaction)
	handle(typeRecordResume, r.resume)
	handle(typeRecordStatus, r.status)
	handle(typeRecordStop, r.stop)
	handle(typeRecordChanges, r.changes)
	handle(typeRecordSave, r.save)
	handle(typeRecordDiscard, r.discard)
	handle(typeTrailExport, r.export)
	handle(typeProjectList, r.projectList)
	handle(typeProjectSet, r.projectSet)
	handle(typeProjectAddApp, r.projectAddApp)
	r.agent = registerAgent(srv, r, handle)
	return r
}

// errHostClosing is what a request gets after the session ended.
var errHostClosing = errors.New("the host is shutting down")

// explainDamage answers a request that met a damaged database with error 7,
// whose message says how to move the file aside and what that loses. The
// damage is remembered: later requests get the same answer without reading
// the file again.
func (r *recording) explainDamage(h nativemsg.Handler) nativemsg.Handler {
	return func(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
		reply, err := h(ctx, req)
		var ce *storage.CorruptError
		if !errors.As(err, &ce) {
			return reply, err
		}
		r.mu.Lock()
		r.noteDamage(ce)
		r.mu.Unlock()
		return nativemsg.Reply{}, nativemsg.Errorf(nativemsg.CodeDatabaseDamaged,
			"%v. After moving it, press Retry connection in Trailpin's popup to start the host again.", ce)
	}
}

// noteDamage remembers that the database is damaged and logs it, once, with
// SQLite's own words. r.mu must be held.
func (r *recording) noteDamage(ce *storage.CorruptError) {
	if r.damaged != nil {
		return
	}
	r.damaged = ce
	detail := ce.Problems
	if cause := errors.Unwrap(ce); cause != nil {
		detail = append(detail, cause.Error())
	}
	r.s.Log.Error("the database is damaged: recording is off until it is moved aside",
		"db", ce.Path, "fix", ce.MoveAside(), "sqlite", detail)
}

// checkDatabase opens the database when the host starts, reading it whole
// (quick_check), so that a damaged file is found and explained before the
// person records into it rather than at whichever write meets a bad page.
// Requests wait for it.
func (r *recording) checkDatabase(ctx context.Context) {
	if r.s.Config == nil {
		return
	}
	_, err := r.database(ctx)
	if err != nil && !errors.Is(err, storage.ErrCorrupt) && !errors.Is(err, errHostClosing) {
		// Opened again at the first request, which reports it.
		r.s.Log.Error("the database could not be opened", "err", err)
	}
}

// close closes the database, when it was opened.
func (r *recording) close() {
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

// badRequest is error 5 with a message for the person or the extension.
func badRequest(format string, args ...any) error {
	return nativemsg.Errorf(nativemsg.CodeBadRequest, format, args...)
}

// config returns the host's configuration, or error 6 when it could not be
// read at start.
func (r *recording) config() (*config.Config, error) {
	if r.s.Config == nil {
		return nil, nativemsg.Errorf(nativemsg.CodeInternal,
			"the host could not read its configuration (see host.log, or run `host doctor`)")
	}
	return r.s.Config, nil
}

// database opens the database on first use.
func (r *recording) database(ctx context.Context) (*storage.DB, error) {
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
	db, err := storage.Open(ctx, cfg.DBPath(), storage.WithQuickCheck(), storage.WithRedactor(r.s.Secrets.database))
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

// storageError turns what storage refused because of the request (invalid,
// conflicting, or naming something that is not there) into error 5; other
// errors stay internal.
func storageError(err error) error {
	if errors.Is(err, storage.ErrInvalid) || errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrNotFound) {
		return badRequest("%v", err)
	}
	return err
}

// checkSessionID checks a request's session field.
func checkSessionID(id string) error {
	switch {
	case id == "":
		return badRequest("session is missing: send the id record.start returned")
	case !sessionIDRule.MatchString(id):
		return badRequest("session %q is not a session id (1 to 64 letters, digits, '-' or '_'): send the id record.start returned", id)
	}
	return nil
}

// A sessionMessage is a request that names a recording session.
type sessionMessage interface{ sessionID() string }

func (m sessionRequest) sessionID() string     { return m.Session }
func (m stopRequest) sessionID() string        { return m.Session }
func (m saveRequest) sessionID() string        { return m.Session }
func (m interactionRequest) sessionID() string { return m.Session }

// decodeSession decodes req into in and checks the session it names.
func decodeSession(req *nativemsg.Request, in sessionMessage) error {
	if err := req.Decode(in); err != nil {
		return err
	}
	return checkSessionID(in.sessionID())
}

// sessionState returns this process's state of a stored session, loading
// the screen ids it used from the database the first time.
func (r *recording) sessionState(ctx context.Context, db *storage.DB, id string) (storage.Session, *recSession, error) {
	sess, err := db.Session(ctx, id)
	if err != nil {
		return storage.Session{}, nil, storageError(err)
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
func (r *recording) forget(id string) {
	r.mu.Lock()
	delete(r.sess, id)
	r.mu.Unlock()
}

// decodeScreen reads a screen sent in the wire form; what it says is
// wrong is error 5.
func decodeScreen(raw json.RawMessage, what string) (*screen.Screen, error) {
	s, err := replay.DecodeWireScreen(raw)
	if err != nil {
		return nil, badRequest("%s is not a screen in the page model's wire form (captureWire): %v", what, err)
	}
	if s.Schema != screen.ScreenSchema {
		return nil, badRequest("%s has screen schema %d, this host reads %d: update the extension or the host", what, s.Schema, screen.ScreenSchema)
	}
	if s.Root == nil {
		return nil, badRequest("%s has no root node", what)
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
func (r *recording) learnSecrets(p *config.Project) []string {
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
func (r *recording) learnValues(found map[string]string) {
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
		r.s.Secrets.learn(r.secretValues, known, r.s.Log)
	}
}
