package trail

import (
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// TrailFileExt is the extension of a trail file; a folder of trails is the
// files that end with it.
const TrailFileExt = ".trail.yaml"

// maxSlugRunes keeps file names short enough to read in a file list and in
// CI logs; titles longer than this are cut at a word boundary.
const maxSlugRunes = 60

// minSlugCut is how much of a long slug is kept at least when cutting it at
// a word boundary, so a long first word does not leave almost nothing.
const minSlugCut = 20

// foldLetters are letters that Unicode does not decompose into a base
// letter and a mark, spelled the way people write them in ASCII.
var foldLetters = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d", 'ð': "d", 'þ': "th", 'ı': "i",
}

// windowsReserved are names Windows refuses for a file, whatever the
// extension.
var windowsReserved = strings.Fields("con prn aux nul com1 com2 com3 com4 com5 com6 com7 com8 com9 lpt1 lpt2 lpt3 lpt4 lpt5 lpt6 lpt7 lpt8 lpt9")

// Slug turns a trail title into the name its file and results folder use:
// lower case, accents dropped, words joined by "-" ("Apply a discount!" →
// "apply-a-discount"). Letters of other scripts are kept. An empty result is
// "trail".
func Slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(title) {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		switch {
		case foldLetters[r] != "":
			b.WriteString(foldLetters[r])
			dash = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	s := norm.NFC.String(strings.TrimSuffix(b.String(), "-"))
	if runes := []rune(s); len(runes) > maxSlugRunes {
		s = string(runes[:maxSlugRunes])
		if i := strings.LastIndexByte(s, '-'); i >= minSlugCut {
			s = s[:i]
		}
		s = strings.TrimSuffix(s, "-")
	}
	switch {
	case s == "":
		return "trail"
	case isOneOf(s, windowsReserved):
		return s + "-trail"
	}
	return s
}

// FreeTrailFileName returns the file name for a new trail titled title that
// clashes with none of existing (file names, compared ignoring case as
// macOS and Windows do): "apply-a-discount.trail.yaml", else "…-2", "…-3"….
func FreeTrailFileName(title string, existing []string) string {
	taken := make(map[string]bool, len(existing))
	for _, name := range existing {
		taken[strings.ToLower(name)] = true
	}
	slug := Slug(title)
	name := slug + TrailFileExt
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = slug + "-" + strconv.Itoa(n) + TrailFileExt
	}
	return name
}
