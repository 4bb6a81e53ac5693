package trail

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
)

// The match modes of the legacy expectedText check.
const (
	legacyExact  = "EXACT"
	legacyPrefix = "PREFIX"
	legacyRegex  = "REGEX"
)

// legacyCheck is the retired second text check beside a selector:
// expectedText with its textMatchMode. A REGEX check matched the element's
// whole text.
type legacyCheck struct {
	Text    string
	HasText bool
	Mode    string
}

// legacySelector is what the migration needs to know of the selector beside
// a legacy check.
type legacySelector struct {
	Role, Text, TextRegex, Placeholder string
	HasIndex                           bool
}

type textOp int

const (
	// opDrop removes the legacy keys and leaves the selector as it is.
	opDrop textOp = iota
	// opSetText sets the selector's text (removing any textRegex).
	opSetText
	// opSetRegex sets the selector's textRegex (removing any text).
	opSetRegex
	// opLeave changes nothing: the check cannot be expressed faithfully.
	opLeave
)

// textMigration is what to do with one legacy check.
type textMigration struct {
	Op    textOp
	Value string
	// Note says what was done (or, for opLeave, why not), in words for the
	// person reading the migration report.
	Note string
}

// textFieldRoles are roles whose elements show a value, not text: the legacy
// check compared their value or hint, which a selector's text never sees.
var textFieldRoles = []string{"textbox", "searchbox", "combobox", "spinbutton"}

// migrateText decides how a legacy check folds into its selector (docs/trail-format.md
// ): drop it where the selector already pins the same text, narrow a broad
// textRegex to the literal, fold the rest in (text for EXACT, an anchored
// textRegex for PREFIX and REGEX), and leave what cannot be said faithfully.
func migrateText(sel legacySelector, chk legacyCheck) textMigration {
	if !chk.HasText {
		return textMigration{Op: opDrop, Note: "removed textMatchMode, which had no expectedText"}
	}
	mode := chk.Mode
	if mode == "" {
		mode = legacyExact
	}
	var m textMigration
	switch mode {
	case legacyExact:
		m = migrateExact(sel, chk.Text)
	case legacyPrefix:
		m = migratePrefix(sel, chk.Text)
	case legacyRegex:
		m = migrateRegex(sel, chk.Text)
	default:
		return leave("textMatchMode %q is not EXACT, PREFIX or REGEX", mode)
	}
	if m.Op == opSetText || m.Op == opSetRegex {
		if reason := cannotChangeSelector(sel); reason != "" {
			return leave("%s", reason)
		}
	}
	return m
}

func leave(format string, args ...any) textMigration {
	return textMigration{Op: opLeave, Note: fmt.Sprintf(format, args...)}
}

// cannotChangeSelector says why adding text to sel would change which
// element it finds, or "" when it would not.
func cannotChangeSelector(sel legacySelector) string {
	switch {
	case sel.HasIndex:
		return "the selector has an index, counted among the elements it matches without this text; adding the text changes what the index counts: record the step again, or add the text and recount the index by hand"
	case isOneOf(sel.Role, textFieldRoles) || sel.Placeholder != "":
		return "the selector finds a text field, whose value or hint the legacy check compared; a selector's text does not see either: check the value with assertValue instead"
	}
	return ""
}

