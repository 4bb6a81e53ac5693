package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/assertchange"
)

// browser_assert_change (docs/mcp.md): what the client's last action
// changed, in the words of the built-in agent's assertChange tool
// (docs/agent.md, The agent's assertChange). Attached, the door forwards
// it to the agent API's tab.assertChange; headless, the door checks it
// with replay's own code and records the check that holds right after
// the action, as the extension's recorder does.

// A changeTargetIn names an element as the snapshot shows it.
type changeTargetIn struct {
	Ref  string `json:"ref,omitempty" jsonschema:"a ref of the snapshot after your last action (or, for a removed element, of the one before it)"`
	Role string `json:"role,omitempty" jsonschema:"the element's role as the snapshot shows it"`
	Name string `json:"name,omitempty" jsonschema:"the element's name as the snapshot shows it"`
	Text string `json:"text,omitempty" jsonschema:"text the element shows"`
}

// A changeMatcherIn is a change: its kind, its element, the states it ends
// at.
type changeMatcherIn struct {
	Kind string         `json:"kind,omitempty" jsonschema:"added, removed, possible-replacement, content, state, style, moved or resized; leave out for any"`
	Ref  string         `json:"ref,omitempty" jsonschema:"the element's ref in a snapshot around your last action"`
	Role string         `json:"role,omitempty" jsonschema:"the element's role as the snapshot shows it"`
	Name string         `json:"name,omitempty" jsonschema:"the element's name as the snapshot shows it"`
	Text string         `json:"text,omitempty" jsonschema:"text the element shows"`
	To   map[string]any `json:"to,omitempty" jsonschema:"the states the element ends at, such as {\"expanded\": true}: checked, pressed, expanded, selected, disabled, required, readonly, invalid, visible, covered (true or false), level (a number)"`
}

// assertChangeIn is browser_assert_change's arguments: one group per call,
// stored or live.
type assertChangeIn struct {
	Changed        *bool             `json:"changed,omitempty" jsonschema:"stored: true if your last action must have changed something, false if it must have changed nothing"`
	MustInclude    []changeMatcherIn `json:"mustInclude,omitempty" jsonschema:"stored: changes your last action must have made"`
	MustNotInclude []changeMatcherIn `json:"mustNotInclude,omitempty" jsonschema:"stored: changes it must not have made"`
	Only           []changeMatcherIn `json:"only,omitempty" jsonschema:"stored: every change must match one of these"`
	MaxChanges     *int              `json:"maxChanges,omitempty" jsonschema:"stored: at most this many changes"`
	BecameVisible  []changeTargetIn  `json:"becameVisible,omitempty" jsonschema:"stored: elements that became visible"`
	BecameCovered  []changeTargetIn  `json:"becameCovered,omitempty" jsonschema:"stored: elements that became covered"`
	URL            *string           `json:"url,omitempty" jsonschema:"live: the path the page must be on now"`
	Exists         []changeTargetIn  `json:"exists,omitempty" jsonschema:"live: elements that must be shown now"`
	NotCovered     []changeTargetIn  `json:"notCovered,omitempty" jsonschema:"live: elements nothing covers now"`
	SettleMs       *int              `json:"settleMs,omitempty" jsonschema:"live: wait this long before the first look"`
	RetryMs        *int              `json:"retryMs,omitempty" jsonschema:"live: look again until the checks pass or this many milliseconds pass (1 to 60000)"`
	KeepBaseline   *bool             `json:"keepBaseline,omitempty" jsonschema:"live: true to keep the baseline for another live check"`
}

// fields is the expectation as the agent API's tab.assertChange and the
// built-in agent's tool read it (the same keys).
func (in assertChangeIn) fields() (map[string]any, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	return out, json.Unmarshal(b, &out)
}

// args is the expectation as the built-in agent's tool takes it.
func (in assertChangeIn) args() (agent.ChangeArgs, error) {
	var a agent.ChangeArgs
	b, err := json.Marshal(in)
	if err != nil {
		return a, err
	}
	return a, json.Unmarshal(b, &a)
}

func (in assertChangeIn) live() bool {
	return in.URL != nil || in.Exists != nil || in.NotCovered != nil || in.SettleMs != nil || in.RetryMs != nil || in.KeepBaseline != nil
}

