package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
)

// maxListTitle is how much of a title the trails table shows, so that one
// long title does not push the other columns off a terminal.
const maxListTitle = 60

func newTrailsCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trails",
		Short: "List, show and remove the trails saved in the database",
		Long: "The trails saved from recordings and imports, each with its versions. A trail is named\n" +
			"by its slug (its file name without .trail.yaml), its number, or its title.",
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newTrailsListCmd(e), newTrailsShowCmd(e), newTrailsRmCmd(e))
	return cmd
}

// openDB opens the configured database. With existing set, a database
// that does not exist yet is not created: db is nil and there is nothing
// in it to read.
func (e *env) openDB(cmd *cobra.Command, existing bool) (*storage.DB, *config.Config, error) {
	cfg, err := e.config(cmd)
	if err != nil {
		return nil, nil, err
	}
	path := cfg.DBPath()
	if existing {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, cfg, nil
		}
	}
	db, err := storage.Open(cmd.Context(), path)
	if err != nil {
		return nil, nil, err
	}
	return db, cfg, nil
}

// trailListEntry is one line of `host trails list --json`.
type trailListEntry struct {
	Slug     string    `json:"slug"`
	Title    string    `json:"title"`
	App      string    `json:"app"`
	Versions int       `json:"versions"`
	Updated  time.Time `json:"updated"`
}

func newTrailsListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the saved trails: slug, title, app, versions, last update",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			db, cfg, err := e.openDB(cmd, true)
			if err != nil {
				return err
			}
			var list []storage.TrailVersion
			if db != nil {
				defer db.Close()
				if list, err = db.Trails(cmd.Context()); err != nil {
					return err
				}
			}
			if asJSON {
				return writeTrailsJSON(e.stdout, list)
			}
			if len(list) == 0 {
				_, err := fmt.Fprintf(e.stdout, "no trails in %s yet: record one from the toolbar, or `host import FILE`\n", cfg.DBPath())
				return err
			}
			return writeTrailsTable(e.stdout, list)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array (slug, title, app, versions, updated)")
	return cmd
}

func writeTrailsJSON(w io.Writer, list []storage.TrailVersion) error {
	out := make([]trailListEntry, len(list))
	for i, v := range list {
		out[i] = trailListEntry{Slug: v.Slug, Title: v.Title, App: v.App, Versions: v.Versions, Updated: v.CreatedAt.UTC()}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func writeTrailsTable(w io.Writer, list []storage.TrailVersion) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SLUG\tTITLE\tAPP\tVERSIONS\tUPDATED")
	for _, v := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", v.Slug, cell(v.Title, maxListTitle), cell(v.App, maxListTitle), v.Versions,
			v.CreatedAt.Local().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

// cell makes text safe for one table cell: control characters (a tab
// would break the columns, an escape sequence would reach the terminal)
// become spaces, and long text is cut.
func cell(s string, maxRunes int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxRunes {
		s = string(r[:maxRunes-1]) + "…"
	}
	if s == "" {
		return "-"
	}
	return s
}

func newTrailsShowCmd(e *env) *cobra.Command {
	var version int
	cmd := &cobra.Command{
		Use:   "show TRAIL [--version N]",
		Short: "Print a trail's YAML (the latest version, or --version N)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if version < 0 {
				return fmt.Errorf("--version %d: versions start at 1", version)
			}
			db, cfg, err := e.openDB(cmd, true)
			if err != nil {
				return err
			}
			if db == nil {
				return fmt.Errorf("trail %q: %w: there are no trails in %s yet", args[0], storage.ErrNotFound, cfg.DBPath())
			}
			defer db.Close()
			v, err := db.TrailAt(cmd.Context(), args[0], version)
			if err != nil {
				return explainVersion(cmd.Context(), db, args[0], version, err)
			}
			_, err = e.stdout.Write(v.Content)
			return err
		},
	}
	cmd.Flags().IntVar(&version, "version", 0, "the version to print (default: the latest)")
	return cmd
}

// explainVersion adds which versions exist to a version that was not found.
func explainVersion(ctx context.Context, db *storage.DB, ref string, version int, err error) error {
	if version == 0 || !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	history, herr := db.TrailHistory(ctx, ref)
	if herr != nil || len(history) == 0 {
		return err
	}
	if history[0].Versions == 1 {
		return fmt.Errorf("trail %s has no version %d, only version 1", history[0].Slug, version)
	}
	return fmt.Errorf("trail %s has no version %d: its versions are 1 to %d", history[0].Slug, version, history[0].Versions)
}

func newTrailsRmCmd(e *env) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "rm TRAIL… [--yes]",
		Short: "Remove trails and all their versions from the database",
		Long: "rm removes each named trail with every version of it. It asks first; without a terminal\n" +
			"to ask on, it refuses unless --yes is given. Trail files exported to a repository stay.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, cfg, err := e.openDB(cmd, true)
			if err != nil {
				return err
			}
			if db == nil {
				return fmt.Errorf("trail %q: %w: there are no trails in %s yet", args[0], storage.ErrNotFound, cfg.DBPath())
			}
			defer db.Close()
			return runTrailsRm(cmd.Context(), e, db, args, yes, isTerminal(e.stdin))
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "remove without asking")
	return cmd
}

// isTerminal reports whether r is a terminal a person can answer on.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// runTrailsRm resolves every reference before removing anything, so a typo
// in the third name removes nothing, then asks (unless yes) and removes.
func runTrailsRm(ctx context.Context, e *env, db *storage.DB, refs []string, yes, interactive bool) error {
	var targets []storage.TrailVersion
	seen := map[int64]bool{}
	for _, ref := range refs {
		v, err := db.Trail(ctx, ref)
		if err != nil {
			return fmt.Errorf("nothing removed: %w", err)
		}
		if !seen[v.TrailID] {
			seen[v.TrailID] = true
			targets = append(targets, v)
		}
	}
	if !yes {
		if !interactive {
			return fmt.Errorf("removing %s needs confirmation: pass --yes (there is no terminal to ask on)", describeTargets(targets))
		}
		ok, err := confirmRemoval(e.stdin, e.stderr, targets)
		if err != nil {
			return err
		}
		if !ok {
			return &exitcode.Error{Code: 1, Err: errors.New("nothing removed")}
		}
	}
	for _, v := range targets {
		d, err := db.DeleteTrail(ctx, v.Slug)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "removed trail %s (%q, %s)\n", d.Slug, d.Title, plural(d.Versions, "version"))
	}
	return nil
}

func describeTargets(targets []storage.TrailVersion) string {
	if len(targets) == 1 {
		return "trail " + targets[0].Slug
	}
	slugs := make([]string, len(targets))
	for i, v := range targets {
		slugs[i] = v.Slug
	}
	return fmt.Sprintf("%d trails (%s)", len(targets), strings.Join(slugs, ", "))
}

// confirmRemoval lists what would be removed and asks; only an answer of
// y or yes removes.
func confirmRemoval(r io.Reader, w io.Writer, targets []storage.TrailVersion) (bool, error) {
	for _, v := range targets {
		fmt.Fprintf(w, "  %s  %q  (%s)\n", v.Slug, cell(v.Title, maxListTitle), plural(v.Versions, "version"))
	}
	fmt.Fprintf(w, "Remove %s with all versions? This cannot be undone. [y/N] ", describeTargets(targets))
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("reading the answer: %w", err)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
