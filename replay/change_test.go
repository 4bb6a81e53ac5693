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

func TestChangeStoreKeepsTheLastDiffs(t *testing.T) {
	s := changeStore{ids: 24}
	_, res := fixtureDiff(t, "menu")
	for i := range maxStoredDiffs + 4 {
		s.add(fmt.Sprintf("d%d", i+1), i+1, nil, res)
	}
	s.fail("d21", "the page could not be captured before tap (line 30): gone")
	if len(s.kept) != maxStoredDiffs || s.last != nil || s.missing == "" {
		t.Fatalf("kept %d, last %v", len(s.kept), s.last)
	}
	if d, err := s.lookup("d5"); err != nil || d.id != "d5" {
		t.Errorf("d5: %v %v", d, err)
	}
	for id, want := range map[string]string{
		"d4":  "diff d4 was evicted: a run keeps its last 16 diffs (d5 … d20 now)",
		"d1":  "diff d1 was evicted",
		"d21": "diff d21 was not taken: the page could not be captured before tap (line 30): gone",
		"d22": "diff d22 was not taken in this run: its action was not replayed",
		"d25": "diff d25 is unknown: the trail's observed actions have the ids d1 … d24",
		"d0":  "diff d0 is unknown",
		"x":   "diff x is unknown",
	} {
		if _, err := s.lookup(id); err == nil || err.Code != ErrDiffUnavailable || !strings.HasPrefix(err.Message, want) {
			t.Errorf("lookup(%s) = %+v, want %q", id, err, want)
		}
	}
	s.forget()
	if s.last != nil || s.baseline != nil {
		t.Error("forget kept a diff as the last")
	}
}

// TestAssertChangePassesOnTheMenuDiff checks the directional state and the
// menu on a real capture, and that every result carries its evidence.
func TestAssertChangePassesOnTheMenuDiff(t *testing.T) {
	var s changeStore
	before, res := fixtureDiff(t, "menu")
	s.add("d1", 8, before, res)
	a := trail.AssertChange{Changed: &yes,
		MustInclude: []trail.ChangeMatch{{Selector: sel(mainMenu)},
			{Change: trail.ChangeState, Selector: sel(menuButton), To: []trail.ChangeTo{{Field: "expanded", Value: "true"}}}},
		MustNotInclude: []trail.ChangeMatch{{Change: trail.ChangeRemoved}},
		BecameVisible:  []selector.Selector{mainMenu},
		MaxChanges:     new(4),
		Only: []trail.ChangeMatch{{Selector: sel(mainMenu)}, {Selector: sel(menuButton)},
			{Change: trail.ChangeState, Selector: sel(selector.Selector{Role: "checkbox"})}, {Selector: sel(selector.Selector{Role: "group"})}},
	}
	ev := checkStoredIn(&s, a)
	if !ev.Pass || ev.Source != EvidenceStored || ev.DiffID != "d1" || !ev.HasBaseline || len(ev.Checks) != 7 {
		t.Fatalf("evidence = %+v", ev)
	}
	if len(ev.Lines) != 4 || ev.Lines[0] != `state button "Menu" [e4]: expanded false → true` {
		t.Errorf("lines = %q", ev.Lines)
	}
	b, err := json.Marshal(ev)
	if err != nil || !strings.Contains(string(b), `"evidenceSource":"stored"`) || !strings.Contains(string(b), `"from":"false","to":"true"`) {
		t.Errorf("JSON %s %v", b, err)
	}
}

