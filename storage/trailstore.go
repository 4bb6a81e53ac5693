package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const (
	// maxSlugLen keeps a trail's file name (slug + ".trail.yaml") well inside
	// every file system's 255-byte limit.
	maxSlugLen = 100

	// maxTrailBytes bounds one trail file. The largest real trails are a few
	// hundred steps of a few hundred bytes each.
	maxTrailBytes = 16 << 20

	// maxSlugSuffix is how far FreeSlug counts (-2, -3, …) before giving up.
	maxSlugSuffix = 1000
)

// slugPattern is a trail slug: lower-case words of letters and digits joined
// by single hyphens, as in apply-a-discount.
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ErrAmbiguous is wrapped when a trail reference matches several trails.
var ErrAmbiguous = errors.New("ambiguous")

// TrailInput is one save of a trail.
type TrailInput struct {
	// Slug is the trail's identity across versions and its file name stem.
	// Saving under a slug that exists adds a version to that trail, unless
	// New is set.
	Slug string
	// New saves a new trail: when Slug is taken, the first free one of
	// Slug-2, Slug-3, … is used. It is chosen inside the save's transaction,
	// so two hosts saving recordings with the same title get two trails.
	New   bool
	Title string
	App   string
	// Content is the trail file's canonical YAML.
	Content []byte
	// SessionID is the recording the trail was saved from; empty for an
	// imported trail. That session is marked saved in the same transaction.
	SessionID string
}

// A TrailVersion is one saved version of a trail.
type TrailVersion struct {
	TrailID int64
	Slug    string
	Version int
	Title   string
	App     string
	// Content is the YAML; nil in the results of Trails and TrailHistory.
	Content       []byte
	ContentSHA256 [sha256.Size]byte
	SessionID     string
	CreatedAt     time.Time
	// Versions is how many versions the trail has.
	Versions int
}

// A DeletedTrail is what DeleteTrail removed.
type DeletedTrail struct {
	TrailID  int64
	Slug     string
	Title    string // of the latest version
	Versions int
}

// SaveTrail stores in as the next version of the trail with in.Slug, creating
// the trail on its first save, and returns the stored version.
func (db *DB) SaveTrail(ctx context.Context, in TrailInput) (TrailVersion, error) {
	if db.redactString(in.Slug) != in.Slug {
		return TrailVersion{}, fmt.Errorf("saving a trail: %w", invalidf("its slug contains a secret value; choose another title"))
	}
	if err := checkTrailInput(in); err != nil {
		return TrailVersion{}, fmt.Errorf("saving trail %q: %w", in.Slug, err)
	}
	content := db.redact(in.Content)
	title := db.redactString(in.Title)
	app := db.redactString(in.App)
	sum := sha256.Sum256(content)
	var v TrailVersion
	err := db.write(ctx, func(tx *sql.Tx) error {
		now := db.nowMillis()
		slug := in.Slug
		if in.New {
			var err error
			if slug, err = freeSlug(ctx, tx, in.Slug); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO trails (slug, created_at) VALUES (?, ?) ON CONFLICT (slug) DO NOTHING",
			slug, now); err != nil {
			return err
		}
		var id int64
		if err := tx.QueryRowContext(ctx, "SELECT id FROM trails WHERE slug = ?", slug).Scan(&id); err != nil {
			return err
		}
		var version int
		if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) + 1 FROM trail_versions WHERE trail_id = ?",
			id).Scan(&version); err != nil {
			return err
		}
		var session any
		if in.SessionID != "" {
			if err := markSaved(ctx, tx, in.SessionID, now); err != nil {
				return err
			}
			session = in.SessionID
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO trail_versions (trail_id, version, title, app, content, content_sha256, session_id, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id, version, title, app, content, sum[:], session, now); err != nil {
			return err
		}
		v = TrailVersion{TrailID: id, Slug: slug, Version: version, Title: title, App: app,
			Content: content, ContentSHA256: sum, SessionID: in.SessionID, CreatedAt: fromMillis(now), Versions: version}
		return nil
	})
	if err != nil {
		return TrailVersion{}, fmt.Errorf("saving trail %q: %w", in.Slug, err)
	}
	return v, nil
}

