package trail

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

// FuzzMigrate feeds Migrate arbitrary bytes, seeded with the legacy trails.
// It must never panic, and what it writes must need no second migration.
func FuzzMigrate(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "trails", "legacy", "*.yaml"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, report, err := Migrate(src)
		if err != nil || out == nil || MigrationIncomplete(report) {
			return
		}
		again, report2, err := Migrate(out)
		if err != nil || len(report2) != 0 || string(again) != string(out) {
			t.Fatalf("Migrate(Migrate(x)) changed it again (err %v, notes %v):\n%s", err, report2, out)
		}
	})
}
