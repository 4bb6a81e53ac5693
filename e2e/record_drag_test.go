package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// Drag and drop (docs/recording.md, "Drag and drop"): a card moved from one
// list to another with HTML5 drag and drop, and an item of a list that
// follows the pointer moved within it, recorded through the extension from
// trusted input, as Playwright's dragTo gives it: the mouse pressed on the
// element, moved to the target in steps with the button held, released
// there; an HTML5 drag the page starts on the way is intercepted and played
// as the protocol's drag events, as a headless browser has no system drag
// loop.

const boardPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Board</title>
<style>
  body { font: 16px sans-serif; display: flex; gap: 40px; }
  section { width: 220px; }
  ul { list-style: none; margin: 0; padding: 8px; min-height: 240px; border: 1px solid #999; }
  li { padding: 8px; margin: 4px 0; background: #eee; border: 1px solid #bbb; cursor: grab; }
</style></head>
<body>
<section><h2>To do</h2>
  <ul aria-label="To do"><li draggable="true" data-card="1">Write docs</li><li draggable="true" data-card="2">Fix bug</li></ul></section>
<section><h2>Done</h2>
  <ul aria-label="Done"><li draggable="true" data-card="3">Ship it</li></ul></section>
<script>
  for (const li of document.querySelectorAll('li'))
    li.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', li.dataset.card));
  for (const ul of document.querySelectorAll('ul')) {
    ul.addEventListener('dragover', (e) => e.preventDefault());
    ul.addEventListener('drop', (e) => {
      e.preventDefault();
      const card = document.querySelector('[data-card="' + e.dataTransfer.getData('text/plain') + '"]');
      if (card) ul.appendChild(card);
    });
  }
</script>
</body></html>`

const sortablePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tasks</title>
<style>
  body { font: 16px sans-serif; }
  ul { list-style: none; margin: 0; padding: 0; width: 240px; }
  li { height: 40px; line-height: 40px; padding: 0 8px; margin: 0; box-sizing: border-box;
       background: #eee; border-bottom: 1px solid #bbb; user-select: none; touch-action: none; }
  li.dragging { background: #cde; }
</style></head>
<body>
<h1>Tasks</h1>
<ul aria-label="Tasks"><li>One</li><li>Two</li><li>Three</li><li>Four</li></ul>
<script>
  // A list that follows the pointer: the item pressed moves to where the
  // pointer is, above or below the item under it, as the pointer moves.
  const list = document.querySelector('ul');
  let dragging = null;
  list.addEventListener('pointerdown', (e) => {
    const li = e.target.closest('li');
    if (!li) return;
    e.preventDefault();
    dragging = li;
    li.classList.add('dragging');
    li.setPointerCapture(e.pointerId);
  });
  list.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    for (const li of list.children) {
      if (li === dragging) continue;
      const r = li.getBoundingClientRect();
      if (e.clientY < r.top || e.clientY >= r.bottom) continue;
      const before = e.clientY < r.top + r.height / 2;
      const at = before ? li : li.nextElementSibling;
      if (at !== dragging && dragging.nextElementSibling !== at) list.insertBefore(dragging, at);
      break;
    }
  });
  list.addEventListener('pointerup', () => {
    if (!dragging) return;
    dragging.classList.remove('dragging');
    dragging = null;
  });
</script>
</body></html>`

// dragTo drags the element from names to the centre of the element to
// names with trusted input, as Playwright's dragTo does.
func dragTo(t *testing.T, ctx context.Context, from, to string) {
	t.Helper()
	x0, y0 := centreOf(t, ctx, from)
	x1, y1 := centreOf(t, ctx, to)
	c := chromedp.FromContext(ctx)
	target := func() (*chromedp.Target, error) { return c.Target, nil }
	intercepted := make(chan *input.DragData, 1)
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := chromedp.Listen(lctx, func(ev any) {
		if ev, ok := ev.(*input.EventDragIntercepted); ok {
			select {
			case intercepted <- ev.Data:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	Eval[bool](t, ctx, `(() => { window.__dragStart = null;
		addEventListener('dragstart', (e) => { window.__dragStart = e; }, {capture: true, once: true}); return true; })()`)
	if _, err := chromedp.Call(ctx, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_, _ = chromedp.Call(ctx, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false})
	}()
	watch := &browser.DragWatch{
		Started: func(ctx context.Context) (bool, error) {
			return chromedp.Run(ctx, chromedp.Evaluate[bool](`!!window.__dragStart && !window.__dragStart.defaultPrevented`))
		},
		Intercepted: intercepted,
	}
	var reached bool
	actx, acancel := context.WithTimeout(ctx, WaitTimeout)
	defer acancel()
	if _, err := (browser.Mouse{Target: target, Reached: &reached}).Drag(actx, x0, y0, x1, y1, watch); err != nil {
		t.Fatalf("dragging %s to %s: %v", from, to, err)
	}
}

// endShows is what a step's end shows, none when it has no end.
func endShows(s trail.Step) []selector.Selector {
	if s.End == nil {
		return nil
	}
	return s.End.Shows
}

// dragActions lists the trail's drags as "drag FROM → TO".
func dragActions(tr *trail.Trail) []string {
	var out []string
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			if d, ok := a.(trail.Drag); ok {
				line := "drag " + d.Selector.String() + " → " + d.To.String()
				if d.Offset != nil {
					line += " offset"
				}
				out = append(out, line)
			}
		}
	}
	return out
}

// TestRecordDragBetweenLists: a card dragged from To do into Done with
// HTML5 drag and drop is recorded as one drag from the card to the Done
// list, the step's end pins the card in Done, and the trail replays green;
// on a copy whose drop handler does nothing, the replay fails at that step.
func TestRecordDragBetweenLists(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, boardPage, func(app context.Context) {
		dragTo(t, app, `[data-card="1"]`, `ul[aria-label="Done"]`)
		WaitFor[bool](t, app, `document.querySelector('[data-card="1"]').parentElement.getAttribute('aria-label') === 'Done'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := strings.Join(dragActions(rec.trail), "\n")
	if want := `drag {text: "Write docs"} → {role: list, name: Done}`; got != want {
		t.Errorf("drags =\n%s\nwant\n%s\n--- trail\n%s", got, want, rec.yaml)
	}
	if n := len(rec.actions(t)); n != 1 {
		t.Errorf("the trail has %d actions, want the one drag:\n%s", n, rec.yaml)
	}
	if !strings.Contains(string(rec.yaml), "within: {role: list, name: Done}") {
		t.Errorf("the drag's end does not pin the card in Done:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
	refused := strings.Replace(boardPage, `if (card) ul.appendChild(card);`, ``, 1)
	rec.replayRefused(t, refused, "Write docs", "app-bug")
}

// TestRecordDragSortable: an item of a list that follows the pointer
// (pointerdown, pointermove…, pointerup; no HTML5 drag) moved below
// another is recorded as a drag to that item, with no click of the
// release; the step's end pins the new order, the trail replays green, and
// on a copy whose list does not follow the pointer the replay fails.
func TestRecordDragSortable(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, sortablePage, func(app context.Context) {
		dragTo(t, app, "li:nth-child(1)", "li:nth-child(3)")
		WaitFor[bool](t, app, `[...document.querySelectorAll('li')].map((li) => li.textContent).join(',') === 'Two,Three,One,Four'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := strings.Join(dragActions(rec.trail), "\n")
	if want := `drag {text: One} → {text: Three}`; got != want {
		t.Errorf("drags =\n%s\nwant\n%s\n--- trail\n%s", got, want, rec.yaml)
	}
	if n := len(rec.actions(t)); n != 1 {
		t.Errorf("the trail has %d actions, want the one drag (no tap of its release):\n%s", n, rec.yaml)
	}
	pinned := false
	for _, s := range rec.trail.Steps {
		for _, sel := range endShows(s) {
			pinned = pinned || sel.Role == "list" && sel.Name == "Tasks" && sel.TextRegex == "(?m)^Three\nOne$"
		}
	}
	if !pinned {
		t.Errorf("the drag's end does not pin One after Three:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
	still := strings.Replace(sortablePage, `if (at !== dragging && dragging.nextElementSibling !== at) list.insertBefore(dragging, at);`, ``, 1)
	rec.replayRefused(t, still, "Three", "app-bug")
}