func checkTrailInput(in TrailInput) error {
	switch {
	case !ValidSlug(in.Slug):
		return invalidf("slug %q: use lower-case letters and digits joined by single hyphens, at most %d characters", in.Slug, maxSlugLen)
	case strings.TrimSpace(in.Title) == "":
		return invalidf("the trail has no title")
	case len(in.Content) == 0:
		return invalidf("the trail has no content")
	case len(in.Content) > maxTrailBytes:
		return invalidf("trail file of %d bytes is larger than the limit of %d", len(in.Content), maxTrailBytes)
	case !utf8.Valid(in.Content):
		return invalidf("trail content is not UTF-8")
	case in.SessionID != "" && !sessionIDPattern.MatchString(in.SessionID):
		return invalidf("session id %q: use 1 to 64 letters, digits, '-' or '_'", in.SessionID)
	}
	return nil
}

// ValidSlug reports whether s is a slug storage accepts: lower-case ASCII
// letters and digits joined by single hyphens, at most 100 bytes. It is the
// one rule for slugs; callers that make a slug (trail.Slug keeps letters of
// other scripts) check it here before they save.
func ValidSlug(s string) bool { return len(s) <= maxSlugLen && slugPattern.MatchString(s) }

// FreeSlug returns slug when no trail uses it, and otherwise the first of
// slug-2, slug-3, … that is free: the file name a new trail would get. It
// reserves nothing; SaveTrail with New set picks the slug atomically.
func (db *DB) FreeSlug(ctx context.Context, slug string) (string, error) {
	if !ValidSlug(slug) {
		return "", invalidf("slug %q: use lower-case letters and digits joined by single hyphens, at most %d characters", slug, maxSlugLen)
	}
	var free string
	err := db.read(ctx, func(q *sql.DB) error {
		var err error
		free, err = freeSlug(ctx, q, slug)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("finding a free slug for %q: %w", slug, err)
	}
	return free, nil
}

func freeSlug(ctx context.Context, q queryRower, slug string) (string, error) {
	for n := 1; n <= maxSlugSuffix; n++ {
		candidate := slug
		if n > 1 {
			suffix := "-" + strconv.Itoa(n)
			candidate = strings.TrimRight(slug[:min(len(slug), maxSlugLen-len(suffix))], "-") + suffix
		}
		err := q.QueryRowContext(ctx, "SELECT 1 FROM trails WHERE slug = ?", candidate).Scan(new(int))
		if errors.Is(err, sql.ErrNoRows) {
			return candidate, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("%w: %s-2 to %s-%d are all taken; choose another title", ErrConflict, slug, slug, maxSlugSuffix)
}

type querier interface {
	queryRower
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// resolveTrail finds the trail a person means by ref: its slug, then its id,
// then the title of its latest version.
func resolveTrail(ctx context.Context, q querier, ref string) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, "SELECT id FROM trails WHERE slug = ?", ref).Scan(&id)
	if err == nil || !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	if n, perr := strconv.ParseInt(ref, 10, 64); perr == nil && n > 0 {
		err := q.QueryRowContext(ctx, "SELECT id FROM trails WHERE id = ?", n).Scan(&id)
		if err == nil || !errors.Is(err, sql.ErrNoRows) {
			return id, err
		}
	}
	rows, err := q.QueryContext(ctx, `
		SELECT t.id, t.slug FROM trails t
		JOIN trail_versions v ON v.trail_id = t.id
		WHERE v.version = (SELECT max(version) FROM trail_versions WHERE trail_id = t.id) AND v.title = ?
		ORDER BY t.slug`, ref)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var slugs []string
	for rows.Next() {
		var slug string
		if err := rows.Scan(&id, &slug); err != nil {
			return 0, err
		}
		slugs = append(slugs, slug)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	switch len(slugs) {
	case 0:
		return 0, fmt.Errorf("trail %q: %w; `host trails list` shows the saved trails", ref, ErrNotFound)
	case 1:
		return id, nil
	}
	return 0, fmt.Errorf("trail %q: %w: %d trails have this title (%s); name one by its slug",
		ref, ErrAmbiguous, len(slugs), strings.Join(slugs, ", "))
}

const versionColumns = `t.id, t.slug, v.version, v.title, v.app, v.content_sha256, v.session_id, v.created_at,
	(SELECT max(version) FROM trail_versions WHERE trail_id = t.id)`

func scanVersion(row interface{ Scan(...any) error }, extra ...any) (TrailVersion, error) {
	var v TrailVersion
	var sum []byte
	var session sql.NullString
	var created int64
	err := row.Scan(append([]any{&v.TrailID, &v.Slug, &v.Version, &v.Title, &v.App, &sum, &session, &created, &v.Versions}, extra...)...)
	copy(v.ContentSHA256[:], sum)
	v.SessionID = session.String
	v.CreatedAt = fromMillis(created)
	return v, err
}

// Trails lists the latest version of every trail, by slug, without content.
func (db *DB) Trails(ctx context.Context) ([]TrailVersion, error) {
	var list []TrailVersion
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		rows, err := q.QueryContext(ctx, "SELECT "+versionColumns+` FROM trails t
			JOIN trail_versions v ON v.trail_id = t.id
			WHERE v.version = (SELECT max(version) FROM trail_versions WHERE trail_id = t.id)
			ORDER BY t.slug`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := scanVersion(rows)
			if err != nil {
				return err
			}
			list = append(list, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("listing trails: %w", err)
	}
	return list, nil
}

// Trail returns the latest version of the trail ref names (its slug, id or
// title), with content.
func (db *DB) Trail(ctx context.Context, ref string) (TrailVersion, error) {
	return db.TrailAt(ctx, ref, 0)
}

// TrailAt returns the given version of the trail ref names, with content;
// version 0 is the latest.
func (db *DB) TrailAt(ctx context.Context, ref string, version int) (TrailVersion, error) {
	if version < 0 {
		return TrailVersion{}, invalidf("trail version %d: versions start at 1", version)
	}
	var v TrailVersion
	err := db.read(ctx, func(q *sql.DB) error {
		id, err := resolveTrail(ctx, q, ref)
		if err != nil {
			return err
		}
		want := "(SELECT max(version) FROM trail_versions WHERE trail_id = t.id)"
		args := []any{id}
		if version > 0 {
			want = "?"
			args = append(args, version)
		}
		var content []byte
		v, err = scanVersion(q.QueryRowContext(ctx, "SELECT "+versionColumns+`, v.content FROM trails t
			JOIN trail_versions v ON v.trail_id = t.id
			WHERE t.id = ? AND v.version = `+want, args...), &content)
		v.Content = content
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("version %d of trail %q: %w", version, ref, ErrNotFound)
		}
		return err
	})
	if err != nil {
		return TrailVersion{}, fmt.Errorf("reading trail %q: %w", ref, err)
	}
	return v, nil
}

// TrailHistory lists every version of the trail ref names, newest first,
// without content.
func (db *DB) TrailHistory(ctx context.Context, ref string) ([]TrailVersion, error) {
	var list []TrailVersion
	err := db.read(ctx, func(q *sql.DB) error {
		list = list[:0]
		id, err := resolveTrail(ctx, q, ref)
		if err != nil {
			return err
		}
		rows, err := q.QueryContext(ctx, "SELECT "+versionColumns+` FROM trails t
			JOIN trail_versions v ON v.trail_id = t.id
			WHERE t.id = ? ORDER BY v.version DESC`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := scanVersion(rows)
			if err != nil {
				return err
			}
			list = append(list, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading the history of trail %q: %w", ref, err)
	}
	return list, nil
}

// DeleteTrail deletes every version of the trail ref names and says what it
// deleted. The recordings it was saved from become unsaved (unless another
// trail was saved from them too), so pruning collects them in due course.
func (db *DB) DeleteTrail(ctx context.Context, ref string) (DeletedTrail, error) {
	var d DeletedTrail
	err := db.write(ctx, func(tx *sql.Tx) error {
		id, err := resolveTrail(ctx, tx, ref)
		if err != nil {
			return err
		}
		d = DeletedTrail{TrailID: id}
		if err := tx.QueryRowContext(ctx, `
			SELECT t.slug, v.title, (SELECT count(*) FROM trail_versions WHERE trail_id = t.id)
			FROM trails t JOIN trail_versions v ON v.trail_id = t.id
			WHERE t.id = ? ORDER BY v.version DESC LIMIT 1`, id).Scan(&d.Slug, &d.Title, &d.Versions); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE sessions SET saved_at = NULL
			WHERE id IN (SELECT session_id FROM trail_versions WHERE trail_id = ?)
			AND NOT EXISTS (SELECT 1 FROM trail_versions v WHERE v.session_id = sessions.id AND v.trail_id != ?)`,
			id, id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM trails WHERE id = ?", id)
		return err
	})
	if err != nil {
		return DeletedTrail{}, fmt.Errorf("deleting trail %q: %w", ref, err)
	}
	return d, nil
}
