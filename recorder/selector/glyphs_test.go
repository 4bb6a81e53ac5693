package selector

import (
	"testing"

	st "github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

func TestStripIconGlyphs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\uf013 Components \uf105", "Components"},
		{"Alerts \uf0f3 3+", "Alerts 3+"},
		{"\U000f0001Logout", "Logout"},
		{"\uf00d", "\uf00d"}, // an icon-only name has nothing else
		{"Delete ×", "Delete ×"},
		{"日本語", "日本語"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := StripIconGlyphs(tt.in); got != tt.want {
			t.Errorf("StripIconGlyphs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGenerateLeavesIconGlyphsOut: a link whose icon font draws a gear
// before its name and a chevron after it, the chevron changing when its
// group opens, is named by its words, and that selector holds in both
// states; a selector written with the glyphs still matches.
func TestGenerateLeavesIconGlyphsOut(t *testing.T) {
	page := func(chevron string) *st.Spec {
		return st.El("navigation", st.Name("Sidebar"), st.Kids(
			st.Leaf("link", "\uf013 Components "+chevron, st.Ref("components")),
			st.Leaf("link", "\uf0ad Utilities \uf105", st.Ref("utilities")),
		))
	}
	closed, open := st.Page(page("\uf105")), st.Page(page("\uf107"))
	got, err := Generate(PurposeTap, "components", closed, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{role: link, name: Components}`; got.String() != want {
		t.Errorf("Generate(tap components) = %q, want %q", got, want)
	}
	for _, sel := range []Selector{got, {Role: "link", Name: "\uf013 Components \uf105"}} {
		for name, s := range map[string]*screen.Screen{"closed": closed, "open": open} {
			nodes, err := Match(s, sel)
			if err != nil || nodes[0].Ref != "components" {
				t.Errorf("Match(%s) on the %s sidebar = %v, %v; want the Components link", sel, name, nodes, err)
			}
		}
	}
	if nodes, err := Match(closed, Selector{Role: "link", Name: "Components \uf105"}); err != nil || nodes[0].Ref != "components" {
		t.Errorf("a name with some of the glyphs: %v, %v", nodes, err)
	}
}
