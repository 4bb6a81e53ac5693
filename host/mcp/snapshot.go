package mcp

import (
	"fmt"
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// A snapshot is the text of a page the client reads: the unquoted
// Playwright-style outline with refs (recorder/screen), scoped to one
// element when asked, and cut at whole lines once it reaches the cap, with
// what was left out counted.
type snapshot struct {
	text string
	// leftLines and leftRefs count the lines, and the elements with a ref
	// among them, left out by the cap.
	leftLines, leftRefs int
}

// renderSnapshot renders s (below the element of ref, when ref is set)
// within limit bytes.
func renderSnapshot(s *screen.Screen, ref string, interactive bool, limit int) (snapshot, error) {
	scoped := s
	if ref != "" {
		n := selector.NewMatcher(s).Node(ref)
		if n == nil {
			return snapshot{}, fmt.Errorf("ref %s is not on the page: take browser_snapshot without ref and use a ref from it", ref)
		}
		c := *s
		c.Root = &screen.Node{Tag: "body", Visible: true, Children: []*screen.Node{n}}
		scoped = &c
	}
	text := screen.RenderSnapshot(scoped, screen.SnapshotOptions{Interactive: interactive})
	return capLines(text, limit), nil
}

// capLines keeps the whole lines of text that fit in limit bytes.
func capLines(text string, limit int) snapshot {
	if len(text) <= limit {
		return snapshot{text: text}
	}
	lines := strings.Split(text, "\n")
	size, kept := 0, 0
	for kept < len(lines) && size+len(lines[kept])+1 <= limit {
		size += len(lines[kept]) + 1
		kept++
	}
	out := snapshot{text: strings.Join(lines[:kept], "\n"), leftLines: len(lines) - kept}
	for _, l := range lines[kept:] {
		if strings.Contains(l, "[ref=") {
			out.leftRefs++
		}
	}
	return out
}

// page writes the page's address, title and snapshot for the client.
func (sn snapshot) page(s *screen.Screen) string {
	var b strings.Builder
	writePage(&b, s.URL, s.Title, sn.text)
	if sn.leftLines > 0 {
		fmt.Fprintf(&b, "[Snapshot cut at the size limit: %d more lines left out, %d of them elements with a ref. "+
			"Call browser_snapshot with ref set to a region's ref to see it whole, or with interactive: true for controls only.]\n",
			sn.leftLines, sn.leftRefs)
	}
	return b.String()
}

// writePage writes a page's address, title and snapshot text as every
// tool that shows a page does, in both modes.
func writePage(b *strings.Builder, url, title, text string) {
	fmt.Fprintf(b, "- Page URL: %s\n- Page Title: %s\n- Page Snapshot:\n```yaml\n%s\n```\n", url, title, text)
}
