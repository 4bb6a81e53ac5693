package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/review"
	"github.com/trailpin/trailpin/storage/atomicfile"
)

// defaultWeightsPath is the review package's weights file, from the
// repository's root: --fit rewrites it there unless --weights says
// otherwise.
var defaultWeightsPath = filepath.Join("recorder", "review", review.WeightsFile)

func newReviewCmd(e *env) *cobra.Command {
	var fit, eval, weights, splitName, datasetDir, app string
	var threshold float64
	var asJSON, apply bool
	cmd := &cobra.Command{
		Use:   "review TRAIL [--json] [--apply] | TRAIL --dataset DIR [--app NAME] | --fit DATASET | --eval DATASET",
		Short: "Review a saved trail's selectors, or fit and evaluate the review's decision engine",
		Long: "review TRAIL runs the save-time selector review on a saved trail (a slug, id or title, or\n" +
			"an exported .trail.yaml file) from the screens its recording stored, and prints each step's\n" +
			"options, what each checks, and the pick with its probability and reasons; --json prints it\n" +
			"for scripts; --apply writes the picks into the trail file (a file must be given), keeping\n" +
			"its comments and layout. review.threshold and the model of the user config or trailpin.yaml\n" +
			"apply as at save.\n" +
			"review TRAIL --dataset DIR writes the steps of TRAIL's recording that the review asks about,\n" +
			"with the recorder's choice and the screens they were recorded on, as unlabelled dataset lines\n" +
			"(DIR/APP.jsonl.unlabelled, each step's menu listed above it) and screen files\n" +
			"(DIR/screens/APP/), for a person to label.\n" +
			"review --fit DATASET fits the review engine's weights on the training split of DATASET (a\n" +
			"JSON-lines file, or a folder of them) and writes the weights file (--weights, by default\n" +
			"recorder/review/weights.json from the repository's root, which the binary embeds): the same\n" +
			"dataset gives the same bytes.\n" +
			"review --eval DATASET prints, for the held-out split (--split), the accuracy, the coverage\n" +
			"above the threshold, the accuracy above it, the Brier score and a reliability table of the\n" +
			"recorder's choice, the engine, and the engine with the model.\n" +
			"docs/review.md explains the menu, the engine and the dataset format.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && (fit != "" || eval != ""):
				return errors.New("give a TRAIL, or --fit or --eval, not both")
			case len(args) == 1 && datasetDir != "":
				if asJSON || apply {
					return errors.New("--dataset writes dataset lines: leave out --json and --apply")
				}
				return runReviewDataset(cmd, e, args[0], datasetDir, app)
			case app != "":
				return errors.New("--app names the app of --dataset: give TRAIL --dataset DIR")
			case len(args) == 1:
				return runReviewTrail(cmd, e, args[0], asJSON, apply)
			case asJSON || apply:
				return errors.New("--json and --apply are for reviewing a TRAIL: give one")
			case fit != "" && eval != "":
				return errors.New("give --fit or --eval, not both")
			case fit != "":
				return runReviewFit(e, fit, weights)
			case eval != "":
				return runReviewEval(cmd, e, eval, weights, splitName, threshold)
			}
			return errors.New("give a TRAIL to review (a saved trail's slug or an exported file), --fit DATASET or --eval DATASET")
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the review of TRAIL as JSON")
	cmd.Flags().BoolVar(&apply, "apply", false, "write the picks into the trail file TRAIL")
	cmd.Flags().StringVar(&datasetDir, "dataset", "", "write TRAIL's reviewable steps as unlabelled dataset lines, with their screens, into this folder")
	cmd.Flags().StringVar(&app, "app", "", "the app name of --dataset's files and ids (by default the trail's slug)")
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
	if _, err := fmt.Fprint(e.stdout, r.Table()); err != nil {
		return err
	}
	return printMutationCheck(e, examples, eng)
}

// runReviewTrail reviews a saved trail, or an exported trail file, from
// its recording's stored screens.
func runReviewTrail(cmd *cobra.Command, e *env, ref string, asJSON, apply bool) error {
	cfg, err := e.config(cmd)
	if err != nil {
		return err
	}
	in := recording.ReviewTrailIn{Trail: ref}
	isFile := strings.HasSuffix(ref, ".trail.yaml") || strings.ContainsRune(ref, os.PathSeparator)
	if isFile {
		src, err := os.ReadFile(ref)
		if err != nil {
			return fmt.Errorf("reading the trail file: %w", err)
		}
		in.Trail, in.Content, in.File = strings.TrimSuffix(filepath.Base(ref), ".trail.yaml"), src, ref
	} else if apply {
		return fmt.Errorf("--apply writes a trail file: export %s with `host export %s`, then give its .trail.yaml", ref, ref)
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return fmt.Errorf("no database at %s: nothing was recorded here to review", cfg.DBPath())
	}
	svc := recording.New(recording.Options{Config: cfg, Getenv: e.getenv})
	defer svc.Close()
	rv, err := svc.ReviewTrail(cmd.Context(), in)
	if err != nil {
		return err
	}
	var changes []recording.ReviewChange
	if apply {
		out, ch, err := rv.Apply(ref, in.Content)
		if err != nil {
			return err
		}
		if len(ch) > 0 {
			info, err := os.Stat(ref)
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(ref, out, info.Mode().Perm()); err != nil {
				return fmt.Errorf("writing %s: %w", ref, err)
			}
		}
		changes = ch
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			recording.ReviewOut
			Changes []recording.ReviewChange `json:"changes,omitempty"`
		}{rv.ReviewOut, changes})
	}
	w := e.stdout
	if len(rv.Steps) == 0 {
		fmt.Fprintln(w, "no step has more than one selector to choose from")
	}
	for _, s := range rv.Steps {
		fmt.Fprintf(w, "step %d, %s: %s\n", s.Step+1, s.Kind, s.Intent)
		if len(s.Volatile) > 0 {
			fmt.Fprintf(w, "  changes between runs: %s\n", strings.Join(s.Volatile, ", "))
		}
		for _, o := range s.Options {
			mark := " "
			if o.Number == s.Pick {
				mark = "*"
			}
			rec := ""
			if o.Recorded {
				rec = " (the recorder's choice)"
			}
			fmt.Fprintf(w, "  %s %d. %s%s  %.0f%%\n       %s\n", mark, o.Number, o.Selector, rec, o.Probability*100, o.Description)
		}
		switch s.By {
		case recording.PickedByModel:
			fmt.Fprintf(w, "  pick: %d, by the model: %s\n", s.Pick, s.Reason)
		case recording.PickedByEngine:
			fmt.Fprintf(w, "  pick: %d, by the engine at %.0f%%: %s\n", s.Pick, s.Probability*100, strings.Join(s.Reasons, "; "))
		default:
			fmt.Fprintf(w, "  pick: %d, the recorder's choice (the engine's best, %d, is at %.0f%%, below %.0f%%)\n", s.Pick, s.Engine, s.Probability*100, rv.Threshold*100)
		}
	}
	if rv.Note != "" {
		fmt.Fprintln(w, rv.Note)
	}
	if apply {
		if len(changes) == 0 {
			fmt.Fprintf(w, "%s: no selector to change\n", ref)
		}
		for _, c := range changes {
			fmt.Fprintf(w, "%s: step %d: %s -> %s (%s)\n", ref, c.Step+1, c.From, c.To, c.Why)
		}
	}
	return nil
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
