package storage

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/trailpin/trailpin/recorder/screen"
)

// BenchmarkAppendInteraction measures persistence throughput: interactions
// per second, each committed before AppendInteraction returns, with the
// payload of a click as the extension sends it and no screen. The FULL
// variant shows what an fsync per interaction would cost (see
// synchronousMode).
//
//	go test ./storage -run '^$' -bench AppendInteraction -benchtime 2000x
func BenchmarkAppendInteraction(b *testing.B) {
	for _, mode := range []string{"NORMAL", "FULL"} {
		b.Run("synchronous="+mode, func(b *testing.B) {
			ctx := context.Background()
			db := openTest(b, withSynchronous(mode))
			s, err := db.CreateSession(ctx, NewSession{})
			if err != nil {
				b.Fatal(err)
			}
			payloads := make([][]byte, 64)
			for i := range payloads {
				payloads[i] = clickPayload(int64(i))
			}
			seq := int64(0)
			for b.Loop() {
				seq++
				if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: seq, Kind: "click",
					Payload: payloads[seq%int64(len(payloads))]}, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "interactions/s")
		})
	}
}

// BenchmarkAppendInteractionWithScreen10k is the same with a screen of a
// 10k-node page on every interaction, changed a little every other one: it
// includes hashing, compressing and the delta against the recording's base.
func BenchmarkAppendInteractionWithScreen10k(b *testing.B) {
	ctx := context.Background()
	db := openTest(b)
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		b.Fatal(err)
	}
	seq := int64(0)
	for b.Loop() {
		seq++
		b.StopTimer()
		screen := shopScreen(10000, int(seq/2))
		b.StartTimer()
		if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: seq, Kind: "click",
			Payload: clickPayload(seq)}, screen); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "interactions/s")
}

// BenchmarkDatabaseGrowth10k measures how much the database grows for 100
// interactions on a page of 10k nodes: each interaction carries the screen
// captured before it, and every other one changed a little (the cart count,
// the search box, one card's button, a status line). The figure is the file
// plus its WAL after a checkpoint, less the same for the empty recording.
//
// "delta" is how AppendInteraction stores screens; "whole" stores each
// distinct screen whole (zstd only), for comparison.
//
//	go test ./storage -run '^$' -bench DatabaseGrowth -benchtime 1x
func BenchmarkDatabaseGrowth10k(b *testing.B) {
	const interactions = 100
	screenJSON, _ := json.Marshal(shopScreen(10000, 0))
	for _, variant := range []string{"delta", "whole"} {
		b.Run(variant, func(b *testing.B) {
			ctx := context.Background()
			var growth int64
			for b.Loop() {
				path := filepath.Join(b.TempDir(), "trailpin.db")
				db, err := Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				s, err := db.CreateSession(ctx, NewSession{})
				if err != nil {
					b.Fatal(err)
				}
				before := dbBytes(b, db)
				var screen *screen.Screen
				for i := range interactions {
					in := Interaction{SessionID: s.ID, Seq: int64(i + 1), Kind: "click", Payload: clickPayload(int64(i + 1))}
					if i%2 == 0 {
						screen = shopScreen(10000, i/2)
					}
					if variant == "whole" {
						if in.Screen, err = db.PutScreen(ctx, "", screen); err != nil {
							b.Fatal(err)
						}
						_, err = db.AppendInteraction(ctx, in, nil)
					} else {
						_, err = db.AppendInteraction(ctx, in, screen)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				growth = dbBytes(b, db) - before
				db.Close()
			}
			b.ReportMetric(float64(growth), "bytes/100interactions")
			b.ReportMetric(float64(len(screenJSON)), "screen-json-bytes")
		})
	}
}

// dbBytes checkpoints and returns the size of the file and its WAL.
func dbBytes(b *testing.B, db *DB) int64 {
	if err := db.Checkpoint(context.Background()); err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, p := range []string{db.Path(), db.Path() + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// BenchmarkScreenCodecs compares ways of compressing one capture of a
// 10k-node page that differs a little from the previous capture: the
// figures behind screenLevel and the delta encoding.
func BenchmarkScreenCodecs(b *testing.B) {
	prev, _ := json.Marshal(shopScreen(10000, 3))
	next, _ := json.Marshal(shopScreen(10000, 4))
	flateLevel := func(level int) func([]byte) []byte {
		return func(raw []byte) []byte {
			var buf bytes.Buffer
			w, _ := flate.NewWriter(&buf, level)
			w.Write(raw)
			w.Close()
			return buf.Bytes()
		}
	}
	zstdLevel := func(level zstd.EncoderLevel, opts ...zstd.EOption) func([]byte) []byte {
		enc, err := zstd.NewWriter(nil, append([]zstd.EOption{zstd.WithEncoderLevel(level), zstd.WithEncoderConcurrency(1)}, opts...)...)
		if err != nil {
			b.Fatal(err)
		}
		return func(raw []byte) []byte { return enc.EncodeAll(raw, nil) }
	}
	codecs := []struct {
		name   string
		encode func([]byte) []byte
	}{
		{"flate-default", flateLevel(flate.DefaultCompression)},
		{"flate-best", flateLevel(flate.BestCompression)},
		{"zstd-default", zstdLevel(zstd.SpeedDefault)},
		{"zstd-better", zstdLevel(zstd.SpeedBetterCompression)},
		{"zstd-default-delta", zstdLevel(zstd.SpeedDefault, zstd.WithEncoderDictRaw(dictID, prev))},
		{"zstd-better-delta", zstdLevel(zstd.SpeedBetterCompression, zstd.WithEncoderDictRaw(dictID, prev))},
	}
	for _, c := range codecs {
		b.Run(c.name, func(b *testing.B) {
			var out []byte
			for b.Loop() {
				out = c.encode(next)
			}
			b.ReportMetric(float64(len(out)), "bytes/screen")
			b.ReportMetric(float64(len(next)), "json-bytes")
		})
	}
}
