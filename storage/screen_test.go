package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
)

func assertSameScreen(t *testing.T, got, want *screen.Screen) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("screen read back differs from the one stored (%d vs %d bytes of JSON)", len(g), len(w))
	}
}

type screenRow struct {
	codec  string
	baseID int64
	data   int
}

func screenRowOf(t *testing.T, db *DB, h ScreenHash) screenRow {
	t.Helper()
	var r screenRow
	var base *int64
	if err := db.r.QueryRow("SELECT codec, base_id, length(data) FROM screens WHERE hash = ?", h[:]).Scan(&r.codec, &base, &r.data); err != nil {
		t.Fatalf("screen %s: %v", h, err)
	}
	if base != nil {
		r.baseID = *base
	}
	return r
}

func TestScreensRoundTripAndDedupe(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	// Steps 0, 0, 1, 1, 2, 2, …: every other capture is unchanged.
	const n = 12
	hashes := map[ScreenHash]int{}
	for i := range n {
		screen := shopScreen(2000, i/2)
		if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: int64(i + 1), Kind: "click",
			Payload: clickPayload(int64(i + 1))}, screen); err != nil {
			t.Fatal(err)
		}
	}
	list, err := db.Interactions(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range list {
		hashes[in.Screen]++
		got, err := db.Screen(ctx, in.Screen)
		if err != nil {
			t.Fatalf("Screen(seq %d): %v", in.Seq, err)
		}
		assertSameScreen(t, got, shopScreen(2000, i/2))
	}
	if len(hashes) != n/2 {
		t.Errorf("%d interactions refer to %d distinct screens, want %d", n, len(hashes), n/2)
	}
	if got := countRows(t, db, "screens"); got != n/2 {
		t.Errorf("screens table has %d rows, want %d (one per content)", got, n/2)
	}

	// The first capture is whole; the small changes after it are deltas
	// against it, far smaller than a whole capture.
	first := screenRowOf(t, db, list[0].Screen)
	if first.codec != codecWhole {
		t.Fatalf("first screen codec = %q, want %q", first.codec, codecWhole)
	}
	for _, in := range list[2:] {
		r := screenRowOf(t, db, in.Screen)
		if r.codec != codecDelta || r.data*10 > first.data {
			t.Errorf("screen of seq %d: codec %q, %d bytes; want a delta under a tenth of the %d-byte whole screen",
				in.Seq, r.codec, r.data, first.data)
		}
	}

	// A fresh DB (empty base cache) reads deltas back too.
	db2, err := Open(ctx, db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	got, err := db2.Screen(ctx, list[n-1].Screen)
	if err != nil {
		t.Fatal(err)
	}
	assertSameScreen(t, got, shopScreen(2000, (n-1)/2))
}

func TestScreenAfterNavigationIsWhole(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	other := &screen.Screen{Schema: screen.ScreenSchema, URL: "http://127.0.0.1:41234/help", Title: "Help",
		Root: &screen.Node{Ref: "e1", Tag: "html", Role: "document", Children: []*screen.Node{
			{Ref: "e2", Tag: "h1", Role: "heading", Name: "Help", Text: "Help", Level: 1},
		}}}
	big := shopScreen(2000, 0)
	screens := []*screen.Screen{big, other, big}
	for i, sc := range screens {
		if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: int64(i + 1), Kind: "navigate"}, sc); err != nil {
			t.Fatal(err)
		}
	}
	list, _ := db.Interactions(ctx, s.ID)
	if r := screenRowOf(t, db, list[1].Screen); r.codec != codecWhole {
		t.Errorf("a small unrelated page after a big one is stored %q, want %q (a delta would not pay)", r.codec, codecWhole)
	}
	if list[0].Screen != list[2].Screen {
		t.Errorf("the same page twice got two hashes")
	}
}

func TestScreenHashParse(t *testing.T) {
	h := ScreenHash{0xab, 0x01}
	got, err := ParseScreenHash(h.String())
	if err != nil || got != h {
		t.Errorf("ParseScreenHash(%q) = %v, %v; want %v", h.String(), got, err, h)
	}
	for _, bad := range []string{"", "xyz", h.String()[:10], h.String() + "00"} {
		if _, err := ParseScreenHash(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseScreenHash(%q) = %v, want ErrInvalid", bad, err)
		}
	}
	db := openTest(t)
	if _, err := db.Screen(context.Background(), h); !errors.Is(err, ErrNotFound) {
		t.Errorf("Screen(unknown) = %v, want ErrNotFound", err)
	}
}

func TestScreenCorruptionIsReported(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	h, err := db.PutScreen(ctx, "", shopScreen(200, 0))
	if err != nil {
		t.Fatal(err)
	}
	// A valid zstd frame of other content: decodes fine, hash mismatch.
	other, _ := json.Marshal(shopScreen(200, 1))
	data := db.screens.whole.EncodeAll(other, nil)
	if _, err := db.w.Exec("UPDATE screens SET data = ? WHERE hash = ?", data, h[:]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Screen(ctx, h); err == nil {
		t.Fatalf("Screen() of a screen whose content changed = nil error, want it reported as corrupt")
	}
}

// TestConcurrentRecordings shares one DB between goroutines, as the host's
// native-messaging loop and its agent API do: each records its own session
// with screens, and reads back what the others wrote.
func TestConcurrentRecordings(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const recordings, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, recordings)
	for r := range recordings {
		wg.Go(func() {
			s, err := db.CreateSession(ctx, NewSession{ID: fmt.Sprintf("rec-%d", r)})
			if err != nil {
				errs <- err
				return
			}
			for i := int64(1); i <= each; i++ {
				if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: i, Kind: "click",
					Payload: clickPayload(i)}, shopScreen(300, r*100+int(i))); err != nil {
					errs <- err
					return
				}
				other := fmt.Sprintf("rec-%d", (r+1)%recordings)
				list, err := db.Interactions(ctx, other)
				if err != nil {
					errs <- err
					return
				}
				if len(list) > 0 {
					if _, err := db.Screen(ctx, list[len(list)-1].Screen); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for r := range recordings {
		list, err := db.Interactions(ctx, fmt.Sprintf("rec-%d", r))
		if err != nil || len(list) != each {
			t.Fatalf("recording %d: %d interactions, %v; want %d", r, len(list), err, each)
		}
		for _, in := range list {
			got, err := db.Screen(ctx, in.Screen)
			if err != nil {
				t.Fatal(err)
			}
			assertSameScreen(t, got, shopScreen(300, r*100+int(in.Seq)))
		}
	}
}
