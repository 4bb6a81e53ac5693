package e2e

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/host/demo"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/storagetest"
)

// concurrentReplays is how many host processes write into one database at
// once in TestReplayProcessesShareADatabase: as many as a CI machine
// running shards side by side, or a person's several terminals, would start.
const concurrentReplays = 20

// lockError is how SQLite's busy and locked errors read in any output.
var lockError = regexp.MustCompile(`(?i)database (table )?is locked|SQLITE_(BUSY|LOCKED)`)

// TestReplayProcessesShareADatabase starts 20 `host replay` processes at
// once, all storing their runs in one database and all attached to one
// browser: every run must be stored, none may meet a lock error, and the file
// must stay whole.
func TestReplayProcessesShareADatabase(t *testing.T) {
	browsertest.Need(t)
	t.Parallel()
	_, wsURL := browserToAttach(t)

	shop := httptest.NewServer(demo.New(demo.Options{}))
	t.Cleanup(shop.Close)
	trail := filepath.Join(smallTrails(t, 1), "help-01.trail.yaml")
	db := filepath.Join(TempDir(t), "shared.db")
	host := HostPath(t)
	// What this test is about is the database under twenty writers. Twenty
	// tabs loading at once in one browser on two shared cores can take
	// longer than the defaults (30 s for a page load, 10 s for the heading
	// to show), and a slow page is not what it tests.
	cfg := filepath.Join(TempDir(t), "trailpin.yaml")
	if err := os.WriteFile(cfg, []byte("apps:\n  shop:\n    baseURL: "+shop.URL+
		"\nreplay:\n  navigationTimeout: 90s\n  actionTimeout: 60s\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// Each process is started by hand rather than with RunHost, so that all
	// twenty run at the same time whatever -parallel says.
	type result struct {
		out, errOut bytes.Buffer
		err         error
	}
	results := make([]*result, concurrentReplays)
	// Generous: twenty processes share two cores with everything else.
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Minute)
	defer stop()
	var wg sync.WaitGroup
	begin := make(chan struct{})
	for i := range results {
		r := &result{}
		results[i] = r
		home := TempDir(t)
		cmd := exec.CommandContext(ctx, host, "replay", "--config", cfg, "--db", db, "--browser-url", wsURL, trail)
		cmd.Env = []string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + home,
			"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
			"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
			"TMPDIR=" + home,
			"CI=true", // --db given: stored even so
		}
		cmd.Stdout, cmd.Stderr = &r.out, &r.errOut
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-begin
			r.err = cmd.Run()
		}()
	}
	started := time.Now()
	close(begin)
	wg.Wait()
	t.Logf("%d host replay processes on one database and one browser: %v", concurrentReplays, time.Since(started).Round(time.Millisecond))

	for i, r := range results {
		if r.err != nil {
			t.Errorf("process %d: %v\nstdout:\n%s\nstderr:\n%s", i, r.err, r.out.Bytes(), r.errOut.Bytes())
			continue
		}
		if all := append(r.out.Bytes(), r.errOut.Bytes()...); lockError.Match(all) {
			t.Errorf("process %d met a lock error:\n%s", i, all)
		}
		if !bytes.Contains(r.out.Bytes(), []byte("PASSED: 1 trail in")) {
			t.Errorf("process %d did not pass its trail:\n%s\n%s", i, r.out.Bytes(), r.errOut.Bytes())
		}
	}

	s, err := storage.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := storagetest.IntegrityCheck(context.Background(), db); err != nil {
		t.Errorf("after %d processes wrote at once: %v", concurrentReplays, err)
	}
	runs, err := s.Runs(context.Background(), 10*concurrentReplays)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != concurrentReplays {
		t.Fatalf("%s holds %d runs, want %d", db, len(runs), concurrentReplays)
	}
	ids := map[int64]bool{}
	for _, run := range runs {
		ids[run.ID] = true
		results, err := s.TrailResults(context.Background(), run.ID)
		if run.Status != storage.RunPassed || run.FinishedAt.IsZero() || err != nil || len(results) != 1 || len(results[0].Steps) != 1 {
			t.Errorf("run %d: %s, finished %v, trail results %d (%v), want passed and finished with one trail of one step",
				run.ID, run.Status, run.FinishedAt, len(results), err)
		}
	}
	if len(ids) != concurrentReplays {
		t.Errorf("the %d runs have %d distinct ids", len(runs), len(ids))
	}
}
