package screen

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The screens in testdata/snapshot/screens are written by hand the way the
// page model captures pages: a sign-in form with a secret field, a cart with
// nested wrappers and a presentational table, settings with every state, a
// frame and a dialog, and a page of awkward names. Each renders to golden
// files in four forms (AI, quoted, interactive, aria); go test -run TestRenderSnapshotGolden -update
// rewrites them.
func TestRenderSnapshotGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/snapshot/screens/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no screens in testdata/snapshot/screens")
	}
	forms := []struct {
		suffix string
		opts   SnapshotOptions
	}{
		{".txt", SnapshotOptions{}},
		{".quoted.txt", SnapshotOptions{Quoted: true}},
		{".interactive.txt", SnapshotOptions{Interactive: true}},
		{".aria.txt", SnapshotOptions{Mode: ModeAria}},
	}
	for _, file := range files {
		base := strings.TrimSuffix(file, ".json")
		t.Run(filepath.Base(base), func(t *testing.T) {
			s := loadSnapshotScreen(t, file)
			for _, f := range forms {
				golden.CheckString(t, base+f.suffix, RenderSnapshot(s, f.opts)+"\n")
			}
			checkSnapshotRoundTrip(t, s)
		})
	}
}

func loadSnapshotScreen(t *testing.T, path string) *Screen {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s Screen
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	if s.Schema != ScreenSchema {
		t.Fatalf("%s has schema %d, want %d", path, s.Schema, ScreenSchema)
	}
	return &s
}
