package storage

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
)

// The tests in this file run parts of themselves in child processes (this
// test binary again), because what they check is what happens across
// processes: a host killed mid-write, and several hosts sharing one file.

const helperEnv = "TRAILPIN_STORAGE_HELPER"

// childDeadline bounds a child process; generous, because the machine may be
// busy with other tests.
const childDeadline = 3 * time.Minute

// TestHelperProcess is the child's entry point; it does nothing in a normal
// test run.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(helperEnv)
	if role == "" {
		t.Skip("runs only as a child process of the crash and concurrency tests")
	}
	if err := runHelper(context.Background(), role); err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runHelper(ctx context.Context, role string) error {
	db, err := Open(ctx, os.Getenv("TRAILPIN_DB"))
	if err != nil {
		return err
	}
	defer db.Close()
	session := os.Getenv("TRAILPIN_SESSION")
	from, _ := strconv.ParseInt(os.Getenv("TRAILPIN_FROM"), 10, 64)
	to, _ := strconv.ParseInt(os.Getenv("TRAILPIN_TO"), 10, 64)
	switch role {
	case "append":
		// Append and acknowledge on stdout, as the host acknowledges to the
		// extension, until killed.
		for seq := from; seq <= to; seq++ {
			added, err := db.AppendInteraction(ctx, crashInteraction(session, seq), crashScreen(seq))
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(os.Stdout, "ack %d %v\n", seq, added); err != nil {
				return err
			}
		}
		return nil
	case "writer":
		return concurrentWriter(ctx, db, session, to)
	}
	return fmt.Errorf("unknown role %q", role)
}

func crashInteraction(session string, seq int64) Interaction {
	return Interaction{SessionID: session, Seq: seq, Kind: "click", Payload: clickPayload(seq)}
}

// crashScreen changes every third interaction, so the children store whole
// screens, deltas and re-used screens.
func crashScreen(seq int64) *screen.Screen { return shopScreen(500, int(seq/3)) }

func startHelper(t *testing.T, ctx context.Context, role string, env ...string) (*exec.Cmd, *bufio.Scanner, *strings.Builder) {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + role}, env...)...)
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out), stderr
}

// checkDurable reopens the database and checks it is intact and holds
// interactions 1..n (n >= acked) of the session exactly as they were sent.
func checkDurable(t *testing.T, path, session string, acked int64) int64 {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopening after the kill: %v", err)
	}
	defer db.Close()
	if err := IntegrityCheckForTest(ctx, db.Path()); err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	list, err := db.Interactions(ctx, session)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(list)) < acked {
		t.Fatalf("after the kill %d interactions are stored, but %d were acknowledged", len(list), acked)
	}
	for i, in := range list {
		want := crashInteraction(session, int64(i+1))
		if in.Seq != want.Seq || in.Kind != want.Kind || !jsonEqual(in.Payload, want.Payload) {
			t.Fatalf("after the kill, interaction %d = %+v, want seq %d as sent", i, in, want.Seq)
		}
		got, err := db.Screen(ctx, in.Screen)
		if err != nil {
			t.Fatalf("after the kill, the screen of seq %d: %v", in.Seq, err)
		}
		assertSameScreen(t, got, crashScreen(in.Seq))
	}
	return int64(len(list))
}

