package e2e

import (
	"context"
	"strings"
	"testing"
)

// citiesPage is a tall page whose "scroll to top" link, an icon-font
// glyph, shows a moment after the window is scrolled more than 100px (the
// SB Admin 2 shape), and a search box near the bottom whose typing filters
// a list of cities.
const citiesPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Offices</title>
<style>
  .scroll-to-top { position: fixed; right: 16px; bottom: 16px; display: none; width: 40px; height: 40px; }
  .icon-up::before { content: "\f106"; }
  #spacer { height: 1600px; }
</style></head>
<body>
<h1>Offices</h1>
<div id="spacer">Our offices around the world.</div>
<p><label for="search">Search:</label> <input id="search" type="search"></p>
<ul id="cities" aria-label="Cities"><li>London</li><li>Tokyo</li><li>Paris</li></ul>
<a class="scroll-to-top" href="#top"><i class="icon-up"></i></a>
<script>
  let timer = 0;
  window.addEventListener('scroll', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      document.querySelector('.scroll-to-top').style.display = window.scrollY > 100 ? 'block' : 'none';
    }, 300);
  });
  document.querySelector('#search').addEventListener('input', (e) => {
    for (const li of document.querySelectorAll('#cities li'))
      li.hidden = !li.textContent.includes(e.target.value);
  });
</script>
</body></html>`

// TestRecordEndIgnoresScrollRevealedIcon (from the real-app corpus, SB
// Admin 2): typing into a search box low on the page scrolls the window,
// which shows a "scroll to top" icon link a moment later. The typing
// step's end names the list it filtered, never the icon link (a glyph
// names nothing a person reads, and the scroll, not the step, showed it);
// the trail replays green.
func TestRecordEndIgnoresScrollRevealedIcon(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, citiesPage, func(app context.Context) {
		clickCSS(t, app, "#search")
		typeKeys(t, app, "Lon")
		WaitFor[bool](t, app, `document.querySelectorAll('#cities li:not([hidden])').length === 1`)
		WaitFor[bool](t, app, `getComputedStyle(document.querySelector('.scroll-to-top')).display === 'block'`)
		clickCSS(t, app, "h1")
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	for _, s := range rec.trail.Steps {
		if s.End == nil {
			continue
		}
		for _, sel := range s.End.Shows {
			if sel.Role == "link" || strings.ContainsFunc(sel.String(), func(r rune) bool { return r >= 0xe000 && r <= 0xf8ff }) {
				t.Errorf("step %q ends showing %s: the icon link the scroll revealed\n%s", s.Intent, sel, rec.yaml)
			}
		}
	}
	rec.replayGreen(t)
}
