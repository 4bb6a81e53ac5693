package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// applicationID marks a SQLite file as a Trailpin database ("TPIN"), so Open
// can refuse to migrate some other program's database it was pointed at.
const applicationID = 0x5450494e

// A migration moves the schema from version-1 to version. Migrations are
// append-only: a released migration is never edited; a change to the schema is
// a new migration (usually ALTER TABLE … ADD COLUMN).
type migration struct {
	version int
	name    string
	sql     string
}

// migrations is the schema's history. Times are Unix milliseconds (UTC)
// throughout; booleans are 0/1 integers; every table is STRICT so a value of
// the wrong type is an error, not a silent conversion. Enumerated values
// (statuses, failure classes, reasons) are plain text checked in Go, so a new
// value never needs a table rebuild.
var migrations = []migration{
	{version: 1, name: "recordings, trails and runs", sql: schemaV1},
	{version: 2, name: "outside agents' acts in recordings", sql: schemaV2},
}

// schemaV2 keeps what outside agents' calls performed in a recording
// (docs/agent-api.md, In the trail), so that a host restarted in the
// middle of a recording still knows whose steps they were and which
// secret a client's act typed.
const schemaV2 = `
-- The interactions from_seq to until_seq (inclusive) of a tab that one
-- outside agent's call performed: client is its name ('' when the row
-- says the secret only); secret is the name (never the value) of the
-- project's secret the act typed ('' for none).
CREATE TABLE client_spans (
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	tab        INTEGER NOT NULL,
	from_seq   INTEGER NOT NULL,
	until_seq  INTEGER NOT NULL,
	client     TEXT NOT NULL DEFAULT '',
	secret     TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX client_spans_session ON client_spans(session_id);
`

