package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/secrets"
)

func newAcceptCmd(e *env) *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "accept [--dry-run] [RESULTS]",
		Short: "Apply the healed trails a read-only run (CI) wrote to its results folder",
		Long: `A run whose cache is read-only (the default when CI is set) does not rewrite trail
files. When the agent healed a step and a check after it passed, the run writes the
healed trail to its results folder instead (RESULTS/<trail>/healed.trail.yaml, with
healed.json naming the trail file and its SHA-256 as the run read it). accept
applies them: for each healed trail it prints the diff and writes the healed steps
into the trail file, every other line as it is, and saves the trail as a new version
in the database when there is one.

RESULTS is the folder the run's --results named (default trailpin-results); for a
CI run, download the job's results artifact and give its folder. accept runs in the
project (the folder holding trailpin.yaml, or --config): trail paths are relative to it.

A results folder is input from outside (a CI artifact, perhaps from a fork's pull
request), so accept writes only what a heal may change, and refuses the rest:
  - the file must be a trail file (*.trail.yaml) inside the project's trails folder
    (trails.dir), once ".." and symbolic links are resolved; an absolute path, or
    one that leads out of the trails folder, is refused;
  - the healed trail must load and equal the trail file except for the actions, end
    and key of the steps healed.json names: same title, app, start, params and
    viewport, the same number of steps, every other step identical, and the healed
    steps' intents unchanged.
Each refusal says which path, or which field of which step, and nothing of that
trail is written; the other healed trails are applied.

A trail file that changed since the run is refused: the heal was made from other
lines. Run the trail again (host replay FILE) to heal the file as it is now, or
merge the healed trail by hand. A healed trail that is already applied is left
alone. The file is written as you keep it: a symbolic link stays a link (the file
it points to is rewritten), its permissions are kept, and it is written only if
nothing (an editor, another run) saved it since accept read it.

Exit status: 0 when every healed trail is applied (or already was), 1 when one is
refused or the results folder cannot be read.`,
		Example: `  host accept                      # the healed trails in ./trailpin-results
  host accept --dry-run ci-results # only show what would change`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			results := report.DefaultResultsDir
			if len(args) == 1 {
				results = args[0]
			}
			return runAccept(cmd, e, results, dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the diffs, write nothing")
	return cmd
}

// acceptTally counts the healed trails by what became of them.
type acceptTally struct {
	applied, already, refused int
}

func runAccept(cmd *cobra.Command, e *env, results string, dryRun bool) error {
	healed, problems, err := heal.ReadHealed(results)
	if err != nil {
		return &exitcode.Error{Code: 1, Err: fmt.Errorf("accept: %w", err)}
	}
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "accept: %v\n", p)
	}
	if len(healed) == 0 {
		if len(problems) > 0 {
			return &exitcode.Error{Code: 1, Err: fmt.Errorf("accept: no healed trail in %s could be read (listed above)", results)}
		}
		fmt.Fprintf(e.stdout, "no healed trails in %s: the run healed no step a check proved, or its cache was read-write and saved them itself\n", results)
		return nil
	}
	cfg, err := e.config(cmd)
	if err != nil {
		return err
	}
	p := cfg.Project
	if p == nil {
		wd, _ := e.getwd()
		return &exitcode.Error{Code: 1, Err: fmt.Errorf("accept writes healed trails only into a project's trails folder (trails.dir), and there is no project: %w", config.NoProjectError(wd))}
	}
	r := secrets.NewResolver(p.Secrets, e.getenv)
	secretValues := func(refs []trail.Ref) []string { return r.Values(refs...) }
	var db *storage.DB
	if !dryRun {
		if db, err = openAcceptDB(cmd.Context(), cfg.DBPath(), dbGiven(cfg)); err != nil {
			return err
		}
		if db != nil {
			defer db.Close()
		} else {
			fmt.Fprintf(e.stderr, "accept: no database at %s: the trail files are rewritten, no trail version is saved\n", cfg.DBPath())
		}
	}
	var tally acceptTally
	for _, h := range healed {
		acceptOne(cmd.Context(), e.stdout, h, p, secretValues, db, dryRun, &tally)
	}
	switch {
	case tally.refused > 0 || len(problems) > 0:
		return &exitcode.Error{Code: 1, Err: fmt.Errorf("accept: %s applied, %s refused or unreadable (see above)",
			plural(tally.applied, "healed trail"), plural(tally.refused+len(problems), "healed trail"))}
	case dryRun:
		fmt.Fprintf(e.stdout, "dry run: %s would be applied, nothing written\n", plural(tally.applied, "healed trail"))
	default:
		fmt.Fprintf(e.stdout, "accepted: %s applied, %d already applied\n", plural(tally.applied, "healed trail"), tally.already)
	}
	return nil
}

