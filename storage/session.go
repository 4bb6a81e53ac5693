package storage

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
)

const (
	// maxPayloadBytes bounds one interaction's JSON (its screen travels
	// apart). A generous limit: a pasted text is the largest real payload.
	maxPayloadBytes = 8 << 20

	// sessionIDBytes of randomness make a session id; the extension only
	// needs it to be unique on this machine.
	sessionIDBytes = 16
)

// sessionIDPattern is what a session id may look like: the ids CreateSession
// makes (hex) and ids chosen by the extension (letters, digits, '-', '_').
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidSessionID reports whether id may name a session: 1 to 64 letters,
// digits, '-' or '_'. Callers check it to say which field is wrong.
func ValidSessionID(id string) bool { return sessionIDPattern.MatchString(id) }

// kindPattern is what an interaction kind may look like (click, type,
// assertVisible, …).
var kindPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)

// A Session is one recording, from Record until a trail is saved from it or
// it is pruned.
type Session struct {
	ID        string
	CreatedAt time.Time
	// UpdatedAt is when the last interaction arrived.
	UpdatedAt time.Time
	// SavedAt is zero while no trail has been saved from the session.
	SavedAt    time.Time
	Title      string
	ProjectDir string // the repo folder the recording goes into
	App        string // the app of that project the origin maps to
	StartURL   string
	Viewport   screen.Viewport
	Locale     string
	TimeZone   string
	// Interactions is how many interactions are stored.
	Interactions int
}

// NewSession is what CreateSession needs to start a recording.
type NewSession struct {
	// ID is optional: empty makes a random one. An extension that names
	// its sessions itself can re-send the same creation after a reconnect.
	ID         string
	Title      string
	ProjectDir string
	App        string
	StartURL   string
	Viewport   screen.Viewport
	Locale     string
	TimeZone   string
}

