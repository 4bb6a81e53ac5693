package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/secrets"
)

// trailsDirMode is the mode of a trails folder export creates: it is part of
// the person's repository.
const trailsDirMode = 0o755

// errHandEdited is wrapped by *handEditedError.
var errHandEdited = errors.New("trail file edited by hand")

// A handEditedError is an export that would overwrite a trail file whose
// content is not a version of the trail this database holds.
//
// The rule: export may replace an existing file only when the file's bytes
// are exactly one of the trail's stored versions (as stored, or as this
// host writes that version). Such a file is an earlier export that nobody
// has touched since. Anything else was edited by hand, or exported from
// another database (a teammate's), and overwriting it would lose work.
type handEditedError struct {
	Path string
	Slug string
	// LayoutOnly: the file says the same as the trail and differs only in
	// comments or layout, which the database does not keep, so importing
	// it would not help.
	LayoutOnly bool
}

func (e *handEditedError) Error() string {
	if e.LayoutOnly {
		return fmt.Sprintf("%s differs from trail %s only in comments or layout, which the database does not keep: "+
			"leave the file as it is, or export with --force to rewrite it (its comments will be lost)", e.Path, e.Slug)
	}
	return fmt.Sprintf("%s differs from every version of trail %s saved here (edited by hand, or exported from another database): "+
		"run `host import %s` to keep its content as a new version, or export with --force to overwrite it", e.Path, e.Slug, e.Path)
}

func (e *handEditedError) Unwrap() error { return errHandEdited }

