package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// An indexUse is one selector of a recorded trail that falls back to an
// index (in itself or its scope): where it is and what it was made for.
type indexUse struct {
	step  int    // from 1
	where string // the action's kind, end.shows or end.values
	sel   selector.Selector
}

// indexUses lists the index selectors of a trail, actions and end states.
func indexUses(tr *trail.Trail) []indexUse {
	var out []indexUse
	add := func(step int, where string, sel selector.Selector) {
		if hasIndex(sel) {
			out = append(out, indexUse{step, where, sel})
		}
	}
	for i, st := range tr.Steps {
		for _, a := range st.Actions {
			if sel, ok := actionSelector(a); ok {
				add(i+1, string(a.Kind()), sel)
			}
		}
		if st.End != nil {
			for _, sel := range st.End.Shows {
				add(i+1, "end.shows", sel)
			}
			for _, v := range st.End.Values {
				add(i+1, "end.values", v.Selector)
			}
		}
	}
	return out
}

func hasIndex(sel selector.Selector) bool {
	for s := &sel; s != nil; s = s.Within {
		if s.Index != nil {
			return true
		}
	}
	return false
}

// purposeOf is what the recorder generates a selector for, by where it
// stands and the role of the element it names (recorder/steps: a value
// check names a drop-down as the step choosing in it does, an end value
// names its control as the step acting on it does).
func purposeOf(where, role string) selector.Purpose {
	choice := role == "combobox" || role == "listbox"
	switch where {
	case string(trail.ActionType), string(trail.ActionSet):
		return selector.PurposeType
	case string(trail.ActionSelect):
		return selector.PurposeSelect
	case string(trail.ActionAssertValue):
		if choice {
			return selector.PurposeSelect
		}
		return selector.PurposeAssert
	case string(trail.ActionAssertVisible), string(trail.ActionAssertState), "end.shows":
		return selector.PurposeAssert
	case "end.values":
		switch {
		case choice:
			return selector.PurposeSelect
		case role == "textbox" || role == "searchbox" || role == "spinbutton" || role == "slider":
			return selector.PurposeType
		}
	}
	return selector.PurposeTap
}

// A recordedScreen is a screen the recording captured before one
// interaction, and the element that interaction was aimed at.
type recordedScreen struct {
	seq    int64
	ref    string
	screen *screen.Screen
}

// recordedScreens reads the screens of the recording the trail was saved
// from, out of the host's database.
func recordedScreens(t *testing.T, rec *pageRecording) []recordedScreen {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(rec.rig.b.DataDir, "trailpin.db"))
	if err != nil {
		t.Fatalf("opening the recording's database: %v", err)
	}
	defer db.Close()
	v, err := db.Trail(ctx, trail.Slug(rec.trail.Title))
	if err != nil {
		t.Fatalf("the saved trail in the database: %v", err)
	}
	list, err := db.Interactions(ctx, v.SessionID)
	if err != nil {
		t.Fatalf("the recording's interactions: %v", err)
	}
	screens := map[storage.ScreenHash]*screen.Screen{}
	var out []recordedScreen
	for _, in := range list {
		if in.Screen.IsZero() {
			continue
		}
		s, ok := screens[in.Screen]
		if !ok {
			if s, err = db.Screen(ctx, in.Screen); err != nil {
				t.Fatalf("screen of interaction %d: %v", in.Seq, err)
			}
			screens[in.Screen] = s
		}
		var p struct {
			Ref string `json:"ref"`
		}
		_ = json.Unmarshal(in.Payload, &p)
		out = append(out, recordedScreen{seq: in.Seq, ref: p.Ref, screen: s})
	}
	if len(out) == 0 {
		t.Fatalf("the recording of %q stored no screen", rec.trail.Title)
	}
	return out
}

// indexesWithAlternatives checks each index selector of the recorded trail
// against the screens it was recorded on: the screens of the interactions
// aimed at the element it names (for an end state, every screen it names
// an element on). Where the generator lists a selector without an index
// that names the same element alone, the index was not needed, and that is
// returned as a problem. The index selectors no screen offers an
// alternative for are returned as kept, with the reason.
func indexesWithAlternatives(t *testing.T, rec *pageRecording) (problems, kept []string) {
	t.Helper()
	uses := indexUses(rec.trail)
	if len(uses) == 0 {
		return nil, nil
	}
	screens := recordedScreens(t, rec)
	for _, u := range uses {
		type hit struct {
			rs      recordedScreen
			ref     string
			purpose selector.Purpose
		}
		var aimed, any []hit
		for _, rs := range screens {
			got, err := selector.Match(rs.screen, u.sel)
			if err != nil || len(got) != 1 {
				continue
			}
			h := hit{rs, got[0].Ref, purposeOf(u.where, got[0].Role)}
			any = append(any, h)
			if rs.ref != "" {
				if target, err := selector.Retarget(h.purpose, rs.ref, rs.screen); err == nil && target == h.ref {
					aimed = append(aimed, h)
				}
			}
		}
		hits := aimed
		if len(hits) == 0 {
			hits = any
		}
		if len(hits) == 0 {
			problems = append(problems, fmt.Sprintf("step %d %s %s names nothing on any recorded screen", u.step, u.where, u.sel))
			continue
		}
		alt := ""
		for _, h := range hits {
			menu, err := selector.Candidates(h.purpose, h.ref, []*screen.Screen{h.rs.screen}, nil)
			if err != nil {
				continue
			}
			for _, c := range menu {
				if !hasIndex(c.Selector) {
					alt = fmt.Sprintf("%s names %s alone on the screen before interaction %d", c.Selector, h.ref, h.rs.seq)
					break
				}
			}
			if alt != "" {
				break
			}
		}
		if alt != "" {
			problems = append(problems, fmt.Sprintf("step %d %s %s: %s", u.step, u.where, u.sel, alt))
		} else {
			kept = append(kept, fmt.Sprintf("step %d %s %s: no selector without an index names it alone on the %d screens it was recorded on", u.step, u.where, u.sel, len(hits)))
		}
	}
	return problems, kept
}
