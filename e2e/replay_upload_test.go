package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// uploadPage is a page with one file input, which says what it was given.
const uploadPage = `<!doctype html><title>Attach</title>
<label>Attachment <input type="file" id="f"></label>
<p id="chosen">Nothing chosen</p>
<script>f.addEventListener('change', () => { chosen.textContent = 'Chosen: ' + [...f.files].map((x) => x.name).join(', '); });</script>`

// uploadTrail is a trail that attaches file on the upload page; the upload
// action is on line uploadLine.
func uploadTrail(file string) string {
	return "version: 1\ntrail: Attach a file\napp: site\nstart: /upload.html\nsteps:\n" +
		"  - intent: Attach the file\n    actions:\n" +
		"      - upload: {selector: {label: Attachment}, files: [" + file + "]}\n" +
		"      - assertVisible: {selector: {text: 'Chosen: note.txt'}}\n"
}

const uploadLine = 8

// TestReplayUploadStaysInTheTrailFolder replays uploads against a page on
// loopback: a file beside the trail is attached; a path up out of the folder
// is refused when the trail loads, and a symbolic link beside the trail that
// leads out of its folder when it replays, both naming the trail file and
// line.
func TestReplayUploadStaysInTheTrailFolder(t *testing.T) {
	t.Parallel()
	site := TempDir(t)
	if err := os.WriteFile(filepath.Join(site, "upload.html"), []byte(uploadPage), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, site)
	outside := filepath.Join(TempDir(t), "note.txt")
	if err := os.WriteFile(outside, []byte("private: not for the app\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	replayIn := func(t *testing.T, dir, file string) (string, HostRun) {
		t.Helper()
		trail := filepath.Join(dir, "attach-a-file.trail.yaml")
		if err := os.WriteFile(trail, []byte(uploadTrail(file)), 0o644); err != nil {
			t.Fatal(err)
		}
		return trail, RunHost(t, append(replayEnv(t, false), "CI=true"), nil,
			"replay", "--base-url", srv.URL, "--results", filepath.Join(dir, "results"), trail)
	}

	t.Run("a file beside the trail", func(t *testing.T) {
		dir := TempDir(t)
		if err := os.WriteFile(filepath.Join(dir, "note.txt"), []byte("hello\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, run := replayIn(t, dir, "note.txt")
		if run.ExitCode != 0 || !strings.Contains(string(run.Stdout), "PASSED: 1 trail in") {
			t.Fatalf("host replay of an upload beside the trail exited %d:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
		}
	})

	t.Run("a path up out of the trail's folder", func(t *testing.T) {
		dir := filepath.Join(TempDir(t), "trails")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		// The file is there, one folder up: the trail must not reach it.
		if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "note.txt"), []byte("private\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		trail, run := replayIn(t, dir, "../note.txt")
		out := string(run.Stdout) + string(run.Stderr)
		want := trail + ":" + strconv.Itoa(uploadLine) + `: file "../note.txt" goes up out of the trail's folder (..): put the file in the trail's folder`
		if run.ExitCode == 0 || run.ExitCode == 1 || !strings.Contains(out, want) {
			t.Errorf("host replay of an upload of ../note.txt exited %d:\n%s\nwant it refused before replay (not a failed trail), saying\n%s", run.ExitCode, out, want)
		}
	})

	t.Run("a link out of the trail's folder", func(t *testing.T) {
		dir := TempDir(t)
		if err := os.Symlink(outside, filepath.Join(dir, "note.txt")); err != nil {
			t.Skipf("symbolic links cannot be made here: %v", err)
		}
		trail, run := replayIn(t, dir, "note.txt")
		out := string(run.Stdout) + string(run.Stderr)
		if run.ExitCode != 1 {
			t.Errorf("host replay of an upload through a link out of the folder exited %d, want 1 (a failed trail):\n%s", run.ExitCode, out)
		}
		for _, want := range []string{
			"upload (" + trail + ":" + strconv.Itoa(uploadLine) + "): the file note.txt cannot be read from the trail's folder",
			"path escapes",
			"put the file itself there, not a link to it",
			"missing-test-data",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("host replay says\n%s\nwant it to contain %q", out, want)
			}
		}
	})
}
