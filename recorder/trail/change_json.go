package trail

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// ChangeJSON is an assertChange as a message carries it (host/PROTOCOL.md,
// agent.done and the agentEnd interaction's checks): a JSON object with
// the trail format's keys (docs/trail-format.md, assertChange), in lower
// camel case like the rest of the protocol. `to` is an object of the
// fields a change ends at, as a trail writes it ({"expanded": true}), in
// the order written. It has no diffId: a check in a message reads the
// action it is written after.
type ChangeJSON struct {
	Changed        *bool               `json:"changed,omitempty"`
	MustInclude    []ChangeMatchJSON   `json:"mustInclude,omitempty"`
	MustNotInclude []ChangeMatchJSON   `json:"mustNotInclude,omitempty"`
	Only           []ChangeMatchJSON   `json:"only,omitempty"`
	MaxChanges     *int                `json:"maxChanges,omitempty"`
	BecameVisible  []selector.Selector `json:"becameVisible,omitempty"`
	BecameCovered  []selector.Selector `json:"becameCovered,omitempty"`
	URL            string              `json:"url,omitempty"`
	Exists         []selector.Selector `json:"exists,omitempty"`
	NotCovered     []selector.Selector `json:"notCovered,omitempty"`
	SettleMs       *int                `json:"settleMs,omitempty"`
	Retry          *RetryJSON          `json:"retry,omitempty"`
	KeepBaseline   *bool               `json:"keepBaseline,omitempty"`
	Ignore         []selector.Selector `json:"ignore,omitempty"`
}

// A ChangeMatchJSON is a matcher of ChangeJSON.
type ChangeMatchJSON struct {
	Change   string             `json:"change,omitempty"`
	Selector *selector.Selector `json:"selector,omitempty"`
	To       ChangeToJSON       `json:"to,omitempty"`
}

// RetryJSON is assertChange's retry: {"budgetMs": N}.
type RetryJSON struct {
	BudgetMs int `json:"budgetMs"`
}

// ChangeToJSON is a matcher's `to`: the fields a change ends at, written
// as one JSON object in their order, each value a boolean, a number (a
// level) or a word (mixed), as a trail writes it.
type ChangeToJSON []ChangeTo

// MarshalJSON writes the fields as one object, in order.
func (t ChangeToJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Field)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		switch _, numErr := strconv.Atoi(f.Value); {
		case f.Value == "true" || f.Value == "false", numErr == nil:
			b.WriteString(f.Value)
		default:
			v, err := json.Marshal(f.Value)
			if err != nil {
				return nil, err
			}
			b.Write(v)
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads one object of fields, keeping their order; a value
// must be a boolean, a whole number or a string.
func (t *ChangeToJSON) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*t = nil
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New(`to must be an object of the fields the change ends at, such as {"expanded": true}`)
	}
	out := ChangeToJSON{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return err
		}
		field, _ := k.(string)
		v, err := dec.Token()
		if err != nil {
			return err
		}
		var value string
		switch v := v.(type) {
		case bool:
			value = strconv.FormatBool(v)
		case json.Number:
			if _, err := strconv.Atoi(v.String()); err != nil {
				return fmt.Errorf("to.%s must be true, false, mixed or a whole number, not %s", field, v)
			}
			value = v.String()
		case string:
			value = v
		default:
			return fmt.Errorf("to.%s must be true, false, mixed or a whole number", field)
		}
		out = append(out, ChangeTo{Field: field, Value: value})
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*t = out
	return nil
}

// ChangeJSONOf is a's message form. A diffId is not carried.
func ChangeJSONOf(a AssertChange) ChangeJSON {
	matches := func(ms []ChangeMatch) []ChangeMatchJSON {
		if ms == nil {
			return nil
		}
		out := make([]ChangeMatchJSON, len(ms))
		for i, m := range ms {
			out[i] = ChangeMatchJSON{Change: m.Change, Selector: m.Selector, To: ChangeToJSON(m.To)}
		}
		return out
	}
	c := ChangeJSON{
		Changed: a.Changed, MustInclude: matches(a.MustInclude), MustNotInclude: matches(a.MustNotInclude), Only: matches(a.Only),
		MaxChanges: a.MaxChanges, BecameVisible: a.BecameVisible, BecameCovered: a.BecameCovered,
		URL: a.URL, Exists: a.Exists, NotCovered: a.NotCovered, SettleMs: a.SettleMs, KeepBaseline: a.KeepBaseline, Ignore: a.Ignore,
	}
	if a.Retry != nil {
		c.Retry = &RetryJSON{BudgetMs: a.Retry.BudgetMs}
	}
	return c
}

// AssertChange is the trail's assertChange c carries.
func (c ChangeJSON) AssertChange() AssertChange {
	matches := func(ms []ChangeMatchJSON) []ChangeMatch {
		if ms == nil {
			return nil
		}
		out := make([]ChangeMatch, len(ms))
		for i, m := range ms {
			out[i] = ChangeMatch{Change: m.Change, Selector: m.Selector}
			if len(m.To) > 0 {
				out[i].To = []ChangeTo(m.To)
			}
		}
		return out
	}
	a := AssertChange{
		Changed: c.Changed, MustInclude: matches(c.MustInclude), MustNotInclude: matches(c.MustNotInclude), Only: matches(c.Only),
		MaxChanges: c.MaxChanges, BecameVisible: c.BecameVisible, BecameCovered: c.BecameCovered,
		URL: c.URL, Exists: c.Exists, NotCovered: c.NotCovered, SettleMs: c.SettleMs, KeepBaseline: c.KeepBaseline, Ignore: c.Ignore,
	}
	if c.Retry != nil {
		a.Retry = &Retry{BudgetMs: c.Retry.BudgetMs}
	}
	return a
}

// CheckWritable reports why assertChange a cannot be written into a trail
// right after an action and read back as it is (an empty one, stored and
// live checks mixed, an unknown kind, a `to` its kind has not, a list
// that is given but empty…), in the words a trail file's problem is
// reported with, without a file or line; nil when it can.
func CheckWritable(a AssertChange) error {
	t := &Trail{Title: "assertChange", App: "app", Start: "/", Steps: []Step{{
		Intent:  "check",
		Actions: []Action{Tap{Selector: selector.Selector{Role: "button", Name: "Act"}}, a},
	}}}
	_, err := MarshalTrail(t)
	if err == nil {
		return nil
	}
	return errors.New(Problems(err))
}

// Problems says what MarshalTrail or LoadTrail found wrong, each problem's
// message and fix, without the file and line of a trail that was only
// written to be checked.
func Problems(err error) string {
	var list yamlerr.List
	if errors.As(err, &list) && len(list) > 0 {
		var why []string
		for _, e := range list {
			s := e.Msg
			if e.Fix != "" {
				s += " (" + e.Fix + ")"
			}
			why = append(why, s)
		}
		return strings.Join(why, "; ")
	}
	var one *yamlerr.Error
	if errors.As(err, &one) {
		return one.Msg
	}
	if _, after, ok := strings.Cut(err.Error(), ": "); ok {
		return after
	}
	return err.Error()
}
