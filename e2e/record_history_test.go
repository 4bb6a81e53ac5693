package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
)

// hashRoutesPage is a single-page app routed by the URL's fragment: the
// Cart and Shop links change the view without loading a document, each
// view has its own button, and the app's Back button goes back in history.
const hashRoutesPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Store</title></head>
<body>
<nav><a id="to-cart" href="#/cart">Cart</a> <a id="to-shop" href="#/shop">Shop</a> <button id="back" onclick="history.back()">Back</button></nav>
<main><h1 id="view">Home</h1><button id="act" hidden></button><p id="said"></p></main>
<script>
const views = { '#/cart': ['Cart', 'Pay'], '#/shop': ['Shop', 'Buy'] };
function show() {
  const [title, button] = views[location.hash] || ['Home', ''];
  document.getElementById('view').textContent = title;
  const act = document.getElementById('act');
  act.textContent = button;
  act.hidden = !button;
}
document.getElementById('act').addEventListener('click', (e) => { document.getElementById('said').textContent = e.target.textContent + ' done'; });
addEventListener('hashchange', show);
show();
</script>
</body></html>`

// TestRecordHistoryBetweenEntriesOfOneURL: in an app routed by the URL's
// fragment, the person visits Cart, Shop and Cart again (two history
// entries with one URL), then goes back twice and forward once with the
// browser, and acts on the view shown (Shop). The moves within the
// document are recorded, told apart by the history entry each lands on and
// never by its URL (the forward lands on #/shop, which the person saw
// before the last Cart), and replay goes where the recording went: the Buy
// button is there. The app's own Back button (history.back()) is the
// click on it, not a click and a back: replay goes back once, to Cart.
func TestRecordHistoryBetweenEntriesOfOneURL(t *testing.T) {
	t.Parallel()
	at := func(app context.Context, hash string) {
		t.Helper()
		WaitFor[bool](t, app, fmt.Sprintf(`location.hash === %q`, hash))
		waitAX(t, app, "toolbar", "Trailpin recording")
	}
	rec := recordPage(t, hashRoutesPage, func(app context.Context) {
		clickCSS(t, app, "#to-cart")
		at(app, "#/cart")
		clickCSS(t, app, "#to-shop")
		at(app, "#/shop")
		clickCSS(t, app, "#to-cart")
		at(app, "#/cart")
		navigate(t, app, chromedp.NavigateBack())
		at(app, "#/shop")
		navigate(t, app, chromedp.NavigateBack())
		at(app, "#/cart")
		navigate(t, app, chromedp.NavigateForward())
		at(app, "#/shop")
		clickCSS(t, app, "#act")
		WaitFor[bool](t, app, `document.querySelector('#said').textContent === 'Buy done'`)
		clickCSS(t, app, "#back")
		at(app, "#/cart")
		clickCSS(t, app, "#act")
		WaitFor[bool](t, app, `document.querySelector('#said').textContent === 'Pay done'`)
	})
	got := rec.movesAndActions()
	want := []string{
		"tap {id: to-cart}",
		"tap {id: to-shop}",
		"tap {id: to-cart}",
		"navigate back",
		"navigate back",
		"navigate forward",
		"tap {id: act}",
		"tap {id: back}",
		"tap {id: act}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}

// sameURLStepsPage is a wizard that keeps its step in history state: Next
// pushes an entry with the same URL, and only step 2 has a Confirm button.
const sameURLStepsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wizard</title></head>
<body>
<main><h1 id="view">Step 0</h1><button id="next">Next</button> <button id="confirm" hidden>Confirm</button><p id="said"></p></main>
<script>
function show() {
  const step = (history.state && history.state.step) || 0;
  document.getElementById('view').textContent = 'Step ' + step;
  document.getElementById('confirm').hidden = step !== 2;
}
document.getElementById('next').addEventListener('click', () => {
  history.pushState({ step: ((history.state && history.state.step) || 0) + 1 }, '', location.href);
  show();
});
document.getElementById('confirm').addEventListener('click', () => { document.getElementById('said').textContent = 'Confirmed'; });
addEventListener('popstate', show);
show();
</script>
</body></html>`

