package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/recorder"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/secrets"
	"github.com/trailpin/trailpin/storage"
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

// interactionKinds are the kinds BuildSteps understands.
var interactionKinds = map[recorder.InteractionKind]bool{
	recorder.InteractClick: true, recorder.InteractType: true, recorder.InteractSelect: true,
	recorder.InteractCheck: true, recorder.InteractUncheck: true, recorder.InteractPress: true,
	recorder.InteractHover: true, recorder.InteractUpload: true, recorder.InteractDialog: true,
	recorder.InteractNavigate: true, recorder.InteractSwitchTab: true,
	recorder.InteractAssertVisible: true, recorder.InteractAssertNotVisible: true,
	recorder.InteractAssertURL: true, recorder.InteractAssertValue: true,
	recorder.InteractAssertState: true, recorder.InteractUndo: true,
	recorder.InteractMarkSensitive: true,
}

// A recording serves the recording's messages for one host process. The
// database is opened on first use; everything a session needs to go on
// after a restart is in it, and the maps below are caches of it (except the
// screen a record.stop sent, which record.save of the same process uses).
type recording struct {
	s *nativeSession

	mu   sync.Mutex
	db   *storage.DB
	sess map[string]*recSession
	// redact is the storage redactor of the secrets of the projects this
	// process has loaded: the last line of defence, should a secret's value
	// reach an interaction, a screen or a trail anyway.
	redact atomic.Pointer[storage.Redactor]
	// secretValues are those secrets' values, by name, and the users'
	// passwords by "credentials.<user>.password".
	secretValues map[string]string
}

// A recSession is what this process knows about one session.
type recSession struct {
	// screens maps the extension's screen ids to the stored screens.
	screens map[string]storage.ScreenHash
	// secretRefs lists, per stored screen, the refs of its secret nodes.
	secretRefs map[storage.ScreenHash]map[string]bool
	// stopped is set by record.stop; final is the screen it sent.
	stopped bool
	final   *recorder.Screen
}

func registerRecording(srv *nativemsg.Server, s *nativeSession) *recording {
	r := &recording{s: s, sess: map[string]*recSession{}, secretValues: map[string]string{}}
	srv.Handle(typeRecordStart, r.start)
	srv.Handle(typeRecordInteraction, r.interaction)
	srv.Handle(typeRecordResume, r.resume)
	srv.Handle(typeRecordStatus, r.status)
	srv.Handle(typeRecordStop, r.stop)
	srv.Handle(typeRecordSave, r.save)
	srv.Handle(typeRecordDiscard, r.discard)
	srv.Handle(typeTrailExport, r.export)
	srv.Handle(typeProjectList, r.projectList)
	srv.Handle(typeProjectSet, r.projectSet)
	srv.Handle(typeProjectAddApp, r.projectAddApp)
	return r
}

// close closes the database, when it was opened.
func (r *recording) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
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
func (r *recording) config() (*config, error) {
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
	if r.db != nil {
		return r.db, nil
	}
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	db, err := storage.Open(ctx, cfg.DBPath(), storage.WithRedactor(func(b []byte) []byte {
		if f := r.redact.Load(); f != nil {
			return (*f)(b)
		}
		return b
	}))
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
func decodeScreen(raw json.RawMessage, what string) (*recorder.Screen, error) {
	s, err := replay.DecodeWireScreen(raw)
	if err != nil {
		return nil, badRequest("%s is not a screen in the page model's wire form (captureWire): %v", what, err)
	}
	if s.Schema != recorder.ScreenSchema {
		return nil, badRequest("%s has screen schema %d, this host reads %d: update the extension or the host", what, s.Schema, recorder.ScreenSchema)
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
func secretRefsOf(s *recorder.Screen) map[string]bool {
	refs := map[string]bool{}
	var walk func(n *recorder.Node)
	walk = func(n *recorder.Node) {
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
func (r *recording) learnSecrets(p *project) []string {
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
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for name, v := range found {
		if r.secretValues[name] != v {
			r.secretValues[name], changed = v, true
		}
	}
	if changed {
		f := storage.SecretRedactor(r.secretValues)
		r.redact.Store(&f)
	}
	values := make([]string, 0, len(found))
	for _, v := range found {
		values = append(values, v)
	}
	return values
}
