package recording

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/storage"
)

// Limits on the free-text fields of record.start.
const (
	maxTitleRunes    = 1000
	maxLocaleBytes   = 64
	maxViewportPixel = 100000
	// maxChangeKeys bounds the changes an assertChange ticks.
	maxChangeKeys = 500
	// maxClientRunes bounds an outside agent's name (a trail's client:).
	maxClientRunes = 64
)

// A ProjectRef names a project: its folder and its name in the user
// config.
type ProjectRef struct {
	Dir  string `json:"dir"`
	Name string `json:"name"`
}

// An AppRef is an app of a project and its base URL.
type AppRef struct {
	Name    string `json:"name"`
	BaseURL string `json:"baseUrl"`
}

// StartIn starts a recording of a tab (record.start).
type StartIn struct {
	Tab      *int             `json:"tab"`
	URL      string           `json:"url"`
	Title    string           `json:"title"`
	Viewport *screen.Viewport `json:"viewport"`
	Locale   string           `json:"locale"`
	TimeZone string           `json:"timeZone"`
	Project  string           `json:"project"`
	Session  string           `json:"session"`
}

// StartOut is the session started, and what the popup must still ask.
type StartOut struct {
	Session      string      `json:"session"`
	Origin       string      `json:"origin"`
	Project      *ProjectRef `json:"project"`
	App          *AppRef     `json:"app"`
	NeedsProject bool        `json:"needsProject"`
	NeedsApp     bool        `json:"needsApp"`
	LastSeq      int64       `json:"lastSeq"`
}

func (in *StartIn) check() (origin string, err error) {
	switch {
	case in.Tab == nil:
		return "", invalid("tab is missing: send the recorded tab's id")
	case *in.Tab < 0:
		return "", invalid("tab %d is not a tab id", *in.Tab)
	case in.URL == "":
		return "", invalid("url is missing: send the recorded tab's URL")
	case in.Viewport == nil:
		return "", invalid("viewport is missing: send {width, height} of the tab's layout viewport")
	case in.Viewport.Width <= 0 || in.Viewport.Height <= 0 || in.Viewport.Width > maxViewportPixel || in.Viewport.Height > maxViewportPixel:
		return "", invalid("viewport %dx%d: width and height must be between 1 and %d CSS pixels", in.Viewport.Width, in.Viewport.Height, maxViewportPixel)
	case utf8.RuneCountInString(in.Title) > maxTitleRunes:
		return "", invalid("title is longer than %d characters", maxTitleRunes)
	case len(in.Locale) > maxLocaleBytes || len(in.TimeZone) > maxLocaleBytes:
		return "", invalid("locale and timeZone are short names such as en-GB and Europe/London")
	case in.Session != "" && !storage.ValidSessionID(in.Session):
		return "", invalid("session %q: choose 1 to 64 letters, digits, '-' or '_', or leave it out", in.Session)
	}
	origin, err = config.OriginOf(in.URL)
	if err != nil {
		return "", invalid("url: %v: record a page served over http or https", err)
	}
	return origin, nil
}

// Start starts a recording of a tab, or answers again for a session
// started before (a re-sent start after a reconnect).
func (r *Service) Start(ctx context.Context, in StartIn) (out StartOut, err error) {
	defer r.explainDamage(&err)
	origin, err := in.check()
	if err != nil {
		return StartOut{}, err
	}
	cfg, err := r.config()
	if err != nil {
		return StartOut{}, err
	}
	out = StartOut{Origin: origin}
	var p *config.Project
	if in.Project != "" {
		p, out.Project, err = r.useProject(in.Project, false)
	} else {
		p, out.Project, err = r.currentProject()
	}
	if err != nil {
		return StartOut{}, err
	}
	out.NeedsProject = p == nil
	if p != nil {
		out.App = appFor(p, origin)
		out.NeedsApp = out.App == nil
	}
	db, err := r.database(ctx)
	if err != nil {
		return StartOut{}, err
	}
	age, err := cfg.PruneUnsavedAfter()
	if err != nil {
		return StartOut{}, invalid("%v (in the user config or $TRAILPIN_RECORDING_PRUNEUNSAVEDAFTER)", err)
	}
	pruned, err := db.PruneUnsaved(ctx, age)
	if err != nil {
		return StartOut{}, err
	}
	if pruned.Sessions > 0 {
		r.log.Info("pruned unsaved recordings", "sessions", pruned.Sessions, "interactions", pruned.Interactions, "screens", pruned.Screens, "olderThan", age)
	}
	ns := storage.NewSession{ID: in.Session, Title: in.Title, StartURL: in.URL,
		Viewport: *in.Viewport, Locale: in.Locale, TimeZone: in.TimeZone}
	if p != nil {
		ns.ProjectDir = p.Dir
	}
	if out.App != nil {
		ns.App = out.App.Name
	}
	sess, err := db.CreateSession(ctx, ns)
	if err != nil {
		return StartOut{}, StorageError(err)
	}
	out.Session = sess.ID
	if out.LastSeq, err = db.LastSeq(ctx, sess.ID); err != nil {
		return StartOut{}, err
	}
	r.log.Info("recording started", "session", sess.ID, "tab", *in.Tab, "lastSeq", out.LastSeq)
	return out, nil
}

