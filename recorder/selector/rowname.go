package selector

import (
	"strings"

	"github.com/trailpin/trailpin/recorder/screen"
)

// NameWithoutRow reads the name of the control at pos the way a person
// names it when the name carries the whole content of the row it lies in:
// a data grid names each row's checkbox "Select Row" and every cell of the
// row ("Select Row Liam Johnson Support 56 $62,000 2017-11"), which
// changes when any cell does. It returns the name without the row's
// content ("Select Row") and the row's position; the name itself and -1
// when it carries no row's content.
func NameWithoutRow(m *Matcher, pos int32) (string, int32) {
	name := screen.CollapseSpace(m.nodes[pos].Name)
	for a := m.parent[pos]; a >= 0; a = m.parent[a] {
		if !IsRowRole(m.nodes[a].Role) {
			continue
		}
		content := screen.CollapseSpace(m.text(a))
		// A row that holds its title alone has no more content to carry.
		title := screen.CollapseSpace(RowTitle(m, a))
		if content == "" || title == "" || title == content || !strings.Contains(name, content) {
			return name, -1
		}
		return screen.CollapseSpace(strings.Replace(name, content, "", 1)), a
	}
	return name, -1
}
