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
// embedded weights file byte for byte. Under -short it is skipped: the fit
// takes tens of seconds on two cores, and recorder/review's
// TestFitReproducesWeights makes the same fit and comparison in-process.
func TestReviewFitRewritesTheWeights(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the whole dataset (tens of seconds): skipped under -short, where recorder/review's TestFitReproducesWeights checks the same fit (go test without -short runs it)")
	}
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
// reliability table, and says that no model is configured. Under -short it
// evaluates one small file of the dataset (the hand-made checkout) rather
// than the whole folder, which takes minutes on a loaded two-core machine.
func TestReviewEvalPrintsTheArms(t *testing.T) {
	dataset := reviewDataset
	if testing.Short() {
		dataset = filepath.Join(reviewDataset, "checkout.jsonl")
	}
	var stdout, stderr bytes.Buffer
	if err := Run(context.Background(), []string{"review", "--eval", dataset}, strings.NewReader(""), &stdout, &stderr); err != nil {
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
