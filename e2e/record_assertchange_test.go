package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
)

// assertMenuPage opens a menu on its Menu button: the button says so with
// aria-expanded, and the menu is put into the page.
const assertMenuPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Home</title></head>
<body>
<h1>Home</h1>
<nav>
  <button type="button" aria-expanded="false">Menu</button>
</nav>
<p>Welcome back.</p>
<script>
  // No ids: the selectors are the roles and names a person reads.
  const button = document.querySelector('nav button');
  let menu = null;
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      menu = document.createElement('ul');
      menu.setAttribute('role', 'menu');
      menu.setAttribute('aria-label', 'Main');
      for (const name of ['Profile', 'Settings', 'Sign out']) {
        const li = document.createElement('li');
        li.setAttribute('role', 'menuitem');
        li.textContent = name;
        menu.append(li);
      }
      button.after(menu);
    } else {
      menu?.remove();
      menu = null;
    }
  });
</script>
</body></html>`

// clickAXPrefix clicks the node with the role whose name starts with
// prefix (a change's words end with its refs, which the test does not know),
// scrolled into view.
func clickAXPrefix(t *testing.T, ctx context.Context, role, prefix string) {
	t.Helper()
	name := waitAXPrefix(t, ctx, role, prefix)
	n := waitAX(t, ctx, role, name)
	actx, cancel := context.WithTimeout(ctx, WaitTimeout)
	defer cancel()
	// A long list scrolls in the bar: the person scrolls to the row first.
	if _, err := chromedp.Call(actx, dom.ScrollIntoViewIfNeeded, dom.ScrollIntoViewIfNeededParams{BackendNodeID: n.backend}); err != nil {
		t.Fatalf("scrolling to %s %q: %v", role, name, err)
	}
	quads, err := chromedp.Call(actx, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: n.backend})
	if err != nil || len(quads.Quads) == 0 || len(quads.Quads[0]) < 8 {
		t.Fatalf("finding where %s %q is: %v", role, name, err)
	}
	q := quads.Quads[0]
	mouseClick(t, ctx, (q[0]+q[2]+q[4]+q[6])/4, (q[1]+q[3]+q[5]+q[7])/4)
}

// TestRecordAssertChange records "open the menu" with the recording bar's
// Assert change: the bar lists what the click changed, the person ticks the
// menu (added), the button's expanded state and "nothing else changes", and
// the exported trail holds an assertChange right after the click with both
// and only, which loads and replays green; against the page whose click
// does nothing it fails as an app-bug at that step. A second Assert change,
// cancelled, records nothing.
func TestRecordAssertChange(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, assertMenuPage, func(app context.Context) {
		clickCSS(t, app, "nav button")
		WaitFor[bool](t, app, `!!document.querySelector('[role=menu]')`)
		clickAX(t, app, "button", "Assert change")
		waitAX(t, app, "StaticText", "Tick what must change, then Add assertion.")
		clickAXPrefix(t, app, "checkbox", `added menu "Main"`)
		clickAXPrefix(t, app, "checkbox", `state button "Menu"`)
		clickAX(t, app, "checkbox", "Nothing else changes")
		clickAX(t, app, "button", "Add assertion")
		waitAX(t, app, "StaticText", "Added: 2 changes must happen, and nothing else changes.")
		// Cancel records nothing.
		clickAX(t, app, "button", "Assert change")
		waitAX(t, app, "StaticText", "Tick what must change, then Add assertion.")
		clickAXPrefix(t, app, "checkbox", `added menu "Main"`)
		clickAX(t, app, "button", "Cancel")
		waitAX(t, app, "StaticText", "Recording")
	})
	var changes []trail.AssertChange
	tapAt := -1
	for si, s := range rec.trail.Steps {
		for j, a := range s.Actions {
			switch a := a.(type) {
			case trail.AssertChange:
				changes = append(changes, a)
				if j == 0 || si != tapAt {
					t.Errorf("the assertChange is not right after the click in its step:\n%s", rec.yaml)
				}
			case trail.Tap:
				if a.Selector.String() == "{role: button, name: Menu}" {
					tapAt = si
				}
			}
		}
	}
	if len(changes) != 1 {
		t.Fatalf("the trail has %d assertChange actions, want 1 (the cancelled one records nothing):\n%s", len(changes), rec.yaml)
	}
	ac := changes[0]
	got := map[string]string{}
	for _, m := range ac.MustInclude {
		var to []string
		for _, t := range m.To {
			to = append(to, t.Field+": "+t.Value)
		}
		got[m.Change] = m.Selector.String() + " " + strings.Join(to, ", ")
	}
	want := map[string]string{"added": "{role: menu, name: Main} ", "state": "{role: button, name: Menu} expanded: true"}
	if len(got) != len(want) || got["added"] != want["added"] || got["state"] != want["state"] {
		t.Errorf("assertChange mustInclude = %v, want %v\n--- trail\n%s", got, want, rec.yaml)
	}
	// Nothing else changes: only names every change the click made, the
	// same two.
	if len(ac.Only) != 2 {
		t.Errorf("assertChange only = %+v, want the click's two changes\n--- trail\n%s", ac.Only, rec.yaml)
	}
	if !strings.Contains(string(rec.yaml), "to: {expanded: true}") {
		t.Errorf("the trail does not write to: {expanded: true}:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
	dead := strings.Replace(assertMenuPage, "const open = button.getAttribute('aria-expanded') !== 'true';", "return;", 1)
	if dead == assertMenuPage {
		t.Fatal("the variant whose click does nothing was not made")
	}
	status := rec.replayVariant(t, dead)
	if step, why := failedAt(t, status); step != tapAt+1 || !strings.HasPrefix(why, "app-bug: ") || !strings.Contains(why, "assertChange") {
		t.Errorf("with a click that does nothing, the replay failed at step %d: %s\nwant step %d, an app-bug of the assertChange\n%s", step, why, tapAt+1, status)
	}
}

// slidePage slides a toast 300 px to the right over 600 ms when the button
// is clicked: one class change, then nothing but the transition.
const slidePage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Slide</title>
<style>
  .toast { position: absolute; left: 20px; top: 200px; width: 120px; transition: transform 600ms linear; }
  .toast.out { transform: translateX(300px); }
</style></head>
<body>
<button type="button">Dismiss</button>
<p class="toast" role="status">Saved</p>
<script>
  document.querySelector('button').addEventListener('click', () => document.querySelector('.toast').classList.add('out'));
</script>
</body></html>`

