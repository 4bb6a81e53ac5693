package screendiff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// maxShownValue keeps a change's line readable; the Delta holds the whole
// string.
const maxShownValue = 60

// String is the change in words, one line, as evidence shows it:
//
//	state button "Menu" [e3]: expanded false → true
//	possible-replacement listitem "Buy milk" [e20 → e51]
func (c Change) String() string {
	var b strings.Builder
	b.WriteString(string(c.Kind))
	b.WriteByte(' ')
	n := c.After
	if n == nil {
		n = c.Before
	}
	b.WriteString(describe(n))
	switch {
	case c.Before != nil && c.After != nil && c.Before.Ref != c.After.Ref:
		fmt.Fprintf(&b, " [%s → %s]", c.Before.Ref, c.After.Ref)
	default:
		fmt.Fprintf(&b, " [%s]", n.Ref)
	}
	if n.Name == "" && n.Text != "" && (c.Kind == Added || c.Kind == Removed || c.Kind == PossibleReplacement) {
		fmt.Fprintf(&b, " text %s", strconv.Quote(n.Text))
	}
	switch c.Kind {
	case Moved:
		fmt.Fprintf(&b, ": (%s, %s) → (%s, %s)", num(c.Before.Box.X), num(c.Before.Box.Y), num(c.After.Box.X), num(c.After.Box.Y))
	case Resized:
		fmt.Fprintf(&b, ": %s×%s → %s×%s", num(c.Before.Box.Width), num(c.Before.Box.Height), num(c.After.Box.Width), num(c.After.Box.Height))
	}
	for k, d := range c.Deltas {
		if k == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s → %s", d.Field, shown(d.From), shown(d.To))
	}
	return b.String()
}

func describe(n *NodeRef) string {
	role := n.Role
	if role == "" {
		role = n.Tag
	}
	if n.Name == "" {
		return role
	}
	return role + " " + strconv.Quote(screen.Clip(n.Name, maxShownValue))
}

func shown(v string) string {
	switch v {
	case "":
		return "none"
	case "true", "false", "mixed":
		return v
	}
	if _, err := strconv.Atoi(v); err == nil {
		return v
	}
	return strconv.Quote(screen.Clip(v, maxShownValue))
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// String is the diff as evidence shows it: a line saying where the page was
// and went, then a line per change ("no changes" when there are none).
func (r *Result) String() string {
	var b strings.Builder
	switch {
	case r.NewDocument:
		fmt.Fprintf(&b, "another document: %s → %s\n", r.BeforeURL, r.AfterURL)
	case r.Navigated:
		fmt.Fprintf(&b, "navigated: %s → %s\n", r.BeforeURL, r.AfterURL)
	default:
		fmt.Fprintf(&b, "at %s\n", r.AfterURL)
	}
	if len(r.Changes) == 0 {
		b.WriteString("no changes\n")
	}
	for _, c := range r.Changes {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Words says the changes at the given indexes of Changes in words, as
// String writes each, joined by "; ".
func (r *Result) Words(at []int) string {
	out := make([]string, 0, len(at))
	for _, k := range at {
		out = append(out, r.Changes[k].String())
	}
	return strings.Join(out, "; ")
}
