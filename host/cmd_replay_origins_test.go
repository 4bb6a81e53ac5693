package main

import (
	"maps"
	"slices"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
)

// TestTrailOptionsCarryTheAppsOrigins: each trail's options name its own
// app's trusted origins (apps.<name>.origins), never another app's, and
// --base-url moves the app without widening them.
func TestTrailOptionsCarryTheAppsOrigins(t *testing.T) {
	s := &replaySetup{
		apps:    map[string]string{"shop": "http://localhost:3000", "admin": "http://localhost:3001"},
		origins: map[string][]string{"shop": {"https://login.example.com"}},
	}
	shop := replay.SuiteTrail{Trail: &trail.Trail{App: "shop"}, Slug: "buy"}
	admin := replay.SuiteTrail{Trail: &trail.Trail{App: "admin"}, Slug: "ban"}
	for _, tt := range []struct {
		st      replay.SuiteTrail
		flag    string
		base    string
		origins []string
	}{
		{shop, "", "http://localhost:3000", []string{"https://login.example.com"}},
		{admin, "", "http://localhost:3001", nil},
		{shop, "https://preview.example.com", "https://preview.example.com", []string{"https://login.example.com"}},
	} {
		o := s.trailOptions(tt.st, tt.flag)
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
