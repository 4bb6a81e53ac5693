package suite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/storage"
)

// A HealKeeper writes what the verified heals of a run become (docs/agent.md):
// in read-write mode the trail file's healed steps are rewritten in place
// (and the trail gets a new version in the database when there is one); in
// read-only mode the healed trail goes to the results folder for `host
// accept`. Nothing it writes holds a secret value.
type HealKeeper struct {
	// ProjectDir is the folder of trailpin.yaml: healed records name their
	// trail file relative to it. "" without a project.
	ProjectDir string
	// Secrets returns the secret values the trail can reach; none may be in
	// a file written. Nil when there are none.
	Secrets func(*trail.Trail) []string
	// DB is where a saved heal becomes a new trail version; nil without a
	// database (CI).
	DB *storage.DB

	// saved holds what this run wrote into each trail file, so that a
	// retry of the trail, which replays the recording it loaded, does not
	// take the healed file for one a person changed.
	mu    sync.Mutex
	saved map[string][]byte

	// beforeWrite, when set (tests), runs between reading a trail file and
	// writing its heal: where another run or an editor may save it.
	beforeWrite func(file string)
}

// healWrites is how many times a heal is made again from a trail file that
// another run or an editor saved while it was being written, before the
// run gives up and says so: each time is a save that landed in the few
// milliseconds between a read and a write.
const healWrites = 3

// Keep decides and writes what becomes of the saveable heals of one
// attempt (replay.Heal.Saveable with no Decision yet), setting each one's
// Decision and Reason. It is never called for a cancelled run.
func (k *HealKeeper) Keep(ctx context.Context, st Trail, res *replay.TrailResult, mode, results string) {
	if mode == heal.ModeReadOnly && res.Attempt <= 1 {
		// A healed trail from an earlier run is not this run's to accept.
		_ = heal.RemoveHealed(results, st.Slug)
	}
	var todo []int
	for i := range res.Steps {
		h := res.Steps[i].Heal
		if !h.Saveable() || h.Decision != "" || i >= len(st.Trail.Steps) {
			continue
		}
		d := heal.Decide(healFacts(res.Steps[i]), mode)
		h.Decision, h.Reason = string(d.Action), d.Reason
		if d.Action == heal.Saved || (d.Action == heal.Reported && mode == heal.ModeReadOnly) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return
	}
	notWritten := func(why string) {
		for _, i := range todo {
			h := res.Steps[i].Heal
			h.Decision, h.Reason = replay.HealDropped, "not written: "+why
		}
	}
	healed, src, err := k.healedTrail(st, res, todo)
	if err != nil {
		notWritten(err.Error())
		return
	}
	switch mode {
	case heal.ModeReadWrite:
		k.save(ctx, st, res, todo, healed, src)
	case heal.ModeReadOnly:
		if st.Trail.File == "" {
			k.appendReason(res, todo, "; a trail from the database has no file to heal in the results folder")
			return
		}
		rec := heal.Record{Title: st.Trail.Title, Source: k.recordPath(st.Trail.File), SourceSHA256: heal.Digest(src)}
		for _, i := range todo {
			sr := res.Steps[i]
			rec.Steps = append(rec.Steps, heal.HealedStep{Step: sr.Index, Intent: sr.Intent,
				Reason: "healed by the agent (" + sr.Heal.Summary + "); the check after it passed (" + sr.Heal.Check + ")", Calls: sr.Heal.Calls})
		}
		path, err := heal.WriteHealed(results, st.Slug, rec, healed)
		if err != nil {
			notWritten(err.Error())
			return
		}
		k.appendReason(res, todo, " (written to "+path+")")
	}
}

// healFacts are the facts of the decision in a step's result.
func healFacts(sr replay.StepResult) heal.Facts {
	h := sr.Heal
	return heal.Facts{
		ModelAnswered: h.Verdict != string(agent.VerdictModelError),
		Verdict:       h.Verdict, Reason: h.Summary,
		StepPassed: sr.Status == replay.StatusHealed || sr.Status == replay.StatusPassed,
		Stopped:    string(h.Stopped), Actions: h.Actions, CheckPassed: h.Check,
	}
}

// healedTrail returns the trail file (or, for a trail from the database,
// its canonical YAML) with the recordings of the steps todo replaced, and
// the bytes it was made from. The file must still hold the trail the run
// replayed.
func (k *HealKeeper) healedTrail(st Trail, res *replay.TrailResult, todo []int) (healed, src []byte, err error) {
	file := st.Trail.File
	if file == "" {
		t := *st.Trail
		t.Steps = append([]trail.Step(nil), t.Steps...)
		for _, i := range todo {
			t.Steps[i].Actions, t.Steps[i].Key = res.Steps[i].Heal.Actions, healKey(t.Steps[i], res.Steps[i].Heal)
		}
		out, err := trail.MarshalTrail(&t)
		return out, nil, err
	}
	src, err = storage.ReadTrailBytes(file)
	if err != nil {
		return nil, nil, err
	}
	if k.savedEarlier(file, src) {
		return nil, nil, fmt.Errorf("an earlier attempt of this run saved its heal in %s; a step is healed once per run", file)
	}
	// Another run may have healed other steps of the file meanwhile, or a
	// person changed them: the heal goes in beside their change. Anything
	// else changed means the heal was made for another trail.
	ours := func(i int) bool { return slices.Contains(todo, i) }
	if now, err := trail.LoadTrail(file, src); err != nil || heal.OnlyRecordingsChanged(st.Trail, now, func(i int) bool { return !ours(i) }) != nil {
		return nil, nil, fmt.Errorf("%s changed while the trail ran: run it again to heal the file as it is now", file)
	}
	healed = src
	for _, i := range todo {
		step := st.Trail.Steps[i]
		rec := trail.Recording{Actions: res.Steps[i].Heal.Actions, End: step.End, Key: healKey(step, res.Steps[i].Heal)}
		if healed, err = trail.ReplaceRecording(file, healed, i, rec); err != nil {
			return nil, nil, err
		}
	}
	t, err := trail.LoadTrail(file, healed)
	if err != nil {
		return nil, nil, err
	}
	if k.Secrets != nil {
		if err := trail.CheckNoSecrets(t, k.Secrets(st.Trail)); err != nil {
			return nil, nil, err
		}
	}
	return healed, src, nil
}

