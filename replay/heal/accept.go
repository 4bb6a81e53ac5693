package heal

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/trailpin/trailpin/recorder/trail"
)

// A results folder is outside input: a CI artifact, perhaps from a fork's
// pull request. What `host accept` takes from it is held to two rules
// (docs/ci.md): the file it names is a trail file inside the project's
// trails folder (TrailPath), and the healed trail differs from that file
// only in the recordings of the steps the record says were healed
// (CheckHealed).

// ErrNotATrailInTrails is wrapped when a healed record names a file that is
// not a trail file inside the trails folder.
var ErrNotATrailInTrails = errors.New("not a trail file inside the trails folder")

// ErrNotAHeal is wrapped when a healed trail changes more than the
// recordings of the steps its record names.
var ErrNotAHeal = errors.New("more than the healed steps' recordings changed")

// A refusal says why in its own words, and wraps the error of its kind.
type refusal struct {
	kind error
	why  string
}

func (r *refusal) Error() string { return r.why }
func (r *refusal) Unwrap() error { return r.kind }

// TrailPath returns the file a healed record's Source names on this
// machine: Source is relative to projectDir (the folder of trailpin.yaml).
// It is refused, with an error wrapping ErrNotATrailInTrails that says why,
// when it is absolute, when it is not named *.trail.yaml, or when it lies
// outside trailsDir once `..` and symbolic links (of the folders and of
// the file itself) are resolved. A file that does not exist is not refused
// here: reading it says so.
func TrailPath(projectDir, trailsDir, source string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &refusal{ErrNotATrailInTrails, fmt.Sprintf(format, args...)}
	}
	name := filepath.FromSlash(source)
	if filepath.IsAbs(name) || filepath.VolumeName(name) != "" || strings.HasPrefix(source, "/") {
		return refuse("the results folder names the trail file by an absolute path, %q; accept writes only trail files inside the trails folder %s, named relative to the project", source, trailsDir)
	}
	path := filepath.Join(projectDir, name)
	if !strings.HasSuffix(filepath.Base(path), trail.TrailFileExt) {
		return refuse("the results folder names %q, which is not a trail file (*%s)", source, trail.TrailFileExt)
	}
	folder, err := filepath.EvalSymlinks(trailsDir)
	if err != nil {
		return refuse("the trails folder %s: %v", trailsDir, err)
	}
	resolved, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return refuse("%q is a symbolic link to a file that does not exist", source)
		}
		// The file is missing: where it would be is its folder, resolved,
		// and its name.
		dir, derr := filepath.EvalSymlinks(filepath.Dir(path))
		if derr != nil {
			dir = filepath.Dir(path)
		}
		resolved, err = filepath.Join(dir, filepath.Base(path)), nil
	}
	if err != nil {
		return refuse("%s: %v", path, err)
	}
	if !inside(folder, resolved) {
		if resolved != path {
			return refuse("%q is %s, outside the trails folder %s", source, resolved, trailsDir)
		}
		return refuse("%q is outside the trails folder %s", source, trailsDir)
	}
	if !strings.HasSuffix(filepath.Base(resolved), trail.TrailFileExt) {
		return refuse("%q is a link to %s, which is not a trail file (*%s)", source, resolved, trail.TrailFileExt)
	}
	return path, nil
}

