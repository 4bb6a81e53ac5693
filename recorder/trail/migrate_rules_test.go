package trail

import (
	"regexp"
	"strings"
	"testing"
)

func TestMigrateText(t *testing.T) {
	idx := legacySelector{Role: "button", HasIndex: true}
	tests := []struct {
		name  string
		sel   legacySelector
		chk   legacyCheck
		op    textOp
		value string
		note  string // a part of the note
	}{
		// Only a mode, no text.
		{"mode alone", legacySelector{Role: "status"}, legacyCheck{Mode: "EXACT"}, opDrop, "", "removed textMatchMode"},
		{"unknown mode", legacySelector{Role: "status"}, legacyCheck{Text: "a", HasText: true, Mode: "FUZZY"}, opLeave, "", `"FUZZY"`},

		// EXACT: drop where already pinned, fold otherwise.
		{"exact already pinned", legacySelector{Role: "status", Text: "Saved"}, legacyCheck{Text: "Saved", HasText: true, Mode: "EXACT"}, opDrop, "", "already pins"},
		{"exact is the default mode", legacySelector{Role: "status", Text: "Saved"}, legacyCheck{Text: "Saved", HasText: true}, opDrop, "", "already pins"},
		{"exact conflicts with pinned text", legacySelector{Text: "Saved"}, legacyCheck{Text: "Sent", HasText: true}, opLeave, "", "could never pass"},
		{"exact folds into text", legacySelector{Role: "status"}, legacyCheck{Text: "$5.00", HasText: true}, opSetText, "$5.00", "folded"},
		{"exact normalises white space", legacySelector{Role: "status"}, legacyCheck{Text: "  Review   sale \n\n 3 items ", HasText: true}, opSetText, "Review sale\n3 items", "normalised"},
		{"exact with a non-breaking space", legacySelector{Role: "status"}, legacyCheck{Text: "5\u00a0€", HasText: true}, opLeave, "", "unusual space"},
		{"exact empty", legacySelector{Role: "status"}, legacyCheck{Text: " ", HasText: true}, opLeave, "", "empty"},
		{"exact narrows a broad textRegex", legacySelector{Role: "link", TextRegex: "Library"}, legacyCheck{Text: "Library", HasText: true}, opSetText, "Library", "narrowed"},
		{"exact narrows a number-tolerant textRegex", legacySelector{TextRegex: `^iPhone \d+$`}, legacyCheck{Text: "iPhone 17", HasText: true}, opSetText, "iPhone 17", "narrowed"},
		{"exact conflicts with textRegex", legacySelector{TextRegex: `^iPhone \d+$`}, legacyCheck{Text: "Pixel", HasText: true}, opLeave, "", "does not match"},
		{"exact with index", idx, legacyCheck{Text: "Buy", HasText: true}, opLeave, "", "index"},
		{"exact with index already pinned", legacySelector{Text: "Buy", HasIndex: true}, legacyCheck{Text: "Buy", HasText: true}, opDrop, "", "already pins"},
		{"exact on a text field", legacySelector{Role: "textbox"}, legacyCheck{Text: "a@b.c", HasText: true}, opLeave, "", "text field"},
		{"exact on a placeholder selector", legacySelector{Placeholder: "Search"}, legacyCheck{Text: "shoes", HasText: true}, opLeave, "", "text field"},

		// PREFIX: an anchored, quoted textRegex.
		{"prefix folds", legacySelector{Role: "heading"}, legacyCheck{Text: "Order #12 (", HasText: true, Mode: "PREFIX"}, opSetRegex, `^Order #12 \(`, "folded PREFIX"},
		{"prefix keeps a trailing space", legacySelector{Role: "heading"}, legacyCheck{Text: "Total  ", HasText: true, Mode: "PREFIX"}, opSetRegex, `^Total `, "folded PREFIX"},
		{"prefix of pinned text", legacySelector{Text: "Total: $5"}, legacyCheck{Text: "Total", HasText: true, Mode: "PREFIX"}, opDrop, "", "already starts"},
		{"prefix conflicts with pinned text", legacySelector{Text: "Sum: $5"}, legacyCheck{Text: "Total", HasText: true, Mode: "PREFIX"}, opLeave, "", "could never pass"},
		{"prefix already required", legacySelector{TextRegex: `^Total\.`}, legacyCheck{Text: "Total.", HasText: true, Mode: "PREFIX"}, opDrop, "", "already requires"},
		{"prefix narrows a broad textRegex", legacySelector{TextRegex: `Review`}, legacyCheck{Text: "Review sale", HasText: true, Mode: "PREFIX"}, opSetRegex, `^Review sale`, "narrowed"},
		{"prefix cannot combine with an end anchor", legacySelector{TextRegex: `sale$`}, legacyCheck{Text: "Review sale", HasText: true, Mode: "PREFIX"}, opLeave, "", "cannot be combined"},
		{"prefix cannot combine with a word boundary", legacySelector{TextRegex: `sale\b`}, legacyCheck{Text: "Review sale", HasText: true, Mode: "PREFIX"}, opLeave, "", "cannot be combined"},
		{"prefix empty", legacySelector{Role: "heading"}, legacyCheck{Text: "", HasText: true, Mode: "PREFIX"}, opDrop, "", "checked nothing"},
		{"prefix with index", idx, legacyCheck{Text: "Buy", HasText: true, Mode: "PREFIX"}, opLeave, "", "index"},

		// REGEX: anchored to the whole text, as the legacy check matched.
		{"regex folds anchored", legacySelector{Role: "status"}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}, opSetRegex, `^(?:\d+ items)$`, "folded REGEX"},
		{"regex already anchored", legacySelector{Role: "status"}, legacyCheck{Text: `^\d+ items$`, HasText: true, Mode: "REGEX"}, opSetRegex, `^\d+ items$`, "folded REGEX"},
		{"regex alternation is wrapped", legacySelector{Role: "status"}, legacyCheck{Text: `^a|b$`, HasText: true, Mode: "REGEX"}, opSetRegex, `^(?:^a|b$)$`, "folded REGEX"},
		{"regex literal becomes text", legacySelector{Role: "link"}, legacyCheck{Text: `Library`, HasText: true, Mode: "REGEX"}, opSetText, "Library", "is a literal"},
		{"regex escaped literal becomes text", legacySelector{Role: "link"}, legacyCheck{Text: `^\$5\.00$`, HasText: true, Mode: "REGEX"}, opSetText, "$5.00", "is a literal"},
		{"regex ignoring case", legacySelector{Role: "link"}, legacyCheck{Text: `(?i)library`, HasText: true, Mode: "REGEX"}, opLeave, "", "ignores case"},
		{"regex ignoring case on pinned text", legacySelector{Text: "Library"}, legacyCheck{Text: `(?i)library`, HasText: true, Mode: "REGEX"}, opDrop, "", "already matches"},
		{"regex matches pinned text", legacySelector{Text: "3 items"}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}, opDrop, "", "already matches"},
		{"regex conflicts with pinned text", legacySelector{Text: "three items"}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}, opLeave, "", "could never pass"},
		{"regex same as textRegex", legacySelector{TextRegex: `\d+ items`}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}, opSetRegex, `^(?:\d+ items)$`, "anchored"},
		{"regex already required", legacySelector{TextRegex: `^(?:\d+ items)$`}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}, opDrop, "", "already requires"},
		{"regex beside another textRegex", legacySelector{TextRegex: `items`}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}, opLeave, "", "cannot be combined"},
		{"regex Go cannot read", legacySelector{Role: "status"}, legacyCheck{Text: `(?<=a)b`, HasText: true, Mode: "REGEX"}, opLeave, "", "RE2"},
		{"regex with index", idx, legacyCheck{Text: `\d+`, HasText: true, Mode: "REGEX"}, opLeave, "", "index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := migrateText(tt.sel, tt.chk)
			if got.Op != tt.op || got.Value != tt.value || !strings.Contains(got.Note, tt.note) {
				t.Errorf("migrateText(%+v, %+v) = {op %d, %q, %q}, want {op %d, %q, note with %q}",
					tt.sel, tt.chk, got.Op, got.Value, got.Note, tt.op, tt.value, tt.note)
			}
			if got.Op == opSetRegex {
				if _, err := regexp.Compile(got.Value); err != nil {
					t.Errorf("migrateText gave textRegex %q that does not compile: %v", got.Value, err)
				}
			}
		})
	}
}

