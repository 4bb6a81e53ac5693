package recorder

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadTrail feeds the loader arbitrary bytes, seeded with every trail
// in testdata. It must never panic; a file it accepts must write, load back
// equal, and write again to the same bytes.
func FuzzLoadTrail(f *testing.F) {
	for _, pattern := range []string{"trails/*.yaml", "trails/bad/*.yaml", "trails/legacy/*.yaml"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pattern))
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := LoadTrail("fuzz.trail.yaml", src)
		if err != nil {
			return
		}
		out, err := MarshalTrail(tr)
		if err != nil {
			t.Fatalf("MarshalTrail of a loaded trail failed: %v\ninput:\n%s", err, src)
		}
		back, err := LoadTrail("fuzz.trail.yaml", out)
		if err != nil {
			t.Fatalf("LoadTrail(MarshalTrail(LoadTrail(x))) failed: %v\nwritten:\n%s", err, out)
		}
		if diff := trailDifference(back, tr); diff != "" {
			t.Fatalf("LoadTrail(MarshalTrail(LoadTrail(x))) != LoadTrail(x): %s\nwritten:\n%s", diff, out)
		}
		again, err := MarshalTrail(back)
		if err != nil || string(again) != string(out) {
			t.Fatalf("writing the reloaded trail gave other bytes (err %v)", err)
		}
	})
}
