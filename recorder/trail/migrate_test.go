package trail

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMigrateFiles migrates each file in testdata/trails/legacy and compares
// the result with NAME.migrated.yaml (absent when the file must be left as
// it is) and the report with NAME.notes.
func TestMigrateFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "trails", "legacy", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no legacy trails: %v", err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, ".migrated.yaml") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, report, err := Migrate(src)
			if err != nil {
				t.Fatalf("Migrate(%s): %v", file, err)
			}
			var notes strings.Builder
			for _, n := range report {
				fmt.Fprintln(&notes, n)
			}
			base := strings.TrimSuffix(file, ".yaml")
			golden.CheckString(t, base+".notes", notes.String())
			incomplete := MigrationIncomplete(report)
			if incomplete != (out == nil) {
				t.Fatalf("Migrate(%s): incomplete %v but out nil %v", file, incomplete, out == nil)
			}
			if incomplete {
				if _, err := os.Stat(base + ".migrated.yaml"); err == nil {
					t.Errorf("Migrate(%s) left steps, but %s.migrated.yaml exists", file, base)
				}
				return
			}
			if len(report) == 0 && string(out) != string(src) {
				t.Errorf("Migrate(%s) changed a file with nothing to migrate", file)
			}
			golden.CheckString(t, base+".migrated.yaml", string(out))
			if _, err := LoadTrail(file, out); err != nil {
				t.Errorf("LoadTrail(Migrate(%s)):\n%v", file, err)
			}
			again, report2, err := Migrate(out)
			if err != nil || len(report2) != 0 || string(again) != string(out) {
				t.Errorf("Migrate(Migrate(%s)) changed it again: %v %v", file, report2, err)
			}
		})
	}
}
