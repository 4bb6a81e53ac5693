package e2e

import (
	"fmt"
	"testing"
)

// UIkit's component gallery, its form page: text fields, a drop-down, a
// datalist, a text area, radio and check boxes named only by the text
// beside them, two multiple-choice list boxes and a range slider.
var uikit = &realApp{
	name: "uikit", pkg: "uikit", version: "3.25.29",
	start: "/tests/form.html",
	rewrites: map[string]string{
		// The gallery's pages load js/test.js, a file its build writes and
		// the package does not ship; it adds the style sheet and the scripts
		// (and a page switcher). The page gets what it would add.
		//
		// UIkit connects each component as the parser adds its element; one
		// added before its children (the parser yields more often on a busy
		// machine) finds no target and writes nothing until its next update:
		// uk-form-custom's button stays without its label. So once the page
		// is parsed it asks UIkit for that update, and what it shows no
		// longer depends on where the parser happened to yield.
		`<script src="js/test.js"></script>`: `<link rel="stylesheet" href="../dist/css/uikit-core.css">` +
			`<script src="../dist/js/uikit.js"></script><script src="../dist/js/uikit-icons.js"></script>` +
			`<script>document.addEventListener('DOMContentLoaded', () => UIkit.update());</script>`,
	},
	css:     []string{"dist/css/uikit-core.css"},
	pages:   []string{"tests/form.html"},
	churnJS: []string{"dist/js/uikit.js"},
}

// ukField is the CSS of the nth field group (from 1) of the horizontal form.
func ukField(n int, rest string) string {
	return fmt.Sprintf("form.uk-form-horizontal > .uk-margin:nth-child(%d) %s", n, rest)
}

const ukRange = "#form-h-range"

var uikitFlow = []flowAct{
	// A text field: type, select back to the start with Shift+Home, retype.
	click("#form-h-text", "document.activeElement.id === 'form-h-text'"),
	typeText("Ada Lovelace", valueIs("#form-h-text", "Ada Lovelace")),
	press("Home", "document.activeElement.selectionStart === 0 && document.activeElement.selectionEnd === 12", "Shift"),
	typeText("Grace Hopper", valueIs("#form-h-text", "Grace Hopper")),
	assertValue("#form-h-text"),
	// A drop-down, by keys.
	click("#form-h-select", "document.activeElement.id === 'form-h-select'"),
	press("ArrowDown", ""),
	press("Enter", valueIs("#form-h-select", "Option 02")),
	assertValue("#form-h-select"),
	// A datalist field and a text area over two lines.
	click("#form-h-datalist", "document.activeElement.id === 'form-h-datalist'"),
	typeText("Firefox", valueIs("#form-h-datalist", "Firefox")),
	click("#form-h-textarea", "document.activeElement.id === 'form-h-textarea'"),
	typeText("First line", valueIs("#form-h-textarea", "First line")),
	press("Enter", valueIs("#form-h-textarea", "First line\n")),
	typeText("Second line", valueIs("#form-h-textarea", "First line\nSecond line")),
	assertValue("#form-h-textarea"),
	// Radio and check boxes named by the text beside them.
	click(ukField(5, ".uk-form-controls > label:nth-of-type(2)"), "document.querySelectorAll('input[name=radio1]')[1].checked"),
	click(ukField(5, "[uk-grid] > label:nth-child(3)"), "document.querySelectorAll('input[name=radio2]')[2].checked"),
	click(ukField(6, ".uk-form-controls > label:nth-of-type(1)"), ukField6Checked(0, true)),
	click(ukField(6, "[uk-grid] > label:nth-child(2)"), ukField6Checked(3, true)),
	click(ukField(6, "[uk-grid] > label:nth-child(4)"), ukField6Checked(5, true)),
	click(ukField(6, "[uk-grid] > label:nth-child(2)"), ukField6Checked(3, false)),
	// A list box: one choice, then a second with Control held.
	click("#form-h-multiple > option:nth-child(2)", selectedAre("#form-h-multiple", "Option 02")),
	{Do: "click", CSS: "#form-h-multiple > option:nth-child(4)", Mods: []string{"Control"}, Wait: selectedAre("#form-h-multiple", "Option 02", "Option 04")},
	// The slider: a click on its track, then keys.
	click(ukRange, "document.querySelector('#form-h-range').value !== '2'"),
	press("ArrowRight", ""),
	press("ArrowRight", ""),
	press("ArrowLeft", ""),
	press("ArrowRight", ""),
	assertValue(ukRange),
	// The second list box: a range of choices with Shift.
	click(`select[aria-label="Select multiple"] > option:nth-child(1)`, selectedAre(`select[aria-label="Select multiple"]`, "Option 01")),
	{Do: "click", CSS: `select[aria-label="Select multiple"] > option:nth-child(3)`, Mods: []string{"Shift"},
		Wait: selectedAre(`select[aria-label="Select multiple"]`, "Option 01", "Option 02", "Option 03")},
	// The lone drop-down further down, by keys.
	click(`select[aria-label="Select"]`, `document.activeElement.getAttribute('aria-label') === 'Select'`),
	press("ArrowDown", ""),
	press("ArrowDown", ""),
	press("Enter", valueIs(`select[aria-label="Select"]`, "Option A")),
	assertValue(`select[aria-label="Select"]`),
	assertVisible("h1"),
}

// ukField6Checked is a wait: the nth check box of the checkbox group is
// checked (or not).
func ukField6Checked(n int, checked bool) string {
	return fmt.Sprintf("document.querySelectorAll(%s)[%d].checked === %t",
		flowQuote(ukField(6, "input[type=checkbox]")), n, checked)
}

// selectedAre is a wait: the list box css names has exactly these options
// selected.
func selectedAre(css string, options ...string) string {
	want := ""
	for i, o := range options {
		if i > 0 {
			want += "|"
		}
		want += o
	}
	return fmt.Sprintf("[...document.querySelector(%s).selectedOptions].map((o) => o.text).join('|') === %s", flowQuote(css), flowQuote(want))
}

func TestRealAppUIkit(t *testing.T) {
	t.Parallel()
	runRealApp(t, uikit, uikitFlow)
}
