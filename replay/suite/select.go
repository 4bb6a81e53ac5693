package suite

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
	"github.com/trailpin/trailpin/storage"
)

// A Trail is a trail chosen for a run, with the slug that names it in
// status lines, JUnit and the results folder.
type Trail struct {
	Trail *trail.Trail
	// Slug is the trail file's name without .trail.yaml (so a file saved
	// as checkout-2.trail.yaml is checkout-2), or the slug of the title for
	// a trail from the database. Unique within a suite: a clash gets -2,
	// -3, … in the order the arguments gave them.
	Slug string
}

// A Selection says which trails a run takes.
type Selection struct {
	// Args are trail files, folders of trail files (searched recursively)
	// and trail names, as given on the command line.
	Args []string
	// Lookup finds a trail in the database by name (a slug or a title). Nil
	// when there is no database: then every argument must be a file or a
	// folder.
	Lookup func(name string) (*trail.Trail, error)
	// Grep, when set, is a regular expression (RE2) a trail's title must
	// match (anywhere in it; anchor with ^ and $).
	Grep string
	// Shard, when set, is "i/n": keep only the trails of shard i of n.
	Shard string
}

// ErrNoTrails is returned when the arguments (and --grep) select no trail.
var ErrNoTrails = errors.New("no trails selected")

// Select collects the trails of a run: every file, folder and name of
// opts.Args in order (a file given twice runs once), then those whose title
// matches Grep, then those of Shard. Every problem is an error, reported
// together where possible (every trail file that does not load), and marked
// as a usage error (exitcode.Usage). A shard that gets no trail is not an error:
// the result is empty.
//
// Sharding puts each trail in shard FNV-1a(slug) mod n + 1. It depends on
// nothing but the trail's own slug, so every machine of a CI matrix agrees
// without talking to the others, and adding, removing or renaming another
// trail never moves a trail to another shard. The price is balance by
// chance: with few trails, shards can differ in size.
func Select(opts Selection) ([]Trail, error) {
	shard, err := ParseShard(opts.Shard)
	if err != nil {
		return nil, exitcode.UsageError(err)
	}
	var grep *regexp.Regexp
	if opts.Grep != "" {
		if grep, err = regexp.Compile(opts.Grep); err != nil {
			return nil, exitcode.UsageError(fmt.Errorf("--grep %q is not a regular expression: %w", opts.Grep, err))
		}
	}
	all, err := collect(opts)
	if err != nil {
		return nil, exitcode.UsageError(err)
	}
	var picked []Trail
	for _, t := range all {
		if grep == nil || grep.MatchString(t.Trail.Title) {
			picked = append(picked, t)
		}
	}
	if len(picked) == 0 {
		if grep != nil {
			return nil, exitcode.UsageError(fmt.Errorf("--grep %q matches none of the titles of %d trails: %w", opts.Grep, len(all), ErrNoTrails))
		}
		return nil, exitcode.UsageError(fmt.Errorf("%s hold no %s files: %w", strings.Join(opts.Args, ", "), trail.TrailFileExt, ErrNoTrails))
	}
	var out []Trail
	for _, t := range picked {
		if shard.Has(t.Slug) {
			out = append(out, t)
		}
	}
	return out, nil
}

// collect loads every argument in order.
func collect(opts Selection) ([]Trail, error) {
	if len(opts.Args) == 0 {
		return nil, fmt.Errorf("give trail files, folders or names to replay: %w", ErrNoTrails)
	}
	var out []Trail
	var errs []error
	seenFile := map[string]bool{}
	taken := map[string]bool{}
	add := func(t *trail.Trail, slug string) {
		base := slug
		for n := 2; taken[strings.ToLower(slug)]; n++ {
			slug = base + "-" + strconv.Itoa(n)
		}
		taken[strings.ToLower(slug)] = true
		out = append(out, Trail{Trail: t, Slug: slug})
	}
	addFile := func(path string) {
		key, err := filepath.Abs(path)
		if err != nil {
			key = filepath.Clean(path)
		}
		if seenFile[key] {
			return
		}
		seenFile[key] = true
		t, err := storage.LoadTrailFile(path)
		if err != nil {
			errs = append(errs, err)
			return
		}
		add(t, strings.TrimSuffix(filepath.Base(path), trail.TrailFileExt))
	}
	for _, arg := range opts.Args {
		info, err := os.Stat(arg)
		switch {
		case err == nil && info.IsDir():
			paths, err := storage.TrailFilesIn(arg)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if len(paths) == 0 {
				errs = append(errs, fmt.Errorf("%s holds no %s files", arg, trail.TrailFileExt))
			}
			for _, p := range paths {
				addFile(p)
			}
		case err == nil:
			if !strings.HasSuffix(arg, trail.TrailFileExt) {
				errs = append(errs, fmt.Errorf("%s: a trail file's name ends in %s", arg, trail.TrailFileExt))
				continue
			}
			addFile(arg)
		case !errors.Is(err, fs.ErrNotExist):
			errs = append(errs, fmt.Errorf("reading %s: %w", arg, err))
		case looksLikePath(arg):
			errs = append(errs, fmt.Errorf("%s: no such trail file or folder", arg))
		case opts.Lookup == nil:
			errs = append(errs, fmt.Errorf("%s: no such trail file or folder, and no database to look a trail name up in (give --db, or a path)", arg))
		default:
			t, err := opts.Lookup(arg)
			if err != nil {
				errs = append(errs, fmt.Errorf("trail %q: %w", arg, err))
				continue
			}
			add(t, trail.Slug(t.Title))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// looksLikePath tells a mistyped path from a trail name: a name has no
// folder separator and no trail file extension.
func looksLikePath(arg string) bool {
	return strings.ContainsAny(arg, `/\`) || strings.HasSuffix(arg, trail.TrailFileExt) ||
		strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml")
}

// A Shard is one part of a suite split across CI machines: Index of Count,
// counting from 1. The zero Shard holds every trail.
type Shard struct {
	Index, Count int
}

// ParseShard reads --shard "i/n" (1 ≤ i ≤ n). An empty string is the whole
// suite.
func ParseShard(s string) (Shard, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(s, "/")
	i, errI := strconv.Atoi(is)
	n, errN := strconv.Atoi(ns)
	switch {
	case !ok || errI != nil || errN != nil:
		return Shard{}, fmt.Errorf("--shard %q: write i/n, the shard's number and how many there are, e.g. --shard 2/3", s)
	case n < 1:
		return Shard{}, fmt.Errorf("--shard %q: the number of shards must be at least 1", s)
	case i < 1 || i > n:
		return Shard{}, fmt.Errorf("--shard %q: the shard's number must be from 1 to %d", s, n)
	}
	return Shard{Index: i, Count: n}, nil
}

// Has reports whether the trail with this slug belongs to the shard.
func (s Shard) Has(slug string) bool {
	if s.Count <= 1 {
		return true
	}
	return ShardOf(slug, s.Count) == s.Index
}

func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ShardOf is the shard (1…n) a trail with this slug belongs to.
func ShardOf(slug string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(slug))
	return int(h.Sum32()%uint32(n)) + 1
}
