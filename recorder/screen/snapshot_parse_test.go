package screen

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSnapshotLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     string // dumpSnapshot of the result
	}{
		{"single-quoted key", `- 'button "Status: live" [ref=e4]'`,
			`button "Status: live" ref="e4"`},
		{"doubled quote in single-quoted key", `- 'button "It''s: here" [ref=e7]'`,
			`button "It's: here" ref="e7"`},
		{"unquoted form of the same", `- button "It's: here" [ref=e7]`,
			`button "It's: here" ref="e7"`},
		{"slash name", `- button /api/ [ref=e34]`,
			`button "/api/" ref="e34"`},
		{"slash name with a mark-like part", `- button /a [ref=e99]/ [ref=e393]: b`,
			"button \"/a [ref=e99]/\" ref=\"e393\"\n  text \"b\""},
		{"slash name in single quotes", `- 'button /it''s: x/ [ref=e387]': b`,
			"button \"/it's: x/\" ref=\"e387\"\n  text \"b\""},
		{"lone slash", `- button / [ref=e375]`, `button "/" ref="e375"`},
		{"ref inside a quoted name", `- button "x [ref=e98]" [ref=e399]`,
			`button "x [ref=e98]" ref="e399"`},
		{"ref inside a quoted name, no ref outside", `- button "Open [ref=e1]"`,
			`button "Open [ref=e1]"`},
		{"colon and ref inside a quoted name", `- 'button "a: [ref=e5]" [ref=e405]': b`,
			"button \"a: [ref=e5]\" ref=\"e405\"\n  text \"b\""},
		{"bare name", `- button Save draft [ref=e3]`, `button "Save draft" ref="e3"`},
		{"no name", `- button [ref=e3]`, `button "" ref="e3"`},
		{"role only", `- separator`, `separator ""`},
		{"JSON escapes in a name", `- button "a\u001fb \"q\" \\ \n\t\/ \ud83d\ude00 \ud800x"`,
			"button \"a\\x1fb \\\"q\\\" \\\\ \\n\\t/ 😀 \ufffdx\""},
		{"x escape in a name", `- button "a\x41"`, `button "aA"`},
		{"value with x escape", `- text: "a\x1fb"`, `text "a\x1fb"`},
		{"YAML escapes in a value", `- text: "\0\a\b\t\n\v\f\r\e\ \"\/\\\N\_\L\P\x7f\u00e9\U0001F600"`,
			"text \"\\x00\\a\\b\\t\\n\\v\\f\\r\\x1b \\\"/\\\\\\u0085\\u00a0\\u2028\\u2029\\x7fé😀\""},
		{"single-quoted value", `- text: 'it''s'`, `text "it's"`},
		{"bare value keeps colons", `- text: key:value`, `text "key:value"`},
		{"bare value ends at a comment", `- text: words # note`, `text "words"`},
		{"hash without a space is text", `- text: a#b`, `text "a#b"`},
		{"shorthand text", `- heading "x" [level=1]: Hello`,
			"heading \"x\" level=1\n  text \"Hello\""},
		{"shorthand quoted text", `- listitem: "Status: live"`,
			"listitem \"\"\n  text \"Status: live\""},
		{"all marks", `- treeitem "n" [checked=mixed] [disabled] [expanded] [active] [invalid=spelling] [level=3] [pressed=mixed] [selected] [ref=f1e2] [cursor=pointer] [box=1,2,3,4]`,
			`treeitem "n" ref="f1e2" checked="mixed" pressed="mixed" invalid="spelling" disabled expanded selected active level=3 [cursor="pointer"] [box="1,2,3,4"]`},
		{"explicit true and false", `- checkbox [checked=false] [disabled=true] [expanded=false] [pressed=true]`,
			`checkbox "" checked="false" pressed="true" disabled`},
		{"spaces inside marks", `- button "x" [ ref = e5 ] [ level=2]`, `button "x" ref="e5" level=2`},
		{"url and placeholder", "- link \"Home\" [ref=e4]:\n  - /url: \"#top\"\n- textbox:\n  - /placeholder: Search\n  - text: beans",
			"link \"Home\" ref=\"e4\" url=\"#top\"\ntextbox \"\" /placeholder=\"Search\"\n  text \"beans\""},
		{"empty url", "- link \"x\":\n  - /url: \"\"", `link "x" /url=""`},
		{"nesting", "- list:\n  - listitem:\n    - text: a\n    - link \"b\"\n  - listitem: c\n- text: d",
			"list \"\"\n  listitem \"\"\n    text \"a\"\n    link \"b\"\n  listitem \"\"\n    text \"c\"\ntext \"d\""},
		{"children at four spaces", "- list:\n    - listitem: a\n    - listitem: b",
			"list \"\"\n  listitem \"\"\n    text \"a\"\n  listitem \"\"\n    text \"b\""},
		{"blank lines, comments, CRLF, BOM", "\ufeff# snapshot\r\n\r\n- button \"a\"\r\n  \r\n- button \"b\"\r\n",
			"button \"a\"\nbutton \"b\""},
		{"double-quoted key", `- "button \"x: y\" [ref=e1]": v`, "button \"x: y\" ref=\"e1\"\n  text \"v\""},
		{"quoted text key", `- 'text': "a: b"`, `text "a: b"`},
		{"element that opens with no children", "- list:\n- button", "list \"\"\nbutton \"\""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes, err := ParseSnapshot(tt.in)
			if err != nil {
				t.Fatalf("ParseSnapshot(%q) error: %v", tt.in, err)
			}
			got := strings.TrimSuffix(dumpSnapshot(nodes), "\n")
			if got != tt.want {
				t.Errorf("ParseSnapshot(%q) =\n%s\nwant\n%s", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseSnapshotLineNumbers(t *testing.T) {
	nodes, err := ParseSnapshot("- list:\n\n  - listitem: a\n  - 'button \"b\"'")
	if err != nil {
		t.Fatal(err)
	}
	if got := nodes[0].Line; got != 1 {
		t.Errorf("list Line = %d, want 1", got)
	}
	if got := nodes[0].Children[0].Line; got != 3 {
		t.Errorf("listitem Line = %d, want 3", got)
	}
	if got := nodes[0].Children[1].Line; got != 4 {
		t.Errorf("button Line = %d, want 4", got)
	}
}

func TestParseSnapshotErrors(t *testing.T) {
	tests := []struct {
		name, in   string
		line, col  int
		msgContain string
	}{
		{"no dash", "- button\nbutton", 2, 1, `expected "- "`},
		{"dash without space", "-button", 1, 1, `expected "- "`},
		{"bare dash", "- a\n  -", 2, 3, `nothing after "-"`},
		{"tab indent", "\t- button", 1, 1, "tab in the indent"},
		{"not a role", "- 123", 1, 3, "expected a role"},
		{"role with junk", "- button!", 1, 9, "letters only"},
		{"unterminated name", `- button "abc [ref=e1]`, 1, 10, `no closing "`},
		{"bad escape in name", `- button "a\qb"`, 1, 12, `unknown escape`},
		{"short hex escape", `- text: "a\x1"`, 1, 11, `2 hex digits`},
		{"unterminated single quotes", `- 'button "x"`, 1, 3, "no closing '"},
		{"junk after single quotes", `- 'button "x"' junk`, 1, 16, `expected ":"`},
		{"junk after the name", `- button "x" junk`, 1, 14, `expected ":"`},
		{"unclosed mark", `- button "x" [ref=e1`, 1, 14, "no closing ]"},
		{"bad checked", `- checkbox "x" [checked=maybe]`, 1, 16, "true, false or mixed"},
		{"bad level", `- heading "x" [level=two]`, 1, 15, "whole number"},
		{"bad invalid", `- textbox [invalid=very]`, 1, 11, "grammar or spelling"},
		{"ref without value", `- button "x" [ref]`, 1, 14, "needs a value"},
		{"colon without space", `- button "x":y`, 1, 14, "space after"},
		{"text without value", "- text:", 1, 3, `"text" needs a value`},
		{"text as a role", `- text "x"`, 1, 1, `not a role`},
		{"property without value", "- link:\n  - /url:", 2, 5, "has no value"},
		{"property outside an element", "- /url: x", 1, 1, "not inside an element"},
		{"property name", "- link:\n  - /u-rl: x", 2, 5, "not letters"},
		{"indent under a leaf", "- button \"a\"\n  - button \"b\"", 2, 3, "holds no children"},
		{"indent under a value", "- listitem: a\n  - button \"b\"", 2, 3, "holds no children"},
		{"ragged siblings", "- list:\n    - listitem\n  - listitem", 3, 3, "indented by 2 spaces"},
		{"unterminated value", `- text: "abc`, 1, 9, `no closing "`},
		{"junk after value", `- text: "abc" def`, 1, 14, "after the closing quote"},
		{"unicode column", `- button "é" [level=x]`, 1, 14, "whole number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nodes, err := ParseSnapshot(tt.in)
			if err == nil {
				t.Fatalf("ParseSnapshot(%q) = %s, want an error", tt.in, dumpSnapshot(nodes))
			}
			if nodes != nil {
				t.Errorf("ParseSnapshot(%q) returned nodes with its error", tt.in)
			}
			if !errors.Is(err, ErrSnapshotSyntax) {
				t.Errorf("ParseSnapshot(%q) error %v does not wrap ErrSnapshotSyntax", tt.in, err)
			}
			var se *SnapshotSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseSnapshot(%q) error %T is not a *SnapshotSyntaxError", tt.in, err)
			}
			if se.Line != tt.line || se.Column != tt.col {
				t.Errorf("ParseSnapshot(%q) error at line %d, column %d, want line %d, column %d (%v)", tt.in, se.Line, se.Column, tt.line, tt.col, err)
			}
			if !strings.Contains(se.Msg, tt.msgContain) {
				t.Errorf("ParseSnapshot(%q) error %q, want it to say %q", tt.in, se.Msg, tt.msgContain)
			}
		})
	}
}
