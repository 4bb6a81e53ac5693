package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/secrets"
)

func newImportCmd(e *env) *cobra.Command {
	var keepGoing bool
	cmd := &cobra.Command{
		Use:   "import [--keep-going] FILE…",
		Short: "Save trail files into the database, each as a new version of its trail",
		Long: `import loads each trail file (or every *.trail.yaml under a folder) strictly and saves it
as the next version of the trail its file name names (checkout.trail.yaml is trail
"checkout"), or as a new trail. A file identical to the latest version is left as it is.

Every file is checked before anything is saved: when one does not load, nothing is
imported, and each problem is listed with its file, line and a fix. With --keep-going
the files that load are imported anyway (the exit status is still 1).

Comments in a trail file are not kept: the database holds each trail as Trailpin writes it.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := e.config(cmd)
			if err != nil {
				return err
			}
			var secretValues func([]trail.Ref) []string
			if cfg.Project != nil {
				r := secrets.NewResolver(cfg.Project.Secrets, e.getenv)
				secretValues = func(refs []trail.Ref) []string { return r.Values(refs...) }
			}
			files, err := expandTrailArgs(args)
			if err != nil {
				return err
			}
			imports, problems := prepareImports(files, secretValues)
			for _, p := range problems {
				fmt.Fprintln(e.stderr, p)
			}
			if len(problems) > 0 && !keepGoing {
				return &exitcode.Error{Code: 1, Err: fmt.Errorf("import: nothing imported: %s of %d could not be imported (listed above); fix them, or pass --keep-going to import the others",
					plural(len(problems), "file"), len(files))}
			}
			db, err := storage.Open(cmd.Context(), cfg.DBPath())
			if err != nil {
				return err
			}
			defer db.Close()
			saved, err := db.Trails(cmd.Context())
			if err != nil {
				return err
			}
			latest := map[string]storage.TrailVersion{}
			for _, v := range saved {
				latest[v.Slug] = v
			}
			for _, im := range imports {
				msg, err := saveImport(cmd.Context(), db, im, latest)
				if err != nil {
					return fmt.Errorf("import: %s: %w", im.file, err)
				}
				if im.relaidOut {
					msg += "; the file's comments and layout are not kept"
				}
				fmt.Fprintf(e.stdout, "%s: %s\n", im.file, msg)
			}
			if len(problems) > 0 {
				return &exitcode.Error{Code: 1, Err: fmt.Errorf("import: %s could not be imported (listed above)", plural(len(problems), "file"))}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&keepGoing, "keep-going", false, "import the files that load even when others do not")
	return cmd
}

// expandTrailArgs replaces each folder among args by the trail files under
// it.
func expandTrailArgs(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			files = append(files, a)
			continue
		}
		in, err := storage.TrailFilesIn(a)
		if err != nil {
			return nil, err
		}
		if len(in) == 0 {
			return nil, fmt.Errorf("import: no *%s files in %s", trail.TrailFileExt, a)
		}
		files = append(files, in...)
	}
	return files, nil
}

// A trailImport is one file, loaded and ready to save.
type trailImport struct {
	file    string
	slug    string
	trail   *trail.Trail
	content []byte
	// relaidOut: the file's bytes differ from content (comments, quoting,
	// layout), which the database does not keep.
	relaidOut bool
}

// prepareImports loads and checks every file; problems holds one error per
// file that cannot be imported.
func prepareImports(files []string, secretValues func([]trail.Ref) []string) ([]trailImport, []error) {
	var imports []trailImport
	var problems []error
	bySlug := map[string]string{}
	for _, file := range files {
		im, err := prepareImport(file, secretValues)
		if err == nil {
			if other, dup := bySlug[im.slug]; dup {
				err = fmt.Errorf("%s: names the same trail (%s) as %s: import one of them", file, im.slug, other)
			}
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		bySlug[im.slug] = file
		imports = append(imports, im)
	}
	return imports, problems
}

func prepareImport(file string, secretValues func([]trail.Ref) []string) (trailImport, error) {
	src, err := storage.ReadTrailBytes(file)
	if err != nil {
		return trailImport{}, err
	}
	t, err := trail.LoadTrail(file, src)
	if err != nil {
		return trailImport{}, err
	}
	if secretValues != nil {
		if err := trail.CheckNoSecrets(t, secretValues(t.References())); err != nil {
			return trailImport{}, fmt.Errorf("%s: %w", file, err)
		}
	}
	slug, err := storage.TrailFileSlug(file, t.Title)
	if err != nil {
		return trailImport{}, err
	}
	content, err := trail.MarshalTrail(t)
	if err != nil {
		return trailImport{}, fmt.Errorf("%s: %w", file, err)
	}
	return trailImport{file: file, slug: slug, trail: t, content: content, relaidOut: !bytes.Equal(src, content)}, nil
}

// saveImport saves one file as the next version of its trail and says what
// happened. latest holds the latest version of every trail by slug (a
// lookup by slug alone: a slug is never taken for an id or a title here).
func saveImport(ctx context.Context, db *storage.DB, im trailImport, latest map[string]storage.TrailVersion) (string, error) {
	if v, ok := latest[im.slug]; ok && v.ContentSHA256 == sha256.Sum256(im.content) {
		return fmt.Sprintf("unchanged (trail %s, version %d)", v.Slug, v.Version), nil
	}
	v, err := db.SaveTrail(ctx, storage.TrailInput{Slug: im.slug, Title: im.trail.Title, App: im.trail.App, Content: im.content})
	if err != nil {
		return "", err
	}
	if v.Version == 1 {
		return fmt.Sprintf("new trail %s (version 1)", v.Slug), nil
	}
	return fmt.Sprintf("trail %s, version %d", v.Slug, v.Version), nil
}
