package screen

import (
	"fmt"
	"strings"
)

// dumpSnapshot writes every field of nodes (but Line), one node a line, so
// two trees compare as strings and a difference shows where it is.
func dumpSnapshot(nodes []*SnapshotNode) string {
	var b strings.Builder
	var walk func([]*SnapshotNode, int)
	walk = func(nodes []*SnapshotNode, depth int) {
		for _, n := range nodes {
			b.WriteString(strings.Repeat("  ", depth))
			if n.IsText() {
				fmt.Fprintf(&b, "text %q\n", n.Text)
				continue
			}
			fmt.Fprintf(&b, "%s %q", n.Role, n.Name)
			if n.Text != "" {
				fmt.Fprintf(&b, " text=%q", n.Text)
			}
			for _, f := range []struct{ k, v string }{
				{"ref", n.Ref}, {"checked", n.Checked}, {"pressed", n.Pressed},
				{"invalid", n.Invalid}, {"url", n.URL},
			} {
				if f.v != "" {
					fmt.Fprintf(&b, " %s=%q", f.k, f.v)
				}
			}
			for _, f := range []struct {
				k string
				v bool
			}{{"disabled", n.Disabled}, {"expanded", n.Expanded}, {"selected", n.Selected}, {"active", n.Active}} {
				if f.v {
					b.WriteString(" " + f.k)
				}
			}
			if n.Level != 0 {
				fmt.Fprintf(&b, " level=%d", n.Level)
			}
			for _, p := range n.Props {
				fmt.Fprintf(&b, " /%s=%q", p.Name, p.Value)
			}
			for _, a := range n.Extra {
				fmt.Fprintf(&b, " [%s=%q]", a.Name, a.Value)
			}
			b.WriteString("\n")
			walk(n.Children, depth+1)
		}
	}
	walk(nodes, 0)
	return b.String()
}

// asWritten is what a tree reads back as once written: a name too long for
// the line is left out of it.
func asWritten(nodes []*SnapshotNode) []*SnapshotNode {
	out := make([]*SnapshotNode, len(nodes))
	for i, n := range nodes {
		c := *n
		if utf16Len(c.Name) > maxSnapshotNameUnits {
			c.Name = ""
		}
		c.Children = asWritten(n.Children)
		out[i] = &c
	}
	return out
}