func TestKilledHostLosesNoAcknowledgedInteraction(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), childDeadline)
	defer cancel()
	path := filepath.Join(t.TempDir(), "trailpin.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const session = "crash"
	if _, err := db.CreateSession(ctx, NewSession{ID: session}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	next := int64(1)
	var highest int64 // the highest sequence number acknowledged so far
	// Kill the writing process (SIGKILL) a little after it acknowledged a
	// number of interactions. Where the kill lands (inside a transaction,
	// between commit and acknowledgement, between two writes) varies; the
	// assertions hold for every place.
	//
	// lost is how many of the last acknowledgements never reach the
	// extension (Chrome drops the port with them in it), so it sends those
	// interactions again although they are stored.
	kills := []struct {
		acks  int64
		after time.Duration
		lost  int64
	}{{12, 0, 0}, {25, 3 * time.Millisecond, 0}, {27, 7 * time.Millisecond, 3}, {1, 0, 0}, {15, 13 * time.Millisecond, 0}}
	var lost int64
	resent := 0 // re-sends that found their interaction stored
	for _, kill := range kills {
		cmd, acks, stderr := startHelper(t, ctx, "append", "TRAILPIN_DB="+path, "TRAILPIN_SESSION="+session,
			fmt.Sprintf("TRAILPIN_FROM=%d", next), "TRAILPIN_TO=1000000")
		acked := next - 1
		killAt := acked + kill.acks
		readAck := func() {
			f := strings.Fields(acks.Text())
			if len(f) != 3 || f[0] != "ack" {
				t.Fatalf("child wrote %q, want ack lines", acks.Text())
			}
			seq, _ := strconv.ParseInt(f[1], 10, 64)
			acked = max(acked, seq)
			if f[2] == "false" {
				resent++
			}
		}
		for acked < killAt && acks.Scan() {
			readAck()
		}
		if acked < killAt {
			cmd.Wait()
			t.Fatalf("child stopped after acknowledging %d: %s", acked, stderr)
		}
		time.Sleep(kill.after)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		// Acknowledgements written before the kill still count: the
		// extension may have read them.
		for acks.Scan() {
			readAck()
		}
		err := cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != -1 {
			t.Fatalf("child ended with %v (%s), want killed by a signal", err, stderr)
		}
		highest = max(highest, acked)
		stored := checkDurable(t, path, session, acked)
		t.Logf("killed after acknowledging %d; %d stored", acked, stored)
		// The extension sends again everything not acknowledged.
		next = acked + 1 - kill.lost
		lost += kill.lost
	}

	// How far the children got depends on how busy the machine is; the
	// last one runs to completion a little past that.
	total := highest + 10
	cmd, acks, stderr := startHelper(t, ctx, "append", "TRAILPIN_DB="+path, "TRAILPIN_SESSION="+session,
		fmt.Sprintf("TRAILPIN_FROM=%d", next), fmt.Sprintf("TRAILPIN_TO=%d", total))
	for acks.Scan() {
		if strings.HasSuffix(acks.Text(), " false") {
			resent++
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("last child: %v: %s", err, stderr)
	}
	if int64(resent) < lost {
		t.Errorf("%d re-sends found their interaction stored, want at least %d (the lost acknowledgements)", resent, lost)
	}
	if got := checkDurable(t, path, session, total); got != total {
		t.Errorf("after the last child %d interactions are stored, want exactly %d", got, total)
	}
}

// concurrentWriter is one host process of TestConcurrentWritersInProcesses:
// it records its own session and keeps saving versions of a shared trail.
func concurrentWriter(ctx context.Context, db *DB, session string, n int64) error {
	if _, err := db.CreateSession(ctx, NewSession{ID: session}); err != nil {
		return err
	}
	for seq := int64(1); seq <= n; seq++ {
		if _, err := db.AppendInteraction(ctx, crashInteraction(session, seq), crashScreen(seq)); err != nil {
			return err
		}
		if seq == n/2 {
			// Every host saves a new recording with the same title.
			if _, err := db.SaveTrail(ctx, TrailInput{Slug: "recording", New: true, Title: "Recording",
				Content: []byte("trail: Recording\n# " + session + "\n")}); err != nil {
				return err
			}
		}
		if seq%writerSaveEvery == 0 {
			if _, err := db.SaveTrail(ctx, TrailInput{Slug: "shared", Title: "Shared",
				Content: []byte(fmt.Sprintf("trail: Shared\n# %s %d\n", session, seq))}); err != nil {
				return err
			}
		}
	}
	return nil
}

const (
	writerInteractions = 120
	writerSaveEvery    = 10
)

func TestConcurrentWritersInProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), childDeadline)
	defer cancel()
	// No database yet: the processes race to create and migrate it.
	path := filepath.Join(t.TempDir(), "new", "trailpin.db")
	sessions := []string{"host-a", "host-b", "host-c"}
	var wg sync.WaitGroup
	errs := make([]error, len(sessions))
	for i, s := range sessions[:2] {
		cmd, out, stderr := startHelper(t, ctx, "writer", "TRAILPIN_DB="+path, "TRAILPIN_SESSION="+s,
			fmt.Sprintf("TRAILPIN_TO=%d", writerInteractions))
		wg.Go(func() {
			for out.Scan() {
			}
			if err := cmd.Wait(); err != nil {
				errs[i] = fmt.Errorf("%s: %v: %s", s, err, stderr)
			}
		})
	}
	// And this process is a third host.
	wg.Go(func() {
		db, err := Open(ctx, path)
		if err != nil {
			errs[2] = err
			return
		}
		defer db.Close()
		errs[2] = concurrentWriter(ctx, db, sessions[2], writerInteractions)
	})
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkIntegrity(t, ctx, db)
	for _, s := range sessions {
		list, err := db.Interactions(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != writerInteractions {
			t.Errorf("session %s has %d interactions, want %d", s, len(list), writerInteractions)
		}
		for i, in := range list {
			if in.Seq != int64(i+1) {
				t.Fatalf("session %s: interaction %d has seq %d", s, i, in.Seq)
			}
		}
	}
	for _, slug := range []string{"recording", "recording-2", "recording-3"} {
		if v, err := db.Trail(ctx, slug); err != nil || v.Versions != 1 {
			t.Errorf("Trail(%s) = %d versions, %v; want one new trail per host", slug, v.Versions, err)
		}
	}
	hist, err := db.TrailHistory(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	want := len(sessions) * writerInteractions / writerSaveEvery
	if len(hist) != want {
		t.Fatalf("trail shared has %d versions, want %d", len(hist), want)
	}
	for i, v := range hist {
		if v.Version != want-i {
			t.Fatalf("versions of shared are %d at position %d, want %d: numbered without gaps or repeats", v.Version, i, want-i)
		}
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
