package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// Drag and drop on a real library: SortableJS (npm sortablejs, pinned in
// package.json; npm ci installs it), the list-reordering library most apps
// that let a person reorder things use. The page is the library's own
// "simple list" example (its README's first one), loading the library as
// its package ships it; the flow reorders the list with the pointer through
// the real extension, in both of the library's modes: HTML5 drag and drop
// (its default on a desktop browser) and its fallback, which follows the
// pointer itself (forceFallback, what it does on touch screens and where
// a browser's drag and drop is unwanted).

// sortableJS is the pinned package; its name and version are checked as the
// corpus's apps are.
var sortableJS = &realApp{name: "sortablejs", pkg: "sortablejs", version: "1.15.7"}

// sortableJSPage is a list made sortable by SortableJS with the options
// given (a JavaScript object literal).
func sortableJSPage(options string) string {
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Reading list</title>
<style>
  body { font: 16px sans-serif; }
  ul { list-style: none; margin: 0; padding: 0; width: 280px; }
  li { height: 40px; line-height: 40px; padding: 0 8px; box-sizing: border-box;
       background: #eee; border-bottom: 1px solid #bbb; cursor: grab; }
  .sortable-ghost { opacity: .4; }
</style></head>
<body>
<h1>Reading list</h1>
<ul id="books" aria-label="Books"><li>Dune</li><li>Emma</li><li>Ulysses</li><li>Walden</li></ul>
<script src="Sortable.min.js"></script>
<script>Sortable.create(document.getElementById('books'), ` + options + `);</script>
</body></html>`
}

// recordSortableJS serves page with the installed library beside it and
// records drive on it.
func recordSortableJS(t *testing.T, page string, drive func(app context.Context)) *pageRecording {
	t.Helper()
	root := sortableJS.checkInstalled(t)
	lib, err := os.ReadFile(filepath.Join(root, "Sortable.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	site := TempDir(t)
	for name, body := range map[string][]byte{"page.html": []byte(page), "Sortable.min.js": lib} {
		if err := os.WriteFile(filepath.Join(site, name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, site)
	p := recordAt(t, r, srv.URL, "/page.html", nil, func(_, app context.Context) { drive(app) })
	p.dir = site
	return p
}

// booksAre is a wait: the list reads titles, in this order.
func booksAre(titles string) string {
	return `[...document.querySelectorAll('#books li')].map((li) => li.textContent).join(',') === ` + flowQuote(titles)
}

// TestRecordDragSortableJS: a book of a SortableJS list dragged below
// another with trusted input is recorded as one drag and nothing else; the
// step's end pins the new order; the trail replays green on the unchanged
// page, and on a copy where the list is disabled (Sortable's disabled
// option: the page loads, the drag does nothing) the replay fails at the
// drag's step, as the app's behaviour.
func TestRecordDragSortableJS(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct{ name, options string }{
		{"html5", `{animation: 150}`},
		{"fallback", `{animation: 150, forceFallback: true}`},
	} {
		t.Run(mode.name, func(t *testing.T) {
			page := sortableJSPage(mode.options)
			rec := recordSortableJS(t, page, func(app context.Context) {
				waitAcrossLoads(t, app, `!!window.Sortable && !!Sortable.get(document.getElementById('books'))`)
				dragTo(t, app, "#books li:nth-child(1)", "#books li:nth-child(3)")
				WaitFor[bool](t, app, booksAre("Emma,Ulysses,Dune,Walden"))
				waitAX(t, app, "toolbar", "Trailpin recording")
			})
			got := strings.Join(dragActions(rec.trail), "\n")
			if want := `drag {text: Dune} → {text: Ulysses}`; got != want {
				t.Errorf("drags =\n%s\nwant\n%s\n--- trail\n%s", got, want, rec.yaml)
			}
			if n := len(rec.actions(t)); n != 1 {
				t.Errorf("the trail has %d actions, want the one drag:\n%s", n, rec.yaml)
			}
			pinned := false
			for _, s := range rec.trail.Steps {
				for _, sel := range endShows(s) {
					pinned = pinned || strings.Contains(sel.TextRegex, "Ulysses\nDune")
				}
			}
			if !pinned {
				t.Errorf("the drag's end does not pin Dune after Ulysses:\n%s", rec.yaml)
			}
			rec.replayGreen(t)
			disabled := strings.Replace(page, mode.options, strings.Replace(mode.options, "{", "{disabled: true, ", 1), 1)
			if disabled == page {
				t.Fatal("the disabled copy is the page itself")
			}
			rec.replayRefused(t, disabled, "Ulysses", "app-bug")
		})
	}
}

// TestRecordDragSortableJSHeldStill: a person drags a book with the
// library's fallback, holds it still in its new place for a moment, then
// lets go. While the pointer rests, the page is quiet and the recorder
// captures it again, so the screen is fresh at the release; the drag is
// still recorded, as the list moved its item while the button was held
// (a loaded machine paces a drag's moves so too: an unrecorded drag at load
// 70 was how it showed).
func TestRecordDragSortableJSHeldStill(t *testing.T) {
	t.Parallel()
	rec := recordSortableJS(t, sortableJSPage(`{animation: 150, forceFallback: true}`), func(app context.Context) {
		waitAcrossLoads(t, app, `!!window.Sortable && !!Sortable.get(document.getElementById('books'))`)
		x0, y0 := centreOf(t, app, "#books li:nth-child(1)")
		x1, y1 := centreOf(t, app, "#books li:nth-child(3)")
		mouse := func(typ input.DispatchMouseEventType, x, y float64, buttons int64) {
			t.Helper()
			if _, err := chromedp.Call(app, input.DispatchMouseEvent, input.DispatchMouseEventParams{
				Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: buttons, ClickCount: 1,
			}); err != nil {
				t.Fatalf("%s at %.0f,%.0f: %v", typ, x, y, err)
			}
		}
		mouse(input.DispatchMouseEventTypeMouseMoved, x0, y0, 0)
		mouse(input.DispatchMouseEventTypeMousePressed, x0, y0, 1)
		for i := 1; i <= 12; i++ {
			f := float64(i) / 12
			mouse(input.DispatchMouseEventTypeMouseMoved, x0+(x1-x0)*f, y0+(y1-y0)*f, 1)
		}
		// While held, the list also holds the copy of the book that
		// follows the pointer.
		WaitFor[bool](t, app, `[...document.querySelectorAll('#books li:not(.sortable-fallback)')].map((li) => li.textContent).join(',') === 'Emma,Ulysses,Dune,Walden'`)
		// The person holds the book still: the pause is the input, not a
		// wait for the page.
		time.Sleep(time.Second)
		mouse(input.DispatchMouseEventTypeMouseReleased, x1, y1, 0)
		WaitFor[bool](t, app, booksAre("Emma,Ulysses,Dune,Walden"))
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	if got, want := strings.Join(dragActions(rec.trail), "\n"), `drag {text: Dune} → {text: Ulysses}`; got != want {
		t.Errorf("drags =\n%s\nwant\n%s\n--- trail\n%s", got, want, rec.yaml)
	}
	rec.replayGreen(t)
}