func newExportCmd(e *env) *cobra.Command {
	var dir string
	var force bool
	cmd := &cobra.Command{
		Use:   "export [--dir DIR] [--force] [TRAIL…]",
		Short: "Write trails to the repository as <slug>.trail.yaml files",
		Long: `export writes the latest version of each named trail (every trail when none is named)
to DIR, by default the project's trails.dir, as <slug>.trail.yaml, and prints each path.
The files are written atomically and deterministically: the same trail gives the same
bytes every time.

A file that is already there is replaced only when it is an earlier export nobody has
changed since (its bytes are one of the trail's saved versions). A file edited by hand,
or exported from another database, is left alone and nothing is written: import it first
to keep the edits (host import FILE), or pass --force to overwrite it.

A file is written as you keep it: a symbolic link stays a link (the file it points to
is rewritten), its permissions are kept, and it is written only if nothing (an editor,
another export) saved it since export read it; otherwise export stops and says so.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := e.config(cmd)
			if err != nil {
				return err
			}
			if dir == "" {
				if cfg.Project == nil {
					wd, _ := e.getwd()
					return fmt.Errorf("export: %w, or pass --dir DIR", config.NoProjectError(wd))
				}
				dir = cfg.Project.TrailsPath()
			}
			db, err := storage.Open(cmd.Context(), cfg.DBPath())
			if err != nil {
				return err
			}
			defer db.Close()
			var secretValues []string
			if cfg.Project != nil {
				secretValues = secrets.NewResolver(cfg.Project.Secrets, e.getenv).Values()
			}
			return runExport(cmd.Context(), e, db, args, dir, force, secretValues)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "folder to write the trail files to (default: the project's trails.dir)")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite trail files even when they were edited by hand")
	return cmd
}

func runExport(ctx context.Context, e *env, db *storage.DB, refs []string, dir string, force bool, secretValues []string) error {
	if len(refs) == 0 {
		list, err := db.Trails(ctx)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return errors.New("export: there are no trails to export yet: record one from the toolbar, or `host import FILE`")
		}
		for _, v := range list {
			refs = append(refs, v.Slug)
		}
	}
	// Every trail is planned before any file is written, so one refusal
	// leaves the folder as it was.
	var plans []exportPlan
	var refusals []error
	seen := map[string]bool{}
	for _, ref := range refs {
		p, err := planExport(ctx, db, ref, dir, secretValues)
		var he *handEditedError
		switch {
		case errors.As(err, &he) && !force:
			refusals = append(refusals, err)
			continue
		case errors.As(err, &he):
		case err != nil:
			return fmt.Errorf("export: nothing written: %w", err)
		}
		if !seen[p.path] {
			seen[p.path] = true
			plans = append(plans, p)
		}
	}
	if len(refusals) > 0 {
		return fmt.Errorf("export: nothing written:\n%w", errors.Join(refusals...))
	}
	if err := os.MkdirAll(dir, trailsDirMode); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, p := range plans {
		if err := p.write(); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		fmt.Fprintln(e.stdout, p.path)
	}
	return nil
}

// An exportPlan is what exporting one trail would write.
type exportPlan struct {
	path    string
	content []byte
	// unchanged: the file already holds content.
	unchanged bool
	// existing is what the file held when the plan was made; nil when
	// there was no file.
	existing []byte
}

// errExportChanged is wrapped when a trail file changed between the
// moment export read it and the moment it was to write it.
var errExportChanged = errors.New("changed since export read it")

// write carries out the plan as the person keeps the file: a new file is
// created only if none appeared since the plan was made; an existing one is
// written through a symbolic link, keeping its mode, and only while it
// still holds what the plan read, so that an editor's save in between is
// never overwritten.
func (p exportPlan) write() error {
	if p.unchanged {
		return nil
	}
	var err error
	if p.existing == nil {
		err = storage.CreateTrailFile(p.path, p.content)
	} else {
		err = storage.ReplaceTrailFileIfUnchanged(p.path, p.existing, p.content)
	}
	if errors.Is(err, fs.ErrExist) || errors.Is(err, storage.ErrTrailFileChanged) {
		return fmt.Errorf("%s %w (an editor or another export saved it meanwhile): it is left as it is; export again to decide from what it holds now", p.path, errExportChanged)
	}
	return err
}

// planExport decides what exporting ref to dir writes: the one rule of
// export, behind both of its doors, `host export` (runExport) and the
// popup's Export (trail.export, recording.export). A file edited by hand
// gives the plan together with a *handEditedError, so --force can still use
// the plan. secretValues are the values of the project's secrets: a trail
// holding one is refused.
func planExport(ctx context.Context, db *storage.DB, ref, dir string, secretValues []string) (exportPlan, error) {
	v, err := db.Trail(ctx, ref)
	if err != nil {
		return exportPlan{}, err
	}
	name := v.Slug + trail.TrailFileExt
	content, err := canonicalTrail(name, v.Content)
	if err != nil {
		return exportPlan{}, fmt.Errorf("trail %s version %d: %w", v.Slug, v.Version, err)
	}
	if len(secretValues) > 0 {
		t, err := trail.LoadTrail(name, content)
		if err != nil {
			return exportPlan{}, err
		}
		if err := trail.CheckNoSecrets(t, secretValues); err != nil {
			return exportPlan{}, fmt.Errorf("trail %s: %w", v.Slug, err)
		}
	}
	p := exportPlan{path: filepath.Join(dir, name), content: content}
	existing, err := storage.ReadTrailBytes(p.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case err != nil:
		return exportPlan{}, err
	case bytes.Equal(existing, content):
		p.unchanged = true
		return p, nil
	}
	p.existing = existing
	earlier, err := isEarlierExport(ctx, db, v.Slug, existing)
	if err != nil {
		return exportPlan{}, err
	}
	if !earlier {
		return p, &handEditedError{Path: p.path, Slug: v.Slug, LayoutOnly: sameTrail(p.path, existing, content)}
	}
	return p, nil
}

// sameTrail reports whether the file says the same as the trail content.
func sameTrail(path string, file, content []byte) bool {
	a, err := trail.LoadTrail(path, file)
	if err != nil {
		return false
	}
	b, err := trail.LoadTrail(path, content)
	return err == nil && a.Equal(b)
}

// isEarlierExport reports whether file is, byte for byte, a version of the
// trail as stored or as this host writes it.
func isEarlierExport(ctx context.Context, db *storage.DB, slug string, file []byte) (bool, error) {
	history, err := db.TrailHistory(ctx, slug)
	if err != nil {
		return false, err
	}
	sum := sha256.Sum256(file)
	for _, h := range history {
		if h.ContentSHA256 == sum {
			return true, nil
		}
	}
	// A version stored by an older writer exports in today's layout.
	for _, h := range history {
		v, err := db.TrailAt(ctx, slug, h.Version)
		if err != nil {
			return false, err
		}
		if out, err := canonicalTrail(slug, v.Content); err == nil && bytes.Equal(out, file) {
			return true, nil
		}
	}
	return false, nil
}

// canonicalTrail loads a stored trail and writes it again: the bytes a
// trail file gets. It checks that writing is deterministic (the written
// file, loaded and written again, gives the same bytes), so that exporting
// twice never shows a diff.
func canonicalTrail(name string, stored []byte) ([]byte, error) {
	t, err := trail.LoadTrail(name, stored)
	if err != nil {
		return nil, fmt.Errorf("the stored trail does not load: %w", err)
	}
	out, err := trail.MarshalTrail(t)
	if err != nil {
		return nil, err
	}
	back, err := trail.LoadTrail(name, out)
	if err != nil {
		return nil, err
	}
	again, err := trail.MarshalTrail(back)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(out, again) {
		return nil, fmt.Errorf("writing it is not deterministic (the written file writes differently: %s): report this as a bug", firstDifference(out, again))
	}
	return out, nil
}

// firstDifference names the first line where a and b differ.
func firstDifference(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d", i+1)
		}
	}
	return fmt.Sprintf("line %d", min(len(al), len(bl))+1)
}