// SessionIn names a session: the id Start returned.
type SessionIn struct {
	Session string `json:"session"`
}

// ResumeOut says where a session stands after a reconnect.
type ResumeOut struct {
	Session string `json:"session"`
	LastSeq int64  `json:"lastSeq"`
	Saved   bool   `json:"saved"`
}

// Resume says where a session stands, after a reconnect.
func (r *Service) Resume(ctx context.Context, in SessionIn) (_ ResumeOut, err error) {
	defer r.explainDamage(&err)
	if err := checkSessionID(in.Session); err != nil {
		return ResumeOut{}, err
	}
	db, err := r.database(ctx)
	if err != nil {
		return ResumeOut{}, err
	}
	sess, err := db.Session(ctx, in.Session)
	if err != nil {
		return ResumeOut{}, StorageError(err)
	}
	last, err := db.LastSeq(ctx, in.Session)
	if err != nil {
		return ResumeOut{}, err
	}
	r.log.Info("recording resumed", "session", in.Session, "lastSeq", last)
	return ResumeOut{Session: sess.ID, LastSeq: last, Saved: !sess.SavedAt.IsZero()}, nil
}

// StatusOut is the recording a session (or, without one, the latest
// unsaved one) is; Recording is nil when there is none.
type StatusOut struct {
	Recording *StatusInfo `json:"recording"`
}

// StatusInfo is where a recording stands.
type StatusInfo struct {
	Session      string      `json:"session"`
	URL          string      `json:"url"`
	StartedAt    int64       `json:"startedAt"`
	UpdatedAt    int64       `json:"updatedAt"`
	Interactions int         `json:"interactions"`
	LastSeq      int64       `json:"lastSeq"`
	Saved        bool        `json:"saved"`
	Project      *ProjectRef `json:"project"`
	App          *AppRef     `json:"app"`
}

// Status is where a session stands or, without one, the latest unsaved
// recording.
func (r *Service) Status(ctx context.Context, in SessionIn) (_ StatusOut, err error) {
	defer r.explainDamage(&err)
	if in.Session != "" {
		if err := checkSessionID(in.Session); err != nil {
			return StatusOut{}, err
		}
	}
	cfg, err := r.config()
	if err != nil {
		return StatusOut{}, err
	}
	db, err := r.database(ctx)
	if err != nil {
		return StatusOut{}, err
	}
	var sess storage.Session
	if in.Session != "" {
		if sess, err = db.Session(ctx, in.Session); err != nil {
			return StatusOut{}, StorageError(err)
		}
	} else {
		age, err := cfg.PruneUnsavedAfter()
		if err != nil {
			return StatusOut{}, invalid("%v", err)
		}
		list, err := db.Sessions(ctx)
		if err != nil {
			return StatusOut{}, err
		}
		for _, s := range list {
			if s.SavedAt.IsZero() && s.UpdatedAt.After(time.Now().Add(-age)) {
				sess = s
				break
			}
		}
		if sess.ID == "" {
			return StatusOut{}, nil
		}
	}
	last, err := db.LastSeq(ctx, sess.ID)
	if err != nil {
		return StatusOut{}, err
	}
	info := &StatusInfo{Session: sess.ID, URL: sess.StartURL, StartedAt: millis(sess.CreatedAt),
		UpdatedAt: millis(sess.UpdatedAt), Interactions: sess.Interactions, LastSeq: last, Saved: !sess.SavedAt.IsZero()}
	if sess.ProjectDir != "" {
		info.Project = r.projectRefFor(sess.ProjectDir)
		if p, err := config.LoadProject(sess.ProjectDir); err == nil && sess.App != "" {
			if base, ok := p.Apps[sess.App]; ok {
				info.App = &AppRef{Name: sess.App, BaseURL: base}
			}
		}
	}
	return StatusOut{Recording: info}, nil
}

