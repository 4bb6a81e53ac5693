// Package suitetest holds a run that healed a hand-kept trail: what the
// tests of heal keeping (replay/suite) and of host accept start from.
package suitetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
)

// DiscountTrail is a trail kept by hand whose Apply button became Redeem.
const DiscountTrail = `# Checkout, kept by hand.
version: 1
trail: Apply a discount
app: shop
start: /checkout
steps:
  # The code comes first.
  - intent: Apply the discount code SUMMER
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - tap: {selector: {role: button, name: Apply}}   # renamed since
  - intent: The total shows 10% off   # the check that proves a heal
    actions:
      - assertVisible: {selector: {role: status, text: 10% off}}
`

// HealedRun is the discount trail loaded from file, and the result of an
// attempt whose first step the agent healed by tapping Redeem, with the
// check after it passed.
func HealedRun(file string) (*trail.Trail, *replay.TrailResult) {
	t, err := trail.LoadTrail(file, []byte(DiscountTrail))
	if err != nil {
		panic(err)
	}
	h := &replay.Heal{Cache: replay.CacheHandOff, Stopped: replay.StopTargetNotFound, Replayed: 1, Verdict: string(agent.VerdictDone),
		Summary: "tapped Redeem", Check: "assertVisible (line 15)", ConfigKey: agent.ConfigKey(), Calls: 2,
		Actions: []trail.Action{
			trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Discount code"}, Text: "SUMMER"},
			trail.Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}},
		}}
	res := &replay.TrailResult{File: file, Slug: "apply-a-discount", Title: t.Title, Attempt: 1, Status: replay.StatusHealed,
		Steps: []replay.StepResult{
			{Index: 1, Intent: t.Steps[0].Intent, Status: replay.StatusHealed, Cache: replay.CacheHandOff, Heal: h},
			{Index: 2, Intent: t.Steps[1].Intent, Status: replay.StatusPassed, Cache: replay.CacheHit},
		}}
	return t, res
}

// WriteDiscountTrail writes the discount trail to dir/trails and returns
// its path.
func WriteDiscountTrail(t testing.TB, dir string) string {
	t.Helper()
	file := filepath.Join(dir, "trails", "apply-a-discount.trail.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(DiscountTrail), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// WantHealedFile checks a healed discount trail: step 1 taps Redeem and has
// its key, everything else is the bytes it was.
func WantHealedFile(t testing.TB, got []byte) {
	t.Helper()
	want := strings.Replace(DiscountTrail,
		"      - tap: {selector: {role: button, name: Apply}}   # renamed since\n",
		"      - tap: {selector: {role: button, name: Redeem}}\n    key: "+trail.StepKey(trail.Step{Intent: "Apply the discount code SUMMER"}, agent.ConfigKey())+"\n", 1)
	if string(got) != want {
		t.Errorf("healed trail file =\n%s\nwant\n%s", got, want)
	}
}