const schemaV1 = `
-- A session is one recording, from Record until a trail is saved from it or
-- it is pruned. The extension names it in every interaction it sends.
CREATE TABLE sessions (
	id              TEXT PRIMARY KEY,      -- random hex chosen at Record
	created_at      INTEGER NOT NULL,
	-- The last interaction's arrival; an unsaved session is pruned by age
	-- from here, so a long recording is never pruned while it is going on.
	updated_at      INTEGER NOT NULL,
	saved_at        INTEGER,               -- NULL while unsaved (prunable)
	title           TEXT NOT NULL DEFAULT '',
	-- The repository folder (holding trailpin.yaml) the recording goes
	-- into, and the app of that project the recorded origin maps to.
	project_dir     TEXT NOT NULL DEFAULT '',
	app             TEXT NOT NULL DEFAULT '',
	start_url       TEXT NOT NULL DEFAULT '',
	-- The environment of the recording, which replay reproduces.
	viewport_width  INTEGER NOT NULL DEFAULT 0,
	viewport_height INTEGER NOT NULL DEFAULT 0,
	locale          TEXT NOT NULL DEFAULT '',
	time_zone       TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX sessions_unsaved ON sessions(updated_at) WHERE saved_at IS NULL;

-- A screen is one capture of a page (recorder.Screen), stored once per
-- content and compressed with zstd. A capture usually differs from the
-- previous one in a few nodes, so most screens are stored as a delta: a zstd
-- frame that uses a whole screen of the same session (its base) as a raw
-- dictionary. A base is always a whole screen, so reading any screen takes
-- at most two decompressions.
CREATE TABLE screens (
	id         INTEGER PRIMARY KEY,
	hash       BLOB NOT NULL UNIQUE,   -- sha256 of the canonical JSON
	size       INTEGER NOT NULL,       -- length of the canonical JSON
	codec      TEXT NOT NULL,          -- 'zstd' (whole) or 'zstd-delta'
	base_id    INTEGER REFERENCES screens(id),  -- set for 'zstd-delta' only
	data       BLOB NOT NULL,
	created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX screens_base ON screens(base_id) WHERE base_id IS NOT NULL;

-- An interaction is one thing a person or agent did while recording, as the
-- extension sent it. (session_id, seq) makes a re-send after a reconnect a
-- no-op instead of a duplicate.
CREATE TABLE interactions (
	session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,      -- the extension's number, from 1
	kind        TEXT NOT NULL,         -- click, type, navigate, … as sent
	payload     TEXT NOT NULL,         -- the interaction as compact JSON
	-- The screen captured just before the interaction; NULL when none.
	screen_id   INTEGER REFERENCES screens(id),
	received_at INTEGER NOT NULL,      -- host clock, first arrival
	PRIMARY KEY (session_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX interactions_screen ON interactions(screen_id) WHERE screen_id IS NOT NULL;

-- A trail is a saved recording; its identity is its slug (the file name
-- stem), which stays when the title changes. Its content lives in versions.
CREATE TABLE trails (
	id         INTEGER PRIMARY KEY,
	slug       TEXT NOT NULL UNIQUE,
	created_at INTEGER NOT NULL
) STRICT;

-- Every save of a trail is a new version; earlier versions stay.
CREATE TABLE trail_versions (
	trail_id       INTEGER NOT NULL REFERENCES trails(id) ON DELETE CASCADE,
	version        INTEGER NOT NULL,   -- 1, 2, … per trail
	title          TEXT NOT NULL,
	app            TEXT NOT NULL,
	content        BLOB NOT NULL,      -- the trail file's canonical YAML bytes
	content_sha256 BLOB NOT NULL,
	-- The recording it was saved from; NULL for an imported trail or once
	-- that session is gone.
	session_id     TEXT REFERENCES sessions(id) ON DELETE SET NULL,
	created_at     INTEGER NOT NULL,
	PRIMARY KEY (trail_id, version)
) STRICT;
CREATE INDEX trail_versions_session ON trail_versions(session_id) WHERE session_id IS NOT NULL;

-- A run is one invocation of host replay.
CREATE TABLE runs (
	id              INTEGER PRIMARY KEY,
	started_at      INTEGER NOT NULL,
	finished_at     INTEGER,           -- NULL while running, or if it died
	status          TEXT NOT NULL,     -- running, passed, failed, cancelled
	args            TEXT NOT NULL DEFAULT '',  -- the command line, for reports
	ci              INTEGER NOT NULL DEFAULT 0,  -- 1 when CI was set
	program_version TEXT NOT NULL DEFAULT ''
) STRICT;

-- One attempt at one trail in a run; a retry is another row with the next
-- attempt number.
CREATE TABLE trail_results (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	trail_slug    TEXT NOT NULL,
	trail_title   TEXT NOT NULL,
	-- Set when the trail came from the database; NULL for trail files.
	trail_id      INTEGER REFERENCES trails(id) ON DELETE SET NULL,
	trail_version INTEGER,
	source        TEXT NOT NULL DEFAULT '',  -- trail file path, if any
	attempt       INTEGER NOT NULL,    -- 1, then 2, … for --retries
	-- passed, failed, or flaky (this attempt passed after a failed one).
	status        TEXT NOT NULL,
	-- env-issue, auth-blocked, selector-drift, app-bug, missing-test-data,
	-- agent-misread (docs/ci.md); '' when it passed.
	failure_class TEXT NOT NULL DEFAULT '',
	error         TEXT NOT NULL DEFAULT '',
	started_at    INTEGER NOT NULL,
	duration_ms   INTEGER NOT NULL,
	trace_path    TEXT NOT NULL DEFAULT ''   -- the trace page, when kept
) STRICT;
CREATE INDEX trail_results_run ON trail_results(run_id);

-- One step of one trail attempt.
CREATE TABLE step_results (
	trail_result_id   INTEGER NOT NULL REFERENCES trail_results(id) ON DELETE CASCADE,
	step_index        INTEGER NOT NULL,  -- 0-based position in the trail
	intent            TEXT NOT NULL,
	status            TEXT NOT NULL,     -- passed, failed, skipped
	duration_ms       INTEGER NOT NULL,
	-- Why replay stopped inside the step (docs/agent.md): target-not-found,
	-- ambiguous, end-mismatch, action-failed, action-uncertain, …; ''
	-- when the recording ran to its end. With actions_performed it is where
	-- an agent hand-off starts.
	stopped_reason    TEXT NOT NULL DEFAULT '',
	actions_performed INTEGER NOT NULL DEFAULT 0,  -- recorded actions done
	actions_total     INTEGER NOT NULL DEFAULT 0,  -- recorded actions in the step
	model_calls       INTEGER NOT NULL DEFAULT 0,
	-- What the recording cache decided for the step: none, hit, miss,
	-- hand-off, stale (docs/agent.md).
	cache_decision    TEXT NOT NULL DEFAULT 'none',
	error             TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (trail_result_id, step_index)
) STRICT, WITHOUT ROWID;

-- Every call to a model, with what it cost.
CREATE TABLE model_calls (
	id                INTEGER PRIMARY KEY,
	-- NULL for calls outside a replay run (the save-time selector review).
	run_id            INTEGER REFERENCES runs(id) ON DELETE CASCADE,
	trail_result_id   INTEGER REFERENCES trail_results(id) ON DELETE CASCADE,
	step_index        INTEGER,
	purpose           TEXT NOT NULL,     -- heal, review
	model             TEXT NOT NULL,
	prompt_tokens     INTEGER NOT NULL DEFAULT 0,
	completion_tokens INTEGER NOT NULL DEFAULT 0,
	latency_ms        INTEGER NOT NULL DEFAULT 0,
	started_at        INTEGER NOT NULL,
	error             TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX model_calls_run ON model_calls(run_id) WHERE run_id IS NOT NULL;

-- What became of a step the agent healed (docs/agent.md).
CREATE TABLE healing_decisions (
	id              INTEGER PRIMARY KEY,
	run_id          INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	trail_result_id INTEGER REFERENCES trail_results(id) ON DELETE CASCADE,
	step_index      INTEGER NOT NULL,
	-- saved (re-recorded after a later check passed), dropped, kept (no
	-- model answered), reported (read-only cache).
	decision        TEXT NOT NULL,
	reason          TEXT NOT NULL DEFAULT '',
	created_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX healing_decisions_run ON healing_decisions(run_id);
`

