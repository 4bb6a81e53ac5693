package main

// This file is a stand-in until recorder.RenderSnapshot lands; delete it at
// merge and let renderSnapshot call the real renderer:
//
//	func renderSnapshot(s *recorder.Screen, interactive bool) string {
//		return recorder.RenderSnapshot(s, recorder.SnapshotOptions{Interactive: interactive})
//	}
//
// It writes one line per node with a role, without Playwright's quoting
// rules, shorthands or generic-node folding.

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder"
)

func renderSnapshot(s *recorder.Screen, interactive bool) string {
	var b strings.Builder
	var walk func(n *recorder.Node, depth int)
	walk = func(n *recorder.Node, depth int) {
		if n.IsText() {
			if !interactive && n.Visible && n.Text != "" {
				fmt.Fprintf(&b, "%s- text: %s\n", strings.Repeat("  ", depth), strings.ReplaceAll(n.Text, "\n", " "))
			}
			return
		}
		shown := n.Visible || n.Frame != ""
		if interactive {
			shown = shown && n.Covered != nil
		}
		if shown && !n.AriaHidden && n.Role != "none" && n.Role != "presentation" {
			fmt.Fprintf(&b, "%s- %s", strings.Repeat("  ", depth), n.Role)
			if n.Name != "" {
				fmt.Fprintf(&b, " %q", n.Name)
			}
			fmt.Fprintf(&b, " [ref=%s]\n", n.Ref)
			depth++
		}
		for _, c := range n.Children {
			walk(c, depth)
		}
	}
	walk(s.Root, 0)
	return b.String()
}
