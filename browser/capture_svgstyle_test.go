package browser

import "testing"

// TestCaptureIgnoresStyleAndScript: the text of a <style> or <script>
// element, in an inline SVG icon or among HTML content, is never part of a
// name or a text: a person reads the button's word, the icon's title, the
// paragraph's words, never CSS or JavaScript — not even in the name of a
// hidden node, named as if shown.
func TestCaptureIgnoresStyleAndScript(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/svgstyle.html")
	s := capture(t, ctx, CaptureOptions{})
	for _, c := range []struct{ id, name, description, text string }{
		{"save", "Save", "", "Save"},
		{"home", "Home", "", ""},
		{"next", "Next page", "", "Next page"},
		{"para", "", "", "Plants need water and light."},
		{"heading", "Garden", "", "Garden"},
		{"field", "Email", "", ""},
		{"label", "", "", "Email"},
		{"menu", "Menu", "", "Menu"},
		{"delete", "Delete", "Removes the row", "X"},
		{"phone", "Phone", "", ""},
		{"phone-label", "", "", "Phone"},
		{"item", "Item 2", "", "Details"},
	} {
		n := byID(t, s, c.id)
		if n.Name != c.name {
			t.Errorf("#%s: name %q, want %q", c.id, n.Name, c.name)
		}
		if n.Description != c.description {
			t.Errorf("#%s: description %q, want %q", c.id, n.Description, c.description)
		}
		if n.Text != c.text {
			t.Errorf("#%s: text %q, want %q", c.id, n.Text, c.text)
		}
	}
}

// TestCaptureIgnoresSVGDefinitions: the words inside an icon's <defs> or
// <symbol>, which the icon never draws where they stand, are part of no
// name and no text.
func TestCaptureIgnoresSVGDefinitions(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/svgdefs.html")
	s := capture(t, ctx, CaptureOptions{})
	for _, c := range []struct{ id, name, text string }{
		{"fax", "Fax", ""},
		{"fax-label", "", "Fax"},
		{"close", "Close", "Close"},
	} {
		n := byID(t, s, c.id)
		if n.Name != c.name {
			t.Errorf("#%s: name %q, want %q", c.id, n.Name, c.name)
		}
		if n.Text != c.text {
			t.Errorf("#%s: text %q, want %q", c.id, n.Text, c.text)
		}
	}
}
