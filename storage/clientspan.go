package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// A ClientSpan is what one outside agent's call performed in a recorded
// tab: the interactions From to Until (inclusive) on Tab, made for Client,
// and the name of the project's secret the act typed, if any (never its
// value).
type ClientSpan struct {
	Tab         int
	From, Until int64
	Client      string
	Secret      string
}

// AddClientSpan stores a span of the session's interactions an outside
// agent performed. The session must exist.
func (db *DB) AddClientSpan(ctx context.Context, sessionID string, s ClientSpan) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sessions WHERE id = ?", sessionID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("session %q: %w", sessionID, ErrNotFound)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO client_spans (session_id, tab, from_seq, until_seq, client, secret)
			VALUES (?, ?, ?, ?, ?, ?)`, sessionID, s.Tab, s.From, s.Until, s.Client, s.Secret)
		return err
	})
	if err != nil {
		return fmt.Errorf("storing an outside agent's span of session %q: %w", sessionID, err)
	}
	return nil
}

// ClientSpans returns the spans stored for the session, in the order they
// were added.
func (db *DB) ClientSpans(ctx context.Context, sessionID string) ([]ClientSpan, error) {
	var list []ClientSpan
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, `SELECT tab, from_seq, until_seq, client, secret FROM client_spans
			WHERE session_id = ? ORDER BY rowid`, sessionID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s ClientSpan
			if err := rows.Scan(&s.Tab, &s.From, &s.Until, &s.Client, &s.Secret); err != nil {
				return err
			}
			list = append(list, s)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading the outside agents' spans of session %q: %w", sessionID, err)
	}
	return list, nil
}