// evidenceText says what an assertChange checked and what changed.
func evidenceText(checks []assertchange.CheckResult, changes []string) string {
	var b strings.Builder
	for _, c := range checks {
		mark := "passed"
		if !c.Pass {
			mark = "FAILED"
		}
		fmt.Fprintf(&b, "- %s %s: %s\n", mark, c.Check, c.Detail)
	}
	if len(changes) == 0 {
		b.WriteString("Nothing changed.\n")
		return b.String()
	}
	b.WriteString("What changed:\n")
	for i, l := range changes {
		if i == 30 {
			fmt.Fprintf(&b, "- and %d more\n", len(changes)-i)
			break
		}
		fmt.Fprintf(&b, "- %s\n", l)
	}
	return b.String()
}

// A doorAct is the client's last action in headless mode, which
// browser_assert_change checks: the page it started from, captured right
// before it.
type doorAct struct {
	before   *screen.Screen
	id       string
	consumed bool
}

// acted notes the action just recorded as the last one.
func (d *Door) acted(before *screen.Screen) {
	d.acts++
	d.last = &doorAct{before: before, id: fmt.Sprintf("a%d", d.acts)}
}

func (d *Door) assertChange(ctx context.Context, client string, in assertChangeIn) (string, error) {
	if err := d.needRecording(); err != nil {
		return "", err
	}
	last := d.last
	switch {
	case last == nil:
		return "", toolError("browser_assert_change checks what your last action changed, and there is none to check: act (browser_click, browser_type…) and call it right after, with no other check in between; nothing was recorded")
	case in.live() && last.consumed:
		return "", toolError("a live browser_assert_change before this one consumed the baseline of your last action (give that one keepBaseline true); nothing was recorded")
	}
	args, err := in.args()
	if err != nil {
		return "", toolError("the expectation cannot be read: %v", err)
	}
	now, err := d.o.Tab.Screen(ctx)
	if err != nil {
		return "", err
	}
	if !d.rec.onApp(now.URL) {
		return "", toolError("the page is on %s, which is not one of the app's origins: nothing was recorded", originOrURL(now.URL))
	}
	spec, problem := agent.ChangeSpec(args, last.before, now, d.shown, nil, nil)
	if problem != "" {
		return "", toolError("the expectation cannot be checked: %s; nothing was recorded", problem)
	}
	origin := d.rec.origins[0]
	path := func(u string) string {
		if rel, err := trail.AppPath(u, origin); err == nil {
			return rel
		}
		return u
	}
	ev, err := assertchange.Check(ctx, spec, last.id, last.before, now, d.o.Tab.Screen, path)
	if err != nil {
		return "", err
	}
	if ev.Error != nil {
		return "", toolError("the change could not be checked (%s: %s); nothing was recorded", ev.Error.Code, ev.Error.Message)
	}
	if !ev.Pass {
		return "", toolError("the change does not hold; nothing was recorded.\n%s", evidenceText(ev.Checks, ev.Lines))
	}
	if _, err := d.recordNavigations(ctx, client, "script"); err != nil {
		return "", err
	}
	check := trail.ChangeJSONOf(spec)
	if err := d.emit(ctx, client, steps.Interaction{Kind: steps.InteractAssertChange, AssertChange: &check}, now); err != nil {
		return "", err
	}
	// emit forgets the last action for anything but an assertChange.
	if in.live() && (spec.KeepBaseline == nil || !*spec.KeepBaseline) {
		last.consumed = true
	}
	return "The change holds; recorded as an assertion.\n" + evidenceText(ev.Checks, ev.Lines), nil
}

func (a *Attached) assertChange(ctx context.Context, client string, in assertChangeIn) (string, error) {
	tab, err := a.needTab(ctx, client)
	if err != nil {
		return "", err
	}
	body, err := in.fields()
	if err != nil {
		return "", toolError("the expectation cannot be read: %v", err)
	}
	body["tab"] = tab
	var out struct {
		Did     string                     `json:"did"`
		Checks  []assertchange.CheckResult `json:"checks"`
		Changes []string                   `json:"changes"`
	}
	if err := a.call(ctx, client, apiAssertChange, body, &out); err != nil {
		return "", err
	}
	return sentence(out.Did) + "\n" + evidenceText(out.Checks, out.Changes), nil
}