// CreateSession starts a recording. When ns.ID names a session that exists
// already, that session is returned unchanged (a re-sent Record).
func (db *DB) CreateSession(ctx context.Context, ns NewSession) (Session, error) {
	if ns.ID == "" {
		b := make([]byte, sessionIDBytes)
		rand.Read(b)
		ns.ID = hex.EncodeToString(b)
	}
	if !sessionIDPattern.MatchString(ns.ID) {
		return Session{}, invalidf("session id %q: use 1 to 64 letters, digits, '-' or '_'", ns.ID)
	}
	now := db.nowMillis()
	err := db.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			INSERT INTO sessions (id, created_at, updated_at, title, project_dir, app, start_url,
				viewport_width, viewport_height, locale, time_zone)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`,
			ns.ID, now, now, db.redactString(ns.Title), db.redactString(ns.ProjectDir), db.redactString(ns.App),
			db.redactString(ns.StartURL), ns.Viewport.Width, ns.Viewport.Height, db.redactString(ns.Locale), db.redactString(ns.TimeZone))
		return err
	})
	if err != nil {
		return Session{}, fmt.Errorf("creating session: %w", err)
	}
	return db.Session(ctx, ns.ID)
}

const sessionColumns = `s.id, s.created_at, s.updated_at, s.saved_at, s.title, s.project_dir, s.app, s.start_url,
	s.viewport_width, s.viewport_height, s.locale, s.time_zone,
	(SELECT count(*) FROM interactions i WHERE i.session_id = s.id)`

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var s Session
	var created, updated int64
	var saved sql.NullInt64
	err := row.Scan(&s.ID, &created, &updated, &saved, &s.Title, &s.ProjectDir, &s.App, &s.StartURL,
		&s.Viewport.Width, &s.Viewport.Height, &s.Locale, &s.TimeZone, &s.Interactions)
	s.CreatedAt, s.UpdatedAt, s.SavedAt = fromMillis(created), fromMillis(updated), fromNullMillis(saved)
	return s, err
}

// Session returns the session with id.
func (db *DB) Session(ctx context.Context, id string) (Session, error) {
	var s Session
	err := db.read(ctx, func(q *sql.DB) error {
		var err error
		s, err = scanSession(q.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM sessions s WHERE s.id = ?", id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("session %q: %w; it may have been pruned, start a new recording", id, ErrNotFound)
	}
	if err != nil {
		return Session{}, fmt.Errorf("reading session %q: %w", id, err)
	}
	return s, nil
}

// Sessions lists every session, the most recently active first.
func (db *DB) Sessions(ctx context.Context) ([]Session, error) {
	var list []Session
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, "SELECT "+sessionColumns+" FROM sessions s ORDER BY s.updated_at DESC, s.id")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			s, err := scanSession(rows)
			if err != nil {
				return err
			}
			list = append(list, s)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("listing sessions: %w", err)
	}
	return list, nil
}

// MarkSessionSaved records that a trail was saved from the session, which
// keeps it from being pruned. SaveTrail does this itself for its session.
func (db *DB) MarkSessionSaved(ctx context.Context, id string) error {
	err := db.write(ctx, func(tx *sql.Tx) error { return markSaved(ctx, tx, id, db.nowMillis()) })
	if err != nil {
		return fmt.Errorf("marking session %q saved: %w", id, err)
	}
	return nil
}

func markSaved(ctx context.Context, tx *sql.Tx, id string, now int64) error {
	res, err := tx.ExecContext(ctx, "UPDATE sessions SET saved_at = coalesce(saved_at, ?) WHERE id = ?", now, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("session %q: %w", id, ErrNotFound)
	}
	return nil
}

// Pruned counts what PruneUnsaved deleted.
type Pruned struct {
	Sessions     int
	Interactions int
	Screens      int
}

// PruneUnsaved deletes the sessions no trail was saved from and that have
// been idle for longer than olderThan, with their interactions and every
// screen nothing refers to any more.
func (db *DB) PruneUnsaved(ctx context.Context, olderThan time.Duration) (Pruned, error) {
	if olderThan < 0 {
		return Pruned{}, invalidf("prune age %v is negative", olderThan)
	}
	cutoff := db.now().Add(-olderThan).UnixMilli()
	var p Pruned
	err := db.write(ctx, func(tx *sql.Tx) error {
		p = Pruned{}
		err := tx.QueryRowContext(ctx, `
			SELECT count(*) FROM interactions
			WHERE session_id IN (SELECT id FROM sessions WHERE saved_at IS NULL AND updated_at < ?)`,
			cutoff).Scan(&p.Interactions)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE saved_at IS NULL AND updated_at < ?", cutoff)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		p.Sessions = int(n)
		if p.Sessions == 0 {
			return nil
		}
		p.Screens, err = deleteOrphanScreens(ctx, tx)
		return err
	})
	if err != nil {
		return Pruned{}, fmt.Errorf("pruning unsaved sessions: %w", err)
	}
	return p, nil
}

// deleteOrphanScreens deletes the screens no interaction refers to. A whole
// screen that is still the base of a kept delta stays; deltas go first, so
// their bases can go in the second pass.
func deleteOrphanScreens(ctx context.Context, tx *sql.Tx) (int, error) {
	total := 0
	for range 2 {
		res, err := tx.ExecContext(ctx, `
			DELETE FROM screens
			WHERE NOT EXISTS (SELECT 1 FROM interactions i WHERE i.screen_id = screens.id)
			AND NOT EXISTS (SELECT 1 FROM screens d WHERE d.base_id = screens.id)`)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += int(n)
	}
	return total, nil
}

// An Interaction is one thing a person or agent did while recording, as the
// extension sent it.
type Interaction struct {
	SessionID string
	// Seq is the extension's sequence number in the session, from 1. With
	// SessionID it makes a re-send idempotent.
	Seq int64
	// Kind is what happened: click, type, navigate, … as the extension
	// names it.
	Kind string
	// Payload is the interaction as JSON; it is stored compacted, and empty
	// is stored as {}.
	Payload json.RawMessage
	// Screen is the screen captured just before the interaction; zero when
	// none.
	Screen ScreenHash
	// ReceivedAt is when the host first stored it; set by storage.
	ReceivedAt time.Time
}

// AppendInteraction stores one interaction in its own transaction and returns
// only once it is committed. screen, when not nil, is the screen captured
// before the interaction: it is stored too (once per content) and in.Screen
// is set to its hash; with a nil screen, a non-zero in.Screen refers to a
// screen stored earlier.
//
// A re-send of an interaction already stored (same session and sequence
// number, same kind, payload and screen) changes nothing and returns
// added == false. A different interaction under a stored sequence number is
// refused with an error wrapping ErrConflict.
func (db *DB) AppendInteraction(ctx context.Context, in Interaction, screen *screen.Screen) (added bool, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("storing interaction %d of session %q: %w", in.Seq, in.SessionID, err)
		}
	}()
	payload, err := db.checkInteraction(&in)
	if err != nil {
		return false, err
	}
	var ps *preparedScreen
	if screen != nil {
		if ps, err = db.prepareScreen(ctx, in.SessionID, screen); err != nil {
			return false, err
		}
		if !in.Screen.IsZero() && in.Screen != ps.hash {
			return false, invalidf("the interaction names screen %s but carries screen %s", in.Screen, ps.hash)
		}
		in.Screen = ps.hash
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		added = false
		if err := tx.QueryRowContext(ctx, "SELECT 1 FROM sessions WHERE id = ?", in.SessionID).Scan(new(int)); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("session %q: %w; it may have been pruned, start a new recording", in.SessionID, ErrNotFound)
			}
			return err
		}
		var screenID sql.NullInt64
		switch {
		case ps != nil:
			id, err := db.insertScreen(ctx, tx, ps)
			if err != nil {
				return err
			}
			screenID = sql.NullInt64{Int64: id, Valid: true}
		case !in.Screen.IsZero():
			err := tx.QueryRowContext(ctx, "SELECT id FROM screens WHERE hash = ?", in.Screen[:]).Scan(&screenID)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("screen %s: %w; send the screen with the interaction", in.Screen, ErrNotFound)
			}
			if err != nil {
				return err
			}
		}
		var (
			kind, stored string
			storedScreen sql.NullInt64
		)
		err := tx.QueryRowContext(ctx, "SELECT kind, payload, screen_id FROM interactions WHERE session_id = ? AND seq = ?",
			in.SessionID, in.Seq).Scan(&kind, &stored, &storedScreen)
		switch {
		case err == nil:
			if kind != in.Kind || stored != string(payload) || storedScreen != screenID {
				return fmt.Errorf("%w: sequence number %d already holds a different interaction (%s); the extension must not reuse a sequence number",
					ErrConflict, in.Seq, kind)
			}
			return nil
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		now := db.nowMillis()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO interactions (session_id, seq, kind, payload, screen_id, received_at)
			VALUES (?, ?, ?, ?, ?, ?)`,
			in.SessionID, in.Seq, in.Kind, string(payload), screenID, now); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?", now, in.SessionID); err != nil {
			return err
		}
		added = true
		return nil
	})
	return added, err
}

