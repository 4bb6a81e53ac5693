package trail

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// changeTrail is a trail whose one step taps a button and then runs
// actions (one per line, from line 9).
func changeTrail(actions ...string) []byte {
	src := "version: 1\ntrail: Change\napp: shop\nstart: /\nsteps:\n  - intent: Open the menu\n    actions:\n      - tap: {selector: {role: button, name: Menu}}\n"
	for _, a := range actions {
		src += "      " + a + "\n"
	}
	return []byte(src)
}

// TestAssertChangeRefusedAtLoad is the load-time half of the fail-loud
// matrix: each spec that is wrong on its own, or in its place, is refused
// with the file, the line and its reason; none loads.
func TestAssertChangeRefusedAtLoad(t *testing.T) {
	cases := []struct {
		name    string
		actions []string
		line    int
		reason  string
		legacy  bool
	}{
		{"empty", []string{`- assertChange: {}`}, 9, "assertChange is empty: an empty check would always pass", false},
		{"unknown key", []string{`- assertChange: {changed: true, mustIncude: [{change: added}]}`}, 9, `unknown key "mustIncude" in assertChange: did you mean "mustInclude"?`, false},
		{"unknown matcher key", []string{`- assertChange: {mustInclude: [{change: added, slector: {role: menu}}]}`}, 9, `unknown key "slector"`, false},
		{"unknown kind", []string{`- assertChange: {mustInclude: [{change: appeared}]}`}, 9, `change "appeared" is unknown`, false},
		{"live mixed with diff", []string{`- assertChange: {changed: true, exists: [{role: menu}]}`}, 9, "assertChange mixes checks on the stored diff (changed) with live checks (exists)", false},
		{"keepBaseline with diff", []string{`- assertChange: {only: [{change: added}], keepBaseline: false}`}, 9, "mixes checks on the stored diff (only) with live checks (keepBaseline)", false},
		{"ignore with diff", []string{`- assertChange: {maxChanges: 1, ignore: [{role: timer}]}`}, 9, "mixes checks on the stored diff (maxChanges) with live checks (ignore)", false},
		{"diffId with live", []string{`- assertChange: {diffId: d1, url: /}`}, 9, "mixes checks on the stored diff (diffId) with live checks (url)", false},
		{"nothing checked, live", []string{`- assertChange: {settleMs: 100, retry: {budgetMs: 500}}`}, 9, "assertChange has settleMs, retry but nothing to check", false},
		{"nothing checked, diff", []string{`- assertChange: {diffId: d1}`}, 9, "assertChange has diffId but nothing to check", false},
		{"bad diff id", []string{`- assertChange: {diffId: latest, changed: true}`}, 9, `diffId "latest" is not a diff id`, false},
		{"diff id not yet taken", []string{`- assertChange: {diffId: d2, changed: true}`}, 9, "assertChange names d2, but only 1 action(s) before it are observed", false},
		{"retry as a number", []string{`- assertChange: {exists: [{role: menu}], retry: 2000}`}, 9, "retry is a budget now, not a number", true},
		{"retry without budget", []string{`- assertChange: {exists: [{role: menu}], retry: {timeout: 2s}}`}, 9, `unknown key "timeout" in retry`, false},
		{"retry budget zero", []string{`- assertChange: {exists: [{role: menu}], retry: {budgetMs: 0}}`}, 9, "budgetMs must be a whole number ≥ 1", false},
		{"to on added", []string{`- assertChange: {mustInclude: [{change: added, to: {expanded: true}}]}`}, 9, "to: says what a state or style became, and a added change has none", false},
		{"to field of style on state", []string{`- assertChange: {mustInclude: [{change: state, to: {visible: true}}]}`}, 9, `unknown key "visible" in to`, false},
		{"to bad value", []string{`- assertChange: {mustInclude: [{to: {expanded: maybe}}]}`}, 9, "expanded must be true or false", false},
		{"to empty", []string{`- assertChange: {mustInclude: [{to: {}}]}`}, 9, "to is empty", false},
		{"after an assertion", []string{`- assertVisible: {selector: {role: menu}}`, `- assertChange: {changed: true}`}, 10,
			"assertChange follows assertVisible (line 9), which changes nothing", false},
		{"baseline consumed", []string{`- assertChange: {exists: [{role: menu}]}`, `- assertChange: {notCovered: [{role: menu}]}`}, 10,
			"assertChange reads a baseline the live assertChange before it consumed", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadTrail("menu.trail.yaml", changeTrail(c.actions...))
			if err == nil {
				t.Fatalf("LoadTrail accepts %v", c.actions)
			}
			var list yamlerr.List
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not a yamlerr.List: %v", err, err)
			}
			want := fmt.Sprintf("menu.trail.yaml:%d: %s", c.line, c.reason)
			found := false
			for _, e := range list {
				if strings.HasPrefix(e.Error(), want) || strings.Contains(e.Error(), c.reason) && e.Line == c.line {
					found = true
					if c.legacy != errors.Is(e, ErrLegacyForm) {
						t.Errorf("errors.Is(%v, ErrLegacyForm) = %v", e, !c.legacy)
					}
				}
			}
			if !found {
				t.Errorf("errors:\n%v\nwant one at line %d saying %q", err, c.line, c.reason)
			}
		})
	}
	// At the start of the trail there is no action to observe.
	src := "version: 1\ntrail: Change\napp: shop\nstart: /\nsteps:\n  - intent: x\n    actions:\n      - assertChange: {changed: true}\n"
	if _, err := LoadTrail("start.trail.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), "start.trail.yaml:8: assertChange starts the trail") {
		t.Errorf("an assertChange starting the trail: %v", err)
	}
}

// TestAssertChangeLoads reads every key of the finished format.
func TestAssertChangeLoads(t *testing.T) {
	tr, err := LoadTrail("menu.trail.yaml", changeTrail(
		`- assertChange: {mustInclude: [{change: added, selector: {role: menu}}, {change: state, selector: {role: button, name: Menu}, to: {expanded: true}}], only: [{change: possible-replacement}, {to: {checked: mixed, level: 2, covered: false}}]}`,
		`- assertChange: {exists: [{role: menu}], settleMs: 20, retry: {budgetMs: 1500}, keepBaseline: true, ignore: [{role: timer}]}`,
		`- assertChange: {notCovered: [{role: menu}]}`,
		`- assertChange: {changed: true, diffId: d1}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	acts := tr.Steps[0].Actions
	menu := selector.Selector{Role: "button", Name: "Menu"}
	a := acts[1].(AssertChange)
	if a.IsLive() || !reflect.DeepEqual(a.MustInclude[1], ChangeMatch{Change: ChangeState, Selector: &menu, To: []ChangeTo{{"expanded", "true"}}}) {
		t.Errorf("mustInclude[1] = %+v", a.MustInclude[1])
	}
	if want := []ChangeTo{{"checked", "mixed"}, {"level", "2"}, {"covered", "false"}}; !reflect.DeepEqual(a.Only[1].To, want) || a.Only[0].Change != ChangePossibleReplacement {
		t.Errorf("only = %+v", a.Only)
	}
	l := acts[2].(AssertChange)
	if !l.IsLive() || l.Retry == nil || l.Retry.BudgetMs != 1500 || *l.SettleMs != 20 || !*l.KeepBaseline || len(l.Ignore) != 1 {
		t.Errorf("live = %+v", l)
	}
	if d := acts[4].(AssertChange); d.DiffID != "d1" || d.IsLive() {
		t.Errorf("diffId = %+v", d)
	}
}
