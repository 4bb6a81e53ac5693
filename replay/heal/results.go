package heal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/atomicfile"
)

// A healed trail in a results folder is two files in the trail's folder,
// <results>/<trail-slug>/, beside its trace page:
//
//	healed.trail.yaml  the trail file as the run read it, with the healed
//	                   steps' recordings replaced (every other byte kept)
//	healed.json        the record: which file it heals, the SHA-256 of that
//	                   file as the run read it, and the steps healed
//
// `host accept` writes healed.trail.yaml over the source only while the
// source still has the bytes the run read.
const (
	HealedTrailFile  = "healed.trail.yaml"
	HealedRecordFile = "healed.json"
)

// RecordVersion is the version of healed.json this package writes and reads.
const RecordVersion = 1

// A Record says what a healed trail heals.
type Record struct {
	Version int `json:"version"`
	// Title is the trail's title.
	Title string `json:"trail"`
	// Source is the trail file the run read: relative to the project's
	// folder (the one holding trailpin.yaml), with forward slashes; absolute
	// only for a run without a project. `host accept` writes it only when
	// it lies inside the project's trails folder (TrailPath).
	Source string `json:"source"`
	// SourceSHA256 is the hex SHA-256 of the trail file as the run read it.
	SourceSHA256 string `json:"sourceSHA256"`
	// HealedSHA256 is the hex SHA-256 of healed.trail.yaml.
	HealedSHA256 string `json:"healedSHA256"`
	// Steps are the steps healed, in order.
	Steps []HealedStep `json:"steps"`
}

// A HealedStep is one step of a healed trail.
type HealedStep struct {
	// Step counts from 1.
	Step   int    `json:"step"`
	Intent string `json:"intent"`
	// Reason is the decision's sentence (the check that proved it).
	Reason string `json:"reason"`
	// Calls is the number of model requests the heal took.
	Calls int `json:"calls"`
}

