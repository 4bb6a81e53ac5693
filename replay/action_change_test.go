package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// fixtureDiff diffs two screens the page model captured from the
// screendiff fixture pages (recorder/screendiff/testdata).
func fixtureDiff(t *testing.T, page string) (*screen.Screen, *screendiff.Result) {
	t.Helper()
	load := func(step string) *screen.Screen {
		data, err := os.ReadFile(filepath.Join("..", "recorder", "screendiff", "testdata", "screens", page+"."+step+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var s screen.Screen
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		return &s
	}
	before := load("before")
	res, err := screendiff.Diff(before, load("after"), screendiff.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return before, res
}

func sel(s selector.Selector) *selector.Selector { return &s }

var (
	menuButton = selector.Selector{Role: "button", Name: "Menu"}
	mainMenu   = selector.Selector{Role: "menu", Name: "Main"}
	yes, no    = true, false
)

// TestAssertChangeFailsLoud is the replay half of the fail-loud matrix:
// each spec that cannot be checked, or does not hold, gives pass: false
// with its reason, and a step error with its class. None passes.
func TestAssertChangeFailsLoud(t *testing.T) {
	_, menu := fixtureDiff(t, "menu")
	_, keyed := fixtureDiff(t, "keyed-list")
	_, nav := fixtureDiff(t, "soft-nav")
	observed := func(res *screendiff.Result) func() *assertchange.Store {
		return func() *assertchange.Store { s := &assertchange.Store{IDs: 1}; s.Add("d1", 8, nil, res); return s }
	}
	cases := []struct {
		name   string
		store  func() *assertchange.Store
		a      trail.AssertChange
		class  FailureClass
		reason string
	}{
		{"no observed action", func() *assertchange.Store { return &assertchange.Store{} }, trail.AssertChange{Changed: &yes},
			ClassMissingTestData, "NO_BASELINE: no baseline: the action right before this assertChange was not observed"},
		{"capture failed", func() *assertchange.Store {
			s := &assertchange.Store{}
			s.Fail("d1", "the page could not be captured before tap (line 8): gone")
			return s
		},
			trail.AssertChange{Changed: &yes}, ClassMissingTestData, "no baseline: the page could not be captured before tap (line 8)"},
		{"unknown id", observed(menu), trail.AssertChange{Changed: &yes, DiffID: "d9"}, ClassMissingTestData, "DIFF_UNAVAILABLE: diff d9 is unknown"},
		{"evicted id", func() *assertchange.Store {
			s := &assertchange.Store{IDs: assertchange.MaxStoredDiffs + 1}
			for i := range assertchange.MaxStoredDiffs + 1 {
				s.Add(fmt.Sprintf("d%d", i+1), 8, nil, menu)
			}
			return s
		}, trail.AssertChange{Changed: &yes, DiffID: "d1"}, ClassMissingTestData, "DIFF_UNAVAILABLE: diff d1 was evicted"},
		{"id of an action the agent performed", func() *assertchange.Store { return &assertchange.Store{IDs: 2} },
			trail.AssertChange{Changed: &yes, DiffID: "d2"}, ClassMissingTestData, "DIFF_UNAVAILABLE: diff d2 was not taken in this run"},
		{"my action did something", observed(menu), trail.AssertChange{Changed: &no}, ClassAppBug, `changed: false: 4 changes: state button "Menu" [e4]: expanded false → true; state checkbox "Accept the terms" [e6]`},
		{"my action did nothing", observed(&screendiff.Result{Changes: []screendiff.Change{}}), trail.AssertChange{Changed: &yes}, ClassAppBug, "changed: true: nothing changed"},
		{"wrong direction", observed(menu), trail.AssertChange{MustInclude: []trail.ChangeMatch{
			{Change: trail.ChangeState, Selector: sel(menuButton), To: []trail.ChangeTo{{Field: "expanded", Value: "false"}}}}},
			ClassAppBug, `mustInclude {change: state, selector: {role: button, name: Menu}, to: {expanded: false}}: not found among 4 changes`},
		{"ambiguous selector", observed(menu), trail.AssertChange{MustInclude: []trail.ChangeMatch{{Selector: sel(selector.Selector{Role: "menuitem"})}}},
			ClassAppBug, "{role: menuitem} is ambiguous: 3 visible elements match"},
		{"identity ambiguous", observed(keyed), trail.AssertChange{MustInclude: []trail.ChangeMatch{
			{Change: trail.ChangeAdded, Selector: sel(selector.Selector{Role: "listitem", Text: "Buy milk"})}}},
			ClassAppBug, "found through a possible replacement: identity ambiguous"},
		{"unexpected extra change", observed(menu), trail.AssertChange{Only: []trail.ChangeMatch{{Selector: sel(mainMenu)}, {Selector: sel(menuButton)}}},
			ClassAppBug, `2 change(s) match none of them: state checkbox "Accept the terms" [e6]: checked false → true; state group "Shipping" [e11]: disabled false → true`},
		{"side effect", observed(menu), trail.AssertChange{MustNotInclude: []trail.ChangeMatch{{Change: trail.ChangeState, Selector: sel(selector.Selector{Role: "checkbox"})}}},
			ClassAppBug, `found: state checkbox "Accept the terms"`},
		{"too many", observed(menu), trail.AssertChange{MaxChanges: new(2)}, ClassAppBug, "maxChanges: 2: 4 changes"},
		{"not covered", observed(menu), trail.AssertChange{BecameCovered: []selector.Selector{mainMenu}}, ClassAppBug, "no change made it covered: true"},
		{"navigated away", observed(nav), trail.AssertChange{MustInclude: []trail.ChangeMatch{{Change: trail.ChangeRemoved, Selector: sel(selector.Selector{Role: "article", Name: "Settings"})}}},
			ClassAppBug, "(the page moved from http://screendiff.test/soft-nav.html since the baseline)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := c.store().CheckStored(c.a)
			if ev.Pass {
				t.Fatalf("passes: %+v", ev)
			}
			se := changeFailed(c.a, ev)
			if se.Class != c.class || se.Reason != StopAssertionFailed || !strings.Contains(se.Msg, c.reason) {
				t.Errorf("error = %s %s %q\nwant %s with %q", se.Class, se.Reason, se.Msg, c.class, c.reason)
			}
			if ev.Error == nil && (se.Expected == "" || se.Actual == "") {
				t.Errorf("an app-bug without expected/actual: %+v", se)
			}
		})
	}
	// A live check without a baseline, or after one consumed it.
	r := &trailRun{}
	ev, err := r.liveChange(context.Background(), nil, trail.AssertChange{Exists: []selector.Selector{mainMenu}})
	if err != nil || ev.Pass || ev.Error == nil || ev.Error.Code != assertchange.ErrNoBaseline {
		t.Errorf("live without a baseline: %+v %v", ev, err)
	}
	r.changes.Add("d1", 8, nil, menu)
	r.changes.ConsumeBaseline()
	ev, _ = r.liveChange(context.Background(), nil, trail.AssertChange{Exists: []selector.Selector{mainMenu}})
	if ev.Pass || ev.Error == nil || !strings.Contains(ev.Error.Message, "a live assertChange before this one consumed it") {
		t.Errorf("live after a consumed baseline: %+v", ev)
	}
	if r.changes.CheckStored(trail.AssertChange{Changed: &yes}).Pass != true {
		t.Error("a consumed baseline took the stored diff with it")
	}
}