// InteractionIn is one interaction, as it happens (record.interaction).
type InteractionIn struct {
	Session string `json:"session"`
	// Interaction is a steps.Interaction as JSON, read here so that a field
	// of the wrong type is named as the extension sent it, and an
	// agentEnd's checks one by one.
	Interaction json.RawMessage `json:"interaction"`
	// Screen is the screen Interaction.screen names, in the page model's
	// wire form (docs/screen-schema.md); empty when sent before.
	Screen json.RawMessage `json:"screen"`
}

// InteractionOut acknowledges an interaction once it is stored; Added is
// false for one stored before (a re-send).
type InteractionOut struct {
	Session string `json:"session"`
	Seq     int64  `json:"seq"`
	Added   bool   `json:"added"`
}

// checkInteraction checks the fields of an interaction. Its messages name
// fields and never repeat a value.
func checkInteraction(it *steps.Interaction) error {
	if err := it.Check(); err != nil {
		// What each kind must carry: host/PROTOCOL.md, record.interaction.
		return invalid("%v (host/PROTOCOL.md, record.interaction); nothing was stored", err)
	}
	switch {
	case it.Screen != "" && !screenIDRule.MatchString(it.Screen):
		return invalid("interaction %d: screen id %q: use 1 to 64 letters, digits, '_', '.', ':' or '-'", it.Seq, screen.Clip(it.Screen, 80))
	case it.Ref != "" && !refRule.MatchString(it.Ref):
		return invalid("interaction %d: ref %q is not a page model ref such as e12", it.Seq, screen.Clip(it.Ref, 80))
	case it.Ref != "" && it.Screen == "":
		return invalid("interaction %d: ref is set without screen: name the screen the ref is in", it.Seq)
	case len(it.Changes) > maxChangeKeys:
		return invalid("interaction %d: changes lists %d keys, more than %d: tick fewer changes", it.Seq, len(it.Changes), maxChangeKeys)
	case slices.ContainsFunc(it.Changes, func(k string) bool { return k == "" || len(k) > 200 }):
		return invalid("interaction %d: a key in changes is empty or too long: send the keys record.changes gave", it.Seq)
	case len(it.Unchanged) > maxChangeKeys:
		return invalid("interaction %d: unchanged lists %d refs, more than %d: pick fewer elements", it.Seq, len(it.Unchanged), maxChangeKeys)
	case slices.ContainsFunc(it.Unchanged, func(r string) bool { return !refRule.MatchString(r) }):
		return invalid("interaction %d: a ref in unchanged is not a page model ref such as e12", it.Seq)
	case len(it.Unchanged) > 0 && it.Screen == "":
		return invalid("interaction %d: unchanged is set without screen: name the screen its refs are in", it.Seq)
	case it.Secret != "" && (it.Value != "" || it.PromptText != ""):
		return invalid("interaction %d: a secret field's value must never leave the page: send secret (the name) without value; nothing was stored", it.Seq)
	case it.Client != "" && (strings.TrimSpace(it.Client) == "" || strings.ContainsAny(it.Client, "\r\n") || utf8.RuneCountInString(it.Client) > maxClientRunes):
		return invalid("interaction %d: client must be the outside agent's name on one line, at most %d characters", it.Seq, maxClientRunes)
	case it.Secret != "" && !config.IsSecretName(it.Secret):
		return invalid("interaction %d: secret name %q: use letters, digits, '_', '-' and '.'", it.Seq, screen.Clip(it.Secret, 80))
	}
	return nil
}