// TestRecordAssertChangeAfterATransition: the bar lists what an action
// changed once its transition ended, not the capture taken while it ran —
// the toast moved the whole 300 px (its top margin puts it at y 216), as
// replay's diff will say.
func TestRecordAssertChangeAfterATransition(t *testing.T) {
	t.Parallel()
	recordPage(t, slidePage, func(app context.Context) {
		clickAX(t, app, "button", "Dismiss")
		WaitFor[bool](t, app, `document.querySelector('.toast').getAnimations().length === 0 && document.querySelector('.toast').getBoundingClientRect().left >= 319`)
		clickAX(t, app, "button", "Assert change")
		waitAX(t, app, "StaticText", "Tick what must change, then Add assertion.")
		waitAXPrefix(t, app, "StaticText", "moved status [e")
		var moved []string
		for _, n := range axNodes(t, app) {
			if n.role == "StaticText" && strings.HasPrefix(n.name, "moved ") {
				moved = append(moved, n.name)
			}
		}
		if len(moved) != 1 || !strings.HasSuffix(moved[0], ": (20, 216) → (320, 216)") {
			t.Errorf("the bar lists the moves %q, want the toast's whole move (20, 216) → (320, 216)", moved)
		}
		clickAX(t, app, "button", "Cancel")
		waitAX(t, app, "StaticText", "Recording")
	})
}