// Digest is the hex SHA-256 a Record holds of a file's bytes.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// WriteHealed writes the healed trail of the trail with this slug into
// resultsDir (healed.trail.yaml and healed.json, atomically, the trail
// first) and returns the healed trail's path. rec's HealedSHA256 and
// Version are filled in. healed must load as a trail.
func WriteHealed(resultsDir, slug string, rec Record, healed []byte) (string, error) {
	if slug == "" || slug == "." || slug == ".." || strings.ContainsAny(slug, `/\`+"\x00") {
		return "", fmt.Errorf("writing the healed trail: %q is not a trail slug", slug)
	}
	if _, err := trail.LoadTrail(rec.Source, healed); err != nil {
		return "", fmt.Errorf("writing the healed trail of %s: it does not load:\n%w", slug, err)
	}
	rec.Version = RecordVersion
	rec.HealedSHA256 = Digest(healed)
	dir := filepath.Join(resultsDir, slug)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("writing the healed trail of %s: %w", slug, err)
	}
	path := filepath.Join(dir, HealedTrailFile)
	if err := atomicfile.WriteFile(path, healed, 0o644); err != nil {
		return "", fmt.Errorf("writing the healed trail of %s: %w", slug, err)
	}
	j, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return "", fmt.Errorf("writing the healed trail of %s: %w", slug, err)
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, HealedRecordFile), append(j, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("writing the healed trail of %s: %w", slug, err)
	}
	return path, nil
}

// RemoveHealed removes a healed trail an earlier run left in the trail's
// folder, so a run that heals nothing leaves nothing to accept.
func RemoveHealed(resultsDir, slug string) error {
	if slug == "" || slug == "." || slug == ".." || strings.ContainsAny(slug, `/\`+"\x00") {
		return fmt.Errorf("removing the healed trail: %q is not a trail slug", slug)
	}
	for _, name := range []string{HealedRecordFile, HealedTrailFile} {
		if err := os.Remove(filepath.Join(resultsDir, slug, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the old healed trail of %s: %w", slug, err)
		}
	}
	return nil
}

// A Healed is one healed trail read from a results folder.
type Healed struct {
	// Dir is its folder in the results folder.
	Dir    string
	Record Record
	// Trail is healed.trail.yaml.
	Trail []byte
}

// ErrNoResults is wrapped when the results folder does not exist or is not
// a folder.
var ErrNoResults = errors.New("no results folder")

// ErrBrokenHealed is wrapped for a healed trail whose files are missing,
// unreadable, or changed since the run wrote them.
var ErrBrokenHealed = errors.New("broken healed trail")

// ReadHealed reads every healed trail in resultsDir, sorted by folder. A
// folder with neither file is not one (a trace page only); a folder with
// one file of the two, a record that is not JSON or of another version, or
// a healed trail whose bytes are not those the record names is an error
// wrapping ErrBrokenHealed, and so is a healed trail that does not load.
// The other healed trails are returned beside the errors.
func ReadHealed(resultsDir string) ([]Healed, []error, error) {
	st, err := os.Stat(resultsDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("%w: %s does not exist: give the folder `host replay --results` wrote (trailpin-results unless it was set), downloaded from CI if the run was there", ErrNoResults, resultsDir)
	case err != nil:
		return nil, nil, fmt.Errorf("%w: %v", ErrNoResults, err)
	case !st.IsDir():
		return nil, nil, fmt.Errorf("%w: %s is a file, not a folder: give the folder `host replay --results` wrote (unpack it first if it is an archive)", ErrNoResults, resultsDir)
	}
	entries, err := os.ReadDir(resultsDir)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrNoResults, err)
	}
	var out []Healed
	var problems []error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(resultsDir, e.Name())
		h, err := readHealedDir(dir)
		switch {
		case err != nil:
			problems = append(problems, err)
		case h != nil:
			out = append(out, *h)
		}
	}
	slices.SortFunc(out, func(a, b Healed) int { return strings.Compare(a.Dir, b.Dir) })
	return out, problems, nil
}

func readHealedDir(dir string) (*Healed, error) {
	recPath, trailPath := filepath.Join(dir, HealedRecordFile), filepath.Join(dir, HealedTrailFile)
	recBytes, recErr := os.ReadFile(recPath)
	trailBytes, trailErr := os.ReadFile(trailPath)
	switch {
	case errors.Is(recErr, fs.ErrNotExist) && errors.Is(trailErr, fs.ErrNotExist):
		return nil, nil
	case recErr != nil:
		return nil, fmt.Errorf("%w: %s: %v (copy the whole results folder from the run)", ErrBrokenHealed, dir, recErr)
	case trailErr != nil:
		return nil, fmt.Errorf("%w: %s: %v (copy the whole results folder from the run)", ErrBrokenHealed, dir, trailErr)
	}
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(recBytes))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return nil, fmt.Errorf("%w: %s is not a healed-trail record: %v", ErrBrokenHealed, recPath, err)
	}
	switch {
	case rec.Version != RecordVersion:
		return nil, fmt.Errorf("%w: %s has version %d; this host reads version %d: accept it with the host that ran the trails", ErrBrokenHealed, recPath, rec.Version, RecordVersion)
	case rec.Source == "" || len(rec.SourceSHA256) != sha256.Size*2 || len(rec.Steps) == 0:
		return nil, fmt.Errorf("%w: %s does not name its trail file, its digest and its steps", ErrBrokenHealed, recPath)
	case Digest(trailBytes) != rec.HealedSHA256:
		return nil, fmt.Errorf("%w: %s is not the file the run wrote (its SHA-256 differs from %s): copy the results folder again, or run the trail again", ErrBrokenHealed, trailPath, HealedRecordFile)
	}
	if _, err := trail.LoadTrail(trailPath, trailBytes); err != nil {
		return nil, fmt.Errorf("%w: %s does not load:\n%v", ErrBrokenHealed, trailPath, err)
	}
	return &Healed{Dir: dir, Record: rec, Trail: trailBytes}, nil
}
