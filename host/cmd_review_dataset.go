package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/review"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/storage/atomicfile"
)

// runReviewDataset writes the reviewable steps of a saved trail's
// recording as unlabelled dataset lines (docs/review.md, "The dataset"):
// DIR/APP.jsonl.unlabelled holds one entry per step, its menu listed in
// comments above it, and DIR/screens/APP/NN.json.gz the screens (compressed) the entries
// name. Labelling is choosing: give each entry its right option and a
// reason, and move it into a .jsonl file.
func runReviewDataset(cmd *cobra.Command, e *env, ref, dir, app string) error {
	cfg, err := e.config(cmd)
	if err != nil {
		return err
	}
	if _, err := os.Stat(cfg.DBPath()); err != nil {
		return fmt.Errorf("no database at %s: nothing was recorded here", cfg.DBPath())
	}
	svc := recording.New(recording.Options{Config: cfg, Getenv: e.getenv})
	defer svc.Close()
	list, err := svc.DatasetSteps(cmd.Context(), ref)
	if err != nil {
		return err
	}
	if app == "" {
		app = ref
	}
	if strings.ContainsAny(app, `/\ `) || app == "." || app == ".." {
		return fmt.Errorf("--app %q: give a plain name (it names files and ids)", app)
	}
	screensDir := filepath.Join(dir, "screens", app)
	if err := os.MkdirAll(screensDir, 0o755); err != nil {
		return err
	}
	names := map[*screen.Screen]string{}
	nameOf := func(s *screen.Screen) (string, error) {
		if n, ok := names[s]; ok {
			return n, nil
		}
		n := fmt.Sprintf("%02d.json.gz", len(names)+1)
		data, err := json.Marshal(s)
		if err != nil {
			return "", err
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		if _, err := zw.Write(append(data, '\n')); err != nil {
			return "", err
		}
		if err := zw.Close(); err != nil {
			return "", err
		}
		if err := atomicfile.WriteFile(filepath.Join(screensDir, n), z.Bytes(), 0o644); err != nil {
			return "", err
		}
		names[s] = n
		return n, nil
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "# Unlabelled steps of %s's recording (host review %s --dataset). Label each: set\n# right ({\"keep\": true}, {\"selector\": …} or {\"kind\": …}), split and reason, and move it to a .jsonl file.\n", app, ref)
	for _, s := range list {
		id := fmt.Sprintf("%s/%02d", app, s.Step+1)
		if s.Action > 0 {
			id += fmt.Sprintf("-%d", s.Action+1)
		}
		ent := review.Entry{ID: id, Intent: s.Intent, Action: s.Kind, Ref: s.Ref, Recorded: &s.Recorded}
		for _, sc := range s.Screens {
			n, err := nameOf(sc)
			if err != nil {
				return err
			}
			ent.Screens = append(ent.Screens, path.Join("screens", app, n))
		}
		m := s.Menu
		fmt.Fprintf(&out, "\n# %s, %s: %s\n#   shows %q", id, s.Kind, s.Intent, oneLine(m.Text, 120))
		for i, v := range m.Volatile {
			if i == 0 {
				out.WriteString("; changes: ")
			} else {
				out.WriteString(", ")
			}
			fmt.Fprintf(&out, "%s (%s)", v.Fragment, v.Kind)
		}
		fmt.Fprintf(&out, "; on %d screens\n", m.Screens)
		for i, o := range m.Options {
			rec := ""
			if o.Recorded {
				rec = " (the recorder's choice)"
			}
			sel, err := json.Marshal(o.Selector)
			if err != nil {
				return err
			}
			fmt.Fprintf(&out, "#   %d. %s%s\n#        %s\n#        \"right\": {\"selector\": %s}\n", i+1, o.Selector, rec, o.Description, sel)
		}
		line, err := json.Marshal(ent)
		if err != nil {
			return err
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	file := filepath.Join(dir, app+".jsonl.unlabelled")
	if err := atomicfile.WriteFile(file, out.Bytes(), 0o644); err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%d steps to label in %s, %d screens in %s\n", len(list), file, len(names), screensDir)
	return err
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// printMutationCheck prints the mutation check (docs/review.md) of the
// labels, the recorder's choices and the engine's picks on examples: each
// held to what its label says the step checks.
func printMutationCheck(e *env, examples []review.Example, eng *review.Engine) error {
	fmt.Fprintf(e.stdout, "\nmutation check (what the step must survive changes, then what it checks):\n")
	var labels review.MutationReport
	for _, arm := range []struct {
		name string
		pick func(review.Example) int
	}{
		{"labels", func(ex review.Example) int { return ex.Right }},
		{"recorder's choice", func(ex review.Example) int { return ex.Menu.Recorded() }},
		{"engine, as saved", func(ex review.Example) int {
			if d := eng.Decide(ex.Menu); d.Applies {
				return d.Pick
			}
			return ex.Menu.Recorded()
		}},
	} {
		r, err := review.CheckPicks(examples, arm.pick)
		if err != nil {
			return err
		}
		if arm.name == "labels" {
			labels = r
		}
		fmt.Fprintf(e.stdout, "%-18s %d passed, %d failed\n", arm.name, r.Passed, r.Failed)
	}
	for _, f := range labels.Failures {
		fmt.Fprintf(e.stdout, "  label %s\n", f)
	}
	return nil
}