// openAcceptDB opens the database a trail version is saved in: the one
// named (--db, TRAILPIN_DB) must open; the default one only when it exists,
// since accept must not leave a new database behind on a machine that has
// none.
func openAcceptDB(ctx context.Context, path string, given bool) (*storage.DB, error) {
	if !given {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	db, err := storage.Open(ctx, path)
	if err != nil {
		return nil, &exitcode.Error{Code: 1, Err: fmt.Errorf("accept: opening the database %s: %w (give --db a Trailpin database you can write to)", path, err)}
	}
	return db, nil
}

// acceptOne applies one healed trail, or says why not. A results folder
// is outside input (a CI artifact, perhaps from a fork's pull request):
// its trail is written only when it names a trail file inside the
// project's trails folder, and only when it differs from that file in the
// recordings of the steps it says were healed (heal.TrailPath,
// heal.CheckHealed).
func acceptOne(ctx context.Context, w io.Writer, h heal.Healed, p *config.Project, secretValues func([]trail.Ref) []string,
	db *storage.DB, dryRun bool, tally *acceptTally) {
	path, err := heal.TrailPath(p.Dir, p.TrailsPath(), h.Record.Source)
	if err != nil {
		fmt.Fprintf(w, "%s: refused: %v; nothing written\n", h.Dir, err)
		tally.refused++
		return
	}
	refuse := func(format string, args ...any) {
		fmt.Fprintf(w, "%s: refused: %s\n", path, fmt.Sprintf(format, args...))
		tally.refused++
	}
	current, err := storage.ReadTrailBytes(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		refuse("the trail file no longer exists (the healed trail is %s/%s): restore the file, or run accept from the project the run was made in", h.Dir, heal.HealedTrailFile)
		return
	case err != nil:
		refuse("%v", err)
		return
	}
	switch heal.Digest(current) {
	case h.Record.HealedSHA256:
		fmt.Fprintf(w, "%s: already applied\n", path)
		tally.already++
		return
	case h.Record.SourceSHA256:
	default:
		refuse("the file changed since the run healed it (its SHA-256 is not the one in %s/%s); the heal was made from other lines, so it is not applied. "+
			"Run the trail again (host replay %s) to heal the file as it is now, or merge %s/%s by hand",
			h.Dir, heal.HealedRecordFile, path, h.Dir, heal.HealedTrailFile)
		return
	}
	before, err := trail.LoadTrail(path, current)
	if err != nil {
		refuse("the trail file does not load, so the heal cannot be checked against it: %v", err)
		return
	}
	t, err := trail.LoadTrail(path, h.Trail)
	if err != nil {
		refuse("the healed trail does not load: %v", err)
		return
	}
	if err := heal.CheckHealed(before, t, h.Record.Steps); err != nil {
		refuse("%s/%s changes more than the recordings (actions, end, key) of the steps it healed: %v; nothing written",
			h.Dir, heal.HealedTrailFile, err)
		return
	}
	if err := trail.CheckNoSecrets(t, secretValues(t.References())); err != nil {
		refuse("%v", err)
		return
	}
	verb := "applied"
	if dryRun {
		verb = "would apply"
	}
	fmt.Fprintf(w, "%s: %s the healed %s\n", path, verb, healedSteps(h.Record.Steps))
	for _, s := range h.Record.Steps {
		fmt.Fprintf(w, "  step %d (%s): %s\n", s.Step, oneLineText(s.Intent), oneLineText(s.Reason))
	}
	writeLineDiff(w, string(current), string(h.Trail))
	tally.applied++
	if dryRun || bytes.Equal(current, h.Trail) {
		return
	}
	if err := storage.ReplaceTrailFileIfUnchanged(path, current, h.Trail); err != nil {
		tally.applied--
		if errors.Is(err, storage.ErrTrailFileChanged) {
			refuse("the file changed since accept read it (another program saved it meanwhile); nothing written: run accept again")
			return
		}
		refuse("%v", err)
		return
	}
	if db == nil {
		return
	}
	v, err := suite.SaveTrailVersion(ctx, db, path, "", h.Trail)
	if err != nil {
		fmt.Fprintf(w, "  the file is rewritten, but no version was saved in the database: %v\n", err)
		return
	}
	fmt.Fprintf(w, "  saved as trail %s, version %d\n", v.Slug, v.Version)
}

func healedSteps(steps []heal.HealedStep) string {
	if len(steps) == 1 {
		return fmt.Sprintf("step %d", steps[0].Step)
	}
	return fmt.Sprintf("%d steps", len(steps))
}

// oneLineText keeps a text on one line of the command's output.
func oneLineText(s string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte("\n"), []byte(" ")))
}
