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

func TestStripTextGlyphs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"\uf073\nEarnings (Monthly)\n$40,000", "Earnings (Monthly)\n$40,000"},
		{"Earnings (Monthly)\n$40,000 \uf073", "Earnings (Monthly)\n$40,000"},
		{"\uf0e0 Messages\n7", "Messages\n7"},
		{"\uf00d\n\uf013", "\uf00d\n\uf013"}, // icons alone have nothing else
		{"Delete ×", "Delete ×"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := StripTextGlyphs(tt.in); got != tt.want {
			t.Errorf("StripTextGlyphs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGenerateAssertsTextWithoutIconGlyphs: an assertion on a card whose
// icon font draws a calendar on a line of its own, and on a link whose
// chevron changes when its group opens, pins their words; the selector
// holds when the glyph changes, and one written with the glyphs still
// matches.
func TestGenerateAssertsTextWithoutIconGlyphs(t *testing.T) {
	page := func(icon, chevron string) *screen.Screen {
		return st.Page(st.El("main", st.Kids(
			st.El("generic", st.Ref("card"), st.Kids(
				st.Leaf("generic", "Earnings (Monthly)"),
				st.Leaf("generic", "$40,000"),
				st.Leaf("generic", icon),
			)),
			st.El("generic", st.Ref("menu"), st.Kids(st.Txt("\uf013 Components "+chevron))),
		)))
	}
	before, after := page("\uf073", "\uf105"), page("\uf274", "\uf107")
	for _, tt := range []struct{ ref, want string }{
		{"card", "{text: \"Earnings (Monthly)\\n$40,000\"}"},
		{"menu", "{text: Components}"},
	} {
		got, err := Generate(PurposeAssert, tt.ref, before, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != tt.want {
			t.Errorf("Generate(assert %s) = %q, want %q", tt.ref, got, tt.want)
		}
		for name, s := range map[string]*screen.Screen{"before": before, "after": after} {
			if nodes, err := Match(s, got); err != nil || nodes[0].Ref != tt.ref {
				t.Errorf("Match(%s) %s the glyph changed = %v, %v; want %s", got, name, nodes, err, tt.ref)
			}
		}
	}
	written := Selector{Text: "\uf073\nEarnings (Monthly)\n$40,000"}
	if nodes, err := Match(after, written); err != nil || nodes[0].Ref != "card" {
		t.Errorf("Match(%s) = %v, %v; want the card", written, nodes, err)
	}
}
