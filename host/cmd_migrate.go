package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
)

func newMigrateCmd(e *env) *cobra.Command {
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "migrate [--dry-run] FILE…",
		Short: "Fold the retired expectedText checks of trail files into their selectors",
		Long: `Migrate rewrites trail files written by earlier tools, whose assertions carry
expectedText and textMatchMode beside the selector. Each check is dropped where
the selector already makes it, narrows a broad textRegex to the literal, or is
folded into the selector (text for EXACT, an anchored textRegex for PREFIX and
REGEX). Checks that cannot be expressed faithfully are listed, and a file with
any of them is left unchanged for a person to fix. Files are rewritten
atomically; comments are kept.

Exit status: 0 when every file is migrated (or had nothing to migrate), 1 when
a check was left or a file could not be read or migrated.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMigrate(e.stdout, args, dryRun)
		},
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would change, write nothing")
	return cmd
}

// migrateTally counts what went wrong over all files.
type migrateTally struct {
	leftChecks, leftFiles, failedFiles int
}

func runMigrate(w io.Writer, paths []string, dryRun bool) error {
	var tally migrateTally
	for _, path := range paths {
		migrateFile(w, path, dryRun, &tally)
	}
	var problems []string
	if tally.leftChecks > 0 {
		problems = append(problems, fmt.Sprintf("%s in %s could not be migrated faithfully (listed above); fix them by hand", plural(tally.leftChecks, "check"), plural(tally.leftFiles, "file")))
	}
	if tally.failedFiles > 0 {
		problems = append(problems, fmt.Sprintf("%s could not be migrated (see above)", plural(tally.failedFiles, "file")))
	}
	if len(problems) > 0 {
		return &exitcode.Error{Code: 1, Err: fmt.Errorf("migrate: %s", strings.Join(problems, "; "))}
	}
	return nil
}

func migrateFile(w io.Writer, path string, dryRun bool, tally *migrateTally) {
	src, err := storage.ReadTrailBytes(path)
	if err != nil {
		fmt.Fprintf(w, "%s: %v\n", path, err)
		tally.failedFiles++
		return
	}
	out, report, err := trail.Migrate(src)
	if err != nil {
		fmt.Fprintf(w, "%s: %v\n", path, err)
		tally.failedFiles++
		return
	}
	if len(report) == 0 {
		fmt.Fprintf(w, "%s: nothing to migrate\n", path)
		return
	}
	if trail.MigrationIncomplete(report) {
		left := 0
		for _, n := range report {
			if n.Left {
				left++
			}
		}
		fmt.Fprintf(w, "%s: left unchanged: %d of %d checks cannot be migrated faithfully\n", path, left, len(report))
		printNotes(w, report)
		tally.leftChecks += left
		tally.leftFiles++
		return
	}
	if dryRun {
		fmt.Fprintf(w, "%s: would migrate %s (dry run, nothing written)\n", path, plural(len(report), "check"))
		printNotes(w, report)
		writeLineDiff(w, string(src), string(out))
	} else {
		if err := storage.ReplaceTrailFileIfUnchanged(path, src, out); errors.Is(err, storage.ErrTrailFileChanged) {
			fmt.Fprintf(w, "%s: changed since migrate read it (an editor saved it meanwhile): left as it is; run migrate again\n", path)
			tally.failedFiles++
			return
		} else if err != nil {
			fmt.Fprintf(w, "%s: %v\n", path, err)
			tally.failedFiles++
			return
		}
		fmt.Fprintf(w, "%s: migrated %s\n", path, plural(len(report), "check"))
		printNotes(w, report)
	}
	if _, err := trail.LoadTrail(path, out); err != nil {
		fmt.Fprintf(w, "%s: migrated, but the file still does not load; fix by hand:\n%s\n", path, indent(err.Error()))
		tally.failedFiles++
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func printNotes(w io.Writer, report []trail.MigrationNote) {
	for _, n := range report {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// maxDiffCells bounds the line diff's table: files too big for it are
// shown whole, which is still a correct (if long) answer.
const maxDiffCells = 4 << 20

// writeLineDiff prints the lines that differ between a and b, each change
// with a line of context, in the style of a unified diff.
func writeLineDiff(w io.Writer, a, b string) {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(al)*len(bl) > maxDiffCells {
		fmt.Fprintf(w, "--- new content\n%s", b)
		return
	}
	// lcs[i][j] is the length of the longest common subsequence of al[i:] and bl[j:].
	lcs := make([][]int, len(al)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(bl)+1)
	}
	for i := len(al) - 1; i >= 0; i-- {
		for j := len(bl) - 1; j >= 0; j-- {
			if al[i] == bl[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
		old  int
	}
	var lines []line
	i, j := 0, 0
	for i < len(al) || j < len(bl) {
		switch {
		case i < len(al) && j < len(bl) && al[i] == bl[j]:
			lines = append(lines, line{' ', al[i], i + 1})
			i, j = i+1, j+1
		case i < len(al) && (j == len(bl) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', al[i], i + 1})
			i++
		default:
			lines = append(lines, line{'+', bl[j], i + 1})
			j++
		}
	}
	changed := func(k int) bool { return k >= 0 && k < len(lines) && lines[k].op != ' ' }
	inHunk := false
	for k, l := range lines {
		if !changed(k) && !changed(k-1) && !changed(k+1) {
			inHunk = false
			continue
		}
		if !inHunk {
			fmt.Fprintf(w, "@@ line %d @@\n", l.old)
			inHunk = true
		}
		fmt.Fprintf(w, "%c %s\n", l.op, l.text)
	}
}
