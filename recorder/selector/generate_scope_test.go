package selector

import (
	"strings"
	"testing"

	st "github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

// selRepeatedForms is UIkit's form gallery in small: a horizontal form under
// a heading and a stacked form holding its heading and a fieldset, both
// with the same field groups (Radio: Option 01, Option 02; Checkbox: A, B),
// a lone drop-down under a heading of its own, named like the forms', a
// third form with the same choices in the horizontal form's section, and
// a last section under its heading.
func selRepeatedForms() *screen.Screen {
	choice := func(role, ref, name string) *st.Spec {
		return st.El("generic", st.Tag("label"), st.Inline(), st.Kids(
			st.El(role, st.Tag("input"), st.Ref(ref), st.Name(name)),
			st.Txt(name),
		))
	}
	groups := func(prefix string) []*st.Spec {
		return []*st.Spec{
			st.El("generic", st.Kids(
				st.Leaf("generic", "Text", st.Tag("label")),
				st.El("textbox", st.Tag("input"), st.Ref(prefix+"-text"), st.Name("Text"), st.Label("Text")),
			)),
			st.El("generic", st.Ref(prefix+"-radios"), st.Kids(
				st.Leaf("generic", "Radio", st.Tag("span")),
				st.El("generic", st.Kids(choice("radio", prefix+"-r1", "Option 01"), choice("radio", prefix+"-r2", "Option 02"))),
			)),
			st.El("generic", st.Kids(
				st.Leaf("generic", "Checkbox", st.Tag("span")),
				st.El("generic", st.Kids(choice("checkbox", prefix+"-ca", "A"), choice("checkbox", prefix+"-cb", "B"))),
			)),
		}
	}
	return st.Page(st.El("generic", st.Kids(
		st.Leaf("heading", "Form", st.Tag("h1")),
		st.El("generic", st.Kids(
			st.El("generic", st.Kids(
				st.Leaf("heading", "Horizontal", st.Tag("h2")),
				st.El("generic", st.Tag("form"), st.Ref("h-form"), st.Kids(groups("h")...)),
				st.Leaf("heading", "Select", st.Tag("h2")),
				st.El("combobox", st.Tag("select"), st.Ref("lone"), st.Name("Select"), st.Kids(st.Txt("Option 01"))),
				st.Leaf("heading", "Radio and Checkbox", st.Tag("h2")),
				st.El("generic", st.Tag("form"), st.Kids(
					st.Leaf("generic", "Radio", st.Tag("span")),
					choice("radio", "rc-r2", "Option 02"),
					choice("checkbox", "rc-cb", "B"),
				)),
			)),
			st.El("generic", st.Ref("other"), st.Kids(
				st.Leaf("heading", "Other", st.Tag("h2")),
				choice("checkbox", "o-cb", "B"),
			)),
			st.El("generic", st.Tag("form"), st.Ref("s-form"), st.Kids(
				st.Leaf("heading", "Stacked", st.Tag("h2")),
				st.El("group", st.Tag("fieldset"), st.Name("Legend"), st.Kids(
					append([]*st.Spec{st.Leaf("generic", "Legend", st.Tag("legend"))}, groups("s")...)...,
				)),
			)),
		)),
	)))
}

// TestGenerateScopesByTheContainersTitle: repeated controls in plain
// containers (a form, a field group) are told apart by the heading, legend
// or label the container opens with, not by their position on the page.
func TestGenerateScopesByTheContainersTitle(t *testing.T) {
	forms := selRepeatedForms()
	tests := []struct {
		name    string
		purpose Purpose
		ref     string
		want    string
	}{
		{"a radio in the form opening with its first field", PurposeTap, "h-r2", `{role: radio, name: "Option 02", within: {role: generic, textRegex: "^Text\\n"}}`},
		{"a checkbox in the same form", PurposeTap, "h-cb", `{role: checkbox, name: B, within: {role: generic, textRegex: "^Text\\n"}}`},
		{"the other form's radio by its fieldset", PurposeTap, "s-r2", `{role: radio, name: "Option 02", within: {role: group, name: Legend}}`},
		{"an assertion on a checked box names the same", PurposeAssert, "h-cb", `{role: checkbox, name: B, within: {role: generic, textRegex: "^Text\\n"}}`},
		// A section found by the heading it opens with.
		{"a checkbox in the section under its heading", PurposeTap, "o-cb", `{role: checkbox, name: B, within: {role: generic, textRegex: "^Other\\n"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Generate(tt.purpose, tt.ref, forms, nil)
			if err != nil {
				t.Fatalf("Generate(%s %s) error: %v", tt.purpose, tt.ref, err)
			}
			if got.String() != tt.want {
				t.Errorf("Generate(%s %s) = %q, want %q", tt.purpose, tt.ref, got, tt.want)
			}
		})
	}
}

func TestContainerTitle(t *testing.T) {
	forms := selRepeatedForms()
	m := NewMatcher(forms)
	tests := []struct {
		ref, want string
		heading   bool
	}{
		{"h-form", "Text", false},    // its first field's label, not the field
		{"h-radios", "Radio", false}, // the group's label
		{"s-form", "Stacked", true},
		{"other", "Other", true}, // the heading it holds
		{"h-r1", "", false},      // a control has no title
	}
	for _, tt := range tests {
		p, ok := m.Position(tt.ref)
		if !ok {
			t.Fatalf("no %s on the screen", tt.ref)
		}
		if got, heading := ContainerTitle(m, p); got != tt.want || heading != tt.heading {
			t.Errorf("ContainerTitle(%s) = %q, %v; want %q, %v", tt.ref, got, heading, tt.want, tt.heading)
		}
	}
}

// selSharedWrapper holds unlabelled fields that share their wrapper with
// other fields, each after the short text that names it.
func selSharedWrapper() *screen.Screen {
	return st.Page(
		st.Leaf("heading", "Profile", st.Tag("h1")),
		st.El("paragraph", st.Kids(st.Leaf("generic", "Nickname", st.Tag("span")), st.El("textbox", st.Tag("input"), st.Ref("nick")))),
		st.El("generic", st.Inline(), st.Kids(
			st.Leaf("generic", "City", st.Tag("span")), st.Txt(" "), st.El("textbox", st.Tag("input"), st.Ref("city")), st.Txt(" "),
			st.Leaf("generic", "Country", st.Tag("span")), st.Txt(" "), st.El("textbox", st.Tag("input"), st.Ref("country")),
		)),
		st.El("generic", st.Tag("form"), st.Kids(
			st.Leaf("generic", "Phone:", st.Tag("span")), st.El("textbox", st.Tag("input"), st.Ref("phone")),
			st.Leaf("generic", "Fax:", st.Tag("span")), st.El("textbox", st.Tag("input"), st.Ref("fax")),
			st.Leaf("generic", "Fax:", st.Tag("span")), st.Leaf("generic", "", st.Tag("span"), st.Hidden()), st.El("textbox", st.Tag("input"), st.Ref("fax2")),
		)),
	)
}

// TestGenerateNamesAFieldByTheTextBeforeIt: a field with no label of its
// own in a wrapper it shares with other fields is named by the text right
// before it, which a label selector matches, not by its position among the
// page's text boxes.
func TestGenerateNamesAFieldByTheTextBeforeIt(t *testing.T) {
	page := selSharedWrapper()
	tests := []struct {
		ref, want string
	}{
		{"city", `{label: City}`},
		{"country", `{label: Country}`},
		{"phone", `{label: Phone}`},
		// Two fields after the same text: the text names neither alone,
		// and the position is the last resort.
		{"fax", `{role: textbox, index: 4}`},
		{"fax2", `{role: textbox, index: 5}`},
	}
	for _, tt := range tests {
		got, err := Generate(PurposeType, tt.ref, page, nil)
		if err != nil {
			t.Fatalf("Generate(type %s) error: %v", tt.ref, err)
		}
		if got.String() != tt.want {
			t.Errorf("Generate(type %s) = %q, want %q", tt.ref, got, tt.want)
		}
	}
	// A field with a label of its own is not matched by the text before it.
	labelled := st.Page(
		st.Leaf("generic", "City", st.Tag("span")),
		st.El("textbox", st.Tag("input"), st.Ref("town"), st.Label("Town"), st.Name("Town")),
	)
	if got, err := Match(labelled, Selector{Label: "City"}); err == nil {
		t.Errorf("Match({label: City}) = %v on a field labelled Town, want not found", got)
	}
}

// selResponses is Swagger UI's response section in small: the live
// response under its heading (a row holding the status code, the body and
// the headers with the date they were sent), and the documented responses
// with the same code. The rows' names come from their content, all but
// the download link.
func selResponses() *screen.Screen {
	row := func(ref, code string, rest ...string) *st.Spec {
		kids := []*st.Spec{st.Leaf("cell", code, st.Ref(ref+"-code"))}
		for _, r := range rest {
			kids = append(kids, st.Leaf("cell", r))
		}
		// The name leaves out the download link the text has.
		kids = append(kids, st.El("cell", st.Kids(st.Leaf("link", "Download"))))
		return st.El("row", st.Ref(ref), st.Name(code+" "+strings.Join(rest, " ")), st.Kids(kids...))
	}
	return st.Page(st.El("main", st.Kids(
		st.El("generic", st.Ref("live"), st.Kids(
			st.Leaf("heading", "Server response", st.Tag("h4")),
			st.El("table", st.Kids(row("live-row", "200", "Response body", "content-type: application/json", "date: Wed, 02 Dec 2026 07:00:00 GMT"))),
		)),
		st.El("generic", st.Kids(
			st.Leaf("heading", "Responses", st.Tag("h4")),
			st.El("table", st.Kids(
				row("doc-200", "200", "Successful operation"),
				row("doc-400", "400", "Invalid status value"),
			)),
		)),
	)))
}

// TestGenerateNeverScopesByContent: a scope is found by its own short name
// (a heading, a title), never by a name that is a block of content, such as
// a response row named by everything in it, the date it was sent included.
func TestGenerateNeverScopesByContent(t *testing.T) {
	page := selResponses()
	for _, p := range []Purpose{PurposeAssert, PurposeTap} {
		got, err := Generate(p, "live-row-code", page, nil)
		if err != nil {
			t.Fatalf("Generate(%s live-row-code) error: %v", p, err)
		}
		for s := &got; s != nil; s = s.Within {
			if strings.Contains(s.Name, "date") || strings.Contains(s.Text, "date") || strings.Contains(s.TextRegex, "date") {
				t.Errorf("Generate(%s live-row-code) = %q: scoped by the response's content", p, got)
			}
		}
		var want string
		if p == PurposeAssert {
			want = `{text: "200", within: {role: generic, textRegex: "^Server response\\n"}}`
		} else {
			want = `{role: cell, name: "200", within: {role: generic, textRegex: "^Server response\\n"}}`
		}
		if got.String() != want {
			t.Errorf("Generate(%s live-row-code) = %q, want %q", p, got, want)
		}
	}
}

// TestMatchPatternSkipsWrappersOpeningTheSame: a pattern names the
// innermost element it reads in, not the wrappers that read the same only
// because that element opens them: the page around a section that opens it.
func TestMatchPatternSkipsWrappersOpeningTheSame(t *testing.T) {
	page := st.Page(st.El("generic", st.Ref("outer"), st.Kids(
		st.El("generic", st.Ref("section"), st.Kids(st.Leaf("heading", "Shipping"), st.Leaf("paragraph", "Free over $50"))),
		st.El("generic", st.Ref("after"), st.Kids(st.Leaf("paragraph", "Shipping rates"))),
	)))
	tests := []struct {
		sel  Selector
		want []string
	}{
		{Selector{Role: "generic", TextRegex: `^Shipping\n`}, []string{"section"}},
		// The heading opens the section, the section the page; the
		// paragraph's wrapper reads the same as the paragraph.
		{Selector{TextRegex: `Shipping`}, []string{"e5", "e8"}},
		// A wrapper is skipped only when the whole inner text opens it:
		// the paragraph comes second in the section.
		{Selector{TextRegex: `Free`}, []string{"section", "e6"}},
	}
	for _, tt := range tests {
		got, _ := Match(page, tt.sel)
		var refs []string
		for _, n := range got {
			refs = append(refs, n.Ref)
		}
		if strings.Join(refs, " ") != strings.Join(tt.want, " ") {
			t.Errorf("Match(%s) = %v, want %v", tt.sel, refs, tt.want)
		}
	}
}

// TestGenerateScopesByTheRowsLeadingLines: Swagger UI's documented
// responses and its live response both have a row titled 200, each with a
// Media Type drop-down; the live row is told apart by its second line
// ("Response body"), never by everything in it.
func TestGenerateScopesByTheRowsLeadingLines(t *testing.T) {
	media := func(ref, value string) *st.Spec {
		return st.El("cell", st.Kids(st.El("combobox", st.Tag("select"), st.Ref(ref), st.Name("Media Type"), st.Kids(st.Txt(value)),
			st.Node(func(n *screen.Node) { n.Value = value }))))
	}
	page := st.Page(
		st.El("table", st.Kids(
			st.El("row", st.Kids(st.Leaf("cell", "200", st.Ref("doc-200")), st.Leaf("cell", "Successful operation"), media("doc-200-media", "b"))),
			st.El("row", st.Kids(st.Leaf("cell", "400", st.Ref("doc-400")), st.Leaf("cell", "Invalid status value"), media("doc-400-media", "a"))),
		)),
		st.Leaf("heading", "Server response", st.Tag("h4")),
		st.El("table", st.Kids(st.El("row", st.Kids(
			st.Leaf("cell", "200", st.Ref("live-200")),
			st.El("cell", st.Kids(
				st.Leaf("heading", "Response body", st.Tag("h5")),
				st.Leaf("code", "[]"),
				st.Leaf("code", "date: Wed, 02 Dec 2026 07:30:08 GMT"),
			)),
		)))),
	)
	tests := []struct {
		purpose Purpose
		ref     string
		want    string
	}{
		{PurposeSelect, "doc-200-media", `{role: combobox, name: "Media Type", within: {role: row, textRegex: "^200\\nSuccessful operation(\\n|$)"}}`},
		// An assertion on the code: the code is its claim, so the row
		// is found by its next line alone, and a changed code fails the
		// check, not the scope.
		{PurposeAssert, "live-200", `{text: "200", within: {role: row, textRegex: "(?m)^Response body$"}}`},
		{PurposeAssert, "doc-200", `{text: "200", within: {role: row, textRegex: "(?m)^Successful operation$"}}`},
		{PurposeTap, "live-200", `{role: cell, name: "200", within: {role: row, textRegex: "^200\\nResponse body(\\n|$)"}}`},
	}
	for _, tt := range tests {
		got, err := Generate(tt.purpose, tt.ref, page, nil)
		if err != nil {
			t.Fatalf("Generate(%s %s) error: %v", tt.purpose, tt.ref, err)
		}
		if got.String() != tt.want {
			t.Errorf("Generate(%s %s) = %q, want %q", tt.purpose, tt.ref, got, tt.want)
		}
	}
}

// TestGenerateNeverScopesByAControlsValue: a row whose line after its title
// is a drop-down's choice is not found by that line, which the next choice
// changes.
func TestGenerateNeverScopesByAControlsValue(t *testing.T) {
	row := func(ref, value string) *st.Spec {
		return st.El("row", st.Kids(st.Leaf("cell", "200", st.Ref(ref)), st.El("cell", st.Kids(
			st.El("combobox", st.Tag("select"), st.Name("Media Type"), st.Kids(st.Txt(value)))))))
	}
	page := st.Page(st.El("table", st.Kids(row("a", "application/json"), row("b", "application/xml"))))
	got, err := Generate(PurposeAssert, "a", page, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got.String(), "application") {
		t.Errorf("Generate(assert a) = %q: scoped by a drop-down's choice", got)
	}
}

// TestGenerateScopesAScopeSharedByOthers: two of Swagger UI's operations
// are open, each with a live response (found by its "Response body" line)
// and documented 200 and 404 responses. The live row is no scope alone, since
// each operation has one, but it is one within its operation: the status
// of the second is checked there, not counted among every "200".
func TestGenerateScopesAScopeSharedByOthers(t *testing.T) {
	op := func(id, live string) *st.Spec {
		return st.El("generic", st.ID(id), st.Kids(
			st.Leaf("heading", "Server response", st.Tag("h4")),
			st.El("table", st.Kids(st.El("row", st.Kids(
				st.Leaf("cell", live, st.Ref(id+"-live")),
				st.El("cell", st.Kids(st.Leaf("heading", "Response body", st.Tag("h5")), st.Leaf("code", "{}"))),
			)))),
			st.Leaf("heading", "Responses", st.Tag("h4")),
			st.El("table", st.Kids(
				st.El("row", st.Kids(st.Leaf("cell", "200"), st.Leaf("cell", "The answer"))),
				st.El("row", st.Kids(st.Leaf("cell", "404"), st.Leaf("cell", "Not there"))),
			)),
		))
	}
	page := st.Page(st.El("main", st.Kids(op("operations-getPlant", "404"), op("operations-getOrder", "200"))))
	tests := []struct {
		ref, want string
	}{
		{"operations-getOrder-live", `{text: "200", within: {role: row, textRegex: "(?m)^Response body$", within: {id: operations-getOrder}}}`},
		{"operations-getPlant-live", `{text: "404", within: {role: row, textRegex: "(?m)^Response body$", within: {id: operations-getPlant}}}`},
	}
	for _, tt := range tests {
		got, err := Generate(PurposeAssert, tt.ref, page, nil)
		if err != nil {
			t.Fatalf("Generate(assert %s) error: %v", tt.ref, err)
		}
		if got.String() != tt.want {
			t.Errorf("Generate(assert %s) = %q, want %q", tt.ref, got, tt.want)
		}
	}
}
