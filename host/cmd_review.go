package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/recorder/review"
	"github.com/trailpin/trailpin/storage/atomicfile"
)

// defaultWeightsPath is the review package's weights file, from the
// repository's root: --fit rewrites it there unless --weights says
// otherwise.
var defaultWeightsPath = filepath.Join("recorder", "review", review.WeightsFile)

func newReviewCmd(e *env) *cobra.Command {
	var fit, eval, weights, splitName string
	var threshold float64
	cmd := &cobra.Command{
		Use:   "review --fit DATASET | --eval DATASET",
		Short: "Fit and evaluate the save-time selector review's decision engine",
		Long: "review --fit DATASET fits the review engine's weights on the training split of DATASET (a\n" +
			"JSON-lines file, or a folder of them) and writes the weights file (--weights, by default\n" +
			"recorder/review/weights.json from the repository's root, which the binary embeds): the same\n" +
			"dataset gives the same bytes.\n" +
			"review --eval DATASET prints, for the held-out split (--split), the accuracy, the coverage\n" +
			"above the threshold, the accuracy above it, the Brier score and a reliability table of the\n" +
			"recorder's choice, the engine, and the engine with the model.\n" +
			"Reviewing a saved trail (host review TRAIL) is not built yet.\n" +
			"docs/review.md explains the menu, the engine and the dataset format.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case fit != "" && eval != "":
				return errors.New("give --fit or --eval, not both")
			case fit != "":
				return runReviewFit(e, fit, weights)
			case eval != "":
				return runReviewEval(cmd, e, eval, weights, splitName, threshold)
			}
			return errors.New("give --fit DATASET or --eval DATASET (reviewing a saved trail is not built yet)")
		},
	}
	cmd.Flags().StringVar(&fit, "fit", "", "fit the weights on the training split of this dataset (a .jsonl file or a folder of them)")
	cmd.Flags().StringVar(&eval, "eval", "", "evaluate on this dataset (a .jsonl file or a folder of them)")
	cmd.Flags().StringVar(&weights, "weights", "", "the weights file to write (--fit) or read (--eval); --fit writes "+defaultWeightsPath+" by default, --eval reads the embedded weights")
	cmd.Flags().StringVar(&splitName, "split", review.SplitHeldOut, "the split --eval scores: heldout, train or all")
	cmd.Flags().Float64Var(&threshold, "threshold", review.DefaultThreshold, "the probability a pick must reach to apply (review.threshold)")
	return cmd
}

func runReviewFit(e *env, dataset, weights string) error {
	examples, err := loadReviewDataset(dataset)
	if err != nil {
		return err
	}
	train := reviewSplit(examples, review.SplitTrain)
	w, err := review.Fit(train, review.DefaultFit)
	if err != nil {
		return err
	}
	data, err := w.Marshal()
	if err != nil {
		return err
	}
	if weights == "" {
		weights = defaultWeightsPath
	}
	if err := atomicfile.WriteFile(weights, data, 0o644); err != nil {
		return fmt.Errorf("writing the review weights: %w (run from the repository's root, or give --weights)", err)
	}
	eng, err := review.NewEngine(data, review.DefaultThreshold)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "fitted on %d training steps (log-loss %.3f); wrote %s\n", len(train), eng.LogLoss(train), weights)
	return err
}

func runReviewEval(cmd *cobra.Command, e *env, dataset, weights, splitName string, threshold float64) error {
	if splitName != review.SplitHeldOut && splitName != review.SplitTrain && splitName != "all" {
		return fmt.Errorf("--split %q: use heldout, train or all", splitName)
	}
	examples, err := loadReviewDataset(dataset)
	if err != nil {
		return err
	}
	if splitName != "all" {
		examples = reviewSplit(examples, splitName)
	}
	if len(examples) == 0 {
		return fmt.Errorf("%s has no %s steps", dataset, splitName)
	}
	var eng *review.Engine
	if weights == "" {
		eng, err = review.DefaultEngine()
		if err == nil {
			eng.Threshold = threshold
			_, err = review.NewEngine([]byte(`{"weights": []}`), threshold) // checks the threshold
		}
	} else {
		var data []byte
		if data, err = os.ReadFile(weights); err == nil {
			eng, err = review.NewEngine(data, threshold)
		}
	}
	if err != nil {
		return err
	}
	// The model fallback comes with the review in the save operation;
	// until then the third arm says no model is configured.
	r, err := review.Evaluate(cmd.Context(), examples, eng, nil)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, r.Table())
	return err
}

// loadReviewDataset reads a dataset file, or every .jsonl file of a
// folder in name order, and builds its examples; screen files are read
// relative to each dataset file.
func loadReviewDataset(path string) ([]review.Example, error) {
	files := []string{path}
	if info, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("reading the dataset: %w", err)
	} else if info.IsDir() {
		files, err = filepath.Glob(filepath.Join(path, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("%s holds no .jsonl dataset file", path)
		}
		sort.Strings(files)
	}
	var all []review.Example
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading the dataset: %w", err)
		}
		entries, err := review.ParseDataset(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		dir := filepath.Dir(f)
		examples, err := review.LoadExamples(entries, func(name string) ([]byte, error) {
			return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		all = append(all, examples...)
	}
	return all, nil
}

func reviewSplit(examples []review.Example, name string) []review.Example {
	var out []review.Example
	for _, ex := range examples {
		if ex.Entry.Split == name {
			out = append(out, ex)
		}
	}
	return out
}
