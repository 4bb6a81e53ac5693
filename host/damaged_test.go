package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/nativemsg"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
)

// damagedDatabase writes a database with a recording at path and damages it
// the way damage says (storagetest.Truncated, storagetest.Overwritten).
func damagedDatabase(t *testing.T, path, damage string) {
	t.Helper()
	storagetest.FilledDatabase(t, path)
	storagetest.Damage(t, path, damage)
}

func TestDoctorExplainsADamagedDatabase(t *testing.T) {
	for _, damage := range storagetest.FileDamages {
		t.Run(damage, func(t *testing.T) {
			home := tempHome(t)
			path := filepath.Join(home, ".local/share/trailpin/trailpin.db")
			os.MkdirAll(filepath.Dir(path), 0o700)
			damagedDatabase(t, path, damage)

			out, _, err := run(t, nil, "doctor")
			if exitCodeOf(err) != 1 {
				t.Errorf("doctor on a %s database: exit status %d (%v), want 1", damage, exitCodeOf(err), err)
			}
			var got []string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, "FAIL  database:") || strings.HasPrefix(l, "ok    database:") {
					got = append(got, l)
				}
			}
			if len(got) != 1 {
				t.Fatalf("doctor printed %d database lines, want 1:\n%s", len(got), out)
			}
			want := "FAIL  database: " + path + " is damaged and cannot be used (SQLite"
			fix := ". Fix: move it aside, and a new one is made at the next start: mv " + path + " " + path + ".damaged. " +
				"Lost with it: recordings not saved yet, saved trails never exported to a file, and the run history; " +
				"exported trail files (*.trail.yaml) are not in the database and are not affected"
			if l := got[0]; !strings.HasPrefix(l, want) || !strings.Contains(l, fix) {
				t.Errorf("doctor printed\n%s\nwant a line starting\n%s\nwith\n%s", l, want, fix)
			}
			if strings.Contains(out, "malformed") || strings.Contains(out, "(11)") {
				t.Errorf("doctor shows SQLite's raw error:\n%s", out)
			}
		})
	}

	t.Run("healthy", func(t *testing.T) {
		home := tempHome(t)
		path := filepath.Join(home, ".local/share/trailpin/trailpin.db")
		db, err := storage.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		out, _, _ := run(t, nil, "doctor")
		if want := "ok    database: " + path + " passed SQLite's quick check\n"; !strings.Contains(out, want) {
			t.Errorf("doctor printed\n%s\nwant the line %q", out, want)
		}
	})
}

// In native-messaging mode the host checks the database as it starts; with a
// damaged file every request that needs it is answered with error 7 and the
// fix, the requests that do not are served, and the log says it once.
func TestNativeMessagingModeExplainsADamagedDatabase(t *testing.T) {
	home := tempHome(t)
	path := filepath.Join(home, ".local/share/trailpin/trailpin.db")
	os.MkdirAll(filepath.Dir(path), 0o700)
	damagedDatabase(t, path, storagetest.Truncated)
	before, _ := os.ReadFile(path)

	msgs := []string{
		`{"v":1,"id":"h","type":"hello","protocol":1,"version":"0.1.0"}`,
		`{"v":1,"id":"start","type":"record.start","tab":1,"url":"http://127.0.0.1:8080/","viewport":{"width":800,"height":600},"session":"r-1"}`,
		`{"v":1,"id":"i1","type":"record.interaction","session":"r-1","interaction":{"seq":1,"kind":"click","time":1,"tab":1,"url":"http://127.0.0.1:8080/"}}`,
		`{"v":1,"id":"i1again","type":"record.interaction","session":"r-1","interaction":{"seq":1,"kind":"click","time":1,"tab":1,"url":"http://127.0.0.1:8080/"}}`,
		`{"v":1,"id":"resume","type":"record.resume","session":"r-1"}`,
		`{"v":1,"id":"projects","type":"project.list"}`,
	}
	var in []byte
	for _, m := range msgs {
		in = append(in, frame(m)...)
	}
	out, _, err := run(t, in, "chrome-extension://fjmncidonfkcepgogieobgonbpmpilie/")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	replies := map[string]struct {
		Type    string `json:"type"`
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{}
	for _, f := range readFrames(t, out) {
		var r struct {
			ID string `json:"id"`
		}
		json.Unmarshal([]byte(f), &r)
		v := replies[r.ID]
		json.Unmarshal([]byte(f), &v)
		replies[r.ID] = v
	}
	if len(replies) != len(msgs) {
		t.Fatalf("got replies %v, want one to each of the %d requests", replies, len(msgs))
	}
	if replies["h"].Type != "hello" || replies["projects"].Type != "project.list" {
		t.Errorf("hello and project.list were answered %+v and %+v, want them served as usual", replies["h"], replies["projects"])
	}
	for _, id := range []string{"start", "i1", "i1again", "resume"} {
		r := replies[id]
		if r.Type != "error" || r.Code != int(nativemsg.CodeDatabaseDamaged) {
			t.Errorf("reply to %s = %+v, want error %d", id, r, nativemsg.CodeDatabaseDamaged)
			continue
		}
		for _, want := range []string{path + " is damaged", "mv " + path + " " + path + ".damaged", "Lost with it:", "press Retry connection"} {
			if !strings.Contains(r.Message, want) {
				t.Errorf("error 7 to %s says %q, want it to contain %q", id, r.Message, want)
			}
		}
		if strings.Contains(r.Message, "malformed") {
			t.Errorf("error 7 to %s shows SQLite's raw error: %s", id, r.Message)
		}
	}
	log, err := os.ReadFile(filepath.Join(home, ".local/share/trailpin/host.log"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(log, []byte("the database is damaged")); n != 1 {
		t.Errorf("host.log tells of the damage %d times, want once:\n%s", n, log)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Errorf("the host changed the damaged database: it must be left as it was for a recovery attempt")
	}
}
