package screendiff

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
)

// loadScreen reads a screen captured from a fixture page by the real page
// model (go test ./e2e/screendiff -update writes them).
func loadScreen(t testing.TB, page, step string) *screen.Screen {
	t.Helper()
	path := filepath.Join("testdata", "screens", page+"."+step+".json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s is missing: capture it with go test ./e2e/screendiff -update", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	var s screen.Screen
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	return &s
}

// TestDiffGolden writes the diff from each fixture page's first screen to
// each later one in words and compares it with testdata/diffs: the readable
// record, reviewed in a change, of what the rules make of real captures.
func TestDiffGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "screens", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), ".json")
		page, step, _ := strings.Cut(base, ".")
		if step == "before" {
			continue
		}
		n++
		t.Run(base, func(t *testing.T) {
			r, err := Diff(loadScreen(t, page, "before"), loadScreen(t, page, step), Options{})
			if err != nil {
				t.Fatal(err)
			}
			golden.CheckString(t, filepath.Join("testdata", "diffs", base+".txt"), r.String())
		})
	}
	if n == 0 {
		t.Fatal("no captured screens in testdata/screens: capture them with go test ./e2e/screendiff -update")
	}
}
