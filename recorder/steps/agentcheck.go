package steps

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// An AgentCheck is an assertChange the agent made, and passed, while it
// performed a recorded goal (Ask the agent): the host sends the goal's in
// agent.done, and the extension sends them back in the goal's agentEnd
// interaction (host/PROTOCOL.md). BuildSteps writes each right after the
// recorded action it checked, so that replay checks the diff of that
// action, as for a person's Assert change. A check that failed is never
// sent: it proved nothing.
type AgentCheck struct {
	// Action is the agent's action it checked, counted from 1 in the goal.
	Action int `json:"action"`
	// From is when that action began (before its input was sent) and
	// Until when the check passed, in milliseconds since the Unix epoch:
	// the interactions the page recorded of the action happened between
	// the two, and the check goes after the last action built from them.
	From  int64 `json:"from"`
	Until int64 `json:"until"`
	// AssertChange is the check, with the trail's keys.
	AssertChange trail.ChangeJSON `json:"assertChange"`
}

// MaxAgentChecks bounds the checks one agentEnd carries: a goal has at
// most agent.maxActions actions, and the agent checks each a few times at
// most.
const MaxAgentChecks = 100

// maxAgentCheckBytes bounds one check's JSON.
const maxAgentCheckBytes = 64 << 10

// ReadAgentChecks reads the checks field of an agentEnd as it arrived
// (raw JSON: absent, null, or a list of checks). Each check is read on its
// own: one that is malformed, names a key this host does not know inside
// its assertChange (a check this host cannot make is never made weaker),
// or could not be written into a trail is left out, and why is said in
// leftOut, in words for the review; the others are kept.
func ReadAgentChecks(raw json.RawMessage) (checks []AgentCheck, leftOut []string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, []string{"the agent's checks are not a list of checks, so none of them was written"}
	}
	if len(list) > MaxAgentChecks {
		leftOut = append(leftOut, fmt.Sprintf("the agent sent %d checks, more than %d: the checks after the %dth were left out", len(list), MaxAgentChecks, MaxAgentChecks))
		list = list[:MaxAgentChecks]
	}
	for k, item := range list {
		c, err := readAgentCheck(item)
		if err != nil {
			leftOut = append(leftOut, fmt.Sprintf("the agent's check %d was left out: %v", k+1, err))
			continue
		}
		checks = append(checks, c)
	}
	return checks, leftOut
}

func readAgentCheck(item json.RawMessage) (AgentCheck, error) {
	var c AgentCheck
	if len(item) > maxAgentCheckBytes {
		return c, fmt.Errorf("it is %d bytes long, more than %d", len(item), maxAgentCheckBytes)
	}
	var outer struct {
		Action       *int            `json:"action"`
		From         *int64          `json:"from"`
		Until        *int64          `json:"until"`
		AssertChange json.RawMessage `json:"assertChange"`
	}
	if err := json.Unmarshal(item, &outer); err != nil {
		return c, fmt.Errorf("it is not a check (an object with action, from, until and assertChange): %s", jsonProblem(err))
	}
	switch {
	case outer.Action == nil || *outer.Action < 1:
		return c, errors.New("action must be the agent's action it checked, from 1")
	case outer.From == nil || *outer.From <= 0 || outer.Until == nil || *outer.Until < *outer.From:
		return c, errors.New("from and until must be when the action began and when the check passed (milliseconds since the epoch, until not before from)")
	case len(bytes.TrimSpace(outer.AssertChange)) == 0 || string(bytes.TrimSpace(outer.AssertChange)) == "null":
		return c, errors.New("it has no assertChange")
	}
	c.Action, c.From, c.Until = *outer.Action, *outer.From, *outer.Until
	if err := exactKeys(outer.AssertChange, changeShape, "assertChange"); err != nil {
		return c, fmt.Errorf("its assertChange cannot be read: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(outer.AssertChange))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.AssertChange); err != nil {
		return c, fmt.Errorf("its assertChange cannot be read: %s", jsonProblem(err))
	}
	if err := c.Check(); err != nil {
		return c, err
	}
	return c, nil
}

// ReadChangeCheck reads an assertChange interaction's check as it
// arrived (Interaction.AssertChange): an object with exactly the trail's keys
// (one this host does not know is refused, never dropped to make a weaker
// check) that a trail can hold. nil for absent or null.
func ReadChangeCheck(raw json.RawMessage) (*trail.ChangeJSON, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if len(raw) > maxAgentCheckBytes {
		return nil, fmt.Errorf("assertChange is %d bytes long, more than %d", len(raw), maxAgentCheckBytes)
	}
	if err := exactKeys(raw, changeShape, "assertChange"); err != nil {
		return nil, err
	}
	var c trail.ChangeJSON
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("assertChange cannot be read: %s", jsonProblem(err))
	}
	if err := trail.CheckWritable(c.AssertChange()); err != nil {
		return nil, fmt.Errorf("assertChange cannot be written into a trail: %v", err)
	}
	return &c, nil
}

