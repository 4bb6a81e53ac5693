package recording

import (
	"context"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/review"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
)

// The review's dataset is built from recordings (docs/review.md, "The
// dataset"): each step of a saved trail's session that the review would
// ask about, with the recorder's own choice and the screens the review
// builds its menu from, for a person to label.

// A DatasetStep is one reviewable step of a recorded session: what the
// review's menu is built from, and the menu.
type DatasetStep struct {
	// Step and Action index the step and the action in the steps the
	// session builds.
	Step, Action int
	Intent       string
	Kind         trail.ActionKind
	// Recorded is the recorder's choice, before any review picked another.
	Recorded selector.Selector
	// Ref is the element on Screens; Screens are the step's own screen
	// first, then every other stored screen of the same document.
	Ref     string
	Screens []*screen.Screen
	Menu    *review.Menu
}

// DatasetSteps lists the reviewable steps of the session a saved trail
// (slug, id or title) was recorded in: the steps are built again from the
// stored interactions, so each holds the recorder's choice even where a
// review at save picked another; a step whose menu has one option is left
// out, as the review leaves it out. The session's project folder need not
// exist any more.
func (r *Service) DatasetSteps(ctx context.Context, ref string) (_ []DatasetStep, err error) {
	defer r.explainDamage(&err)
	db, err := r.database(ctx)
	if err != nil {
		return nil, err
	}
	v, err := db.Trail(ctx, ref)
	if err != nil {
		return nil, StorageError(err)
	}
	if v.SessionID == "" {
		return nil, invalid("trail %s was not recorded into this database (it was imported): no screens of its recording are stored", v.Slug)
	}
	sess, err := db.Session(ctx, v.SessionID)
	if err != nil {
		return nil, invalid("trail %s: its recording session %s is gone, with its screens: %v", v.Slug, v.SessionID, err)
	}
	origin, err := config.OriginOf(sess.StartURL)
	if err != nil {
		return nil, invalid("the recording's start URL: %v", err)
	}
	recs, err := r.storedInteractions(ctx, db, sess.ID)
	if err != nil {
		return nil, err
	}
	built, err := steps.BuildSteps(recs, nil, steps.BuildOptions{BaseURL: origin})
	if err != nil {
		return nil, invalid("building the steps of session %s: %v", sess.ID, err)
	}
	caps, all := capturesOf(recs, nil)
	var out []DatasetStep
	for _, tg := range locate(built.Steps, caps) {
		screens := []*screen.Screen{tg.screen}
		for _, s := range all {
			if s != tg.screen && sameDocument(s, tg.screen) {
				screens = append(screens, s)
			}
		}
		intent := built.Steps[tg.step].Intent
		m, err := review.BuildMenu(review.Step{Intent: intent, Action: tg.kind, Recorded: tg.sel, Target: tg.ref, Screens: screens})
		if err != nil || len(m.Options) < 2 {
			continue
		}
		out = append(out, DatasetStep{Step: tg.step, Action: tg.action, Intent: intent, Kind: tg.kind,
			Recorded: tg.sel, Ref: tg.ref, Screens: screens, Menu: m})
	}
	return out, nil
}