// savedEarlier reports whether src is what this run saved into file.
func (k *HealKeeper) savedEarlier(file string, src []byte) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	w, ok := k.saved[file]
	return ok && bytes.Equal(w, src)
}

// healKey is the key a healed step's recording is saved with.
func healKey(s trail.Step, h *replay.Heal) string {
	config := h.ConfigKey
	if config == "" {
		config = agent.ConfigKey()
	}
	return trail.StepKey(s, config)
}

// save writes a read-write run's heals: the trail file, then a new version
// in the database. src are the bytes of the trail file healed was made from.
func (k *HealKeeper) save(ctx context.Context, st Trail, res *replay.TrailResult, todo []int, healed, src []byte) {
	if file := st.Trail.File; file != "" {
		var err error
		if healed, err = k.writeTrailFile(st, res, todo, healed, src); err != nil {
			for _, i := range todo {
				res.Steps[i].Heal.Decision, res.Steps[i].Heal.Reason = replay.HealDropped, "not written: "+err.Error()
			}
			return
		}
		k.mu.Lock()
		if k.saved == nil {
			k.saved = map[string][]byte{}
		}
		k.saved[file] = healed
		k.mu.Unlock()
		k.appendReason(res, todo, "; "+file+" rewritten")
	}
	if k.DB == nil {
		if st.Trail.File == "" {
			for _, i := range todo {
				res.Steps[i].Heal.Decision, res.Steps[i].Heal.Reason = replay.HealDropped, "not written: the trail is in no file and there is no database"
			}
		}
		return
	}
	v, err := SaveTrailVersion(ctx, k.DB, st.Trail.File, st.Slug, healed)
	if err != nil {
		k.appendReason(res, todo, "; no new version in the database: "+err.Error())
		return
	}
	k.appendReason(res, todo, fmt.Sprintf("; trail %s version %d in the database", v.Slug, v.Version))
}

// writeTrailFile writes healed into the trail file only while the file
// still holds src, the bytes it was made from, and returns what it wrote.
// When another run or an editor saved the file in between, the heal is
// made again from the file as it is now (keeping their change) and
// written again; when it cannot be, nothing is written and the error says
// why.
func (k *HealKeeper) writeTrailFile(st Trail, res *replay.TrailResult, todo []int, healed, src []byte) ([]byte, error) {
	file := st.Trail.File
	for attempt := 1; ; attempt++ {
		if k.beforeWrite != nil {
			k.beforeWrite(file)
		}
		err := storage.ReplaceTrailFileIfUnchanged(file, src, healed)
		switch {
		case err == nil:
			return healed, nil
		case !errors.Is(err, storage.ErrTrailFileChanged):
			return nil, err
		case attempt == healWrites:
			return nil, fmt.Errorf("%s changed since the heal read it, %d times (other runs or an editor saving it): run the trail again", file, attempt)
		}
		if healed, src, err = k.healedTrail(st, res, todo); err != nil {
			return nil, fmt.Errorf("%s changed since the heal read it (another run or an editor saved it), and the heal cannot go into it as it is now: %w", file, err)
		}
	}
}

// SaveTrailVersion stores a healed trail as the next version of its trail:
// the trail its file names (as host import does), or slug for a trail from
// the database.
func SaveTrailVersion(ctx context.Context, db *storage.DB, file, slug string, healed []byte) (storage.TrailVersion, error) {
	t, err := trail.LoadTrail(file, healed)
	if err != nil {
		return storage.TrailVersion{}, err
	}
	if file != "" {
		if slug, err = storage.TrailFileSlug(file, t.Title); err != nil {
			return storage.TrailVersion{}, err
		}
	}
	content, err := trail.MarshalTrail(t)
	if err != nil {
		return storage.TrailVersion{}, err
	}
	return db.SaveTrail(ctx, storage.TrailInput{Slug: slug, Title: t.Title, App: t.App, Content: content})
}

func (k *HealKeeper) appendReason(res *replay.TrailResult, todo []int, more string) {
	for _, i := range todo {
		res.Steps[i].Heal.Reason += more
	}
}

// recordPath is how a healed record names its trail file: relative to the
// project's folder, with forward slashes (with `..` for a trails folder
// beside the project), which is the only form `host accept` takes.
func (k *HealKeeper) recordPath(file string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	if k.ProjectDir != "" {
		dir, _ := filepath.Abs(k.ProjectDir)
		if rel, err := filepath.Rel(dir, abs); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return abs
}