// TestMigrateTextKeepsMeaning checks the folded selector accepts exactly the
// texts that the selector and the legacy check together accepted, on a set
// of sample texts.
func TestMigrateTextKeepsMeaning(t *testing.T) {
	samples := []string{"Library", "library", "Library card", "My Library", "iPhone 17", "iPhone 18", "Review sale",
		"Review sale\n3 items", "Review sales", "3 items", "12 items", "items", "Total", "Total 5", "Totals", "$5.00", "$5x00", ""}
	cases := []struct {
		sel legacySelector
		chk legacyCheck
	}{
		{legacySelector{TextRegex: "Library"}, legacyCheck{Text: "Library", HasText: true}},
		{legacySelector{TextRegex: `iPhone \d+`}, legacyCheck{Text: "iPhone 17", HasText: true}},
		{legacySelector{TextRegex: "Review"}, legacyCheck{Text: "Review sale", HasText: true, Mode: "PREFIX"}},
		{legacySelector{}, legacyCheck{Text: "Total ", HasText: true, Mode: "PREFIX"}},
		{legacySelector{}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}},
		{legacySelector{TextRegex: `\d+ items`}, legacyCheck{Text: `\d+ items`, HasText: true, Mode: "REGEX"}},
		{legacySelector{}, legacyCheck{Text: `\$5\.00`, HasText: true, Mode: "REGEX"}},
	}
	for _, c := range cases {
		m := migrateText(c.sel, c.chk)
		if m.Op == opLeave {
			t.Fatalf("migrateText(%+v, %+v) left the check: %s", c.sel, c.chk, m.Note)
		}
		for _, text := range samples {
			before := selectorTextAccepts(c.sel, text) && legacyAccepts(c.chk, text)
			after := migratedAccepts(c.sel, m, text)
			if before != after {
				t.Errorf("migrateText(%+v, %+v) = %q: text %q accepted %v before, %v after", c.sel, c.chk, m.Value, text, before, after)
			}
		}
	}
}

func selectorTextAccepts(sel legacySelector, text string) bool {
	if sel.Text != "" && sel.Text != text {
		return false
	}
	return sel.TextRegex == "" || regexp.MustCompile(sel.TextRegex).MatchString(text)
}

func legacyAccepts(chk legacyCheck, text string) bool {
	switch chk.Mode {
	case "PREFIX":
		return strings.HasPrefix(text, chk.Text)
	case "REGEX":
		return regexp.MustCompile(`^(?:` + chk.Text + `)$`).MatchString(text)
	}
	return text == chk.Text
}

func migratedAccepts(sel legacySelector, m textMigration, text string) bool {
	switch m.Op {
	case opSetText:
		sel.Text, sel.TextRegex = m.Value, ""
	case opSetRegex:
		sel.Text, sel.TextRegex = "", m.Value
	}
	return selectorTextAccepts(sel, text)
}
