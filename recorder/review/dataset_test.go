package review

import (
	"os"
	"path/filepath"
	"testing"
)

// loadStarter reads every dataset file of testdata/ and builds its
// examples.
func loadStarter(t *testing.T) []Example {
	t.Helper()
	files, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no dataset files in testdata/: %v", err)
	}
	var all []Example
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := ParseDataset(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		exs, err := LoadExamples(entries, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(filepath.Dir(f), name)) })
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		all = append(all, exs...)
	}
	return all
}

func split(exs []Example, s string) []Example {
	var out []Example
	for _, ex := range exs {
		if ex.Entry.Split == s {
			out = append(out, ex)
		}
	}
	return out
}
