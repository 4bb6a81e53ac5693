package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
)

// Host-level tests of recording: the real host binary in native-messaging
// mode, the test in the extension's place (host/PROTOCOL.md, Recording).

// newProjectDir makes an empty repo folder for the recording to go into.
func newProjectDir(t *testing.T, home *HostHome) string {
	dir := filepath.Join(home.Dir, "src", "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chooseProject answers record.start's needsProject and needsApp as the
// popup does.
func chooseProject(t *testing.T, h *HostProc, dir string) {
	t.Helper()
	m := h.Request("project.set", map[string]any{"dir": dir, "origin": recOrigin})
	expectError(t, m, 5) // no trailpin.yaml yet: the popup asks before creating one
	m = h.MustRequest("project.set", map[string]any{"dir": dir, "create": true, "origin": recOrigin})
	if m["needsApp"] != true || m["app"] != nil {
		t.Fatalf("project.set: the origin maps to no app yet, got %v", m)
	}
	m = h.MustRequest("project.addApp", map[string]any{"origin": recOrigin, "name": "shop"})
	if app, _ := m["app"].(map[string]any); app["name"] != "shop" || app["baseUrl"] != recOrigin {
		t.Fatalf("project.addApp: got %v", m)
	}
}

// sendInteraction sends one scripted interaction and checks its ack.
func sendInteraction(t *testing.T, h *HostProc, s recStep, wantAdded bool) {
	t.Helper()
	m := h.MustRequest(s.typ, s.body)
	if m.Int("seq") != s.seq || m["added"] != wantAdded {
		t.Fatalf("interaction %d: got %v, want the ack of seq %d with added=%v", s.seq, m, s.seq, wantAdded)
	}
}

// TestHostRecordingSession records a whole session through the host: start,
// the project and app named, interactions (with re-sends and refused
// ones), stop, save with edits, and export; then checks the trail, that the
// export is deterministic and loads back, and that the password typed into
// the secret field is nowhere the host wrote.
func TestHostRecordingSession(t *testing.T) {
	t.Parallel()
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	h := StartHostProc(t, home)

	m := h.MustRequest("record.start", recStart(""))
	session := m.Str("session")
	if session == "" || m["needsProject"] != true || m["project"] != nil || m.Str("origin") != recOrigin || m.Int("lastSeq") != 0 {
		t.Fatalf("record.start: got %v", m)
	}
	chooseProject(t, h, dir)
	list := h.MustRequest("project.list", nil)
	if want := []any{map[string]any{"dir": dir, "name": "shop"}}; !reflect.DeepEqual(list["projects"], want) || list["current"] != "shop" {
		t.Fatalf("project.list: got %v", list)
	}

	steps := recInteractions(session)
	for _, s := range steps[:3] {
		sendInteraction(t, h, s, true)
	}
	// A re-sent interaction (no ack arrived, say) changes nothing.
	sendInteraction(t, h, steps[0], false)
	sendInteraction(t, h, steps[2], false)
	// The password never travels: a secret field's interaction with a
	// value, or a value typed into a node the screen marks secret, is
	// refused and nothing is stored.
	bad := steps[3]
	bad.body = map[string]any{"session": session, "interaction": map[string]any{"seq": 4, "kind": "type", "screen": "s2", "ref": "e6", "secret": "password", "value": recPassword}}
	expectError(t, h.Request(bad.typ, bad.body), 5)
	bad.body = map[string]any{"session": session, "interaction": map[string]any{"seq": 4, "kind": "type", "screen": "s2", "ref": "e6", "value": recPassword}}
	expectError(t, h.Request(bad.typ, bad.body), 5)
	if m := h.MustRequest("record.resume", map[string]any{"session": session}); m.Int("lastSeq") != 3 {
		t.Fatalf("after refused interactions: lastSeq %v, want 3", m)
	}
	for _, s := range steps[3:] {
		sendInteraction(t, h, s, true)
	}

	st := h.MustRequest("record.status", map[string]any{})
	if rec, _ := st["recording"].(map[string]any); rec["session"] != session || rec["lastSeq"] != float64(10) || rec["saved"] != false {
		t.Fatalf("record.status: got %v", st)
	}

	expectError(t, h.Request("record.save", recSave(session)), 5) // not stopped yet
	stop := h.MustRequest("record.stop", recStop(session))
	if got := stop["secrets"]; !reflect.DeepEqual(got, []any{"password"}) {
		t.Errorf("record.stop: secrets %v, want [password]", got)
	}
	if stop.Str("title") != "Sign in — Shop" || stop["needsApp"] != false || stop["needsProject"] != false {
		t.Errorf("record.stop: got %v", stop)
	}
	preview := stop.Str("yaml")
	for _, absent := range []string{recEmail, "tap: {selector: {role: button, name: Add to cart}}", recPassword} {
		if strings.Contains(preview, absent) {
			t.Errorf("record.stop's trail holds %q:\n%s", absent, preview)
		}
	}
	stepList, _ := stop["steps"].([]any)
	if len(stepList) < 4 {
		t.Fatalf("record.stop: %d steps, want the username, the password, the sign-in and the assertions:\n%s", len(stepList), preview)
	}

	saved := h.MustRequest("record.save", recSave(session))
	slug := saved.Str("trail")
	if slug != "log-in-and-see-the-welcome" || saved.Int("version") != 1 || saved.Str("app") != "shop" {
		t.Fatalf("record.save: got %v", saved)
	}
	if again := h.MustRequest("record.save", recSave(session)); again.Int("version") != 1 || again.Str("trail") != slug {
		t.Fatalf("record.save sent again: got %v, want the same version", again)
	}

	exp := h.MustRequest("trail.export", map[string]any{"trail": slug})
	path := exp.Str("path")
	if want := filepath.Join(dir, "trails", slug+".trail.yaml"); path != want || exp["unchanged"] != false {
		t.Fatalf("trail.export: got %v, want a new file %s", exp, want)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if exp := h.MustRequest("trail.export", map[string]any{"trail": slug}); exp["unchanged"] != true {
		t.Fatalf("trail.export again: got %v, want unchanged", exp)
	}
	second, _ := os.ReadFile(path)
	if !bytes.Equal(first, second) {
		t.Fatal("exporting twice gave different bytes")
	}
	tr, err := trail.LoadTrail(path, first)
	if err != nil {
		t.Fatalf("the exported trail does not load: %v", err)
	}
	if tr.App != "shop" || tr.Viewport != (screen.Viewport{Width: 1280, Height: 800}) || tr.Locale != "en-GB" || tr.TimeZone != "Europe/London" || tr.Start != "/login" {
		t.Errorf("trail environment: app %q viewport %v locale %q tz %q start %q", tr.App, tr.Viewport, tr.Locale, tr.TimeZone, tr.Start)
	}
	if tr.Steps[0].Intent != "Type the user name ada" {
		t.Errorf("step 0's intent %q, want the edited one", tr.Steps[0].Intent)
	}
	var refs []string
	for _, r := range tr.References() {
		refs = append(refs, r.String())
	}
	if !reflect.DeepEqual(refs, []string{"${secret:shop_password}"}) {
		t.Errorf("trail references %v, want the renamed secret only", refs)
	}
	for _, absent := range []string{recEmail, "tap: {selector: {role: button, name: Add to cart}}"} {
		if bytes.Contains(first, []byte(absent)) {
			t.Errorf("the trail holds %q (marked sensitive, or undone):\n%s", absent, first)
		}
	}
	last := tr.Steps[len(tr.Steps)-1]
	if len(last.Actions) != 1 || last.Actions[0].Kind() != trail.ActionAssertURL {
		t.Errorf("the last step is %v, want the URL assertion", last.Actions)
	}
	if err := h.Close(); err != nil {
		t.Fatalf("host exit: %v", err)
	}

	ctx := context.Background()
	db, err := storage.Open(ctx, home.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := storagetest.IntegrityCheck(ctx, db.Path()); err != nil {
		t.Fatal(err)
	}
	v, err := db.Trail(ctx, slug)
	if err != nil {
		t.Fatal(err)
	}
	if v.SessionID != session {
		t.Errorf("the trail's session %q, want %q", v.SessionID, session)
	}
	// The user config remembers the project, trailpin.yaml the app.
	cfg, _ := os.ReadFile(filepath.Join(home.ConfigDir(), "trailpin", "config.yaml"))
	proj, _ := os.ReadFile(filepath.Join(dir, "trailpin.yaml"))
	if !bytes.Contains(cfg, []byte("currentProject: shop")) || !bytes.Contains(proj, []byte(recOrigin)) {
		t.Errorf("not remembered:\n%s\n---\n%s", cfg, proj)
	}

	// The refused requests carried the password: the scanner sees it there.
	if leaks, err := FindSecretLeaks(recPassword, LeakBytes("requests", h.Sent.Bytes())); err != nil || len(leaks) == 0 {
		t.Fatalf("the scanner does not find the password in the requests that carried it (%v)", err)
	}
	CheckNoSecretLeaks(t, recPassword, append(LeakDatabase(home.DBPath()),
		LeakFile(path), LeakFile(filepath.Join(home.DataDir(), "host.log")),
		LeakBytes("host stderr", h.Stderr()), LeakBytes("host replies", h.Received.Bytes()))...)
}

// TestHostRecordingResume: the host restarts in the middle of a recording;
// the extension asks where the session stands and sends the rest.
func TestHostRecordingResume(t *testing.T) {
	t.Parallel()
	home := NewHostHome(t)
	h := StartHostProc(t, home)
	session := "r-resume-1"
	m := h.MustRequest("record.start", recStart(session))
	if m.Str("session") != session {
		t.Fatalf("record.start: got %v", m)
	}
	steps := recInteractions(session)
	for _, s := range steps[:4] {
		sendInteraction(t, h, s, true)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	h = StartHostProc(t, home)
	// A re-sent start returns the session as it is.
	if m := h.MustRequest("record.start", recStart(session)); m.Str("session") != session || m.Int("lastSeq") != 4 {
		t.Fatalf("record.start sent again: got %v", m)
	}
	m = h.MustRequest("record.resume", map[string]any{"session": session})
	if m.Int("lastSeq") != 4 || m["saved"] != false {
		t.Fatalf("record.resume: got %v", m)
	}
	// The new process knows screen s2 from the database: interaction 4
	// named it without sending it again.
	sendInteraction(t, h, steps[3], false)
	for _, s := range steps[4:] {
		sendInteraction(t, h, s, true)
	}
	expectError(t, h.Request("record.resume", map[string]any{"session": "no-such-session"}), 5)
	m = h.MustRequest("record.discard", map[string]any{"session": session})
	if m["discarded"] != true {
		t.Fatalf("record.discard: got %v", m)
	}
	expectError(t, h.Request("record.resume", map[string]any{"session": session}), 5)
}

// TestHostRecordingRefusesBadMessages sends malformed and invalid messages
// in the middle of a recording: each gets a clear error, and what was
// stored stays as it was.
func TestHostRecordingRefusesBadMessages(t *testing.T) {
	t.Parallel()
	home := NewHostHome(t)
	h := StartHostProc(t, home)
	session := "r-bad-1"
	h.MustRequest("record.start", recStart(session))
	interactions := recInteractions(session)
	for _, s := range interactions[:3] {
		sendInteraction(t, h, s, true)
	}
	in := func(fields map[string]any) map[string]any {
		return map[string]any{"session": session, "interaction": fields}
	}
	cases := []struct {
		name string
		typ  string
		body map[string]any
		code int
		// wantIn is a piece of the error message.
		wantIn string
	}{
		{"no session", "record.interaction", map[string]any{"interaction": map[string]any{"seq": 4, "kind": "click"}}, 5, "session is missing"},
		{"bad session id", "record.interaction", map[string]any{"session": "a b", "interaction": map[string]any{"seq": 4, "kind": "click"}}, 5, "not a session id"},
		{"unknown session", "record.interaction", map[string]any{"session": "nope", "interaction": map[string]any{"seq": 4, "kind": "press", "key": "Enter", "url": recOrigin + "/"}}, 5, "start a new recording"},
		{"no interaction", "record.interaction", map[string]any{"session": session}, 5, "interaction is missing"},
		{"interaction not an object", "record.interaction", map[string]any{"session": session, "interaction": 5}, 5, "must be an object"},
		{"seq not a number", "record.interaction", in(map[string]any{"seq": "4", "kind": "click"}), 5, "interaction.seq"},
		{"seq 0", "record.interaction", in(map[string]any{"seq": 0, "kind": "click"}), 5, "start at 1"},
		{"unknown kind", "record.interaction", in(map[string]any{"seq": 4, "kind": "teleport"}), 5, "teleport"},
		{"a dialog without the page's url", "record.interaction", in(map[string]any{"seq": 4, "kind": "dialog", "dialogKind": "alert", "accept": true}), 5, "lacks url"},
		{"screen never sent", "record.interaction", in(map[string]any{"seq": 4, "kind": "click", "screen": "s9", "ref": "e7", "url": recOrigin + "/"}), 5, "never received"},
		{"screen without its id", "record.interaction", map[string]any{"session": session, "interaction": map[string]any{"seq": 4, "kind": "click", "url": recOrigin + "/"}, "screen": json.RawMessage(WireScreen(recLogin("")))}, 5, "does not name it"},
		{"screen not in the wire form", "record.interaction", map[string]any{"session": session, "interaction": map[string]any{"seq": 4, "kind": "click", "screen": "s9", "ref": "e7", "url": recOrigin + "/"}, "screen": map[string]any{"schema": 1, "root": map[string]any{"ref": "e1"}}}, 5, "wire form"},
		{"screen id reused for another capture", "record.interaction", map[string]any{"session": session, "interaction": map[string]any{"seq": 4, "kind": "click", "screen": "s1", "ref": "e7", "url": recOrigin + "/"}, "screen": json.RawMessage(WireScreen(recHome(3)))}, 5, "same capture"},
		{"another interaction under a stored seq", "record.interaction", in(map[string]any{"seq": 2, "kind": "type", "screen": "s1", "ref": "e5", "value": "bob", "url": recOrigin + "/login"}), 5, "sequence number 2"},
		{"start without viewport", "record.start", map[string]any{"tab": 1, "url": recOrigin + "/"}, 5, "viewport"},
		{"start on a file URL", "record.start", map[string]any{"tab": 1, "url": "file:///etc/passwd", "viewport": map[string]any{"width": 10, "height": 10}}, 5, "http or https"},
		{"save before stop", "record.save", map[string]any{"session": session, "title": "x"}, 5, "record.stop"},
		{"save without title", "record.save", map[string]any{"session": session}, 5, "title"},
		{"export of no trail", "trail.export", map[string]any{"trail": "nothing-here"}, 5, "nothing-here"},
		{"project not absolute", "project.set", map[string]any{"dir": "src/shop"}, 5, "absolute"},
		{"unknown type", "record.teleport", map[string]any{}, 3, "record.teleport"},
	}
	for _, c := range cases {
		m := h.Request(c.typ, c.body)
		if m.Type() != "error" || m.Int("code") != int64(c.code) || !strings.Contains(m.Str("message"), c.wantIn) {
			t.Errorf("%s: got %v, want error %d saying %q", c.name, m, c.code, c.wantIn)
		}
	}
	// Not JSON at all: error 1, and the session goes on.
	if err := h.Write(RawFrame([]byte("{not json"))); err != nil {
		t.Fatal(err)
	}
	m, err := h.Recv()
	if err != nil {
		t.Fatal(err)
	}
	expectError(t, m, 1)

	// The stop of a recording whose steps are all undone says so.
	other := "r-bad-2"
	h.MustRequest("record.start", recStart(other))
	others := recInteractions(other)
	sendInteraction(t, h, others[0], true)
	undo := interactionStep(other, 2, map[string]any{"kind": "undo"}, nil)
	sendInteraction(t, h, undo, true)
	if m := h.Request("record.stop", map[string]any{"session": other}); m.Type() != "error" || !strings.Contains(m.Str("message"), "no steps") {
		t.Errorf("stop of an empty recording: got %v", m)
	}

	// Nothing stored changed; the recording goes on.
	if m := h.MustRequest("record.resume", map[string]any{"session": session}); m.Int("lastSeq") != 3 {
		t.Fatalf("lastSeq after refused messages: %v, want 3", m)
	}
	for _, s := range interactions[3:] {
		sendInteraction(t, h, s, true)
	}
	h.MustRequest("record.stop", recStop(session))
	// Edits that name no step or no secret are refused.
	for _, body := range []map[string]any{
		{"session": session, "title": "T", "intents": map[string]any{"99": "x"}},
		{"session": session, "title": "T", "intents": map[string]any{"0": "two\nlines"}},
		{"session": session, "title": "T", "secrets": map[string]any{"pin": "x"}},
		{"session": session, "title": "T", "secrets": map[string]any{"password": "a b"}},
		{"session": session, "title": "two\nlines"},
	} {
		expectError(t, h.Request("record.save", body), 5)
	}
	// Without a project the save says what to send.
	m = h.Request("record.save", recSave(session))
	if m.Type() != "error" || !strings.Contains(m.Str("message"), "project.set") {
		t.Fatalf("save without a project: got %v", m)
	}
	h.MustRequest("record.discard", map[string]any{"session": other})
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(context.Background(), home.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	list, err := db.Interactions(context.Background(), session)
	if err != nil || len(list) != 10 {
		t.Fatalf("stored interactions: %d (%v), want 10", len(list), err)
	}
	var second steps.Interaction
	json.Unmarshal(list[1].Payload, &second)
	if second.Value != "ada" {
		t.Errorf("interaction 2 holds %q after a conflicting re-send, want ada", second.Value)
	}
}

// TestWireScreenRoundTrip checks the tests' wire encoder against the host's
// decoder, on the captured 10k-element page and on the fixtures.
func TestWireScreenRoundTrip(t *testing.T) {
	t.Parallel()
	screens := []*screen.Screen{recLogin(""), recLogin("ada"), recHome(2), loadShop10k(t)}
	for _, s := range screens {
		got, err := screen.DecodeWire(WireScreen(s))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, s) {
			a, _ := json.Marshal(got)
			b, _ := json.Marshal(s)
			t.Errorf("%s: the wire form reads back differently (%d vs %d bytes of JSON)", s.URL, len(a), len(b))
		}
	}
}

// loadShop10k reads the page of about ten thousand elements captured by the
// page model in headless Chromium (recorder/selector/testdata/selectors/bench).
func loadShop10k(t testing.TB) *screen.Screen {
	t.Helper()
	f, err := os.Open(filepath.Join(RepoRoot(), "recorder", "selector", "testdata", "selectors", "bench", "shop-10k.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Screen *screen.Screen `json:"screen"`
	}
	if err := json.NewDecoder(zr).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c.Screen
}

// TestHostRecordingPrunesUnsaved: starting a recording deletes the unsaved
// ones idle for longer than recording.pruneUnsavedAfter, and a bad value of
// it is refused with what to write.
func TestHostRecordingPrunesUnsaved(t *testing.T) {
	t.Parallel()
	home := NewHostHome(t)
	h := StartHostProc(t, home, "TRAILPIN_RECORDING_PRUNEUNSAVEDAFTER=1s")
	h.MustRequest("record.start", recStart("r-old"))
	sendInteraction(t, h, recInteractions("r-old")[0], true)
	h.MustRequest("record.start", recStart("r-recent"))
	if m := h.MustRequest("record.resume", map[string]any{"session": "r-old"}); m.Int("lastSeq") != 1 {
		t.Fatalf("a recording idle for less than the limit is kept: got %v", m)
	}
	time.Sleep(1200 * time.Millisecond)
	sendInteraction(t, h, recInteractions("r-recent")[0], true)
	h.MustRequest("record.start", recStart("r-new"))
	expectError(t, h.Request("record.resume", map[string]any{"session": "r-old"}), 5)
	if m := h.MustRequest("record.resume", map[string]any{"session": "r-recent"}); m.Int("lastSeq") != 1 {
		t.Fatalf("a recording active within the limit is kept: got %v", m)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	h = StartHostProc(t, home, "TRAILPIN_RECORDING_PRUNEUNSAVEDAFTER=10")
	m := h.Request("record.start", recStart("r-other"))
	if m.Type() != "error" || m.Int("code") != 5 || !strings.Contains(m.Str("message"), "recording.pruneUnsavedAfter") || !strings.Contains(m.Str("message"), "no unit") {
		t.Fatalf("a prune age without a unit: got %v", m)
	}
}

// TestHostRecordingRedactsConfiguredSecrets: a configured secret's value
// typed into a field the page does not mark as secret (the extension cannot
// know) is stored as its reference and recorded as the secret, so it
// reaches neither the database nor the trail.
func TestHostRecordingRedactsConfiguredSecrets(t *testing.T) {
	t.Parallel()
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	conf := "apps:\n  shop:\n    baseURL: " + recOrigin + "\ntrails:\n  dir: trails\nsecrets:\n  shop_password: null\n"
	if err := os.WriteFile(filepath.Join(dir, "trailpin.yaml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	h := StartHostProc(t, home, "TRAILPIN_SECRET_SHOP_PASSWORD="+recPassword)
	session := "r-redact"
	start := recStart(session)
	start["project"] = dir
	if m := h.MustRequest("record.start", start); m["needsApp"] != false {
		t.Fatalf("record.start: got %v", m)
	}
	steps := recInteractions(session)
	sendInteraction(t, h, steps[0], true)
	// The person types the password into the username field.
	typed := interactionStep(session, 2, map[string]any{"kind": "type", "url": recOrigin + "/login", "screen": "s1", "ref": "e5", "value": recPassword}, nil)
	sendInteraction(t, h, typed, true)
	sendInteraction(t, h, typed, false) // a re-send is still the same interaction
	for _, s := range steps[2:] {
		s.body["interaction"].(map[string]any)["seq"] = s.seq
		sendInteraction(t, h, s, true)
	}
	stop := h.MustRequest("record.stop", recStop(session))
	if got := stop["secrets"]; !reflect.DeepEqual(got, []any{"password", "shop_password"}) {
		t.Errorf("record.stop: secrets %v, want password and shop_password", got)
	}
	saved := h.MustRequest("record.save", map[string]any{"session": session, "title": "Log in"})
	exp := h.MustRequest("trail.export", map[string]any{"trail": saved.Str("trail")})
	file, err := os.ReadFile(exp.Str("path"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(file, []byte("text: '${secret:shop_password}'")) {
		t.Errorf("the typed secret is not recorded as its reference:\n%s", file)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	CheckNoSecretLeaks(t, recPassword, append(LeakDatabase(home.DBPath()),
		LeakFile(exp.Str("path")), LeakFile(filepath.Join(home.DataDir(), "host.log")),
		LeakBytes("host stderr", h.Stderr()), LeakBytes("host replies", h.Received.Bytes()))...)
}
