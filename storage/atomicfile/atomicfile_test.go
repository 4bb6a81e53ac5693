package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		existing string      // content already there; "" means no file
		mode     fs.FileMode // mode of the existing file
		perm     fs.FileMode
		wantMode fs.FileMode
	}{
		{"new file gets perm", "", 0, 0o640, 0o640},
		{"existing file keeps its mode", "old content that is longer", 0o600, 0o644, 0o600},
		{"existing executable stays executable", "#!/bin/sh", 0o755, 0o644, 0o755},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "f.yaml")
			if tt.existing != "" {
				if err := os.WriteFile(name, []byte(tt.existing), tt.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(name, tt.mode); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(name, []byte("new\n"), tt.perm); err != nil {
				t.Fatalf("WriteFile: %v", err)
			}
			got, err := os.ReadFile(name)
			if err != nil || string(got) != "new\n" {
				t.Errorf("file holds %q (%v), want %q", got, err, "new\n")
			}
			if runtime.GOOS != "windows" {
				fi, err := os.Stat(name)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != tt.wantMode {
					t.Errorf("mode = %v, want %v", fi.Mode().Perm(), tt.wantMode)
				}
			}
			assertOnly(t, dir, "f.yaml")
		})
	}
}

func TestWriteFileRefusesWithoutLosingAnything(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.yaml")
	if err := os.WriteFile(keep, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, []byte("x"), 0o644); err == nil {
		t.Errorf("WriteFile over a folder = nil, want an error")
	}
	if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
		t.Errorf("the folder was replaced: %v, %v", fi, err)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.yaml"), []byte("x"), 0o644); err == nil {
		t.Errorf("WriteFile into a missing folder = nil, want an error")
	}
	if got, _ := os.ReadFile(keep); string(got) != "kept" {
		t.Errorf("a refused write changed another file: %q", got)
	}
	assertOnly(t, dir, "keep.yaml", "sub")
}

func TestWriteFileFailingRenameLeavesOldContent(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	failure := errors.New("rename refused")
	rename = func(string, string) error { return failure }
	t.Cleanup(func() { rename = os.Rename })
	if err := WriteFile(name, []byte("new"), 0o644); !errors.Is(err, failure) {
		t.Fatalf("WriteFile with a failing rename = %v, want it to wrap %v", err, failure)
	}
	if got, _ := os.ReadFile(name); string(got) != "old" {
		t.Errorf("a failed write changed the file to %q", got)
	}
	assertOnly(t, dir, "f.yaml")
}

func TestWriteFileInReadOnlyFolderLeavesOldContent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("folder permissions do not stop writes on Windows")
	}
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders; TestWriteFileFailingRenameLeavesOldContent covers the failed write")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if err := WriteFile(name, []byte("new"), 0o644); err == nil {
		t.Fatalf("WriteFile in a read-only folder = nil, want an error")
	}
	if got, _ := os.ReadFile(name); string(got) != "old" {
		t.Errorf("a failed write changed the file to %q", got)
	}
	assertOnly(t, dir, "f.yaml")
}

func TestWriteFileReplacesASymlinkRatherThanItsTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.yaml")
	link := filepath.Join(dir, "link.yaml")
	if err := os.WriteFile(target, []byte("target"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := WriteFile(link, []byte("new"), 0o644); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "target" {
		t.Errorf("the link's target changed to %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("link.yaml is not a regular file after the write: %v, %v", fi, err)
	}
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "trailpin.yaml")
	if err := Create(name, []byte("first"), 0o600); err != nil {
		t.Fatalf("Create: %v", err)
	}
	got, err := os.ReadFile(name)
	if err != nil || string(got) != "first" {
		t.Errorf("file holds %q (%v), want %q", got, err, "first")
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
		}
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, existing := range []string{name, sub} {
		err := Create(existing, []byte("second"), 0o644)
		if !errors.Is(err, fs.ErrExist) {
			t.Errorf("Create(%s) over an existing entry = %v, want fs.ErrExist", filepath.Base(existing), err)
		}
	}
	if got, _ := os.ReadFile(name); string(got) != "first" {
		t.Errorf("a refused Create changed the file to %q", got)
	}
	assertOnly(t, dir, "sub", "trailpin.yaml")
}

// assertOnly fails when dir holds anything but want (sorted), such as a
// temporary file left behind.
func assertOnly(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("folder holds %q, want %q", got, want)
	}
}
