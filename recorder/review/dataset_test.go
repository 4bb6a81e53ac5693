package review

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// loadStarter reads every dataset file of testdata/ and builds its
// examples, once for the package's tests (the recorded sessions' screens
// take seconds to read and match); the tests only read them.
func loadStarter(t *testing.T) []Example {
	t.Helper()
	datasetOnce.Do(func() { datasetExamples, datasetErr = loadDataset() })
	if datasetErr != nil {
		t.Fatal(datasetErr)
	}
	return datasetExamples
}

var (
	datasetOnce     sync.Once
	datasetExamples []Example
	datasetErr      error
)

func loadDataset() ([]Example, error) {
	files, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no dataset files in testdata/: %v", err)
	}
	var all []Example
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		entries, err := ParseDataset(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		exs, err := LoadExamples(entries, func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(filepath.Dir(f), name)) })
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		all = append(all, exs...)
	}
	return all, nil
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
