package recording

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
)

// ChangesIn asks what the last action changed, for the recording bar's
// Assert change (host/PROTOCOL.md, record.changes).
type ChangesIn struct {
	Session string `json:"session"`
	// Screen is the page now, in the page model's wire form
	// (docs/screen-schema.md).
	Screen json.RawMessage `json:"screen"`
}

// ChangesOut lists the changes an assertChange could tick.
type ChangesOut struct {
	Session string `json:"session"`
	// Message says, when nothing can be ticked, why: no action yet, an
	// action with no screen before it, or an action that changed nothing.
	Message string `json:"message,omitempty"`
	*steps.ChangePreview
}

// Changes diffs the screen before the session's last action with the
// screen sent (the page now) and lists the changes, each with the matcher
// an assertChange would record for it. Nothing is stored.
func (r *Service) Changes(ctx context.Context, in ChangesIn) (_ ChangesOut, err error) {
	defer r.explainDamage(&err)
	if err := checkSessionID(in.Session); err != nil {
		return ChangesOut{}, err
	}
	if !present(in.Screen) {
		return ChangesOut{}, invalid("screen is missing: send the page's screen now (captureWire), after the action settled")
	}
	after, err := decodeScreen(in.Screen, "the screen after the action")
	if err != nil {
		return ChangesOut{}, err
	}
	db, err := r.database(ctx)
	if err != nil {
		return ChangesOut{}, err
	}
	sess, _, err := r.sessionState(ctx, db, in.Session)
	if err != nil {
		return ChangesOut{}, err
	}
	b, err := r.prepare(sess)
	if err != nil {
		return ChangesOut{}, err
	}
	recs, err := r.storedInteractions(ctx, db, sess.ID)
	if err != nil {
		return ChangesOut{}, err
	}
	// The screen before was stored through the database's redactor; the
	// screen now goes through it too, so both read alike (a secret the page
	// shows is no change) and the diff is the one the assertChange
	// interaction's stored screen will give.
	if after, err = r.redactedScreen(after); err != nil {
		return ChangesOut{}, err
	}
	out := ChangesOut{Session: sess.ID}
	p, err := steps.PreviewChange(recs, after, b.buildOptions(r))
	var nb *steps.NoBaselineError
	var fe *trail.ForeignOriginError
	switch {
	case errors.Is(err, steps.ErrNoAction), errors.Is(err, steps.ErrAfterAssertion), errors.As(err, &nb):
		out.Message = upperFirst(err.Error()) + "."
		out.ChangePreview = &steps.ChangePreview{Changes: []steps.ChangeOffer{}}
		return out, nil
	case errors.As(err, &fe):
		return ChangesOut{}, invalid("%v: record one app per trail", err)
	case err != nil:
		return ChangesOut{}, fmt.Errorf("diffing the last action: %w", err)
	}
	out.ChangePreview = p
	if len(p.Changes) == 0 {
		out.Message = fmt.Sprintf("The last action (%s) changed nothing visible on the page. Tick “Nothing changes” to assert that it never does, or Cancel.", p.Action)
	}
	return out, nil
}

// redactedScreen is s as the database stores it: each secret value this
// host knows replaced by its reference.
func (r *Service) redactedScreen(s *screen.Screen) (*screen.Screen, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	red := r.opts.Secrets.Redact(raw)
	if bytes.Equal(red, raw) {
		return s, nil
	}
	var out screen.Screen
	if err := json.Unmarshal(red, &out); err != nil {
		return nil, fmt.Errorf("the screen after the action, with secrets redacted, does not read back: %w", err)
	}
	return &out, nil
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
