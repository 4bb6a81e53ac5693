package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/screendiff"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// orderTrail is the order fixture's trail, recorded on the ordinary page:
// its second action (the check of the terms box) is the one replay cannot
// be sure of when the page starts at start.
func orderTrail(t *testing.T, start string) *trail.Trail {
	t.Helper()
	return inlineTrail(t, `version: 1
trail: Order
app: fixture
start: `+start+`
steps:
  - intent: type the code SUMMER, accept the terms and place the order
    actions:
      - type: {selector: {role: textbox, name: Discount code}, text: SUMMER}
      - check: {selector: {role: checkbox, name: I accept the terms}}
      - tap: {selector: {role: button, name: Place order}}
    end:
      shows:
        - {role: status, text: Order placed with SUMMER}
`)
}

// flowLines says each action of a flow as its kind and its selector.
func flowLines(acts []trail.Action) string {
	var out []string
	for _, a := range acts {
		line := string(a.Kind())
		if sel, ok := trail.ActionSelector(a); ok {
			b, _ := trail.MarshalSelector(sel)
			line += " " + strings.TrimSpace(string(b))
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// After an action-uncertain hand-off, the healed flow holds the action
// replay was unsure of exactly when it took effect: the next run, which
// replays the flow on the ordinary page with no agent, then passes.
func TestRunTrailUncertainAction(t *testing.T) {
	t.Parallel()
	tests := []struct {
		first string
		// flow is the healed flow: the replayed type, then (or not) the
		// unsure check, then the agent's actions.
		flow string
		says string
	}{
		{"took", "type {role: textbox, name: Discount code}\ncheck {role: checkbox, name: I accept the terms}\ntap {role: button, name: Place order}",
			"it took effect (the screen changed after it: "},
		{"lost", "type {role: textbox, name: Discount code}\ntap {role: checkbox, name: I accept the terms}\ntap {role: button, name: Place order}",
			"the agent did it again (tap), so the new flow has the agent's action in its place"},
	}
	for _, tt := range tests {
		t.Run(tt.first, func(t *testing.T) {
			t.Parallel()
			opts, _ := agentOptions(t)
			res := replayOn(t, orderTrail(t, "/agent_order.html?first="+tt.first), site.URL, opts)
			st := res.Steps[0]
			h := st.Heal
			if res.Status != StatusHealed || h == nil || h.Cache != CacheHandOff || h.Stopped != StopActionUncertain || h.Replayed != 1 {
				t.Fatalf("got %s, heal %+v, error %q; want healed after action-uncertain at action 2", res.Status, h, res.Error)
			}
			if !h.Saveable() {
				t.Errorf("the heal is not saveable: %s", h.NotSaved)
			}
			if got := flowLines(h.Actions); got != tt.flow {
				t.Errorf("healed flow:\n%s\nwant:\n%s", got, tt.flow)
			}
			if !strings.Contains(h.Uncertain, "recorded action 2 (check) failed after its input reached the app; ") || !strings.Contains(h.Uncertain, tt.says) {
				t.Errorf("Uncertain = %q, want it to say %q", h.Uncertain, tt.says)
			}
			// The next run replays the healed flow on the page as it
			// usually is, with no agent to fall back on.
			healed := orderTrail(t, "/agent_order.html")
			healed.Steps[0].Actions = h.Actions
			next := replayOn(t, healed, site.URL, Options{ActionTimeout: 3 * time.Second})
			if next.Status != StatusPassed {
				t.Errorf("the next run of the healed flow: %s", explain(next))
			}
		})
	}
}

// judge, on screens made by hand: the agent doing it again wins over any
// change on the screen; otherwise a change (or a page it went to) keeps
// it, and no change leaves it out.
func TestUncertainJudge(t *testing.T) {
	box := func() *screen.Node {
		return &screen.Node{Ref: "e2", Role: "checkbox", Name: "I accept the terms", Tag: "input", Checked: "false", Visible: true}
	}
	place := func() *screen.Node {
		return &screen.Node{Ref: "e3", Role: "button", Name: "Place order", Tag: "button", Visible: true}
	}
	page := func(kids ...*screen.Node) *screen.Screen {
		return &screen.Screen{Document: "d1", URL: "http://shop.test/order",
			Root: &screen.Node{Ref: "e1", Tag: "html", Visible: true, Children: kids}}
	}
	before := page(box(), place())
	accepted := page(&screen.Node{Tag: screen.TextTag, Text: "Terms accepted", Visible: true}, place())
	tapBox := trail.Tap{Selector: selector.Selector{Role: "checkbox", Name: "I accept the terms"}}
	tapPlace := trail.Tap{Selector: selector.Selector{Role: "button", Name: "Place order"}}
	check := trail.Check{Selector: selector.Selector{Role: "checkbox", Name: "I accept the terms"}}
	diff := func(after *screen.Screen) *screendiff.Result {
		res, err := screendiff.Diff(before, after, screendiff.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	same := func(s selector.Selector) (selector.Selector, error) { return s, nil }
	keepAll := func(s string) string { return s }
	tests := []struct {
		name   string
		u      uncertainAction
		agent  []trail.Action
		keep   bool
		saying string
	}{
		{"changed, not redone", uncertainAction{action: check, target: box(), before: before, changes: diff(accepted)},
			[]trail.Action{tapPlace}, true, `it took effect (the screen changed after it: content html [e1]: text none → "Terms accepted"; removed checkbox "I accept the terms" [e2])`},
		{"changed, redone", uncertainAction{action: check, target: box(), before: before, changes: diff(accepted)},
			[]trail.Action{tapBox, tapPlace}, false, "the agent did it again"},
		{"unchanged, redone", uncertainAction{action: check, target: box(), before: before, changes: diff(page(box(), place()))},
			[]trail.Action{tapBox, tapPlace}, false, "the agent did it again"},
		{"unchanged, not redone", uncertainAction{action: check, target: box(), before: before, changes: diff(page(box(), place()))},
			[]trail.Action{tapPlace}, false, "nothing showed that it took effect"},
		{"only checked by the agent", uncertainAction{action: check, target: box(), before: before, changes: diff(page(box(), place()))},
			[]trail.Action{trail.AssertVisible{Selector: tapBox.Selector}, tapPlace}, false, "nothing showed that it took effect"},
		{"a navigate that went there", uncertainAction{action: trail.Navigate{To: "/orders"}, wentTo: "/orders"},
			[]trail.Action{tapPlace}, true, "the page went to /orders"},
		{"a navigate done again", uncertainAction{action: trail.Navigate{To: "/orders"}, wentTo: "/orders"},
			[]trail.Action{trail.Navigate{To: "/orders"}}, false, "the agent did it again (navigate)"},
		{"a key pressed again", uncertainAction{action: trail.Press{Key: "Enter"}},
			[]trail.Action{trail.Press{Key: "Enter"}}, false, "the agent did it again (press)"},
		{"a key, no evidence", uncertainAction{action: trail.Press{Key: "Enter"}},
			[]trail.Action{tapPlace}, false, "nothing showed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.u
			u.n, u.expand, u.redact = 2, same, keepAll
			keep, why := u.judge(tt.agent)
			if keep != tt.keep || !strings.Contains(why, tt.saying) {
				t.Errorf("judge = %v, %q; want %v, saying %q", keep, why, tt.keep, tt.saying)
			}
		})
	}
}

// A box the app takes away once it is ticked (a to-do checked in a list of
// the active ones) shows no state to read after the tap: the check passes,
// and the step's end says whether it took effect. On a copy where the tick
// removes the box but changes nothing else, the end fails the step.
func TestRunTrailCheckedBoxTakenAway(t *testing.T) {
	t.Parallel()
	tr := inlineTrail(t, `version: 1
trail: Active to-dos
app: fixture
start: /filtered.html
steps:
  - intent: tick Feed the cat
    actions:
      - check: {selector: {role: checkbox, name: Feed the cat}}
    end:
      shows:
        - {role: status, text: 1 item left}
`)
	res := replayOn(t, tr, site.URL, Options{})
	if res.Status != StatusPassed {
		t.Fatalf("got %s (%q), want passed: the box left the list once ticked", res.Status, res.Error)
	}
	if got := res.Steps[0].Actions[0].Summary; !strings.Contains(got, "took it away") {
		t.Errorf("the check's summary = %q, want it to say the page took the box away", got)
	}
	tr.Start = "/filtered.html?broken"
	if res := replayOn(t, tr, site.URL, Options{}); res.Status == StatusPassed {
		t.Errorf("on the copy whose tick changes nothing but the list, the trail passed")
	}
}
