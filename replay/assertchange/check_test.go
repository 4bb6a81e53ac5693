package assertchange

import (
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
		data, err := os.ReadFile(filepath.Join("..", "..", "recorder", "screendiff", "testdata", "screens", page+"."+step+".json"))
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
	s := Store{IDs: 24}
	_, res := fixtureDiff(t, "menu")
	for i := range MaxStoredDiffs + 4 {
		s.Add(fmt.Sprintf("d%d", i+1), i+1, nil, res)
	}
	s.Fail("d21", "the page could not be captured before tap (line 30): gone")
	if len(s.kept) != MaxStoredDiffs || s.last != nil || s.missing == "" {
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
	s.Forget()
	if s.last != nil || s.baseline != nil {
		t.Error("forget kept a diff as the last")
	}
}

// TestAssertChangePassesOnTheMenuDiff checks the directional state and the
// menu on a real capture, and that every result carries its evidence.
func TestAssertChangePassesOnTheMenuDiff(t *testing.T) {
	var s Store
	before, res := fixtureDiff(t, "menu")
	s.Add("d1", 8, before, res)
	a := trail.AssertChange{Changed: &yes,
		MustInclude: []trail.ChangeMatch{{Selector: sel(mainMenu)},
			{Change: trail.ChangeState, Selector: sel(menuButton), To: []trail.ChangeTo{{Field: "expanded", Value: "true"}}}},
		MustNotInclude: []trail.ChangeMatch{{Change: trail.ChangeRemoved}},
		BecameVisible:  []selector.Selector{mainMenu},
		MaxChanges:     new(4),
		Only: []trail.ChangeMatch{{Selector: sel(mainMenu)}, {Selector: sel(menuButton)},
			{Change: trail.ChangeState, Selector: sel(selector.Selector{Role: "checkbox"})}, {Selector: sel(selector.Selector{Role: "group"})}},
	}
	ev := s.CheckStored(a)
	if !ev.Pass || ev.Source != SourceStored || ev.DiffID != "d1" || !ev.HasBaseline || len(ev.Checks) != 7 {
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

// TestLiveChecksReadTheScreen runs the live checks on a captured screen.
func TestLiveChecksReadTheScreen(t *testing.T) {
	_, res := fixtureDiff(t, "menu")
	var after *screen.Screen
	{
		data, _ := os.ReadFile(filepath.Join("..", "..", "recorder", "screendiff", "testdata", "screens", "menu.after.json"))
		after = new(screen.Screen)
		if err := json.Unmarshal(data, after); err != nil {
			t.Fatal(err)
		}
	}
	ev := evidenceOf(SourceLive, "d1", res)
	checkLive(ev, after, "/menu.html", trail.AssertChange{URL: "/menu.html", Exists: []selector.Selector{mainMenu, {Role: "menuitem"}}, NotCovered: []selector.Selector{menuButton}})
	if !ev.Pass {
		t.Errorf("live checks fail: %+v", ev.Checks)
	}
	ev = evidenceOf(SourceLive, "d1", res)
	checkLive(ev, after, "/menu.html", trail.AssertChange{URL: "/other", Exists: []selector.Selector{{Role: "dialog"}}, NotCovered: []selector.Selector{mainMenu}})
	if ev.Pass || len(ev.Failed()) != 3 {
		t.Errorf("live checks: %q", ev.Failed())
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
