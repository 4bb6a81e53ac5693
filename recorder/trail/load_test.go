package trail

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/golden"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// TestLoadTrailRefusesBadFiles loads every file in testdata/trails/bad and
// compares the errors with the golden .err file beside it. Each error must
// name the file and, when it is about a place, the line.
func TestLoadTrailRefusesBadFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "trails", "bad", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bad trails: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(file)
			tr, err := LoadTrail(name, src)
			if err == nil {
				t.Fatalf("LoadTrail(%s) = %+v, want an error", name, tr)
			}
			var errs yamlerr.List
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("LoadTrail(%s) error %T is not a yamlerr.List", name, err)
			}
			for _, e := range errs {
				if e.File != name || !strings.HasPrefix(e.Error(), name+":") {
					t.Errorf("error %q does not name the file %s", e, name)
				}
				if e.Err == nil {
					t.Errorf("error %q has no category", e)
				}
			}
			got := err.Error() + "\n"
			golden.CheckString(t, strings.TrimSuffix(file, ".yaml")+".err", got)
		})
	}
}
