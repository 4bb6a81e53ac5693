package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const reviewDataset = "../recorder/review/testdata"

// TestReviewFitRewritesTheWeights: --fit on the starter set writes the
// embedded weights file byte for byte.
func TestReviewFitRewritesTheWeights(t *testing.T) {
	out := filepath.Join(t.TempDir(), "weights.json")
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), []string{"review", "--fit", reviewDataset, "--weights", out}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("review --fit: %v\n%s", err, stderr.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../recorder/review/weights.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("review --fit wrote weights that differ from recorder/review/weights.json:\n%s", got)
	}
}

// TestReviewEvalPrintsTheArms: --eval prints a line per arm and the
// reliability table, and says that no model is configured.
func TestReviewEvalPrintsTheArms(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), []string{"review", "--eval", reviewDataset}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("review --eval: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"recorder's choice", "\nengine ", "engine + model     no model configured", "reliability, engine:"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("review --eval output lacks %q:\n%s", want, stdout.String())
		}
	}
	if err := Run(context.Background(), []string{"review"}, strings.NewReader(""), &stdout, &stderr); err == nil {
		t.Error("review with neither --fit nor --eval succeeded")
	}
}
