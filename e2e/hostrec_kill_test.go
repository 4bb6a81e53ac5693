package e2e

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
)

// How a host process ends at a point of the scripted recording.
type killPoint int

const (
	noKill killPoint = iota
	// killAfterSend: the interaction's frame is written, then the host is
	// killed before its ack is read (it may or may not have committed).
	killAfterSend
	// killAfterAck: killed once the ack arrived, between frames.
	killAfterAck
	// killMidFrame: half of the interaction's frame is written, then the
	// host is killed.
	killMidFrame
	// killPipelined: this interaction and the next are written without
	// waiting for either ack, then the host is killed.
	killPipelined
	// killAckLost: the ack is written by the host but never seen by the
	// extension (the port broke): the host is killed after it committed.
	killAckLost
)

// extensionSim plays the extension's part across host restarts: it keeps
// what was not acknowledged and sends it again after a reconnect.
type extensionSim struct {
	t       *testing.T
	home    *HostHome
	h       *HostProc
	session string
	steps   []recStep
	// acked is the highest seq acknowledged; sent the highest written.
	acked, sent int64
	kills       int
}

func (e *extensionSim) connect() {
	e.h = StartHostProc(e.t, e.home)
	hello := e.h.MustRequest("hello", map[string]any{"protocol": 1, "version": "test"})
	types := map[string]bool{}
	for _, t := range hello["types"].([]any) {
		types[t.(string)] = true
	}
	for _, want := range []string{"record.start", "record.interaction", "record.resume", "record.status", "record.stop",
		"record.save", "record.discard", "trail.export", "project.list", "project.set", "project.addApp"} {
		if !types[want] {
			e.t.Fatalf("hello does not list %s: %v", want, hello["types"])
		}
	}
}

// crash kills the host, checks the database survived, and reconnects:
// record.resume, then everything after lastSeq again, in order.
func (e *extensionSim) crash() {
	t := e.t
	t.Helper()
	e.h.Kill()
	e.kills++
	integrityOK(t, e.home.DBPath())
	e.connect()
	m := e.h.MustRequest("record.resume", map[string]any{"session": e.session})
	last := m.Int("lastSeq")
	t.Logf("kill %d: the new host has seq %d stored (acknowledged %d, sent %d)", e.kills, last, e.acked, e.sent)
	if last < e.acked || last > e.sent {
		t.Fatalf("after kill %d: lastSeq %d, want between the last ack %d and the last sent %d", e.kills, last, e.acked, e.sent)
	}
	// Everything not acknowledged is sent again: what the host stored
	// already is acknowledged as such (added false), the rest is stored.
	for _, s := range e.steps[e.acked:e.sent] {
		m := e.h.MustRequest(s.typ, s.body)
		if added := m["added"] == true; added != (s.seq > last) {
			t.Fatalf("re-sent interaction %d after lastSeq %d: added %v", s.seq, last, m["added"])
		}
	}
	e.acked = e.sent
}

func integrityOK(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatalf("opening the database after a kill: %v", err)
	}
	defer db.Close()
	if err := storagetest.IntegrityCheck(ctx, db.Path()); err != nil {
		t.Fatalf("PRAGMA integrity_check after a kill: %v", err)
	}
}

// recordWithKills records the scripted session in a fresh home, killing the
// host at the given points, and returns the exported trail file.
func recordWithKills(t *testing.T, kills map[int64]killPoint, killAfterStop, killDuringSave bool) ([]byte, *extensionSim) {
	home := NewHostHome(t)
	dir := newProjectDir(t, home)
	const session = "r-kill-test"
	e := &extensionSim{t: t, home: home, session: session, steps: recInteractions(session)}
	e.connect()
	e.h.MustRequest("record.start", recStart(session))
	e.h.MustRequest("project.set", map[string]any{"dir": dir, "create": true})
	e.h.MustRequest("project.addApp", map[string]any{"origin": recOrigin, "name": "shop"})

	for i := 0; i < len(e.steps); i++ {
		s := e.steps[i]
		switch kills[s.seq] {
		case noKill, killAfterAck:
			e.h.MustRequest(s.typ, s.body)
			e.sent, e.acked = s.seq, s.seq
			if kills[s.seq] == killAfterAck {
				e.crash()
			}
		case killAfterSend:
			e.h.Send(s.typ, s.body)
			e.sent = s.seq
			e.crash()
		case killMidFrame:
			f := Frame(e.h.NextID(), s.typ, s.body)
			if err := e.h.Write(f[:len(f)/2]); err != nil {
				t.Fatal(err)
			}
			e.sent = s.seq // the extension counts it as unacknowledged
			e.crash()
		case killAckLost:
			e.h.MustRequest(s.typ, s.body)
			e.sent = s.seq
			e.crash()
		case killPipelined:
			e.h.Send(s.typ, s.body)
			e.h.Send(e.steps[i+1].typ, e.steps[i+1].body)
			e.sent = s.seq + 1
			i++
			e.crash()
		}
	}

	e.h.MustRequest("record.stop", recStop(session))
	if killAfterStop {
		e.crash()
		// A new host process has not seen the stop: it says so, and the
		// extension stops again before saving.
		expectError(t, e.h.Request("record.save", recSave(session)), 5)
		e.h.MustRequest("record.stop", recStop(session))
	}
	if killDuringSave {
		e.h.Send("record.save", recSave(session))
		e.crash()
		e.h.MustRequest("record.stop", recStop(session))
	}
	saved := e.h.MustRequest("record.save", recSave(session))
	if saved.Int("version") != 1 {
		t.Fatalf("record.save: got %v, want version 1 (a re-sent save adds no version)", saved)
	}
	exp := e.h.MustRequest("trail.export", map[string]any{"trail": saved.Str("trail")})
	out, err := os.ReadFile(exp.Str("path"))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}
	integrityOK(t, home.DBPath())
	return out, e
}

// TestHostRecordingSurvivesKills kills the host with SIGKILL at several
// points of one recording (after a frame was written, between frames, in
// the middle of a frame, with two frames in flight, after a commit whose ack
// was lost, after the stop and during the save). After each kill the database passes integrity_check, a
// new host process says where the session stands, the rest is sent again,
// and the saved trail is byte for byte the one the same recording gives
// without kills.
func TestHostRecordingSurvivesKills(t *testing.T) {
	t.Parallel()
	browsertest.Long(t)
	want, _ := recordWithKills(t, nil, false, false)
	got, e := recordWithKills(t, map[int64]killPoint{
		2: killAfterSend,
		3: killMidFrame,
		5: killAfterAck,
		6: killAfterSend,
		7: killAckLost,
		8: killPipelined,
	}, true, true)
	if e.kills != 8 {
		t.Fatalf("%d kills, want 8", e.kills)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the trail recorded with kills differs from the one without:\n--- with kills\n%s\n--- without\n%s", got, want)
	}
	CheckNoSecretLeaks(t, recPassword, LeakDatabase(e.home.DBPath())...)
}
