package config

import (
	"path/filepath"
	"strings"
	"testing"
)

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
