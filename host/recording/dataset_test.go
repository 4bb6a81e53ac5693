package recording

import (
	"context"
	"testing"

	"github.com/trailpin/trailpin/recorder/review"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestDatasetStepsHoldTheRecordersChoice: the dataset's steps of a saved
// recording hold the recorder's own choice, even where the review at save
// picked another and the saved trail holds that; each step's menu is built
// again from its screens as the dataset's loader builds it.
func TestDatasetStepsHoldTheRecordersChoice(t *testing.T) {
	svc, _ := newTestService(t)
	ctx := context.Background()
	const session = "r-dataset"
	recordCheckout(t, svc, session, "assertVisible e15", "assertVisible e22", "click e5", "assertVisible e14")
	out, err := svc.Review(ctx, ReviewIn{Session: session, Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	pay := stepAt(out, 1)
	if pay == nil || pay.Options[pay.Pick-1].Recorded {
		t.Fatalf("the review at save keeps the recorder's choice for the Pay button: %+v", pay)
	}
	saved, err := svc.Save(ctx, SaveIn{Session: session, Title: "Checkout", Intents: checkoutIntents})
	if err != nil {
		t.Fatal(err)
	}
	list, err := svc.DatasetSteps(ctx, saved.Trail)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, s := range list {
		if s.Step != 1 {
			continue
		}
		found = true
		if got, want := s.Recorded.String(), pay.Options[0].Selector; got != want {
			t.Errorf("the dataset's Pay step holds %s, want the recorder's choice %s", got, want)
		}
		if s.Kind != trail.ActionAssertVisible || s.Ref == "" || len(s.Screens) == 0 {
			t.Errorf("the dataset's Pay step: kind %s, ref %q, %d screens", s.Kind, s.Ref, len(s.Screens))
		}
		m, err := review.BuildMenu(review.Step{Intent: s.Intent, Action: s.Kind, Recorded: s.Recorded, Target: s.Ref, Screens: s.Screens})
		if err != nil || len(m.Options) != len(s.Menu.Options) {
			t.Errorf("the menu built again from the step's screens differs: %v, %d options, want %d", err, len(m.Options), len(s.Menu.Options))
		}
	}
	if !found {
		t.Fatalf("the Pay step is not among the dataset's steps: %+v", list)
	}
}
