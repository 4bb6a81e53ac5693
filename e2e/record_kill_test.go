//go:build linux

package e2e

import (
	"bytes"
	"context"
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

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TestRecordSurvivesHostKills records the shop flow of TestRecordShopTrail
// through the real extension while the host is killed with SIGKILL at three
// points: the extension reconnects (Chrome starts a new host), asks where
// the session stands and sends again what was not stored, and the recording
// goes on. The saved trail is the same as without the kills, and the
// database is intact after each kill.
//
// Between the second and the third kill the host is stopped (SIGSTOP), so
// the interactions of that part of the flow are not acknowledged; before
// the third kill Chrome's service worker of the extension is stopped (as
// Chrome does to an idle one), then the stopped host is killed. The new
// worker must send those interactions again from what it kept in
// chrome.storage.session: nothing of the recording is lost.
//
// While the host is stopped the session storage is also made full for a
// while: the popup and the recording bar must say which interactions are
// kept in memory only, and once there is room again they are kept.
func TestRecordSurvivesHostKills(t *testing.T) {
	t.Parallel()
	r := newRecordingRig(t)
	kills := 0
	kill := func(point, pid int) {
		// Each point kills a host that has answered its hello: one killed
		// while Chrome is still starting it (a reconnection is slow on a
		// busy machine) never answers, and the counts below could not be
		// reached.
		r.waitHellos(t, kills+1)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("killing the host %d at point %d: %v", pid, point, err)
		}
		kills++
		t.Logf("point %d: killed the host %d", point, pid)
		integrityOK(t, filepath.Join(r.b.DataDir, "trailpin.db"))
	}
	stopped := 0
	popup, _ := r.recordShopFlow(t, func(point int) {
		switch point {
		case 1:
			kill(point, r.hostPID(t))
		case 2:
			kill(point, r.hostPID(t))
			// Hold the acknowledgements back: the next host answers its
			// hello and the re-sent interactions, then stops.
			r.waitHellos(t, kills+1)
			popupPhase(t, r.popup, "recording")
			WaitFor[bool](t, r.popup, `/^Recording: \d+ interactions$/.test(document.querySelector('#rec-state').textContent)`)
			stopped = r.hostPID(t)
			if err := syscall.Kill(stopped, syscall.SIGSTOP); err != nil {
				t.Fatalf("stopping the host %d: %v", stopped, err)
			}
			t.Logf("point %d: stopped the host %d", point, stopped)
			quota := fillSessionStorage(t, r.popup)
			t.Logf("point %d: filled the session storage (QUOTA_BYTES %d)", point, quota)
		case 3:
			// The click on the case's button and on the cart and checkout
			// links, their navigations, and the click on the code's field:
			// not acknowledged, and no room to keep them.
			warning := WaitFor[string](t, r.popup, `(() => {
				const w = document.querySelector('#rec-warning');
				return !w.hidden && /^(\d+) interactions are kept only in memory/.exec(w.textContent)?.[1] >= 7 && w.textContent;
			})()`)
			t.Logf("point %d: the popup says %q", point, warning)
			waitAX(t, r.app, "StaticText", warning)
			if n := pendingKept(t, r.popup); n != 0 {
				t.Errorf("point %d: %d interactions kept in a full session storage", point, n)
			}
			Eval[chromedp.Void](t, r.popup, `chrome.storage.session.remove('filler')`)
		case 4:
			// What did not fit, and the typing of the code, the click on
			// Apply and its navigation: kept now.
			pending := 0
			for deadline := time.Now().Add(WaitTimeout); pending < 10; time.Sleep(50 * time.Millisecond) {
				if pending = pendingKept(t, r.popup); time.Now().After(deadline) {
					t.Fatalf("point %d: %d interactions kept in chrome.storage.session, want at least 10 not acknowledged", point, pending)
				}
			}
			WaitFor[bool](t, r.popup, `document.querySelector('#rec-warning').hidden`)
			t.Logf("point %d: %d interactions not acknowledged, kept in chrome.storage.session", point, pending)
			r.stopServiceWorker(t)
			kill(point, stopped)
		}
	})
	if kills != 3 {
		t.Fatalf("the host was killed %d times, want 3", kills)
	}
	// The worker started after point 4 connects to a new host; until it
	// did, the popup still shows the stopped worker's last word
	// ("connected"), and the recording's buttons hide while the new one
	// connects: a press of Stop then would hit nothing.
	r.waitHellos(t, kills+1)
	WaitFor[bool](t, popup, `document.querySelector('#state')?.dataset.state === 'connected' && !document.querySelector('#stop').hidden`)
	path, first := r.stopSaveExport(t, popup, false)
	r.checkShopTrail(t, path, first)
	if t.Failed() {
		r.logExchange(t)
	}
	integrityOK(t, filepath.Join(r.b.DataDir, "trailpin.db"))
	if n := r.hellos(t); n < kills+1 {
		t.Errorf("the extension connected %d times, want at least %d (once, and again after each kill)", n, kills+1)
	}
	if n := pendingKept(t, popup); n != 0 {
		t.Errorf("%d interactions are still kept as not acknowledged after Save", n)
	}
	r.checkNoPassword(t, path)
}

