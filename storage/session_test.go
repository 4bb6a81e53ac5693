package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
)

func TestCreateAndListSessions(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	clock := time.UnixMilli(1_700_000_000_000)
	db.now = func() time.Time { return clock }

	a, err := db.CreateSession(ctx, NewSession{Title: "Checkout", ProjectDir: "/home/ana/shop", App: "shop",
		StartURL: "http://127.0.0.1:3000/cart", Viewport: screen.Viewport{Width: 1280, Height: 800},
		Locale: "en-GB", TimeZone: "Europe/London"})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.ID) != 2*sessionIDBytes {
		t.Errorf("CreateSession made id %q, want %d hex digits", a.ID, 2*sessionIDBytes)
	}
	want := Session{ID: a.ID, CreatedAt: clock, UpdatedAt: clock, Title: "Checkout", ProjectDir: "/home/ana/shop",
		App: "shop", StartURL: "http://127.0.0.1:3000/cart", Viewport: screen.Viewport{Width: 1280, Height: 800},
		Locale: "en-GB", TimeZone: "Europe/London"}
	if !a.CreatedAt.Equal(want.CreatedAt) || !a.UpdatedAt.Equal(want.UpdatedAt) {
		t.Errorf("times = %v, %v; want %v", a.CreatedAt, a.UpdatedAt, clock)
	}
	a.CreatedAt, a.UpdatedAt, want.CreatedAt, want.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if a != want {
		t.Errorf("CreateSession() = %+v, want %+v", a, want)
	}

	clock = clock.Add(time.Minute)
	b, err := db.CreateSession(ctx, NewSession{ID: "ext-42", Title: "Search"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := db.CreateSession(ctx, NewSession{ID: "ext-42", Title: "a re-sent Record changes nothing"})
	if err != nil || again.Title != "Search" {
		t.Errorf("CreateSession(existing id) = %+v, %v; want the stored session unchanged", again, err)
	}
	if _, err := db.AppendInteraction(ctx, Interaction{SessionID: b.ID, Seq: 1, Kind: "click", Payload: []byte(`{}`)}, nil); err != nil {
		t.Fatal(err)
	}
	list, err := db.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "ext-42" || list[0].Interactions != 1 || list[1].ID != a.ID {
		t.Errorf("Sessions() = %+v, want ext-42 (1 interaction) then %s", list, a.ID)
	}

	if _, err := db.Session(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Session(nope) = %v, want ErrNotFound", err)
	}
	if _, err := db.CreateSession(ctx, NewSession{ID: "no spaces"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("CreateSession(id with a space) = %v, want ErrInvalid", err)
	}
	if err := db.MarkSessionSaved(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("MarkSessionSaved(nope) = %v, want ErrNotFound", err)
	}
	if err := db.MarkSessionSaved(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Session(ctx, a.ID); !got.SavedAt.Equal(clock) {
		t.Errorf("SavedAt = %v, want %v", got.SavedAt, clock)
	}
}

// clickPayload is a realistic interaction payload as the extension sends it.
func clickPayload(seq int64) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{
		"type": "click", "seq": %d, "time": %d, "frame": "",
		"target": {"ref": "e%d", "role": "button", "name": "Add to cart", "tag": "button", "testId": "add-%d"},
		"point": {"x": 412.5, "y": 388}, "button": 0, "modifiers": [], "detail": 1,
		"url": "http://127.0.0.1:41234/shop?q=boots", "title": "Shop — Trailpin fixture",
		"screenBefore": {"url": "http://127.0.0.1:41234/shop?q=boots", "focused": "e7", "capturedAt": %d}
	}`, seq, 1_760_000_000_000+seq*850, 200+seq, 100+seq, 1_760_000_000_000+seq*850-40))
}

func TestAppendInteractionIsIdempotent(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	captured := shopScreen(300, 1)
	first := Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: clickPayload(1)}
	added, err := db.AppendInteraction(ctx, first, captured)
	if err != nil || !added {
		t.Fatalf("AppendInteraction(seq 1) = %v, %v; want added", added, err)
	}

	// The same interaction again, as a reconnecting extension re-sends it,
	// even with different whitespace in its JSON.
	var spaced bytes.Buffer
	json.Indent(&spaced, clickPayload(1), "", "    ")
	resend := first
	resend.Payload = json.RawMessage(spaced.String())
	added, err = db.AppendInteraction(ctx, resend, shopScreen(300, 1))
	if err != nil || added {
		t.Fatalf("re-sent AppendInteraction(seq 1) = %v, %v; want a no-op success", added, err)
	}

	conflicts := []struct {
		name   string
		in     Interaction
		screen *screen.Screen
	}{
		{"other payload", Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: clickPayload(2)}, captured},
		{"other kind", Interaction{SessionID: s.ID, Seq: 1, Kind: "dblclick", Payload: clickPayload(1)}, captured},
		{"other screen", Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: clickPayload(1)}, shopScreen(300, 2)},
		{"no screen", Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: clickPayload(1)}, nil},
	}
	for _, c := range conflicts {
		t.Run(c.name, func(t *testing.T) {
			added, err := db.AppendInteraction(ctx, c.in, c.screen)
			if !errors.Is(err, ErrConflict) || added {
				t.Errorf("AppendInteraction(seq 1, %s) = %v, %v; want ErrConflict", c.name, added, err)
			}
		})
	}

	// A later interaction that refers to the screen by hash only.
	list, _ := db.Interactions(ctx, s.ID)
	h := list[0].Screen
	if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: 2, Kind: "click", Payload: clickPayload(2), Screen: h}, nil); err != nil {
		t.Fatal(err)
	}

	list, err = db.Interactions(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("Interactions() has %d interactions, want 2", len(list))
	}
	var compact bytes.Buffer
	json.Compact(&compact, clickPayload(1))
	if string(list[0].Payload) != compact.String() || list[0].Kind != "click" || list[0].Seq != 1 {
		t.Errorf("Interactions()[0] = %+v, want seq 1 click with payload %s", list[0], compact.String())
	}
	if list[0].Screen != list[1].Screen || list[0].Screen.IsZero() {
		t.Errorf("screens of seq 1 and 2 = %s, %s; want the same non-zero hash", list[0].Screen, list[1].Screen)
	}
	got, err := db.Screen(ctx, list[0].Screen)
	if err != nil {
		t.Fatal(err)
	}
	assertSameScreen(t, got, captured)
	if n, err := db.LastSeq(ctx, s.ID); err != nil || n != 2 {
		t.Errorf("LastSeq() = %d, %v; want 2", n, err)
	}
}

func TestAppendInteractionRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		t.Fatal(err)
	}
	missing := ScreenHash{1, 2, 3}
	tests := []struct {
		name   string
		in     Interaction
		screen *screen.Screen
		want   error
	}{
		{"unknown session", Interaction{SessionID: "gone", Seq: 1, Kind: "click"}, nil, ErrNotFound},
		{"sequence zero", Interaction{SessionID: s.ID, Seq: 0, Kind: "click"}, nil, ErrInvalid},
		{"empty kind", Interaction{SessionID: s.ID, Seq: 1}, nil, ErrInvalid},
		{"kind with spaces", Interaction{SessionID: s.ID, Seq: 1, Kind: "drop table"}, nil, ErrInvalid},
		{"payload not JSON", Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Payload: []byte(`{"a":`)}, nil, ErrInvalid},
		{"payload too large", Interaction{SessionID: s.ID, Seq: 1, Kind: "type",
			Payload: []byte(`"` + strings.Repeat("a", maxPayloadBytes) + `"`)}, nil, ErrInvalid},
		{"unknown screen", Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Screen: missing}, nil, ErrNotFound},
		{"screen without root", Interaction{SessionID: s.ID, Seq: 1, Kind: "click"}, &screen.Screen{}, ErrInvalid},
		{"hash and screen disagree", Interaction{SessionID: s.ID, Seq: 1, Kind: "click", Screen: missing}, shopScreen(50, 0), ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			added, err := db.AppendInteraction(ctx, tt.in, tt.screen)
			if !errors.Is(err, tt.want) || added {
				t.Errorf("AppendInteraction(%s) = %v, %v; want an error wrapping %v", tt.name, added, err, tt.want)
			}
		})
	}
	if list, _ := db.Interactions(ctx, s.ID); len(list) != 0 {
		t.Errorf("refused interactions were stored: %+v", list)
	}
}

func TestPruneUnsaved(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	clock := time.UnixMilli(1_700_000_000_000)
	db.now = func() time.Time { return clock }

	record := func(title string, steps ...int) Session {
		t.Helper()
		s, err := db.CreateSession(ctx, NewSession{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		for i, step := range steps {
			if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: int64(i + 1), Kind: "click",
				Payload: clickPayload(int64(i + 1))}, shopScreen(400, step)); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	// old and unsaved: pruned, with the screens only it used (steps 10-12)
	old := record("old", 10, 11, 12)
	// old but saved: kept, with its screens (0, 1)
	saved := record("saved", 0, 1)
	if err := db.MarkSessionSaved(ctx, saved.ID); err != nil {
		t.Fatal(err)
	}
	// shares screen step 1 with the saved one and adds 20
	oldShared := record("old, sharing a screen", 1, 20)
	clock = clock.Add(2 * time.Hour)
	// recent and unsaved: kept
	recent := record("recent", 30)
	// an old session that was active recently: kept
	clock = clock.Add(-90 * time.Minute)
	active := record("active")
	clock = clock.Add(90 * time.Minute)
	if _, err := db.AppendInteraction(ctx, Interaction{SessionID: active.ID, Seq: 1, Kind: "click", Payload: clickPayload(1)}, nil); err != nil {
		t.Fatal(err)
	}

	screensBefore := countRows(t, db, "screens")
	p, err := db.PruneUnsaved(ctx, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// Pruned: screens 10, 11, 12 and 20. Screen 1 stays for the saved session.
	want := Pruned{Sessions: 2, Interactions: 5, Screens: 4}
	if p != want {
		t.Errorf("PruneUnsaved(1h) = %+v, want %+v", p, want)
	}
	if got := countRows(t, db, "screens"); got != screensBefore-4 {
		t.Errorf("screens after prune = %d, want %d", got, screensBefore-4)
	}
	for _, s := range []Session{old, oldShared} {
		if _, err := db.Session(ctx, s.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("Session(%s) after prune = %v, want ErrNotFound", s.Title, err)
		}
	}
	for _, s := range []Session{saved, recent, active} {
		ins, err := db.Interactions(ctx, s.ID)
		if err != nil {
			t.Fatalf("session %s after prune: %v", s.Title, err)
		}
		for _, in := range ins {
			if in.Screen.IsZero() {
				continue
			}
			if _, err := db.Screen(ctx, in.Screen); err != nil {
				t.Errorf("screen of %s seq %d after prune: %v", s.Title, in.Seq, err)
			}
		}
	}
	checkIntegrity(t, ctx, db)
	if p, err := db.PruneUnsaved(ctx, time.Hour); err != nil || p != (Pruned{}) {
		t.Errorf("second PruneUnsaved(1h) = %+v, %v; want nothing", p, err)
	}
	if _, err := db.PruneUnsaved(ctx, -time.Hour); !errors.Is(err, ErrInvalid) {
		t.Errorf("PruneUnsaved(-1h) = %v, want ErrInvalid", err)
	}
}

func countRows(t *testing.T, db *DB, table string) int {
	t.Helper()
	var n int
	if err := db.r.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// FuzzAppendInteraction feeds payloads as an extension (or anything that
// reaches the host's port) might send them: each is refused as invalid or
// stored as valid JSON, and sending it again changes nothing.
func FuzzAppendInteraction(f *testing.F) {
	for _, seed := range []string{`{}`, `{"type":"click"}`, ` [1, 2 ,3] `, `"\u00e9"`, `{"a":`, ``, "\xff", `null`} {
		f.Add(seed)
	}
	ctx := context.Background()
	db := openTest(f)
	s, err := db.CreateSession(ctx, NewSession{})
	if err != nil {
		f.Fatal(err)
	}
	seq := int64(0)
	f.Fuzz(func(t *testing.T, payload string) {
		seq++
		in := Interaction{SessionID: s.ID, Seq: seq, Kind: "click", Payload: json.RawMessage(payload)}
		added, err := db.AppendInteraction(ctx, in, nil)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("AppendInteraction(%q) = %v, want success or ErrInvalid", payload, err)
			}
			return
		}
		if !added {
			t.Fatalf("AppendInteraction(%q) of a new sequence number reported a re-send", payload)
		}
		if added, err := db.AppendInteraction(ctx, in, nil); err != nil || added {
			t.Fatalf("re-sent AppendInteraction(%q) = %v, %v; want a no-op", payload, added, err)
		}
		list, err := db.Interactions(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := list[len(list)-1]; got.Seq != seq || !json.Valid(got.Payload) {
			t.Fatalf("stored %+v for %q, want seq %d with valid JSON", got, payload, seq)
		}
	})
}

// TestPruneLeavesNoTrace checks a pruned recording is gone from the file
// itself, not only from query results.
func TestPruneLeavesNoTrace(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	const marker = "Ms. Quintessa Vandermeer-Oyelaran"
	s, err := db.CreateSession(ctx, NewSession{Title: "Look up " + marker})
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(1); i <= 30; i++ {
		payload, _ := json.Marshal(map[string]any{"type": "type", "value": marker, "n": i})
		if _, err := db.AppendInteraction(ctx, Interaction{SessionID: s.ID, Seq: i, Kind: "type", Payload: payload}, nil); err != nil {
			t.Fatal(err)
		}
	}
	db.now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	if p, err := db.PruneUnsaved(ctx, 24*time.Hour); err != nil || p.Sessions != 1 {
		t.Fatalf("PruneUnsaved = %+v, %v; want the session pruned", p, err)
	}
	if err := db.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	leaks, err := ScanFilesForTest([]string{db.Path(), db.Path() + "-wal"}, marker)
	if err != nil {
		t.Fatal(err)
	}
	if len(leaks) > 0 {
		t.Errorf("the pruned recording is still readable in the file: %v", leaks)
	}
}
