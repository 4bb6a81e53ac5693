package selector

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
)

func TestSelectorValidate(t *testing.T) {
	tests := []struct {
		name  string
		sel   Selector
		field string // "" means valid
		says  string // part of the message
	}{
		{"role and name", Selector{Role: "button", Name: "Checkout"}, "", ""},
		{"regex", Selector{Role: "region", TextRegex: `^Review sale\n\d+ items?$`}, "", ""},
		{"index zero", Selector{Role: "button", Index: screentest.Intp(0)}, "", ""},
		{"empty", Selector{}, "", "set at least one of role"},
		{"index alone", Selector{Index: screentest.Intp(1)}, "", "only narrow a selector down"},
		{"within alone", Selector{Within: &Selector{Role: "dialog"}}, "", "only narrow a selector down"},
		{"bad regex", Selector{TextRegex: `(a`}, "textRegex", "not a valid RE2 expression"},
		{"lookahead", Selector{TextRegex: `a(?=b)`}, "textRegex", "no lookaround"},
		{"text and regex", Selector{Text: "a", TextRegex: "a"}, "text", "not both"},
		{"negative index", Selector{Role: "button", Index: screentest.Intp(-1)}, "index", "counts from 0"},
		{"upper-case role", Selector{Role: "Button"}, "role", `did you mean "button"?`},
		{"DPUB role, which the page model does not report", Selector{Role: "doc-chapter"}, "role", "matches nothing"},
		{"role with a space", Selector{Role: "menu item"}, "role", `did you mean "menuitem"?`},
		{"frame", Selector{Role: "iframe"}, "", ""},
		{"text not normalised", Selector{Text: "Review  sale\n\n3 items "}, "text", `write "Review sale\n3 items"`},
		{"name with a line break", Selector{Role: "button", Name: "Pay\nnow"}, "name", `write "Pay now"`},
		{"bad within", Selector{Role: "button", Within: &Selector{Role: "list", Index: screentest.Intp(-2)}}, "within.index", "negative"},
		{"empty within", Selector{Role: "button", Within: &Selector{}}, "within", "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.sel.Validate()
			if tt.says == "" {
				if err != nil {
					t.Fatalf("Validate(%q) = %v, want nil", tt.sel, err)
				}
				return
			}
			var inv *InvalidSelectorError
			if !errors.As(err, &inv) {
				t.Fatalf("Validate(%q) = %v, want *InvalidSelectorError", tt.sel, err)
			}
			if inv.Field != tt.field || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Validate(%q) = field %q, %q; want field %q saying %q", tt.sel, inv.Field, err, tt.field, tt.says)
			}
		})
	}
}

func TestSelectorString(t *testing.T) {
	tests := []struct {
		sel  Selector
		want string
	}{
		{Selector{Role: "button", Name: "Checkout"}, `{role: button, name: Checkout}`},
		{Selector{Role: "button", Name: "Add to cart", Within: &Selector{TestID: "cart"}}, `{role: button, name: "Add to cart", within: {testId: cart}}`},
		{Selector{TextRegex: `^Review sale\n\d+ items?$`, Index: screentest.Intp(2)}, `{textRegex: "^Review sale\\n\\d+ items?$", index: 2}`},
		{Selector{Text: "a\nb"}, `{text: "a\nb"}`},
	}
	for _, tt := range tests {
		if got := tt.sel.String(); got != tt.want {
			t.Errorf("String(%#v) = %s, want %s", tt.sel, got, tt.want)
		}
	}
}

func TestParseSelectorJSON(t *testing.T) {
	tests := []struct {
		in   string
		want string // selector String, or an error fragment starting with "!"
	}{
		{`{"role":"button","name":"Checkout"}`, `{role: button, name: Checkout}`},
		{`{"role":"button","within":{"role":"dialog"},"index":1}`, `{role: button, within: {role: dialog}, index: 1}`},
		{`{"role":"button","nmae":"Checkout"}`, `!unknown field "nmae"`},
		{`{"role":"button"} {"role":"link"}`, `!more than one value`},
		{`{}`, `!is empty`},
		{`{"text":"x","textRegex":"x"}`, `!not both`},
		{`[1]`, `!reading selector JSON`},
	}
	for _, tt := range tests {
		sel, err := ParseSelectorJSON([]byte(tt.in))
		if strings.HasPrefix(tt.want, "!") {
			if err == nil || !strings.Contains(err.Error(), tt.want[1:]) {
				t.Errorf("ParseSelectorJSON(%s) = %q, %v; want an error saying %q", tt.in, sel, err, tt.want[1:])
			}
			continue
		}
		if err != nil || sel.String() != tt.want {
			t.Errorf("ParseSelectorJSON(%s) = %q, %v; want %s", tt.in, sel, err, tt.want)
		}
	}
}

// FuzzParseSelectorJSON feeds the parser outside input: it must never panic,
// and what it accepts must be valid, match without panicking and survive a
// JSON round trip.
func FuzzParseSelectorJSON(f *testing.F) {
	for _, seed := range []string{
		`{"role":"button","name":"Checkout"}`,
		`{"textRegex":"^Review sale\\n\\d+ items?$","within":{"testId":"cart"},"index":0}`,
		`{"text":"a","within":{"within":{"role":"x"}}}`,
		`{"index":-1}`, `null`, `{"textRegex":"("}`,
	} {
		f.Add([]byte(seed))
	}
	screen := selShop()
	f.Fuzz(func(t *testing.T, data []byte) {
		sel, err := ParseSelectorJSON(data)
		if err != nil {
			return
		}
		if err := sel.Validate(); err != nil {
			t.Fatalf("ParseSelectorJSON accepted %q, which Validate rejects: %v", sel, err)
		}
		_, _ = Match(screen, sel)
		out, err := json.Marshal(sel)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseSelectorJSON(out)
		if err != nil || again.String() != sel.String() {
			t.Fatalf("round trip of %q gave %q, %v", sel, again, err)
		}
	})
}
