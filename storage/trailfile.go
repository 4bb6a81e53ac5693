package storage

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/atomicfile"
)

// trailFileMode is the mode of a new trail file: trails live in the
// person's repository and are meant to be read by everyone who clones it.
const trailFileMode = 0o644

// LoadTrailFile reads and strictly loads one trail file. Its errors name
// the file as given, with line and key (yamlerr.List).
func LoadTrailFile(path string) (*trail.Trail, error) {
	src, err := ReadTrailBytes(path)
	if err != nil {
		return nil, err
	}
	return trail.LoadTrail(path, src)
}

// ReadTrailBytes reads a trail file's bytes without loading them (for
// `host migrate`), refusing a file larger than trail.MaxTrailFileBytes.
func ReadTrailBytes(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading trail: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, trail.MaxTrailFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading trail %s: %w", path, err)
	}
	if len(src) > trail.MaxTrailFileBytes {
		return nil, fmt.Errorf("reading trail %s: larger than %d bytes: not a trail file", path, trail.MaxTrailFileBytes)
	}
	return src, nil
}

// WriteTrailFile writes t to path atomically: a reader sees the old file or
// the new one, never a half-written one, even if the host crashes.
func WriteTrailFile(path string, t *trail.Trail) error {
	out, err := trail.MarshalTrail(t)
	if err != nil {
		return err
	}
	return ReplaceTrailFile(path, out)
}

// ReplaceTrailFile writes data to path atomically (see atomicfile): a
// reader sees the old trail or the new one, never half. An existing file
// keeps its permissions, and a file kept as a symbolic link stays one (its
// target is written). A file a person may be editing is written with
// ReplaceTrailFileIfUnchanged instead.
func ReplaceTrailFile(path string, data []byte) error {
	return atomicfile.WriteThrough(path, data, trailFileMode)
}

// ErrTrailFileChanged is wrapped when a trail file changed between the
// moment it was read and the moment it was to be written.
var ErrTrailFileChanged = atomicfile.ErrChanged

// ReplaceTrailFileIfUnchanged writes data to the trail file path (through a
// symbolic link, keeping its permissions) only while the file still holds
// read, the bytes its writer read: a heal, an export, an accept or a
// migration never overwrites what another run or an editor saved in
// between. Otherwise it writes nothing and its error wraps
// ErrTrailFileChanged.
func ReplaceTrailFileIfUnchanged(path string, read, data []byte) error {
	return atomicfile.ReplaceIfUnchanged(path, read, data, trailFileMode)
}

// CreateTrailFile writes a new trail file, refusing (with an error wrapping
// fs.ErrExist) when something is already at path.
func CreateTrailFile(path string, data []byte) error {
	return atomicfile.Create(path, data, trailFileMode)
}

// LoadTrailDir loads every *.trail.yaml file under dir (and its
// subfolders), sorted by path. Every file is tried: the error joins the
// problems of all files that did not load, and the trails that did are
// returned beside it.
func LoadTrailDir(dir string) ([]*trail.Trail, error) {
	paths, err := TrailFilesIn(dir)
	if err != nil {
		return nil, err
	}
	var trails []*trail.Trail
	var errs []error
	for _, p := range paths {
		t, err := LoadTrailFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		trails = append(trails, t)
	}
	return trails, errors.Join(errs...)
}

// TrailFilesIn lists the *.trail.yaml files under dir, sorted by path.
// Hidden folders (.git and the like) are skipped.
func TrailFilesIn(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), trail.TrailFileExt) {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing trails in %s: %w", dir, err)
	}
	slices.Sort(paths)
	return paths, nil
}

// NewTrailFilePath returns the path of a new trail file in dir for a trail
// titled title: its slug, with -2, -3… when the name is taken.
func NewTrailFilePath(dir, title string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("choosing a trail file name in %s: %w", dir, err)
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return filepath.Join(dir, trail.FreeTrailFileName(title, names)), nil
}

// TrailFileSlug is the trail a file is saved as: its file name without
// .trail.yaml, so that export writes it back to the same name; else the
// slug of its title. host import and a heal saved as a new trail version
// both name a trail from its file this way.
func TrailFileSlug(file, title string) (string, error) {
	base := filepath.Base(file)
	stem := strings.TrimSuffix(base, trail.TrailFileExt)
	if stem == base {
		stem = strings.TrimSuffix(base, filepath.Ext(base))
	}
	for _, s := range []string{stem, trail.Slug(title)} {
		if ValidSlug(s) {
			return s, nil
		}
	}
	return "", fmt.Errorf("%s: no trail name can be made from the file name or the title: rename the file to NAME%s, with NAME in lower-case letters, digits and hyphens",
		file, trail.TrailFileExt)
}
