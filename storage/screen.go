package storage

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/trailpin/trailpin/recorder/screen"
)

const (
	// maxScreenBytes is the largest canonical screen JSON stored. Chrome
	// refuses native messages to the host above 64 MiB, so no capture the
	// extension sends can be larger.
	maxScreenBytes = 64 << 20

	// screenLevel is the zstd level for screens. Measured on a 10k-node page
	// (1.47 MB of JSON; BenchmarkScreenCodecs): flate's default level gives
	// 127 KB, zstd's default 109 KB and this level 88 KB whole; as a delta
	// against the previous capture, 2.8 KB at the default level and 0.9 KB
	// at this one, for about 3 ms more per capture. Most captures are
	// deltas, so this level cuts the database's growth by a third
	// (BenchmarkDatabaseGrowth10k).
	screenLevel = zstd.SpeedBetterCompression

	// maxDeltaShare is how large a delta may be, as a share of the screen's
	// whole encoding, before the screen is stored whole instead: past it the
	// page changed so much (a navigation) that the new screen is the better
	// base for the screens that follow.
	maxDeltaShare = 0.5

	// baseCacheSize is how many decoded base screens are kept in memory: one
	// per recording in progress is enough, and one host records one tab.
	baseCacheSize = 2

	// dictID names the base in a delta's zstd frame; each base gets its own
	// decoder, so one id suffices.
	dictID = 1

	codecWhole = "zstd"
	codecDelta = "zstd-delta"
)

// A ScreenHash is the sha256 of a screen's canonical JSON (encoding/json of
// screen.Screen, after redaction): its identity in the database.
type ScreenHash [sha256.Size]byte

func (h ScreenHash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether h names no screen.
func (h ScreenHash) IsZero() bool { return h == ScreenHash{} }

// ParseScreenHash parses the hexadecimal form String writes.
func ParseScreenHash(s string) (ScreenHash, error) {
	var h ScreenHash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, invalidf("screen hash %q is not 64 hexadecimal digits", s)
	}
	copy(h[:], b)
	return h, nil
}

// PutScreen stores s once per content and returns its hash. sessionID, when
// set, names the recording the screen belongs to: the screen is then stored as
// a delta against that recording's latest whole screen when that is smaller.
func (db *DB) PutScreen(ctx context.Context, sessionID string, s *screen.Screen) (ScreenHash, error) {
	p, err := db.prepareScreen(ctx, sessionID, s)
	if err != nil {
		return ScreenHash{}, err
	}
	err = db.write(ctx, func(tx *sql.Tx) error {
		_, err := db.insertScreen(ctx, tx, p)
		return err
	})
	if err != nil {
		return ScreenHash{}, fmt.Errorf("storing screen %s: %w", p.hash, err)
	}
	return p.hash, nil
}

// Screen reads back the screen stored under h.
func (db *DB) Screen(ctx context.Context, h ScreenHash) (*screen.Screen, error) {
	raw, err := db.ScreenJSON(ctx, h)
	if err != nil {
		return nil, err
	}
	var s screen.Screen
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("reading screen %s: %w", h, err)
	}
	return &s, nil
}