// pendingKept counts the interactions the extension keeps in
// chrome.storage.session as not acknowledged by the host.
func pendingKept(t *testing.T, popup context.Context) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(popup, WaitTimeout)
	defer cancel()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`chrome.storage.session.get(null).then((all) => Object.keys(all).filter((k) => k.startsWith('pending:')).length)`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("reading the extension's session storage: %v", err)
	}
	return n
}

// fillSessionStorage fills the extension's chrome.storage.session up to
// the room the recording reserves for itself (RESERVED_BYTES in
// extension/background/queue.js), under the key filler, and returns its quota.
func fillSessionStorage(t *testing.T, popup context.Context) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(popup, WaitTimeout)
	defer cancel()
	quota, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(async () => {
		const s = chrome.storage.session;
		const used = await s.getBytesInUse(null);
		// Bytes are counted as the key plus the JSON of the value.
		await s.set({ filler: 'x'.repeat(s.QUOTA_BYTES - 256 * 1024 - used - 'filler'.length - 2) });
		return s.QUOTA_BYTES;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("filling the extension's session storage: %v", err)
	}
	return quota
}

// waitHellos waits until the extension opened n connections to the host
// and the host answered the hello of each.
func (r *recordingRig) waitHellos(t *testing.T, n int) {
	t.Helper()
	answered := func() int {
		raw, _ := os.ReadFile(filepath.Join(r.wire, "from-host.bin"))
		return bytes.Count(raw, []byte(`"type":"hello"`))
	}
	deadline := time.Now().Add(WaitTimeout)
	for r.hellos(t) < n || answered() < n {
		if time.Now().After(deadline) {
			t.Fatalf("the extension connected %d times and the host answered %d hellos, want %d", r.hellos(t), answered(), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stopServiceWorker stops the extension's service worker as Chrome stops an
// idle one: everything in its memory is gone, and the next event (a page's
// interaction) starts a new one.
func (r *recordingRig) stopServiceWorker(t *testing.T) {
	t.Helper()
	prefix := "chrome-extension://" + r.b.ExtensionID + "/"
	worker := func() target.ID {
		infos, err := chromedp.Targets(r.b.Ctx)
		if err != nil {
			t.Fatalf("listing the browser's targets: %v", err)
		}
		for _, i := range infos {
			if i.Type == "service_worker" && strings.HasPrefix(i.URL, prefix) {
				return i.TargetID
			}
		}
		return ""
	}
	id := worker()
	if id == "" {
		t.Fatal("the extension has no running service worker to stop")
	}
	if _, err := chromedp.CallBrowser(r.b.Ctx, target.CloseTarget, target.CloseTargetParams{TargetID: id}); err != nil {
		t.Fatalf("stopping the extension's service worker: %v", err)
	}
	deadline := time.Now().Add(WaitTimeout)
	for worker() == id {
		if time.Now().After(deadline) {
			t.Fatal("the extension's service worker did not stop")
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("stopped the extension's service worker %s", id)
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
