package suite

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/report"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// TestTrailOptionsCarryTheAppsOrigins: each trail's options name its own
// app's trusted origins (apps.<name>.origins), never another app's, and
// --base-url moves the app without widening them.
func TestTrailOptionsCarryTheAppsOrigins(t *testing.T) {
	s := &Options{
		Apps:    map[string]string{"shop": "http://localhost:3000", "admin": "http://localhost:3001"},
		Origins: map[string][]string{"shop": {"https://login.example.com"}},
	}
	shop := Trail{Trail: &trail.Trail{App: "shop"}, Slug: "buy"}
	admin := Trail{Trail: &trail.Trail{App: "admin"}, Slug: "ban"}
	for _, tt := range []struct {
		st      Trail
		flag    string
		base    string
		origins []string
	}{
		{shop, "", "http://localhost:3000", []string{"https://login.example.com"}},
		{admin, "", "http://localhost:3001", nil},
		{shop, "https://preview.example.com", "https://preview.example.com", []string{"https://login.example.com"}},
	} {
		s.BaseURL = tt.flag
		o := s.trailOptions(tt.st)
		if o.BaseURL != tt.base || !slices.Equal(o.Origins, tt.origins) || o.Slug != tt.st.Slug {
			t.Errorf("trailOptions(%s, %q) = base %q origins %v slug %q, want %q %v %q", tt.st.Trail.App, tt.flag, o.BaseURL, o.Origins, o.Slug, tt.base, tt.origins, tt.st.Slug)
		}
	}
}

// TestRetriesDoNotReplayAFlowThatBrokeTheRules: a retry replays the flows
// earlier attempts healed, with no model; a flow that left the app's
// origins, or was made while the agent was refused something, is not one
// of them.
func TestRetriesDoNotReplayAFlowThatBrokeTheRules(t *testing.T) {
	tap := []trail.Action{trail.Tap{}}
	res := &replay.TrailResult{Steps: []replay.StepResult{
		{Status: replay.StatusHealed, Heal: &replay.Heal{Actions: tap}},
		{Status: replay.StatusHealed, Heal: &replay.Heal{Actions: tap, OffOrigins: []string{"https://evil.example"}}},
		{Status: replay.StatusHealed, Heal: &replay.Heal{Actions: tap, Refused: []string{"Refused: ${secret:prod-db} was not offered"}}},
	}}
	var h healedFlows
	h.add("buy", res)
	got := h.of("buy")
	if _, ok := got[0]; !ok || len(got) != 1 {
		t.Errorf("flows kept for retries: steps %v, want only step 0", slices.Collect(maps.Keys(got)))
	}
}

// TestRunOfNoTrails: a suite with no trail (a shard that got none) passes
// without a browser, and tells its caller it finished.
func TestRunOfNoTrails(t *testing.T) {
	var finished int
	sum, err := Run(context.Background(), Options{Workers: 2, Events: Events{Finished: func(report.Run) { finished++ }}})
	if err != nil || sum.ExitCode() != exitcode.Passed || len(sum.Run.Trails) != 0 || finished != 1 {
		t.Errorf("Run(no trails) = exit %d, %d trails, %v, finished told %d times; want a pass, told once", sum.ExitCode(), len(sum.Run.Trails), err, finished)
	}
}
