package e2e

import (
	"context"
	"strings"
	"testing"
)

// iconFontPage draws its icons from an icon font's private use area, the
// way Font Awesome and Bootstrap Icons do: in the text of an <i>, and from
// ::before / ::after content. The glyphs sit in link and button names, in
// a status line a click changes (the step's end) and in the options of a
// select.
const iconFontPage = "<!doctype html>\n" + `<html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<style>
  .i { font-family: "Icons"; font-style: normal; }
  .chev::after { content: "\f105"; font-family: "Icons"; margin-left: .3em; }
  .chev.open::after { content: "\f107"; }
  .ok::before { content: "\f00c"; font-family: "Icons"; margin-right: .3em; }
</style></head>
<body>
<nav><a id="comp" href="#" class="chev"><i class="i">` + "\uf013" + `</i> Components</a></nav>
<ul id="parts" hidden><li>Buttons</li><li>Cards</li></ul>
<main>
<h1><i class="i">` + "\U000F0110" + `</i> Catalogue</h1>
<button id="add"><i class="i">` + "\uf07a" + `</i> Add to cart</button>
<button id="fav" aria-label="` + "\uf004" + `"></button>
<label for="size">Size</label> <select id="size"><option>` + "\uf0c8" + ` Small</option><option>` + "\uf0c8" + ` Large</option></select>
<p id="status"></p>
</main>
<script>
const status = document.getElementById('status');
document.getElementById('comp').addEventListener('click', (e) => {
  e.preventDefault();
  e.currentTarget.classList.toggle('open');
  document.getElementById('parts').hidden = !e.currentTarget.classList.contains('open');
});
document.getElementById('add').addEventListener('click', () => {
  status.className = 'ok';
  status.innerHTML = '<i class="i">` + "\uf217" + `</i> 1 item in the cart';
});
document.getElementById('fav').addEventListener('click', () => {
  status.className = '';
  status.textContent = '` + "\uf004" + ` Saved for later';
});
</script>
</body></html>`

// TestRecordIconFontGlyphs records clicks on a page whose names and texts
// hold icon-font glyphs (private use code points, in the basic plane and a
// supplementary one): no intent, selector or end state of the trail holds
// one (docs/selectors.md, Icon-font glyphs), the icon-only button is
// called by its place, and the trail replays green.
func TestRecordIconFontGlyphs(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, iconFontPage, func(app context.Context) {
		clickCSS(t, app, "#comp")
		WaitFor[bool](t, app, `!document.querySelector('#parts').hidden`)
		clickCSS(t, app, "#add")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent.includes('1 item')`)
		clickCSS(t, app, "#fav")
		WaitFor[bool](t, app, `document.querySelector('#status').textContent.includes('Saved')`)
		clickCSS(t, app, "#size")
		typeKeys(t, app, kbArrowDown)
		typeKeys(t, app, "\r")
		WaitFor[bool](t, app, `document.querySelector('#size').selectedIndex === 1`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	for i, line := range strings.Split(string(rec.yaml), "\n") {
		// A select's option, and the value its end pins, are the option's
		// label as it is: replay chooses and reads the option by it.
		if strings.Contains(line, "- select: ") {
			line, _, _ = strings.Cut(line, "option:")
		}
		if strings.Contains(line, "values: [{selector: {id: size}") {
			line, _, _ = strings.Cut(line, "value:")
		}
		if strings.ContainsFunc(line, func(r rune) bool { return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r <= 0x10FFFD }) {
			t.Errorf("line %d of the trail holds an icon-font glyph: %q", i+1, line)
		}
	}
	var intents []string
	for _, s := range rec.trail.Steps {
		intents = append(intents, s.Intent)
	}
	for _, want := range []string{"Components", "Add to cart", "Select Large in Size"} {
		if !strings.Contains(strings.Join(intents, "\n"), want) {
			t.Errorf("no intent names %q: %q", want, intents)
		}
	}
	if t.Failed() {
		t.Fatalf("--- trail\n%s", rec.yaml)
	}
	rec.replayGreen(t)
}