// ScreenJSON reads back the canonical JSON of the screen stored under h.
func (db *DB) ScreenJSON(ctx context.Context, h ScreenHash) ([]byte, error) {
	var raw []byte
	err := db.read(ctx, func(q *sql.DB) error {
		var id int64
		err := q.QueryRowContext(ctx, "SELECT id FROM screens WHERE hash = ?", h[:]).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("screen %s: %w", h, ErrNotFound)
		}
		if err != nil {
			return err
		}
		raw, err = db.screenJSON(ctx, q, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading screen %s: %w", h, err)
	}
	return raw, nil
}

// A preparedScreen is a screen hashed and compressed outside the write
// transaction, so the write lock is held only for the insert.
type preparedScreen struct {
	hash ScreenHash
	// stored is true when the screen was already in the database; then
	// nothing below is set.
	stored bool
	size   int
	codec  string
	baseID int64
	data   []byte
}

func (db *DB) prepareScreen(ctx context.Context, sessionID string, s *screen.Screen) (*preparedScreen, error) {
	if s == nil || s.Root == nil {
		return nil, invalidf("screen has no root node")
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encoding screen: %w", err)
	}
	if raw, err = db.redactJSON("screen", raw); err != nil {
		return nil, err
	}
	if len(raw) > maxScreenBytes {
		return nil, invalidf("screen of %d bytes is larger than the limit of %d", len(raw), maxScreenBytes)
	}
	p := &preparedScreen{hash: sha256.Sum256(raw), size: len(raw)}
	err = db.read(ctx, func(q *sql.DB) error {
		err := q.QueryRowContext(ctx, "SELECT 1 FROM screens WHERE hash = ?", p.hash[:]).Scan(new(int))
		p.stored = err == nil
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil || p.stored {
		return p, err
	}
	if sessionID != "" {
		ok, err := db.encodeDelta(ctx, sessionID, raw, p)
		if err != nil || ok {
			return p, err
		}
	}
	p.codec = codecWhole
	p.data = db.screens.whole.EncodeAll(raw, nil)
	return p, nil
}

// encodeDelta encodes raw against the session's latest base screen, and
// reports whether the delta was small enough to keep.
func (db *DB) encodeDelta(ctx context.Context, sessionID string, raw []byte, p *preparedScreen) (bool, error) {
	var baseID, baseLen, baseSize int64
	var baseHash []byte
	err := db.read(ctx, func(q *sql.DB) error {
		err := q.QueryRowContext(ctx, `
			SELECT b.id, b.hash, length(b.data), b.size
			FROM interactions i
			JOIN screens s ON s.id = i.screen_id
			JOIN screens b ON b.id = coalesce(s.base_id, s.id)
			WHERE i.session_id = ?
			ORDER BY i.seq DESC LIMIT 1`, sessionID).Scan(&baseID, &baseHash, &baseLen, &baseSize)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	if err != nil || baseID == 0 {
		return false, err
	}
	var base *screenBase
	err = db.read(ctx, func(q *sql.DB) error {
		var err error
		base, err = db.baseScreen(ctx, q, baseID, baseHash)
		return err
	})
	if err != nil {
		return false, err
	}
	enc, _, err := base.codecs()
	if err != nil {
		return false, err
	}
	delta := enc.EncodeAll(raw, nil)
	// What a whole encoding of raw would take, estimated from the base's
	// ratio rather than paid for with a second encoding.
	whole := float64(baseLen) * float64(len(raw)) / float64(max(baseSize, 1))
	if float64(len(delta)) > maxDeltaShare*whole {
		return false, nil
	}
	p.codec, p.baseID, p.data = codecDelta, baseID, delta
	return true, nil
}

// insertScreen stores p unless a screen with its hash is there already (put
// by another process meanwhile), and returns the screen's row id.
func (db *DB) insertScreen(ctx context.Context, tx *sql.Tx, p *preparedScreen) (int64, error) {
	if !p.stored {
		var base any
		if p.baseID != 0 {
			base = p.baseID
		}
		_, err := tx.ExecContext(ctx, `
			INSERT INTO screens (hash, size, codec, base_id, data, created_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (hash) DO NOTHING`,
			p.hash[:], p.size, p.codec, base, p.data, db.nowMillis())
		if err != nil {
			return 0, err
		}
	}
	var id int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM screens WHERE hash = ?", p.hash[:]).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		// Pruned between the check and this transaction: the extension's
		// re-send stores it again.
		return 0, fmt.Errorf("screen %s was pruned while being stored; send it again: %w", p.hash, ErrNotFound)
	}
	return id, err
}

// screenJSON decodes the screen with row id, checking it against its hash.
func (db *DB) screenJSON(ctx context.Context, q queryRower, id int64) ([]byte, error) {
	var (
		hash, baseHash, data []byte
		size                 int
		codec                string
		baseCodec            sql.NullString
		baseID               sql.NullInt64
	)
	err := q.QueryRowContext(ctx, `
		SELECT s.hash, s.size, s.codec, s.base_id, b.hash, b.codec, s.data
		FROM screens s LEFT JOIN screens b ON b.id = s.base_id
		WHERE s.id = ?`, id).
		Scan(&hash, &size, &codec, &baseID, &baseHash, &baseCodec, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("screen row %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	var raw []byte
	switch codec {
	case codecWhole:
		raw, err = db.screens.dec.DecodeAll(data, make([]byte, 0, size))
	case codecDelta:
		if baseCodec.String != codecWhole {
			err = fmt.Errorf("its base is stored as %q, not whole", baseCodec.String)
			break
		}
		var base *screenBase
		if base, err = db.baseScreen(ctx, q, baseID.Int64, baseHash); err == nil {
			var dec *zstd.Decoder
			if _, dec, err = base.codecs(); err == nil {
				raw, err = dec.DecodeAll(data, make([]byte, 0, size))
			}
		}
	default:
		err = fmt.Errorf("unknown codec %q; a newer Trailpin wrote it", codec)
	}
	if err != nil {
		return nil, fmt.Errorf("decoding screen %x: %w", hash, err)
	}
	if sum := sha256.Sum256(raw); len(raw) != size || string(sum[:]) != string(hash) {
		return nil, fmt.Errorf("screen %x is corrupt: its content no longer matches its hash", hash)
	}
	return raw, nil
}

// A screenBase is a decoded whole screen that deltas refer to, with the
// zstd encoder and decoder that use it as their dictionary.
type screenBase struct {
	hash string // cache key: row ids can be reused after a prune, hashes not
	raw  []byte

	once sync.Once
	enc  *zstd.Encoder
	dec  *zstd.Decoder
	err  error
}

func (b *screenBase) codecs() (*zstd.Encoder, *zstd.Decoder, error) {
	b.once.Do(func() {
		b.enc, b.err = zstd.NewWriter(nil, zstd.WithEncoderLevel(screenLevel), zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderDictRaw(dictID, b.raw))
		if b.err != nil {
			return
		}
		b.dec, b.err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(maxScreenBytes), zstd.WithDecoderDictRaw(dictID, b.raw))
	})
	return b.enc, b.dec, b.err
}

// baseScreen returns the decoded base screen with row id and the given
// hash, from the cache when it is there.
func (db *DB) baseScreen(ctx context.Context, q queryRower, id int64, hash []byte) (*screenBase, error) {
	if b := db.screens.cached(string(hash)); b != nil {
		return b, nil
	}
	raw, err := db.screenJSON(ctx, q, id)
	if err != nil {
		return nil, fmt.Errorf("reading base screen: %w", err)
	}
	return db.screens.remember(&screenBase{hash: string(hash), raw: raw}), nil
}

// screenCodec holds the zstd state shared by every screen of a DB.
type screenCodec struct {
	whole *zstd.Encoder
	dec   *zstd.Decoder

	mu    sync.Mutex
	bases []*screenBase // most recently used first
}

func newScreenCodec() (*screenCodec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(screenLevel), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(maxScreenBytes))
	if err != nil {
		return nil, err
	}
	return &screenCodec{whole: enc, dec: dec}, nil
}

func (c *screenCodec) cached(hash string) *screenBase {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, b := range c.bases {
		if b.hash == hash {
			copy(c.bases[1:i+1], c.bases[:i])
			c.bases[0] = b
			return b
		}
	}
	return nil
}

// remember adds b to the cache, unless another goroutine decoded the same
// base meanwhile, and returns the cached one.
func (c *screenCodec) remember(b *screenBase) *screenBase {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, have := range c.bases {
		if have.hash == b.hash {
			return have
		}
	}
	c.bases = append([]*screenBase{b}, c.bases...)
	if len(c.bases) > baseCacheSize {
		c.bases = c.bases[:baseCacheSize]
	}
	return b
}
