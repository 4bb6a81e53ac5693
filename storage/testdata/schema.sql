-- table client_spans
CREATE TABLE client_spans (
	session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	tab        INTEGER NOT NULL,
	from_seq   INTEGER NOT NULL,
	until_seq  INTEGER NOT NULL,
	client     TEXT NOT NULL DEFAULT '',
	secret     TEXT NOT NULL DEFAULT ''
) STRICT;

-- table healing_decisions
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

-- table interactions
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

-- table model_calls
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

-- table runs
CREATE TABLE runs (
	id              INTEGER PRIMARY KEY,
	started_at      INTEGER NOT NULL,
	finished_at     INTEGER,           -- NULL while running, or if it died
	status          TEXT NOT NULL,     -- running, passed, failed, cancelled
	args            TEXT NOT NULL DEFAULT '',  -- the command line, for reports
	ci              INTEGER NOT NULL DEFAULT 0,  -- 1 when CI was set
	program_version TEXT NOT NULL DEFAULT ''
) STRICT;

-- table screens
CREATE TABLE screens (
	id         INTEGER PRIMARY KEY,
	hash       BLOB NOT NULL UNIQUE,   -- sha256 of the canonical JSON
	size       INTEGER NOT NULL,       -- length of the canonical JSON
	codec      TEXT NOT NULL,          -- 'zstd' (whole) or 'zstd-delta'
	base_id    INTEGER REFERENCES screens(id),  -- set for 'zstd-delta' only
	data       BLOB NOT NULL,
	created_at INTEGER NOT NULL
) STRICT;

-- table sessions
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

-- table step_results
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

-- table trail_results
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

-- table trail_versions
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

-- table trails
CREATE TABLE trails (
	id         INTEGER PRIMARY KEY,
	slug       TEXT NOT NULL UNIQUE,
	created_at INTEGER NOT NULL
) STRICT;

-- index client_spans_session
CREATE INDEX client_spans_session ON client_spans(session_id);

-- index healing_decisions_run
CREATE INDEX healing_decisions_run ON healing_decisions(run_id);

-- index interactions_screen
CREATE INDEX interactions_screen ON interactions(screen_id) WHERE screen_id IS NOT NULL;

-- index model_calls_run
CREATE INDEX model_calls_run ON model_calls(run_id) WHERE run_id IS NOT NULL;

-- index screens_base
CREATE INDEX screens_base ON screens(base_id) WHERE base_id IS NOT NULL;

-- index sessions_unsaved
CREATE INDEX sessions_unsaved ON sessions(updated_at) WHERE saved_at IS NULL;

-- index trail_results_run
CREATE INDEX trail_results_run ON trail_results(run_id);

-- index trail_versions_session
CREATE INDEX trail_versions_session ON trail_versions(session_id) WHERE session_id IS NOT NULL;