func migrateExact(sel legacySelector, expected string) textMigration {
	if hasOddSpace(expected) {
		return leave("expectedText %q has a non-breaking or other unusual space, which the legacy check treated as a plain space: write the text as the page shows it by hand", expected)
	}
	want := normalizeText(expected)
	if want == "" {
		return leave("expectedText is empty; a selector cannot require empty text: remove the check or pin another property by hand")
	}
	spaces := ""
	if want != expected {
		spaces = " (white space normalised as the page model does)"
	}
	switch {
	case sel.Text != "":
		if sel.Text == want {
			return textMigration{Op: opDrop, Note: fmt.Sprintf("dropped expectedText %q: the selector already pins that text", expected)}
		}
		return leave("the selector pins text %q but expectedText is %q, so the step could never pass as written: decide which is right", sel.Text, expected)
	case sel.TextRegex != "":
		re, err := regexp.Compile(sel.TextRegex)
		if err != nil {
			return leave("the selector's textRegex %q does not compile: %v", sel.TextRegex, err)
		}
		if !re.MatchString(want) {
			return leave("the selector's textRegex %q does not match expectedText %q, so the step could never pass as written: decide which is right", sel.TextRegex, expected)
		}
		return textMigration{Op: opSetText, Value: want,
			Note: fmt.Sprintf("narrowed textRegex %q to the literal text %q%s", sel.TextRegex, want, spaces)}
	}
	return textMigration{Op: opSetText, Value: want, Note: fmt.Sprintf("folded expectedText %q into the selector as text%s", expected, spaces)}
}

func migratePrefix(sel legacySelector, expected string) textMigration {
	if hasOddSpace(expected) {
		return leave("expectedText %q has a non-breaking or other unusual space, which the legacy check treated as a plain space: write the text as the page shows it by hand", expected)
	}
	prefix := normalizePrefix(expected)
	if prefix == "" {
		return textMigration{Op: opDrop, Note: "dropped an empty PREFIX expectedText, which checked nothing"}
	}
	anchored := "^" + regexp.QuoteMeta(prefix)
	switch {
	case sel.Text != "":
		if strings.HasPrefix(sel.Text, prefix) {
			return textMigration{Op: opDrop, Note: fmt.Sprintf("dropped PREFIX expectedText %q: the selector's text %q already starts with it", expected, sel.Text)}
		}
		return leave("the selector pins text %q, which does not start with expectedText %q, so the step could never pass as written: decide which is right", sel.Text, expected)
	case sel.TextRegex == anchored:
		return textMigration{Op: opDrop, Note: fmt.Sprintf("dropped PREFIX expectedText %q: the selector's textRegex already requires it", expected)}
	case sel.TextRegex != "":
		if !prefixImplies(sel.TextRegex, prefix) {
			return leave("the selector's textRegex %q and PREFIX expectedText %q cannot be combined into one selector faithfully: write one textRegex that says both by hand", sel.TextRegex, expected)
		}
		return textMigration{Op: opSetRegex, Value: anchored,
			Note: fmt.Sprintf("narrowed textRegex %q to %q, the literal prefix", sel.TextRegex, anchored)}
	}
	return textMigration{Op: opSetRegex, Value: anchored, Note: fmt.Sprintf("folded PREFIX expectedText %q into the selector as textRegex %q", expected, anchored)}
}

func migrateRegex(sel legacySelector, pattern string) textMigration {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return leave("expectedText %q is not a regular expression Go can read (RE2 syntax): rewrite it by hand", pattern)
	}
	if lit, ok := literalOf(re); ok {
		m := migrateExact(sel, lit)
		if m.Op != opLeave {
			m.Note = fmt.Sprintf("REGEX expectedText %q is a literal: %s", pattern, m.Note)
		}
		return m
	}
	full := regexp.MustCompile(anchorWhole(pattern))
	switch {
	case sel.Text != "":
		if full.MatchString(sel.Text) {
			return textMigration{Op: opDrop, Note: fmt.Sprintf("dropped REGEX expectedText %q: the selector's text %q already matches it", pattern, sel.Text)}
		}
		return leave("the selector pins text %q, which REGEX expectedText %q does not match, so the step could never pass as written: decide which is right", sel.Text, pattern)
	case foldsCase(re):
		return leave("REGEX expectedText %q ignores case, and selectors match case-sensitively (docs/selectors.md): write the exact text or a case-sensitive pattern by hand", pattern)
	case sel.TextRegex == anchorWhole(pattern):
		return textMigration{Op: opDrop, Note: fmt.Sprintf("dropped REGEX expectedText %q: the selector's textRegex already requires it", pattern)}
	case sel.TextRegex == pattern:
		return textMigration{Op: opSetRegex, Value: anchorWhole(pattern),
			Note: fmt.Sprintf("anchored textRegex %q to the whole text, as the REGEX expectedText checked it", pattern)}
	case sel.TextRegex != "":
		return leave("the selector's textRegex %q and REGEX expectedText %q cannot be combined into one selector faithfully: write one textRegex that says both by hand", sel.TextRegex, pattern)
	}
	return textMigration{Op: opSetRegex, Value: anchorWhole(pattern),
		Note: fmt.Sprintf("folded REGEX expectedText %q into the selector as textRegex %q", pattern, anchorWhole(pattern))}
}

