//go:build linux

package e2e

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRecordSurvivesHostKills records the shop flow of TestRecordShopTrail
// through the real extension while the host is killed with SIGKILL at three
// points: the extension reconnects (Chrome starts a new host), asks where
// the session stands and sends again what was not stored, and the recording
// goes on. The saved trail is the same as without the kills, and the
// database is intact after each kill.
func TestRecordSurvivesHostKills(t *testing.T) {
	t.Parallel()
	r := newRecordingRig(t)
	kills := 0
	popup, _ := r.recordShopFlow(t, func(point int) {
		pid := r.hostPID(t)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("killing the host %d at point %d: %v", pid, point, err)
		}
		kills++
		t.Logf("point %d: killed the host %d", point, pid)
		integrityOK(t, filepath.Join(r.b.DataDir, "trailpin.db"))
	})
	if kills != 3 {
		t.Fatalf("the host was killed %d times, want 3", kills)
	}
	path, first := r.stopSaveExport(t, popup, false)
	r.checkShopTrail(t, path, first)
	if t.Failed() {
		r.logExchange(t)
	}
	integrityOK(t, filepath.Join(r.b.DataDir, "trailpin.db"))
	if n := r.hellos(t); n < kills+1 {
		t.Errorf("the extension connected %d times, want at least %d (once, and again after each kill)", n, kills+1)
	}
	r.checkNoPassword(t, path)
}

// hostPID finds the running host of the rig's browser: the process running
// the built host with the browser's HOME.
func (r *recordingRig) hostPID(t *testing.T) int {
	t.Helper()
	host := HostPath(t)
	home := []byte("HOME=" + filepath.Join(r.b.Dir, "home") + "\x00")
	deadline := time.Now().Add(WaitTimeout)
	for {
		procs, _ := filepath.Glob("/proc/[0-9]*")
		for _, p := range procs {
			exe, err := os.Readlink(filepath.Join(p, "exe"))
			if err != nil || exe != host {
				continue
			}
			env, err := os.ReadFile(filepath.Join(p, "environ"))
			if err != nil || !bytes.Contains(env, home) {
				continue
			}
			pid, _ := strconv.Atoi(filepath.Base(p))
			return pid
		}
		if time.Now().After(deadline) {
			for _, p := range procs {
				exe, _ := os.Readlink(filepath.Join(p, "exe"))
				cmd, _ := os.ReadFile(filepath.Join(p, "cmdline"))
				if bytes.Contains(cmd, []byte("host")) {
					t.Logf("%s %s %q", p, exe, cmd)
				}
			}
			if r.popup != nil {
				t.Logf("the popup shows %s", Eval[string](t, r.popup, `document.querySelector('#state').dataset.state + ': ' + document.querySelector('#problem-detail').textContent + ' / ' + document.querySelector('#rec-state').textContent`))
			}
			t.Fatalf("no host process of this browser is running (%s)", host)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hellos counts the connections the extension opened: each starts with a
// hello (a host killed before it answered counts too).
func (r *recordingRig) hellos(t *testing.T) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(r.wire, "to-host.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(raw, []byte(`"type":"hello"`))
}

// logExchange lists the native messages of the test, one line each, to
// tell what the extension sent again and what the host refused.
func (r *recordingRig) logExchange(t *testing.T) {
	t.Helper()
	for _, name := range []string{"to-host.bin", "from-host.bin"} {
		raw, _ := os.ReadFile(filepath.Join(r.wire, name))
		var lines []string
		for len(raw) >= 4 {
			n := binary.LittleEndian.Uint32(raw)
			var m struct {
				Type, ID, Message string
				Seq, LastSeq      int
				Interaction       struct {
					Seq  int
					Kind string
				}
			}
			json.Unmarshal(raw[4:4+n], &m)
			raw = raw[4+n:]
			lines = append(lines, fmt.Sprintf("%s id=%s seq=%d/%d %s lastSeq=%d %s", m.Type, m.ID, m.Interaction.Seq, m.Seq, m.Interaction.Kind, m.LastSeq, m.Message))
		}
		t.Logf("%s:\n  %s", name, strings.Join(lines, "\n  "))
	}
}