// inside reports whether path lies in folder (both absolute or both
// relative, resolved).
func inside(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != "." && rel != ".." && !filepath.IsAbs(rel) &&
		!strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// CheckHealed returns nil when healed is current with only the recordings
// (actions, end and key) of steps replaced, each healed step keeping at
// least one action; otherwise an error wrapping ErrNotAHeal that names the
// first difference. steps are the record's healed steps, counted from 1.
func CheckHealed(current, healed *trail.Trail, steps []HealedStep) error {
	set := map[int]bool{}
	for _, s := range steps {
		switch {
		case s.Step < 1 || s.Step > len(current.Steps):
			return &refusal{ErrNotAHeal, fmt.Sprintf("the record names step %d as healed, and the trail file has %d steps", s.Step, len(current.Steps))}
		case set[s.Step-1]:
			return &refusal{ErrNotAHeal, fmt.Sprintf("the record names step %d twice", s.Step)}
		}
		set[s.Step-1] = true
	}
	if err := OnlyRecordingsChanged(current, healed, func(i int) bool { return set[i] }); err != nil {
		return err
	}
	for _, s := range steps {
		if len(healed.Steps[s.Step-1].Actions) == 0 {
			return &refusal{ErrNotAHeal, stepName(current, s.Step-1) + ": the healed step has no actions"}
		}
	}
	return nil
}

// OnlyRecordingsChanged returns nil when after is before with, at most, the
// recordings (actions, end and key) of the steps mayChange names (counted
// from 0) replaced. Otherwise its error wraps ErrNotAHeal and names the
// first difference: a field of the trail (title, app, start, params, …),
// the number of steps, or a field of a step. Positions (lines, the file's
// name) and the file's layout and comments are not compared.
func OnlyRecordingsChanged(before, after *trail.Trail, mayChange func(step int) bool) error {
	differ := func(format string, args ...any) error {
		return &refusal{ErrNotAHeal, fmt.Sprintf(format, args...)}
	}
	for _, f := range []struct {
		name string
		a, b any
	}{
		{"version", before.Version, after.Version},
		{"title (trail:)", before.Title, after.Title},
		{"app", before.App, after.App},
		{"start", before.Start, after.Start},
		{"viewport", before.Viewport, after.Viewport},
		{"locale", before.Locale, after.Locale},
		{"timeZone", before.TimeZone, after.TimeZone},
	} {
		if f.a != f.b {
			return differ("the trail's %s changed from %q to %q", f.name, fmt.Sprint(f.a), fmt.Sprint(f.b))
		}
	}
	if !maps.Equal(before.Params, after.Params) {
		return differ("the trail's params changed")
	}
	headBefore, headAfter := *before, *after
	headBefore.Steps, headAfter.Steps = nil, nil
	if !headBefore.Equal(&headAfter) {
		return differ("the trail's fields before its steps changed")
	}
	if len(before.Steps) != len(after.Steps) {
		return differ("the trail file has %d steps and the healed trail %d: a heal never adds or removes a step", len(before.Steps), len(after.Steps))
	}
	for i := range before.Steps {
		a, b := before.Steps[i], after.Steps[i]
		healed := mayChange(i)
		for _, f := range []struct {
			name    string
			changed bool
		}{
			{"intent", a.Intent != b.Intent},
			{"by", a.By != b.By},
			{"client", a.Client != b.Client},
			{"act", a.Act != b.Act},
			{"actions", !healed && !sameStep(trail.Step{Actions: a.Actions}, trail.Step{Actions: b.Actions})},
			{"end", !healed && !sameStep(trail.Step{End: a.End}, trail.Step{End: b.End})},
			{"key", !healed && a.Key != b.Key},
		} {
			if f.changed {
				return differ("%s: its %s changed%s", stepName(before, i), f.name, notHealed(healed))
			}
		}
		if healed {
			a.Actions, a.End, a.Key = nil, nil, ""
			b.Actions, b.End, b.Key = nil, nil, ""
		}
		if !sameStep(a, b) {
			return differ("%s changed%s", stepName(before, i), notHealed(healed))
		}
	}
	return nil
}

// sameStep compares two steps as Trail.Equal does (positions ignored).
func sameStep(a, b trail.Step) bool {
	return (&trail.Trail{Steps: []trail.Step{a}}).Equal(&trail.Trail{Steps: []trail.Step{b}})
}

func notHealed(healed bool) string {
	if healed {
		return " (a heal changes only a step's actions, end and key)"
	}
	return ", and it is not a step the run healed"
}

// stepName names step i (from 0) as a person finds it in the file.
func stepName(t *trail.Trail, i int) string {
	s := t.Steps[i]
	if s.Line > 0 {
		return fmt.Sprintf("step %d (%q, line %d)", i+1, s.Intent, s.Line)
	}
	return fmt.Sprintf("step %d (%q)", i+1, s.Intent)
}
