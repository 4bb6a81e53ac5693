package screen

import (
	"strings"
	"testing"
)

// The cases follow playwright-core 1.62.1's yamlStringNeedsQuotes; the
// Playwright probe test checks the same rules against its real output.
func TestYAMLNeedsQuotes(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"plain words", false},
		{" lead", true},
		{"trail ", true},
		{"nbsp\u00a0", true},
		{"Status: live", true},
		{"trailing:", true},
		{"key:value", false},
		{"a:\tb", true},
		{"# hash", true},
		{"a #b", true},
		{"a#b", false},
		{"{brace", true},
		{"close}", true},
		{"`tick", true},
		{"[x", true},
		{"x]", false},
		{"]x", true},
		{"a,b", false},
		{",a", true},
		{"&a", true}, {"*a", true}, {"!a", true}, {">a", true}, {"|a", true},
		{"@a", true}, {"%a", true}, {"?a", true}, {"-a", true}, {"'a", true}, {"\"a", true},
		{"a'b", false},
		{"a\"b", false},
		{"~a", false},
		{"line\nbreak", true},
		{"cr\rhere", true},
		{"tab\there", false},
		{"\x00", true}, {"a\x08", true}, {"a\x0b", true}, {"a\x1f", true},
		{"del\x7f", true}, {"c1\u0080", true}, {"c1\u009f", true}, {"a\u00a0b", false},
		{"123", true}, {"1.5", true}, {".5", true}, {"5.", true}, {"1e5", true},
		{"1e", false}, {"+1", true}, {"0x1F", true}, {"0o17", true}, {"0b101", true},
		{"0b2", false}, {"Infinity", true}, {"infinity", false}, {"1_000", false},
		{"12px", false}, {".", false},
		{"yes", true}, {"No", true}, {"ON", true}, {"off", true}, {"y", true},
		{"n", true}, {"true", true}, {"False", true}, {"null", true}, {"nil", false},
		{"/api/", false}, {"café", false}, {"😀", false},
	}
	for _, tt := range tests {
		if got := yamlNeedsQuotes(tt.in); got != tt.want {
			t.Errorf("yamlNeedsQuotes(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestYAMLValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"Status: live", `"Status: live"`},
		{"It's: here", `"It's: here"`},
		{`say "hi": now`, `"say \"hi\": now"`},
		{`back\slash: x`, `"back\\slash: x"`},
		{"a\x1fb", `"a\x1fb"`},
		{"nul\x00", `"nul\x00"`},
		{"del\x7f", `"del\x7f"`},
		{"c1\u0085", `"c1\x85"`},
		{"line\nbreak\ttab\rcr\bbs\fff", `"line\nbreak\ttab\rcr\bbs\fff"`},
		{"", `""`},
		{"123", `"123"`},
		{" pad ", `" pad "`},
	}
	for _, tt := range tests {
		if got := yamlValue(tt.in); got != tt.want {
			t.Errorf("yamlValue(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestJSONQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\x01\x1f", `"\u0001\u001f"`},
		{"\n\t", `"\n\t"`},
		{"del\x7f\u0085\u2028", "\"del\x7f\u0085\u2028\""},
		{"<&>", `"<&>"`},
		{"bad\xffbyte", "\"bad\uFFFDbyte\""},
	}
	for _, tt := range tests {
		if got := jsonQuote(tt.in, false); got != tt.want {
			t.Errorf("jsonQuote(%q, false) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestJSONQuoteEscapingInvisible(t *testing.T) {
	in := "del\x7f nel\u0085 c1\u009f ls\u2028 ps\u2029 é\u00a0"
	want := `"del\u007f nel\u0085 c1\u009f ls\u2028 ps\u2029 é` + "\u00a0" + `"`
	if got := jsonQuote(in, true); got != want {
		t.Errorf("jsonQuote(%q, true) = %s, want %s", in, got, want)
	}
}

func TestSnapshotKeyForms(t *testing.T) {
	tests := []struct {
		name          string
		node          SnapshotNode
		quoted, plain string
	}{
		{"plain", SnapshotNode{Role: "button", Name: "Save", Ref: "e1"},
			`button "Save" [ref=e1]`, `button "Save" [ref=e1]`},
		{"colon", SnapshotNode{Role: "button", Name: "Status: live", Ref: "e4"},
			`'button "Status: live" [ref=e4]'`, `button "Status: live" [ref=e4]`},
		{"quote and colon", SnapshotNode{Role: "button", Name: "It's: here", Ref: "e7"},
			`'button "It''s: here" [ref=e7]'`, `button "It's: here" [ref=e7]`},
		{"slash name", SnapshotNode{Role: "button", Name: "/api/", Ref: "e34"},
			`button /api/ [ref=e34]`, `button /api/ [ref=e34]`},
		{"slash name needing quotes", SnapshotNode{Role: "button", Name: "/it's: x/", Ref: "e2"},
			`'button /it''s: x/ [ref=e2]'`, `button "/it's: x/" [ref=e2]`},
		{"control char", SnapshotNode{Role: "button", Name: "a\x1fb"},
			`button "a\u001fb"`, `button "a\u001fb"`},
		{"DEL", SnapshotNode{Role: "button", Name: "del\x7f"},
			"'button \"del\x7f\"'", `button "del\u007f"`},
		{"C1 control in a slash name", SnapshotNode{Role: "button", Name: "/a\u0085/"},
			"'button /a\u0085/'", `button "/a\u0085/"`},
		{"all marks in order", SnapshotNode{Role: "treeitem", Name: "n", Checked: "mixed", Disabled: true,
			Expanded: true, Active: true, Invalid: "grammar", Level: 2, Pressed: "true", Selected: true, Ref: "e9",
			Extra: []SnapshotAttr{{"cursor", "pointer"}, {"flag", ""}}},
			`treeitem "n" [checked=mixed] [disabled] [expanded] [active] [invalid=grammar] [level=2] [pressed] [selected] [ref=e9] [cursor=pointer] [flag]`,
			`treeitem "n" [checked=mixed] [disabled] [expanded] [active] [invalid=grammar] [level=2] [pressed] [selected] [ref=e9] [cursor=pointer] [flag]`},
		{"false states are not written", SnapshotNode{Role: "checkbox", Checked: "false", Pressed: "false"},
			`checkbox`, `checkbox`},
		{"long name left out", SnapshotNode{Role: "button", Name: strings.Repeat("x", 901), Ref: "e1"},
			`button [ref=e1]`, `button [ref=e1]`},
		{"name of 900 kept", SnapshotNode{Role: "button", Name: strings.Repeat("😀", 450)},
			`button "` + strings.Repeat("😀", 450) + `"`, `button "` + strings.Repeat("😀", 450) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := snapshotKey(&tt.node, true); got != tt.quoted {
				t.Errorf("snapshotKey(quoted) = %s, want %s", got, tt.quoted)
			}
			if got := snapshotKey(&tt.node, false); got != tt.plain {
				t.Errorf("snapshotKey(unquoted) = %s, want %s", got, tt.plain)
			}
		})
	}
}

func TestFormatSnapshotShapes(t *testing.T) {
	nodes := []*SnapshotNode{
		{Role: "heading", Name: "x", Level: 1, Children: []*SnapshotNode{{Role: SnapshotTextRole, Text: "Hello"}}},
		{Role: "list", Ref: "e2", Children: []*SnapshotNode{
			{Role: "listitem", Children: []*SnapshotNode{{Role: SnapshotTextRole, Text: "one: two"}}},
			{Role: "listitem", Children: []*SnapshotNode{
				{Role: SnapshotTextRole, Text: "before"},
				{Role: "link", Name: "Go", URL: "#top", Children: []*SnapshotNode{{Role: SnapshotTextRole, Text: "Go!"}}},
			}},
		}},
		{Role: "textbox", Name: "Search", Props: []SnapshotProp{{"placeholder", "Find: anything"}},
			Children: []*SnapshotNode{{Role: SnapshotTextRole, Text: "beans"}}},
		{Role: SnapshotTextRole, Text: "tail"},
	}
	want := strings.Join([]string{
		`- heading "x" [level=1]: Hello`,
		`- list [ref=e2]:`,
		`  - listitem: "one: two"`,
		`  - listitem:`,
		`    - text: before`,
		`    - link "Go":`,
		`      - /url: "#top"`,
		`      - text: Go!`,
		`- textbox "Search":`,
		`  - /placeholder: "Find: anything"`,
		`  - text: beans`,
		`- text: tail`,
	}, "\n")
	if got := FormatSnapshot(nodes, SnapshotOptions{}); got != want {
		t.Errorf("FormatSnapshot =\n%s\nwant\n%s", got, want)
	}
}
