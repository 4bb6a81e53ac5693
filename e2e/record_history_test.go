package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

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
	var got []string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			line := string(a.Kind()) + " " + actionDetail(a)
			if n, ok := a.(trail.Navigate); ok {
				line += n.To
			}
			got = append(got, line)
		}
	}
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
	var got []string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			line := string(a.Kind()) + " " + actionDetail(a)
			if n, ok := a.(trail.Navigate); ok {
				line += n.To
			}
			got = append(got, line)
		}
	}
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
