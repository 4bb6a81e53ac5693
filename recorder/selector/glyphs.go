package selector

import (
	"strings"
	"unicode/utf8"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Icon-font glyphs.
//
// Icon fonts (Font Awesome, Bootstrap Icons, Material Icons' ligature-free
// builds) draw their icons from ::before / ::after content in the Unicode
// private use areas, and that content becomes part of an element's
// accessible name: SB Admin 2's sidebar link is named "\uf013 Components
// \uf105", and the trailing chevron turns into \uf107 when the group opens.
// The glyphs are decoration that changes with the page's state, so names
// are compared without them (the matcher) and written without them (the
// generator, intents): the link is {role: link, name: Components}.

// StripIconGlyphs returns s without private-use characters, its spaces
// collapsed again; s itself when it has none, or when it is nothing but
// glyphs (an icon-only name has nothing else to be compared by).
func StripIconGlyphs(s string) string {
	if !hasIconGlyph(s) {
		return s
	}
	plain := screen.CollapseSpace(strings.Map(func(r rune) rune {
		if isIconGlyph(r) {
			return ' '
		}
		return r
	}, s))
	if plain == "" {
		return s
	}
	return plain
}

// StripTextGlyphs is StripIconGlyphs for a normalised text, line by line:
// each line loses its glyphs and its spaces are collapsed again, and a line
// that held nothing else is dropped (an icon drawn on a line of its own).
// s itself when it has none, or when it is nothing but glyphs. Texts are
// compared and pinned this way: an assertion on a card that draws a
// calendar before "Earnings (Monthly)" checks the words.
func StripTextGlyphs(s string) string {
	if !hasIconGlyph(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, line := range lines {
		if line = StripIconGlyphs(line); line != "" && !isGlyphsOnly(line) {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		return s
	}
	return strings.Join(out, "\n")
}

// IsIconGlyphsOnly reports whether s holds icon-font glyphs and nothing
// else but spaces: the name or text of an icon-only control (SB Admin 2's
// sidebar toggle is named "\uf104"). Matching keeps such a name, having
// nothing else to compare; a person reads nothing in it.
func IsIconGlyphsOnly(s string) bool { return hasIconGlyph(s) && isGlyphsOnly(s) }

// isGlyphsOnly reports whether s holds private-use characters and spaces
// alone (StripIconGlyphs keeps such a line as it is).
func isGlyphsOnly(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return isIconGlyph(r) || r == ' ' }) == ""
}

// hasIconGlyph reports whether s holds a private-use character. Their
// UTF-8 forms start with a byte of 0xEE or more (0xEE, 0xEF for
// U+E000–U+F8FF, 0xF3, 0xF4 for planes 15 and 16), which most names never
// hold, so most strings are passed over by one comparison per eight
// bytes.
func hasIconGlyph(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		// Eight ASCII bytes at a time: every screen has thousands of names.
		if s[i]|s[i+1]|s[i+2]|s[i+3]|s[i+4]|s[i+5]|s[i+6]|s[i+7] >= 0x80 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0xEE {
			if r, _ := utf8.DecodeRuneInString(s[i:]); isIconGlyph(r) {
				return true
			}
		}
	}
	return false
}

func isIconGlyph(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0x10FFFD
}
