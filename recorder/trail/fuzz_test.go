package trail

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
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

// FuzzReplaceRecording replaces the recording of the first and the last
// step of arbitrary trail files, seeded with the testdata trails. It must
// never panic; for a file that loads, the edit either succeeds, leaving
// the file before the step the same bytes, or refuses a layout it cannot
// edit in place (ErrCannotEdit) — never a file that does not load.
func FuzzReplaceRecording(f *testing.F) {
	for _, pattern := range []string{"trails/*.yaml", "edit/*.yaml"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pattern))
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	rec := Recording{Actions: []Action{Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}}},
		End: &End{URL: "/done"}, Key: testAgentKey + "/000000000000"}
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := LoadTrail("fuzz.trail.yaml", src)
		if err != nil {
			return
		}
		for _, i := range []int{0, len(tr.Steps) - 1} {
			out, err := ReplaceRecording("fuzz.trail.yaml", src, i, rec)
			if errors.Is(err, ErrCannotEdit) {
				continue
			}
			if err != nil {
				t.Fatalf("ReplaceRecording(step %d): %v\ninput:\n%s", i+1, err, src)
			}
			if before := src[:indexLines(src).start(tr.Steps[i].Line)]; !bytes.HasPrefix(out, before) {
				t.Fatalf("ReplaceRecording(step %d) changed the file before the step:\n%s", i+1, out)
			}
		}
	})
}