// A keyShape is what an object of a check may hold: each key, exactly as
// the protocol writes it, with the shape of its value (nil for a value
// that is no object of ours).
type keyShape map[string]*valueShape

type valueShape struct {
	object keyShape // an object of these keys
	list   bool     // a list of them
	self   bool     // a selector (within nests one)
}

var (
	selectorShape = keyShape{"role": nil, "name": nil, "text": nil, "textRegex": nil, "testId": nil, "id": nil,
		"label": nil, "placeholder": nil, "within": {self: true}, "index": nil}
	selectors    = &valueShape{object: selectorShape, list: true}
	matcherShape = keyShape{"change": nil, "selector": {object: selectorShape}, "to": nil}
	matchers     = &valueShape{object: matcherShape, list: true}
	changeShape  = keyShape{"changed": nil, "mustInclude": matchers, "mustNotInclude": matchers, "only": matchers, "maxChanges": nil,
		"becameVisible": selectors, "becameCovered": selectors, "url": nil, "exists": selectors, "notCovered": selectors,
		"settleMs": nil, "retry": {object: keyShape{"budgetMs": nil}}, "keepBaseline": nil, "ignore": selectors}
)

// exactKeys refuses a key that is not one of shape's, exactly as written
// (encoding/json would take "Changed" for changed): a check in other
// words than the protocol's is a sender's bug, never guessed at. A value
// of another type is left to the typed decoding to refuse.
func exactKeys(raw json.RawMessage, shape keyShape, path string) error {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		v, known := shape[k]
		if !known {
			return fmt.Errorf("%s has a key this host does not know, %q (the keys are the trail format's, lower camel)", path, screen.Clip(k, 40))
		}
		if v == nil {
			continue
		}
		inner := v.object
		if v.self {
			inner = selectorShape
		}
		if !v.list {
			if err := exactKeys(obj[k], inner, path+"."+k); err != nil {
				return err
			}
			continue
		}
		var items []json.RawMessage
		if json.Unmarshal(obj[k], &items) != nil {
			continue
		}
		for n, item := range items {
			if err := exactKeys(item, inner, fmt.Sprintf("%s.%s[%d]", path, k, n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Check reports why the check cannot be written into a trail, nil when it
// can.
func (c AgentCheck) Check() error {
	if err := trail.CheckWritable(c.AssertChange.AssertChange()); err != nil {
		return fmt.Errorf("its assertChange cannot be written into a trail: %v", err)
	}
	return nil
}

// jsonProblem says what encoding/json found wrong, without the Go types it
// names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("%s has the wrong type", te.Field)
	}
	s := strings.TrimPrefix(err.Error(), "json: ")
	return screen.Clip(s, 200)
}

// An agentCheck is an AgentCheck on its way into the trail: the goal it
// was made for, and the places it could go (a step and the position
// after one of its actions), the last one winning.
type agentCheck struct {
	AgentCheck
	goal   string
	number int // its position in the agentEnd's checks, from 1
	at     []checkPlace
}

type checkPlace struct{ step, pos int }

// agentChecks reads the checks the agentEnd r carries, saying in a note
// why each one that cannot be used is left out.
func (b *builder) agentChecks(r *RecordedInteraction, goal string) []*agentCheck {
	for _, why := range r.ChecksLeftOut {
		b.note(fmt.Sprintf("While performing %q, %s.", goal, strings.TrimSuffix(why, ".")), "One of the agent's checks was left out.")
	}
	var out []*agentCheck
	for k, c := range r.Checks {
		if err := c.Check(); err != nil {
			b.note(fmt.Sprintf("While performing %q, the agent's check %d was left out: %v.", goal, k+1, err), "One of the agent's checks was left out.")
			continue
		}
		out = append(out, &agentCheck{AgentCheck: c, goal: goal, number: k + 1})
	}
	return out
}

// placeChecks notes that the action built from interaction i is the
// pos-th action of the step being built: each check of the group whose
// action that interaction was recorded for can go right after it.
func (b *builder) placeChecks(g *group, i, pos int) {
	t := b.recs[i].Time
	if t <= 0 {
		return
	}
	for _, c := range g.checks {
		if t >= c.From && t <= c.Until {
			c.at = append(c.at, checkPlace{step: b.building, pos: pos})
		}
	}
}

// unplace forgets the places in step, which is not written with actions.
func unplace(checks []*agentCheck, step int) {
	for _, c := range checks {
		c.at = slices.DeleteFunc(c.at, func(p checkPlace) bool { return p.step == step })
	}
}

// writeChecks writes each of the agent's checks as an assertChange right
// after the last action built from what the page recorded of the action
// it checked. A check with no such action (nothing was recorded of it, or
// it was folded into a later one: typing into the same field again), one
// that would show a value marked sensitive, or one its step could not be
// written with is left out, with a note; the step stays as it was.
func (b *builder) writeChecks(steps []trail.Step, groups []*group) []trail.Step {
	seen := map[*agentCheck]bool{}
	byStep := map[int][]*agentCheck{}
	for _, g := range groups {
		for _, c := range g.checks {
			if seen[c] {
				continue
			}
			seen[c] = true
			if len(c.at) == 0 {
				b.note(fmt.Sprintf("While performing %q, the agent checked what its action %d changed, but nothing the page recorded of that action is a step's action: the check was left out.", c.goal, c.Action),
					"One of the agent's checks was left out: nothing recorded of the action it checked is a step's action.")
				continue
			}
			p := c.at[len(c.at)-1]
			ac := c.AssertChange.AssertChange()
			leak := false
			trail.ForEachText(&trail.Trail{Steps: []trail.Step{{Actions: []trail.Action{ac}}}}, func(_, text string) {
				leak = leak || b.taint.Leaks(text) || b.leaksURL(text)
			})
			if leak {
				b.note(fmt.Sprintf("The agent's check %d of %q was left out: it would write down a value marked sensitive.", c.number, c.goal), "")
				continue
			}
			byStep[p.step] = append(byStep[p.step], c)
		}
	}
	for _, si := range slices.Sorted(maps.Keys(byStep)) {
		checks := byStep[si]
		if si >= len(steps) {
			continue
		}
		slices.SortStableFunc(checks, func(x, y *agentCheck) int { return x.at[len(x.at)-1].pos - y.at[len(y.at)-1].pos })
		old := steps[si]
		var actions []trail.Action
		k := 0
		for j, a := range old.Actions {
			actions = append(actions, a)
			for ; k < len(checks) && checks[k].at[len(checks[k].at)-1].pos == j+1; k++ {
				actions = append(actions, checks[k].AssertChange.AssertChange())
			}
		}
		step := old
		step.Actions = actions
		if _, err := trail.MarshalTrail(&trail.Trail{Title: "steps", App: "app", Start: b.startPath, Steps: []trail.Step{step}}); err != nil {
			b.note(fmt.Sprintf("The agent's checks in the step %q were left out: the step cannot be written with them (%s).", old.Intent, trail.Problems(err)),
				"The agent's checks in one step were left out: the step cannot be written with them.")
			continue
		}
		steps[si] = step
	}
	return steps
}
