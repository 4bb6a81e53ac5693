package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestNoIconGlyphsInTrail builds steps on pages whose names, labels, texts
// and options hold icon-font glyphs (private use code points, in the basic
// plane and in plane 15): no intent, selector or end state written holds one
// (docs/selectors.md, Icon-font glyphs).
func TestNoIconGlyphsInTrail(t *testing.T) {
	page := func(kids ...*screentest.Spec) *screen.Screen {
		return shopPage("/cart", "glyphs", "Cart", kids...)
	}
	after := func(kids ...*screentest.Spec) *screen.Screen {
		return shopPage("/cart", "glyphs2", "Cart", kids...)
	}
	tests := []struct {
		name string
		rec  func() *session
	}{
		{"a text shown with a count", func() *session {
			return newSession().assertVisible(page(leaf("status", "status", "\uf217 3 items in the cart")), "status")
		}},
		{"a text shown on lines with glyphs", func() *session {
			return newSession().assertVisible(page(leaf("card", "generic", "\U000F0110\nEarnings (Monthly)\n$40,000")), "card")
		}},
		{"a text shown whose count may change", func() *session {
			return newSession().assertVisible(page(leaf("review", "link", "\uf217 Review order\n2 items", screentest.Name("\uf217 Review order 2 items"))), "review")
		}},
		{"a field labelled with a glyph", func() *session {
			return newSession().typ(page(el("user", "textbox", labelled("\uf007 Username"))), "user", "ada")
		}},
		{"an option with a glyph", func() *session {
			return newSession().choose(page(el("size", "combobox", labelled("\uf0d7 Size"))), "size", "\uf0c8 Large")
		}},
		{"a click whose end shows a glyph", func() *session {
			before := page(leaf("save", "button", "\uf0c7 Save"))
			return newSession().click(before, "save").assertURL(after(leaf("save", "button", "\uf0c7 Save"), leaf("done", "status", "\uf00c Saved 3 items")))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bt, err := BuildSteps(tt.rec().recs, nil, BuildOptions{BaseURL: shopOrigin})
			if err != nil {
				t.Fatal(err)
			}
			out, err := trail.MarshalTrail(trailOf(bt))
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(out), "\n") {
				// A select's option is the option's label as it is: replay
				// chooses the option by it.
				if strings.Contains(line, "- select: ") {
					line, _, _ = strings.Cut(line, "option:")
				}
				if strings.ContainsFunc(line, func(r rune) bool { return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0x10FFFD }) {
					t.Errorf("line %d of the trail holds an icon-font glyph: %q\n%s", i+1, line, out)

				}
			}
		})
	}
}
