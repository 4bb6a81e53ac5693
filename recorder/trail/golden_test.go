package trail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/golden"
)

// validTrailFiles are the trails every format test reads: testdata/trails/*.trail.yaml.
func validTrailFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "trails", "*.trail.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no trails in testdata/trails: %v", err)
	}
	return files
}

// TestTrailFilesLoadAndWriteGolden loads every valid trail and compares what
// MarshalTrail writes with the golden file beside it (.golden.yaml).
func TestTrailFilesLoadAndWriteGolden(t *testing.T) {
	for _, file := range validTrailFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := LoadTrail(file, src)
			if err != nil {
				t.Fatalf("LoadTrail(%s):\n%v", file, err)
			}
			out, err := MarshalTrail(tr)
			if err != nil {
				t.Fatalf("MarshalTrail(%s): %v", file, err)
			}
			goldenFile := strings.TrimSuffix(file, ".trail.yaml") + ".golden.yaml"
			golden.Check(t, goldenFile, out)
			again, err := MarshalTrail(tr)
			if err != nil || string(again) != string(out) {
				t.Errorf("MarshalTrail(%s) a second time gave different bytes (err %v)", file, err)
			}
			back, err := LoadTrail(goldenFile, out)
			if err != nil {
				t.Fatalf("LoadTrail(written %s):\n%v", file, err)
			}
			if !back.Equal(tr) {
				t.Errorf("LoadTrail(MarshalTrail(%s)) is not equal to the trail written", file)
			}
		})
	}
}