// TestRecordHistoryBetweenEntriesOfOnePath: a wizard pushes one entry per
// step, all with the same URL; the person goes to step 3, back twice and
// forward once with the browser, and confirms on step 2. The back and
// forward are recorded as such, and replay reaches step 2, where Confirm is.
func TestRecordHistoryBetweenEntriesOfOnePath(t *testing.T) {
	t.Parallel()
	at := func(app context.Context, step int) {
		t.Helper()
		WaitFor[bool](t, app, fmt.Sprintf(`document.querySelector('#view').textContent === 'Step %d'`, step))
		waitAX(t, app, "toolbar", "Trailpin recording")
	}
	rec := recordPage(t, sameURLStepsPage, func(app context.Context) {
		for step := 1; step <= 3; step++ {
			clickCSS(t, app, "#next")
			at(app, step)
		}
		navigate(t, app, chromedp.NavigateBack())
		at(app, 2)
		navigate(t, app, chromedp.NavigateBack())
		at(app, 1)
		navigate(t, app, chromedp.NavigateForward())
		at(app, 2)
		clickCSS(t, app, "#confirm")
		WaitFor[bool](t, app, `document.querySelector('#said').textContent === 'Confirmed'`)
	})
	got := rec.movesAndActions()
	want := []string{
		"tap {id: next}",
		"tap {id: next}",
		"tap {id: next}",
		"navigate back",
		"navigate back",
		"navigate forward",
		"tap {id: confirm}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}

// listPage and detailPage are two documents: the list links to the
// detail, whose Back button is the app's own (history.back()).
const listPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Orders</title></head>
<body><main><h1>Orders</h1><a id="open" href="detail.html">Order 7</a> <button id="act">Refresh</button><p id="said"></p></main>
<script>document.getElementById('act').addEventListener('click', () => { document.getElementById('said').textContent = 'Refreshed'; });</script>
</body></html>`

const detailPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order 7</title></head>
<body><main><h1>Order 7</h1><button id="back" onclick="history.back()">Back to orders</button></main></body></html>`

// TestRecordPageMadeBackToAnotherDocument: the person opens an order (a
// new document), goes back with the app's Back button (history.back() in
// the page), opens it again and goes back with the browser's button, then
// acts on the list. The app's Back is the click on it, never a click and a
// back (replay would go back twice, off the app); the browser's back is a
// back. The document that leaves tells the background who made the move,
// since it is gone when Chrome tells of the commit.
func TestRecordPageMadeBackToAnotherDocument(t *testing.T) {
	t.Parallel()
	r := &recordingRig{project: TempDir(t), wire: TempDir(t)}
	if err := os.WriteFile(filepath.Join(r.project, "trailpin.yaml"), []byte("trails:\n  dir: trails\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	site := TempDir(t)
	for name, html := range map[string]string{"page.html": listPage, "detail.html": detailPage} {
		if err := os.WriteFile(filepath.Join(site, name), []byte(html), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := ServeDir(t, site)
	at := func(app context.Context, page string) { t.Helper(); appAt(t, app, page) }
	rec := recordAt(t, r, srv.URL, "/page.html", nil, func(_, app context.Context) {
		clickCSS(t, app, "#open")
		at(app, "/detail.html")
		clickCSS(t, app, "#back")
		at(app, "/page.html")
		clickCSS(t, app, "#open")
		at(app, "/detail.html")
		browserBack(t, app)
		at(app, "/page.html")
		clickCSS(t, app, "#act")
		waitAcrossLoads(t, app, `document.querySelector('#said').textContent === 'Refreshed'`)
	})
	got := rec.movesAndActions()
	want := []string{
		"tap {id: open}",
		"tap {id: back}",
		"tap {id: open}",
		"navigate back",
		"tap {id: act}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)
}

// browserBack goes back one history entry as the browser's button does,
// without waiting for a load event: a page the back/forward cache restores
// fires none (chromedp.NavigateBack waits for one).
func browserBack(t *testing.T, tab context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, WaitTimeout)
	defer cancel()
	h, err := chromedp.Run(ctx, chromedp.NavigationEntries())
	if err != nil {
		t.Fatal(err)
	}
	if h.CurrentIndex <= 0 || int(h.CurrentIndex) >= len(h.Entries) {
		t.Fatalf("no history entry to go back to (at %d of %d)", h.CurrentIndex, len(h.Entries))
	}
	if _, err := chromedp.Call(ctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[h.CurrentIndex-1].ID}); err != nil {
		t.Fatal(err)
	}
}

// movesAndActions lists the trail's actions, one line each, a navigate
// with where it goes (back, forward).
func (p *pageRecording) movesAndActions() []string {
	var out []string
	for _, s := range p.trail.Steps {
		for _, a := range s.Actions {
			line := string(a.Kind()) + " " + actionDetail(a)
			if n, ok := a.(trail.Navigate); ok {
				line += n.To
			}
			out = append(out, line)
		}
	}
	return out
}
