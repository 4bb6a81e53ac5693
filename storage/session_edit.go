package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SetSessionProject records the project folder and app a recording goes
// into, once the person has named them (they may be unknown at Record).
func (db *DB) SetSessionProject(ctx context.Context, id, projectDir, app string) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE sessions SET project_dir = ?, app = ? WHERE id = ?",
			db.redactString(projectDir), db.redactString(app), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("session %q: %w; it may have been pruned, start a new recording", id, ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("setting the project of session %q: %w", id, err)
	}
	return nil
}

// DiscardSession deletes an unsaved session with its interactions and the
// screens nothing else refers to. It reports false when there was no such
// session; a session a trail was saved from is kept (ErrConflict), as its
// trail versions name it.
func (db *DB) DiscardSession(ctx context.Context, id string) (bool, error) {
	deleted := false
	err := db.write(ctx, func(tx *sql.Tx) error {
		deleted = false
		var saved sql.NullInt64
		err := tx.QueryRowContext(ctx, "SELECT saved_at FROM sessions WHERE id = ?", id).Scan(&saved)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if saved.Valid {
			return fmt.Errorf("%w: a trail was saved from it, so it is kept (remove the trail with `host trails rm`)", ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id); err != nil {
			return err
		}
		deleted = true
		_, err = deleteOrphanScreens(ctx, tx)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("discarding session %q: %w", id, err)
	}
	return deleted, nil
}

// InteractionScreen returns the hash of the screen stored with interaction
// seq of the session: zero when it has none, ErrNotFound when there is no
// such interaction.
func (db *DB) InteractionScreen(ctx context.Context, sessionID string, seq int64) (ScreenHash, error) {
	var h ScreenHash
	err := db.read(ctx, func(q *sql.DB) error {
		var hash []byte
		err := q.QueryRowContext(ctx, `
			SELECT s.hash FROM interactions i LEFT JOIN screens s ON s.id = i.screen_id
			WHERE i.session_id = ? AND i.seq = ?`, sessionID, seq).Scan(&hash)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("interaction %d: %w", seq, ErrNotFound)
		}
		copy(h[:], hash)
		return err
	})
	if err != nil {
		return ScreenHash{}, fmt.Errorf("reading the screen of interaction %d of session %q: %w", seq, sessionID, err)
	}
	return h, nil
}