// checkInteraction validates in and returns its payload compacted and
// redacted, the form that is stored and compared.
func (db *DB) checkInteraction(in *Interaction) ([]byte, error) {
	switch {
	case !sessionIDPattern.MatchString(in.SessionID):
		return nil, invalidf("session id %q: use 1 to 64 letters, digits, '-' or '_'", in.SessionID)
	case in.Seq < 1:
		return nil, invalidf("sequence number %d: sequence numbers start at 1", in.Seq)
	case !kindPattern.MatchString(in.Kind):
		return nil, invalidf("interaction kind %q: use a name such as click or type", in.Kind)
	case len(in.Payload) > maxPayloadBytes:
		return nil, invalidf("payload of %d bytes is larger than the limit of %d", len(in.Payload), maxPayloadBytes)
	}
	var buf bytes.Buffer
	if len(in.Payload) == 0 {
		buf.WriteString("{}")
	} else if err := json.Compact(&buf, in.Payload); err != nil {
		return nil, invalidf("payload is not valid JSON: %v", err)
	}
	return db.redactJSON("payload", buf.Bytes())
}

// Interactions returns the session's interactions in sequence order.
func (db *DB) Interactions(ctx context.Context, sessionID string) ([]Interaction, error) {
	var list []Interaction
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, `
			SELECT i.seq, i.kind, i.payload, s.hash, i.received_at
			FROM interactions i LEFT JOIN screens s ON s.id = i.screen_id
			WHERE i.session_id = ? ORDER BY i.seq`, sessionID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			in := Interaction{SessionID: sessionID}
			var payload string
			var hash []byte
			var received int64
			if err := rows.Scan(&in.Seq, &in.Kind, &payload, &hash, &received); err != nil {
				return err
			}
			in.Payload = json.RawMessage(payload)
			copy(in.Screen[:], hash)
			in.ReceivedAt = fromMillis(received)
			list = append(list, in)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading interactions of session %q: %w", sessionID, err)
	}
	return list, nil
}

// LastSeq returns the highest sequence number stored for the session, 0 when
// none. The extension re-sends whatever was not acknowledged, so this is for
// diagnostics and for a host that needs to know where a recording stands.
func (db *DB) LastSeq(ctx context.Context, sessionID string) (int64, error) {
	var seq sql.NullInt64
	err := db.read(ctx, func(q *sql.DB) error {
		return q.QueryRowContext(ctx, "SELECT max(seq) FROM interactions WHERE session_id = ?", sessionID).Scan(&seq)
	})
	if err != nil {
		return 0, fmt.Errorf("reading last sequence number of session %q: %w", sessionID, err)
	}
	return seq.Int64, nil
}
