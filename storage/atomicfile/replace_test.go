package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

func writeTestFile(t *testing.T, name, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
}

func TestReplaceIfUnchanged(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.trail.yaml")
	writeTestFile(t, name, "old\n", 0o600)
	if err := ReplaceIfUnchanged(name, []byte("old\n"), []byte("new\n"), 0o644); err != nil {
		t.Fatalf("ReplaceIfUnchanged of an unchanged file: %v", err)
	}
	if got, _ := os.ReadFile(name); string(got) != "new\n" {
		t.Errorf("file holds %q, want %q", got, "new\n")
	}
	if fi, _ := os.Stat(name); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600 kept", fi.Mode().Perm())
	}
	// The lock file is gone once the write is done.
	assertOnly(t, dir, "a.trail.yaml")
}

// An editor saves the file after the writer read it: the write is refused
// and the editor's save stays, whether the editor wrote the file in place
// or renamed a new one over it.
func TestReplaceIfUnchangedKeepsAnEditorsSave(t *testing.T) {
	for _, how := range []string{"in place", "by rename"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "a.trail.yaml")
			writeTestFile(t, name, "read\n", 0o644)
			read, _ := os.ReadFile(name)
			if how == "in place" {
				writeTestFile(t, name, "edited\n", 0o644)
			} else {
				writeTestFile(t, name+".swp", "edited\n", 0o644)
				if err := os.Rename(name+".swp", name); err != nil {
					t.Fatal(err)
				}
			}
			err := ReplaceIfUnchanged(name, read, []byte("healed\n"), 0o644)
			if !errors.Is(err, ErrChanged) {
				t.Fatalf("ReplaceIfUnchanged after an editor's save = %v, want ErrChanged", err)
			}
			if got, _ := os.ReadFile(name); string(got) != "edited\n" {
				t.Errorf("the editor's save was overwritten: %q", got)
			}
			assertOnly(t, dir, "a.trail.yaml")
		})
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "gone.trail.yaml")
	if err := ReplaceIfUnchanged(name, []byte("read\n"), []byte("new\n"), 0o644); !errors.Is(err, ErrChanged) {
		t.Errorf("ReplaceIfUnchanged of a removed file = %v, want ErrChanged", err)
	}
	assertOnly(t, dir)
}

// Two writers read the same file; the first is between its comparison and
// its rename when the second tries. The second waits for the lock, then
// finds the file changed: it writes nothing and the first's write stays.
func TestReplaceIfUnchangedTwoWriters(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.trail.yaml")
	writeTestFile(t, name, "read by both\n", 0o644)
	read, _ := os.ReadFile(name)

	waiting := make(chan struct{})
	secondDone := make(chan error, 1)
	var secondErr error
	secondFinished := false
	beforeRename = func(_ string, data []byte) {
		if string(data) != "first\n" {
			return
		}
		go func() { secondDone <- ReplaceIfUnchanged(name, read, []byte("second\n"), 0o644) }()
		// Wait until the second writer either waits for the lock or, had
		// there been none, has written.
		select {
		case <-waiting:
		case secondErr = <-secondDone:
			secondFinished = true
		}
	}
	lockWaiting = func(string) { close(waiting) }
	t.Cleanup(func() { beforeRename, lockWaiting = nil, nil })

	if err := ReplaceIfUnchanged(name, read, []byte("first\n"), 0o644); err != nil {
		t.Fatalf("the first writer: %v", err)
	}
	if !secondFinished {
		secondErr = <-secondDone
	}
	if !errors.Is(secondErr, ErrChanged) {
		t.Errorf("the second writer = %v, want ErrChanged", secondErr)
	}
	if got, _ := os.ReadFile(name); string(got) != "first\n" {
		t.Errorf("file holds %q, want the first writer's %q", got, "first\n")
	}
	assertOnly(t, dir, "a.trail.yaml")
}

// A file kept as a symbolic link stays a link; the file it points to gets
// the new content and keeps its mode.
func TestReplaceIfUnchangedWritesThroughALink(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared")
	trails := filepath.Join(dir, "trails")
	for _, d := range []string{shared, trails} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(shared, "a.trail.yaml")
	writeTestFile(t, target, "old\n", 0o640)
	link := filepath.Join(trails, "a.trail.yaml")
	if err := os.Symlink(filepath.Join("..", "shared", "a.trail.yaml"), link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := ReplaceIfUnchanged(link, []byte("old\n"), []byte("new\n"), 0o644); err != nil {
		t.Fatalf("ReplaceIfUnchanged through a link: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi, err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new\n" {
		t.Errorf("the link's target holds %q, want %q", got, "new\n")
	}
	if fi, _ := os.Stat(target); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("the target's mode = %v, want 0640 kept", fi.Mode().Perm())
	}
	assertOnly(t, shared, "a.trail.yaml")
	assertOnly(t, trails, "a.trail.yaml")

	if err := WriteThrough(link, []byte("again\n"), 0o644); err != nil {
		t.Fatalf("WriteThrough: %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "again\n" {
		t.Errorf("WriteThrough: the link's target holds %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("WriteThrough replaced the link: %v, %v", fi, err)
	}
}

// Writers that each read, change and write back the same file, and read
// again when it changed, lose no change: every increment is counted.
func TestReplaceIfUnchangedLosesNoIncrement(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "count")
	writeTestFile(t, name, "0", 0o644)
	const writers, each = 6, 20
	errs := make(chan error, writers)
	for range writers {
		go func() {
			for range each {
				for {
					read, err := os.ReadFile(name)
					if err != nil {
						errs <- err
						return
					}
					n, _ := strconv.Atoi(string(read))
					err = ReplaceIfUnchanged(name, read, []byte(strconv.Itoa(n+1)), 0o644)
					if err == nil {
						break
					}
					if !errors.Is(err, ErrChanged) {
						errs <- err
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range writers {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(name); string(got) != strconv.Itoa(writers*each) {
		t.Errorf("count = %s, want %d", got, writers*each)
	}
	assertOnly(t, dir, "count")
}