// TestRecordAssertChangeNothingChanges records a click that does nothing
// with the bar's "Nothing changes": the trail's assertChange says changed:
// false, replays green, and on a page whose click shows a note it fails
// naming the note.
func TestRecordAssertChangeNothingChanges(t *testing.T) {
	t.Parallel()
	const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Archive</title></head>
<body><h1>Archive</h1><button type="button">Delete all</button><p>12 letters</p></body></html>`
	rec := recordPage(t, page, func(app context.Context) {
		clickAX(t, app, "button", "Delete all")
		clickAX(t, app, "button", "Assert change")
		waitAXPrefix(t, app, "StaticText", "The last action (click the Delete all button) changed nothing visible on the page. Tick “Nothing changes”")
		clickAX(t, app, "checkbox", "Nothing changes")
		clickAX(t, app, "button", "Add assertion")
		waitAX(t, app, "StaticText", "Added: the action changes nothing.")
	})
	if !strings.Contains(string(rec.yaml), "assertChange: {changed: false}") {
		t.Fatalf("the trail does not record assertChange: {changed: false}:\n%s", rec.yaml)
	}
	rec.replayGreen(t)
	live := strings.Replace(page, `<button type="button">Delete all</button>`,
		`<button type="button" onclick="document.querySelector('p').textContent = '0 letters'">Delete all</button>`, 1)
	status := rec.replayVariant(t, live)
	if _, why := failedAt(t, status); !strings.HasPrefix(why, "app-bug: ") || !strings.Contains(why, "changed: false: 1 change: content") || !strings.Contains(why, "0 letters") {
		t.Errorf("with a click that deletes, the replay failed with %q, want an app-bug naming the change to 0 letters\n%s", why, status)
	}
}

// TestRecordAssertChangeMustNotChange records "open the menu" with Assert
// change, the menu ticked and the welcome line picked with Must not
// change…: the trail's assertChange has mustNotInclude naming the line, the
// pick itself records no click, the trail replays green, and on a page
// whose click also rewrites the line it fails naming that change.
func TestRecordAssertChangeMustNotChange(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, assertMenuPage, func(app context.Context) {
		clickCSS(t, app, "nav button")
		WaitFor[bool](t, app, `!!document.querySelector('[role=menu]')`)
		clickAX(t, app, "button", "Assert change")
		waitAX(t, app, "StaticText", "Tick what must change, then Add assertion.")
		clickAXPrefix(t, app, "checkbox", `added menu "Main"`)
		clickAX(t, app, "button", "Must not change…")
		waitAX(t, app, "StaticText", "Click the element that must not change.")
		clickCSS(t, app, "body > p")
		waitAX(t, app, "StaticText", "Picked: it must not change. Pick another, tick changes, or Add assertion.")
		waitAX(t, app, "StaticText", "Must not change: “Welcome back.”")
		clickAX(t, app, "button", "Add assertion")
		waitAX(t, app, "StaticText", "Added: 1 change must happen, and 1 element must not change.")
	})
	var ac *trail.AssertChange
	taps := 0
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			switch a := a.(type) {
			case trail.AssertChange:
				ac = &a
			case trail.Tap:
				taps++
			}
		}
	}
	if taps != 1 {
		t.Errorf("the trail has %d taps, want the Menu click alone (a pick is no click):\n%s", taps, rec.yaml)
	}
	if ac == nil || len(ac.MustNotInclude) != 1 || !strings.Contains(ac.MustNotInclude[0].String(), "Welcome back.") || len(ac.MustInclude) != 1 {
		t.Fatalf("the assertChange = %+v, want the menu included and the welcome line in mustNotInclude:\n%s", ac, rec.yaml)
	}
	rec.replayGreen(t)
	side := strings.Replace(assertMenuPage, "button.setAttribute('aria-expanded', String(open));",
		"button.setAttribute('aria-expanded', String(open)); document.querySelector('body > p').textContent = 'Welcome back, again.';", 1)
	status := rec.replayVariant(t, side)
	if _, why := failedAt(t, status); !strings.HasPrefix(why, "app-bug: ") || !strings.Contains(why, "mustNotInclude") || !strings.Contains(why, "Welcome back, again.") {
		t.Errorf("with a click that also rewrites the welcome line, the replay failed with %q, want an app-bug of mustNotInclude naming the new line\n%s", why, status)
	}
}

// commitOnBlurPage adds what its field holds to the list when the field
// loses the focus (its change event), as TodoMVC's new-item field does.
const commitOnBlurPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>List</title></head>
<body>
<h1>List</h1>
<input aria-label="New item">
<ul></ul>
<script>
  const field = document.querySelector('input');
  field.addEventListener('change', () => {
    const li = document.createElement('li');
    li.textContent = field.value;
    document.querySelector('ul').append(li);
    field.value = '';
  });
</script>
</body></html>`

// TestRecordAssertChangeKeepsThePageFocus: ticking a change in the
// recording bar's Assert change list leaves the focus in the page's field,
// so a field that commits on blur does not add an item the person never
// added (and no replay would), as a random walk on TodoMVC found.
func TestRecordAssertChangeKeepsThePageFocus(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, commitOnBlurPage, func(app context.Context) {
		clickCSS(t, app, "input")
		typeKeys(t, app, "Buy milk")
		WaitFor[bool](t, app, `document.querySelector('input').value === 'Buy milk'`)
		clickAX(t, app, "button", "Assert change")
		waitAX(t, app, "StaticText", "Tick what must change, then Add assertion.")
		clickAXPrefix(t, app, "checkbox", `content textbox "New item"`)
		if got := Eval[string](t, app, `document.querySelectorAll('li').length + ' ' + document.querySelector('input').value`); got != "0 Buy milk" {
			t.Errorf("after ticking a change, the page reads %q (items, field); want \"0 Buy milk\": the tick took the focus from the field", got)
		}
		clickAX(t, app, "button", "Add assertion")
		waitAXPrefix(t, app, "StaticText", "Added: ")
		if got := Eval[string](t, app, `document.querySelectorAll('li').length + ' ' + document.querySelector('input').value`); got != "0 Buy milk" {
			t.Errorf("after adding the assertion, the page reads %q (items, field); want \"0 Buy milk\"", got)
		}
	})
	if strings.Contains(string(rec.yaml), "shows: [{text: Buy milk}]") {
		t.Errorf("the trail pins an item the person never added:\n%s", rec.yaml)
	}
}