// normalizeText normalises text as the page model does (docs/screen-schema.md):
// runs of spaces and tabs collapse, each line is trimmed, empty lines drop.
func normalizeText(s string) string {
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' }), " ")
		if line != "" {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

// normalizePrefix normalises a prefix like normalizeText but keeps what its
// end requires: a word that must be followed by a space or a line break
// ("Total " must not match "Totals").
func normalizePrefix(s string) string {
	n := normalizeText(s)
	if n == "" {
		return ""
	}
	trimmed := strings.TrimRight(s, " \t\r")
	switch {
	case strings.HasSuffix(trimmed, "\n"):
		return n + "\n"
	case len(trimmed) < len(s):
		return n + " "
	}
	return n
}

// hasOddSpace reports white space other than space, tab and line breaks:
// the page model keeps it, the legacy check did not.
func hasOddSpace(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) && r != ' ' && r != '\t' && r != '\n' && r != '\r'
	})
}

// anchorWhole makes a pattern match the whole text, as the legacy REGEX
// check did; one already anchored at both ends is kept as written.
func anchorWhole(pattern string) string {
	if re, err := syntax.Parse(pattern, syntax.Perl); err == nil && re.Op == syntax.OpConcat &&
		len(re.Sub) >= 2 && re.Sub[0].Op == syntax.OpBeginText && re.Sub[len(re.Sub)-1].Op == syntax.OpEndText {
		return pattern
	}
	return "^(?:" + pattern + ")$"
}

// literalOf returns the text a pattern stands for when it matches exactly
// one string, case-sensitively.
func literalOf(re *syntax.Regexp) (string, bool) {
	switch {
	case re.Op == syntax.OpLiteral && re.Flags&syntax.FoldCase == 0:
		return string(re.Rune), true
	case re.Op == syntax.OpConcat:
		var b strings.Builder
		for i, sub := range re.Sub {
			switch {
			case sub.Op == syntax.OpBeginText && i == 0, sub.Op == syntax.OpEndText && i == len(re.Sub)-1:
			case sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0:
				b.WriteString(string(sub.Rune))
			default:
				return "", false
			}
		}
		return b.String(), true
	}
	return "", false
}

// foldsCase reports whether any part of a pattern ignores case.
func foldsCase(re *syntax.Regexp) bool {
	if re.Flags&syntax.FoldCase != 0 {
		return true
	}
	for _, sub := range re.Sub {
		if foldsCase(sub) {
			return true
		}
	}
	return false
}

// prefixImplies reports whether every text starting with prefix matches
// pattern (searched anywhere in the text, as textRegex is). It holds when
// the pattern matches inside the prefix and asserts nothing about what
// follows a match (no $, \z or word boundaries), so the same match is
// found in every longer text.
func prefixImplies(pattern, prefix string) bool {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || looksAhead(re) {
		return false
	}
	return regexp.MustCompile(pattern).MatchString(prefix)
}

func looksAhead(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEndText, syntax.OpEndLine, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if looksAhead(sub) {
			return true
		}
	}
	return false
}
