package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from what the test produces now, instead of comparing with them (review the diff before committing it)")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got with the golden file at path. Under -update it writes
// got to path (creating its folder) instead. A missing or different file
// fails the test with the command that rewrites it and the first line that
// differs, then both texts.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden file: %v (%s creates it)", err, rewrite(t))
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the test produced; first difference at %s.\nIf the change is intended, %s and review the diff.\n--- got\n%s\n--- want\n%s",
			path, FirstDifference(string(got), string(want)), rewrite(t), got, want)
	}
}

// CheckString is Check for text.
func CheckString(t testing.TB, path, got string) {
	t.Helper()
	Check(t, path, []byte(got))
}

// rewrite is the command that rewrites the golden files of t.
func rewrite(t testing.TB) string {
	pkg := "."
	if wd, err := os.Getwd(); err == nil {
		if root := moduleRoot(wd); root != "" {
			if rel, err := filepath.Rel(root, wd); err == nil {
				pkg = "./" + filepath.ToSlash(rel)
			}
		}
	}
	name, _, _ := strings.Cut(t.Name(), "/")
	return fmt.Sprintf("go test %s -run '^%s$' -update", pkg, name)
}

// moduleRoot is the nearest folder at or above dir that holds go.mod, or "".
func moduleRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// FirstDifference says where two texts first differ: the line number and
// both lines.
func FirstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, gl, wl)
		}
	}
	return "no difference"
}
