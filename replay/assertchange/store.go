package assertchange

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/trail"
)

// MaxStoredDiffs is how many diffs a run keeps: enough for the checks a
// trail makes a few actions later, while the screens each holds (two
// whole pages) stay bounded on a long trail. Older ones are evicted.
const MaxStoredDiffs = 16

// A storedDiff is one observed action's diff.
type storedDiff struct {
	id     string
	line   int // the line of the action observed
	result *screendiff.Result
	before *screen.Screen
}

// A Store keeps a run's diffs (the last MaxStoredDiffs) and the
// baseline of the live checks. Ids belong to the trail's places
// (trail.DiffIDs), so an id names one action whatever replay skipped.
type Store struct {
	// IDs is how many ids the trail has (d1 … dN).
	IDs  int
	kept []*storedDiff
	// taken are the ids stored so far, evicted or not; failed, those whose
	// capture failed, with why.
	taken  map[string]bool
	failed map[string]string
	// last is the diff of the action right before the current
	// assertChange; nil when that action was not observed.
	last *storedDiff
	// baseline is the screen live checks diff against (last's before
	// screen) until a live check consumes it; nil then.
	baseline *storedDiff
	// missing says why the last observed action has no diff, when a
	// capture failed.
	missing string
}

// Add stores the diff of id, evicting the oldest past MaxStoredDiffs, and
// makes it the last one and the baseline.
func (s *Store) Add(id string, line int, before *screen.Screen, res *screendiff.Result) *storedDiff {
	if s.taken == nil {
		s.taken = map[string]bool{}
	}
	s.taken[id] = true
	d := &storedDiff{id: id, line: line, result: res, before: before}
	// An id is taken again when the agent takes over a step whose last
	// recorded action replay observed (an end-mismatch): the diff of the
	// agent's part replaces it.
	s.kept = slices.DeleteFunc(s.kept, func(k *storedDiff) bool { return k.id == id })
	s.kept = append(s.kept, d)
	if len(s.kept) > MaxStoredDiffs {
		s.kept[0] = nil
		s.kept = s.kept[1:]
	}
	s.last, s.baseline, s.missing = d, d, ""
	return d
}

// Fail records that the action of id could not be observed.
func (s *Store) Fail(id, why string) {
	s.Forget()
	if s.failed == nil {
		s.failed = map[string]string{}
	}
	s.failed[id] = why
	s.missing = why
}

// Forget says the action just played was not observed: an assertChange
// after it has no diff and no baseline.
func (s *Store) Forget() { s.last, s.baseline, s.missing = nil, nil, "" }

// lookup finds a stored diff by id, or says why the run does not hold it.
func (s *Store) lookup(id string) (*storedDiff, *Unchecked) {
	for _, d := range s.kept {
		if d.id == id {
			return d, nil
		}
	}
	unavailable := func(format string, args ...any) *Unchecked {
		return &Unchecked{Code: ErrDiffUnavailable, Message: fmt.Sprintf(format, args...)}
	}
	n, err := strconv.Atoi(strings.TrimPrefix(id, "d"))
	switch {
	case s.taken[id]:
		return nil, unavailable("diff %s was evicted: a run keeps its last %d diffs (%s now)", id, MaxStoredDiffs, s.keptIDs())
	case s.failed[id] != "":
		return nil, unavailable("diff %s was not taken: %s", id, s.failed[id])
	case strings.HasPrefix(id, "d") && err == nil && n >= 1 && n <= s.IDs:
		return nil, unavailable("diff %s was not taken in this run: its action was not replayed (the agent performed its step)", id)
	}
	return nil, unavailable("diff %s is unknown: the trail's observed actions have the ids d1 … d%d", id, s.IDs)
}

func (s *Store) keptIDs() string {
	if len(s.kept) == 0 {
		return "none"
	}
	return s.kept[0].id + " … " + s.kept[len(s.kept)-1].id
}

// CheckStored checks a's stored diff as the store holds it: the one
// a.DiffID names, or the last observed action's.
func (s *Store) CheckStored(a trail.AssertChange) *Evidence {
	d := s.last
	if a.DiffID != "" {
		var cerr *Unchecked
		if d, cerr = s.lookup(a.DiffID); cerr != nil {
			return unavailable(SourceStored, cerr)
		}
	}
	if d == nil {
		return unavailable(SourceStored, s.noBaseline())
	}
	ev := evidenceOf(SourceStored, d.id, d.result)
	checkStored(ev, d.result, a)
	return ev
}

// noBaseline says why there is no diff to check.
func (s *Store) noBaseline() *Unchecked {
	msg := "no baseline: the action right before this assertChange was not observed (it failed, or the agent did not reach the goal of its step)"
	if s.missing != "" {
		msg = "no baseline: " + s.missing
	}
	return &Unchecked{Code: ErrNoBaseline, Message: msg}
}

// Baseline is what a live check diffs the page against: the id of the
// last observed action's diff and the screen before it; or, when there is
// none, the evidence of a live check that had nothing to check.
func (s *Store) Baseline() (id string, before *screen.Screen, none *Evidence) {
	if s.baseline == nil {
		cerr := s.noBaseline()
		if s.last != nil {
			cerr.Message = "no baseline: a live assertChange before this one consumed it (give that one keepBaseline: true)"
		}
		return "", nil, unavailable(SourceLive, cerr)
	}
	return s.baseline.id, s.baseline.before, nil
}

// ConsumeBaseline says a live check read the baseline without
// keepBaseline: the next live check has none.
func (s *Store) ConsumeBaseline() { s.baseline = nil }