// TestAssertChangeFailsLoud is the replay half of the fail-loud matrix:
// each spec that cannot be checked, or does not hold, gives pass: false
// with its reason, and a step error with its class. None passes.
func TestAssertChangeFailsLoud(t *testing.T) {
	_, menu := fixtureDiff(t, "menu")
	_, keyed := fixtureDiff(t, "keyed-list")
	_, nav := fixtureDiff(t, "soft-nav")
	observed := func(res *screendiff.Result) func() *changeStore {
		return func() *changeStore { s := &changeStore{ids: 1}; s.add("d1", 8, nil, res); return s }
	}
	cases := []struct {
		name   string
		store  func() *changeStore
		a      trail.AssertChange
		class  FailureClass
		reason string
	}{
		{"no observed action", func() *changeStore { return &changeStore{} }, trail.AssertChange{Changed: &yes},
			ClassMissingTestData, "NO_BASELINE: no baseline: the action right before this assertChange was not observed"},
		{"capture failed", func() *changeStore {
			return &changeStore{missing: "the page could not be captured before tap (line 8): gone"}
		},
			trail.AssertChange{Changed: &yes}, ClassMissingTestData, "no baseline: the page could not be captured before tap (line 8)"},
		{"unknown id", observed(menu), trail.AssertChange{Changed: &yes, DiffID: "d9"}, ClassMissingTestData, "DIFF_UNAVAILABLE: diff d9 is unknown"},
		{"evicted id", func() *changeStore {
			s := &changeStore{ids: maxStoredDiffs + 1}
			for i := range maxStoredDiffs + 1 {
				s.add(fmt.Sprintf("d%d", i+1), 8, nil, menu)
			}
			return s
		}, trail.AssertChange{Changed: &yes, DiffID: "d1"}, ClassMissingTestData, "DIFF_UNAVAILABLE: diff d1 was evicted"},
		{"id of an action the agent performed", func() *changeStore { return &changeStore{ids: 2} },
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
			ev := checkStoredIn(c.store(), c.a)
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
	if err != nil || ev.Pass || ev.Error == nil || ev.Error.Code != ErrNoBaseline {
		t.Errorf("live without a baseline: %+v %v", ev, err)
	}
	r.changes.add("d1", 8, nil, menu)
	r.changes.baseline = nil
	ev, _ = r.liveChange(context.Background(), nil, trail.AssertChange{Exists: []selector.Selector{mainMenu}})
	if ev.Pass || ev.Error == nil || !strings.Contains(ev.Error.Message, "a live assertChange before this one consumed it") {
		t.Errorf("live after a consumed baseline: %+v", ev)
	}
	if checkStoredIn(&r.changes, trail.AssertChange{Changed: &yes}).Pass != true {
		t.Error("a consumed baseline took the stored diff with it")
	}
}

// TestLiveChecksReadTheScreen runs the live checks on a captured screen.
func TestLiveChecksReadTheScreen(t *testing.T) {
	_, res := fixtureDiff(t, "menu")
	var after *screen.Screen
	{
		data, _ := os.ReadFile(filepath.Join("..", "recorder", "screendiff", "testdata", "screens", "menu.after.json"))
		after = new(screen.Screen)
		if err := json.Unmarshal(data, after); err != nil {
			t.Fatal(err)
		}
	}
	ev := evidenceOf(EvidenceLive, "d1", res)
	checkLive(ev, after, "/menu.html", trail.AssertChange{URL: "/menu.html", Exists: []selector.Selector{mainMenu, {Role: "menuitem"}}, NotCovered: []selector.Selector{menuButton}})
	if !ev.Pass {
		t.Errorf("live checks fail: %+v", ev.Checks)
	}
	ev = evidenceOf(EvidenceLive, "d1", res)
	checkLive(ev, after, "/menu.html", trail.AssertChange{URL: "/other", Exists: []selector.Selector{{Role: "dialog"}}, NotCovered: []selector.Selector{mainMenu}})
	if ev.Pass || len(ev.failed()) != 3 {
		t.Errorf("live checks: %q", ev.failed())
	}
}

func TestChangesAtListsTheFirstFewInWords(t *testing.T) {
	res := &screendiff.Result{}
	var at []int
	for i := range listedChanges + 3 {
		res.Changes = append(res.Changes, screendiff.Change{Kind: screendiff.Added, After: &screendiff.NodeRef{Ref: fmt.Sprintf("e%d", i+1), Role: "listitem"}})
		at = append(at, i)
	}
	got := changesAt(res, at)
	if !strings.HasPrefix(got, "added listitem [e1]; added listitem [e2]") || !strings.HasSuffix(got, "; added listitem [e8]; and 3 more (the trace lists them all)") {
		t.Errorf("changesAt = %q", got)
	}
	if got := changesAt(res, at[:2]); got != "added listitem [e1]; added listitem [e2]" {
		t.Errorf("changesAt of two = %q", got)
	}
}