// Interaction stores one interaction, and its screen, before it returns.
func (r *Service) Interaction(ctx context.Context, in InteractionIn) (_ InteractionOut, err error) {
	defer r.explainDamage(&err)
	if err := checkSessionID(in.Session); err != nil {
		return InteractionOut{}, err
	}
	if !present(in.Interaction) {
		return InteractionOut{}, invalid("interaction is missing: send the recorded interaction")
	}
	// An agentEnd's checks are read on their own, check by check: one
	// that is malformed is left out (and the review says why), never the
	// goal's end with it.
	var wire struct {
		steps.Interaction
		Checks       json.RawMessage `json:"checks"`
		AssertChange json.RawMessage `json:"assertChange"`
	}
	if err := json.Unmarshal(in.Interaction, &wire); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			// The field's path, as the extension sends it (not through
			// the embedded struct).
			field := strings.TrimPrefix(te.Field, "Interaction.")
			return InteractionOut{}, invalid("interaction.%s must be a %s (host/PROTOCOL.md, record.interaction)", field, te.Type)
		}
		return InteractionOut{}, invalid("interaction must be an object (host/PROTOCOL.md, record.interaction)")
	}
	it := wire.Interaction
	it.Checks, it.ChecksLeftOut = nil, nil
	// An outside agent's whole assertChange is read exactly, or refused.
	if it.AssertChange, err = steps.ReadChangeCheck(wire.AssertChange); err != nil {
		return InteractionOut{}, invalid("interaction %d: %v (host/PROTOCOL.md, Agent API)", it.Seq, err)
	}
	if it.AssertChange != nil && (it.Kind != steps.InteractAssertChange || len(it.Changes) > 0 || len(it.Unchanged) > 0 || it.Only) {
		return InteractionOut{}, invalid("interaction %d: assertChange (the whole check) goes only on an assertChange interaction, without changes, unchanged or only", it.Seq)
	}
	if it.Kind == steps.InteractAgentEnd {
		it.Checks, it.ChecksLeftOut = steps.ReadAgentChecks(wire.Checks)
		for _, why := range it.ChecksLeftOut {
			r.log.Warn("an agent's check was left out", "session", in.Session, "seq", it.Seq, "why", why)
		}
	}
	if err := checkInteraction(&it); err != nil {
		return InteractionOut{}, err
	}
	// A goal whose agent was shown a page off the app is never written
	// into the trail: the host says so itself, whatever the extension sent.
	switch it.Kind {
	case steps.InteractAgentStart:
		r.agent.forgetLeft(in.Session)
	case steps.InteractAgentEnd:
		if left := r.agent.leftOf(in.Session); left != "" {
			it.Left = left
		}
	}
	var screen *screen.Screen
	if present(in.Screen) {
		if it.Screen == "" {
			return InteractionOut{}, invalid("interaction %d: screen is sent but interaction.screen does not name it: set interaction.screen to the screen's id", it.Seq)
		}
		var err error
		if screen, err = decodeScreen(in.Screen, fmt.Sprintf("the screen of interaction %d", it.Seq)); err != nil {
			return InteractionOut{}, err
		}
	}
	db, err := r.database(ctx)
	if err != nil {
		return InteractionOut{}, err
	}
	_, st, err := r.sessionState(ctx, db, in.Session)
	if err != nil {
		return InteractionOut{}, err
	}
	r.mu.Lock()
	known, isKnown := st.screens[it.Screen]
	r.mu.Unlock()
	if it.Screen != "" && screen == nil && !isKnown {
		return InteractionOut{}, invalid("interaction %d: screen %q was never received in this session: send the screen with the first interaction that names it (and again when re-sending that interaction)", it.Seq, it.Screen)
	}
	// A value typed into, or asserted on, a node the page model marks as
	// secret must not be stored either.
	if it.Value != "" && it.Ref != "" {
		secret, err := r.isSecretNode(ctx, db, st, known, screen, it.Ref)
		if err != nil {
			return InteractionOut{}, err
		}
		if secret {
			return InteractionOut{}, invalid("interaction %d: %s on a secret field carries a value: send secret (the name) and no value; nothing was stored", it.Seq, it.Kind)
		}
	}
	payload, err := json.Marshal(&it)
	if err != nil {
		return InteractionOut{}, err
	}
	si := storage.Interaction{SessionID: in.Session, Seq: it.Seq, Kind: string(it.Kind), Payload: payload}
	if isKnown {
		si.Screen = known
	}
	added, err := db.AppendInteraction(ctx, si, screen)
	if err != nil {
		if errors.Is(err, storage.ErrInvalid) && screen != nil && isKnown {
			return InteractionOut{}, invalid("interaction %d: screen %q was received before with other content: a screen id must always name the same capture", it.Seq, it.Screen)
		}
		return InteractionOut{}, StorageError(err)
	}
	if screen != nil && !isKnown {
		h, err := db.InteractionScreen(ctx, in.Session, it.Seq)
		if err != nil {
			return InteractionOut{}, err
		}
		r.mu.Lock()
		st.screens[it.Screen] = h
		st.secretRefs[h] = secretRefsOf(screen)
		r.mu.Unlock()
	}
	return InteractionOut{Session: in.Session, Seq: it.Seq, Added: added}, nil
}

// isSecretNode reports whether ref names a secret node of the screen sent
// (screen) or stored (known).
func (r *Service) isSecretNode(ctx context.Context, db *storage.DB, st *recSession, known storage.ScreenHash, screen *screen.Screen, ref string) (bool, error) {
	if screen != nil {
		return secretRefsOf(screen)[ref], nil
	}
	r.mu.Lock()
	refs, ok := st.secretRefs[known]
	r.mu.Unlock()
	if !ok {
		s, err := db.Screen(ctx, known)
		if err != nil {
			return false, err
		}
		refs = secretRefsOf(s)
		r.mu.Lock()
		st.secretRefs[known] = refs
		r.mu.Unlock()
	}
	return refs[ref], nil
}
