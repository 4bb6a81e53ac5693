package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ instead of comparing with them")

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
}

// goldenInputs lists testdata/project/<dir>/*.yaml that are not golden
// files themselves.
func goldenInputs(t *testing.T, dir string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join("testdata", "project", dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var inputs []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".golden.yaml") {
			inputs = append(inputs, f)
		}
	}
	if len(inputs) == 0 {
		t.Fatalf("no inputs in testdata/project/%s", dir)
	}
	return inputs
}

// goldenName is input's golden file: case.yaml → case.golden.yaml, or with
// ext for other kinds of output (case.err).
func goldenName(input, ext string) string {
	return strings.TrimSuffix(input, ".yaml") + ext
}