// ErrNewerSchema is wrapped when the database was written by a newer
// Trailpin whose schema this program does not know.
var ErrNewerSchema = errors.New("database schema is newer than this program")

// ErrNotTrailpin is wrapped when the file is a SQLite database of some other
// program.
var ErrNotTrailpin = errors.New("not a Trailpin database")

// prepare checks that the file is a Trailpin database this program can read,
// switches it to WAL, and migrates it. The checks come first so that a
// foreign or newer file is left exactly as it was.
func (db *DB) prepare(ctx context.Context, list []migration) error {
	err := db.retryBusy(ctx, func() error {
		_, err := checkSchema(ctx, db.w, len(list))
		return err
	})
	if err != nil {
		return explainOpenError(err)
	}
	var mode string
	err = db.retryBusy(ctx, func() error {
		return db.w.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
	})
	if err != nil {
		return fmt.Errorf("switching to WAL: %w", err)
	}
	if mode != "wal" {
		return fmt.Errorf("switching to WAL: the journal mode stayed %q; the file system may not support shared memory, use a local disk", mode)
	}
	return db.migrate(ctx, list)
}

// explainOpenError turns SQLite's "file is not a database" into an error
// that says what to do.
func explainOpenError(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_NOTADB {
		return fmt.Errorf("%w: the file is not a SQLite database; point --db at a new file (%v)", ErrNotTrailpin, err)
	}
	return err
}

// migrate brings the schema up to the last of list, one transaction per
// migration. Each transaction re-reads the version under the write lock, so
// two processes opening a new database at once apply each migration once.
func (db *DB) migrate(ctx context.Context, list []migration) error {
	known := len(list)
	for i, m := range list {
		if m.version != i+1 {
			return fmt.Errorf("migration %q has version %d, want %d", m.name, m.version, i+1)
		}
	}
	for {
		applied := false
		err := db.write(ctx, func(tx *sql.Tx) error {
			applied = false
			v, err := checkSchema(ctx, tx, known)
			if err != nil || v == known {
				return err
			}
			m := list[v]
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("applying migration %d (%s): %w", m.version, m.name, err)
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
				return err
			}
			applied = true
			return nil
		})
		if err != nil || !applied {
			return err
		}
	}
}

// checkSchema returns the schema version of the database behind tx, or an
// error when the file is not a Trailpin database or is newer than known.
func checkSchema(ctx context.Context, tx queryRower, known int) (int, error) {
	// One statement, so one snapshot: read one by one outside a
	// transaction, the three could straddle another process's first
	// migration (tables there, application id not read yet) and a new
	// Trailpin database would look like another program's.
	var version, appID, objects int
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT user_version FROM pragma_user_version),
		(SELECT application_id FROM pragma_application_id),
		(SELECT count(*) FROM sqlite_schema)`).Scan(&version, &appID, &objects)
	if err != nil {
		return 0, fmt.Errorf("reading the schema version: %w", err)
	}
	switch {
	case appID != applicationID && (appID != 0 || objects > 0):
		return 0, fmt.Errorf("%w: the file is some other program's SQLite database; point --db at a new file", ErrNotTrailpin)
	case version > known:
		return 0, fmt.Errorf("%w: it has schema version %d and this program knows up to %d; upgrade Trailpin, or point --db at another file",
			ErrNewerSchema, version, known)
	}
	return version, nil
}

type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// SchemaVersion is the schema version of the open database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := db.read(ctx, func(q *sql.DB) error {
		return q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	})
	return v, err
}
