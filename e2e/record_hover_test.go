package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/trail"
)

// choresPage is a list whose rows show their remove button only while the
// pointer is on the row (the TodoMVC shape: the glyph × from ::after, and
// checkboxes drawing ☐ / ☑ from theirs), and a field whose typing shows a
// preview.
const choresPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Chores</title>
<style>
  ul { list-style: none; padding: 0; width: 420px; }
  li { display: flex; gap: 0.5em; align-items: center; padding: 8px; }
  .toggle { appearance: none; width: 1.2em; height: 1.2em; margin: 0; }
  .toggle::after { content: "☐"; }
  .toggle:checked::after { content: "☑"; }
  .remove { display: none; margin-left: auto; border: 0; background: none; font-size: 20px; }
  .remove::after { content: "×"; }
  li:hover .remove { display: block; }
</style></head>
<body>
<h1>Chores</h1>
<p><label for="note">Note</label> <input id="note"></p>
<p id="preview"></p>
<ul aria-label="Chores">
  <li><input type="checkbox" class="toggle"><label>Feed the cat</label><button class="remove" type="button"></button></li>
  <li><input type="checkbox" class="toggle"><label>Water the plants</label><button class="remove" type="button"></button></li>
  <li><input type="checkbox" class="toggle"><label>Post the letter</label><button class="remove" type="button"></button></li>
</ul>
<p id="status" role="status"></p>
<script>
  document.querySelector('#note').addEventListener('input', (e) => {
    document.querySelector('#preview').textContent = 'Preview: ' + e.target.value;
  });
  document.querySelector('ul').addEventListener('click', (e) => {
    const b = e.target.closest('.remove');
    if (!b) return;
    const li = b.closest('li');
    document.querySelector('#status').textContent = 'Removed ' + li.querySelector('label').textContent;
    li.remove();
  });
</script>
</body></html>`

// moveMouse moves the pointer to x, y as a person's mouse does.
func moveMouse(t *testing.T, ctx context.Context, x, y float64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
		t.Fatalf("moving the mouse to %.0f,%.0f: %v", x, y, err)
	}
}

// hoverRow rests the pointer on the label of the row titled title and waits
// until the row's remove button shows.
func hoverRow(t *testing.T, app context.Context, title string) {
	t.Helper()
	x, y := centreOf(t, app, rowLabel(title))
	moveMouse(t, app, x, y)
	WaitFor[bool](t, app, `(() => { const b = document.querySelector(`+jsQuote(rowLabel(title))+`).closest('li').querySelector('.remove');
		return getComputedStyle(b).display === 'block'; })()`)
}

// rowLabel is the CSS selector of the label of the row titled title.
func rowLabel(title string) string {
	return `li:has(> label[data-t="` + title + `"]) > label`
}

func jsQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// TestRecordHoverRevealedControl (issue 11, defects 1 and 2): the person
// rests the pointer on a row and clicks the remove button its hover shows,
// then types into a field while the pointer rests on another row, checks
// that row's box, and asserts that a third row shows its remove button
// under the pointer. The click is recorded as a hover over the row and a
// tap on the button found within the row by its title, the assertion as a
// hover and the check within the row (no act step, no left-out
// interaction); no end state pins the remove button or a row's
// text with its ×; the trail replays green on the unchanged page, and fails
// on a copy whose rows have no remove button.
func TestRecordHoverRevealedControl(t *testing.T) {
	t.Parallel()
	page := strings.NewReplacer(`<label>Feed`, `<label data-t="Feed the cat">Feed`,
		`<label>Water`, `<label data-t="Water the plants">Water`,
		`<label>Post`, `<label data-t="Post the letter">Post`).Replace(choresPage)
	rec := recordPage(t, page, func(app context.Context) {
		hoverRow(t, app, "Water the plants")
		x, y := centreOf(t, app, rowLabel("Water the plants")+` ~ .remove`)
		moveMouse(t, app, x, y)
		mouseClick(t, app, x, y)
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Removed Water the plants'`)

		clickCSS(t, app, "#note")
		typeKeys(t, app, "buy")
		hoverRow(t, app, "Post the letter")
		typeKeys(t, app, " milk")
		WaitFor[bool](t, app, `document.querySelector('#preview').textContent === 'Preview: buy milk'`)
		// The box of the same row: the pointer stays on the row.
		x, y = centreOf(t, app, `li:has(> label[data-t="Post the letter"]) > .toggle`)
		moveMouse(t, app, x, y)
		mouseClick(t, app, x, y)
		WaitFor[bool](t, app, `document.querySelector('li:has(> label[data-t="Post the letter"]) > .toggle').checked`)

		// The person checks that a row offers its remove button: the
		// assertion is made under the pointer, and replay hovers first.
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		hoverRow(t, app, "Feed the cat")
		x, y = centreOf(t, app, rowLabel("Feed the cat")+` ~ .remove`)
		moveMouse(t, app, x, y)
		mouseClick(t, app, x, y)
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	got := actionSelectors(rec.trail)
	row := func(title string) string { return `{role: listitem, textRegex: "(?m)^` + title + `$"}` }
	want := []string{
		"hover " + row("Water the plants"),
		`tap {role: button, name: "×", within: ` + row("Water the plants") + "}",
		"type ",
		"check ",
		"hover " + row("Feed the cat"),
		`assertVisible {text: "×", within: ` + row("Feed the cat") + "}",
	}
	if len(got) != len(want) {
		t.Errorf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	for i := range want {
		if i < len(got) && !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("action %d is %q, want %q\n--- trail\n%s\n--- notes\n%s", i+1, got[i], want[i], rec.yaml, rec.notes)
		}
	}
	for _, s := range rec.trail.Steps {
		if s.Act != "" {
			t.Errorf("step %q is a goal for the agent (act), want a recording\n%s", s.Intent, rec.yaml)
		}
		if s.End == nil {
			continue
		}
		for _, sel := range s.End.Shows {
			if strings.Contains(sel.String(), "×") || sel.Role == "button" && sel.Name == "" && sel.Text == "" {
				t.Errorf("step %q ends showing %s: what the pointer happened to reveal\n%s", s.Intent, sel, rec.yaml)
			}
		}
	}
	if strings.Contains(rec.notes, "left out") || strings.Contains(rec.notes, "(act)") {
		t.Errorf("the review notes say something was not recorded:\n%s", rec.notes)
	}
	rec.replayGreen(t)

	// The same trail on a copy whose rows have no remove button: the hover
	// finds the row, and the tap must fail.
	variant := TempDir(t)
	gone := strings.ReplaceAll(page, `<button class="remove" type="button"></button>`, "")
	if err := os.WriteFile(filepath.Join(variant, "page.html"), []byte(gone), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, variant)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", srv.URL, "--results", TempDir(t), rec.path)
	if run.ExitCode == 0 || strings.Contains(string(run.Stdout), "PASSED: 1 trail") {
		t.Errorf("replay on a page without remove buttons exited %d, want a failure:\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr)
	}
	if out := string(run.Stdout); !strings.Contains(out, "step:     1,") || !strings.Contains(out, "error:    tap {role: button") {
		t.Errorf("replay on a page without remove buttons should fail at step 1's tap (its hover finds the row):\n%s", out)
	}
}

// accountMenuPage opens its account menu when the pointer enters it (a
// script's mouseenter, as the demo shop's menu does), and closes it when
// the pointer leaves.
const accountMenuPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Inbox</title>
<style>#menu { display: inline-block; padding: 4px; } #panel[hidden] { display: none; }</style></head>
<body>
<h1>Inbox</h1>
<p><button id="refresh" type="button">Refresh</button></p>
<div id="menu">
  <button id="account" type="button" aria-controls="panel" aria-expanded="false">Account</button>
  <div id="panel" hidden><button id="settings" type="button">Settings</button> <button id="signout" type="button">Sign out</button></div>
</div>
<p id="status" role="status"></p>
<script>
  const menu = document.querySelector('#menu'), panel = document.querySelector('#panel');
  menu.addEventListener('mouseenter', () => { panel.hidden = false; });
  menu.addEventListener('mouseleave', () => { panel.hidden = true; });
  document.querySelector('#refresh').addEventListener('click', () => { document.querySelector('#status').textContent = 'Refreshed'; });
  document.querySelector('#signout').addEventListener('click', () => { document.querySelector('#status').textContent = 'Signed out'; });
</script>
</body></html>`

// TestRecordHoverOpenedMenu: a menu a script opens when the pointer enters
// it. The click on its item is recorded after a hover over the element the
// pointer entered; a click on a button that showed without the pointer
// (Refresh, reached across the menu) gets no hover. The trail replays
// green, and fails on a copy whose menu opens only on a click.
func TestRecordHoverOpenedMenu(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, accountMenuPage, func(app context.Context) {
		x, y := centreOf(t, app, "#account")
		moveMouse(t, app, x, y)
		WaitFor[bool](t, app, `!document.querySelector('#panel').hidden`)
		x, y = centreOf(t, app, "#signout")
		moveMouse(t, app, x, y)
		mouseClick(t, app, x, y)
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Signed out'`)
		x, y = centreOf(t, app, "#refresh")
		moveMouse(t, app, x, y)
		WaitFor[bool](t, app, `document.querySelector('#panel').hidden`)
		mouseClick(t, app, x, y)
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Refreshed'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := actionSelectors(rec.trail)
	want := []string{"hover {id: account}", "tap {id: signout}", "tap {id: refresh}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	rec.replayGreen(t)

	variant := TempDir(t)
	clickOnly := strings.Replace(accountMenuPage, `menu.addEventListener('mouseenter'`, `document.querySelector('#account').addEventListener('click'`, 1)
	if err := os.WriteFile(filepath.Join(variant, "page.html"), []byte(clickOnly), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, variant)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--base-url", srv.URL, "--results", TempDir(t), rec.path)
	if out := string(run.Stdout); run.ExitCode == 0 || !strings.Contains(out, "step:     1,") || !strings.Contains(out, "error:    tap {id: signout}") {
		t.Errorf("replay on a menu that opens only on a click exited %d, want a failure at step 1's tap:\n%s\n%s", run.ExitCode, out, run.Stderr)
	}
}

// TestRecordHoverOpenedMenuChecked: the person checks, with the bar's
// Assert visible, an item of a menu a script opens when the pointer enters
// it. The check is recorded after a hover over the element the pointer
// entered, so the trail replays green, and fails at the check on a copy
// whose menu opens only on a click.
func TestRecordHoverOpenedMenuChecked(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, accountMenuPage, func(app context.Context) {
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		x, y := centreOf(t, app, "#account")
		moveMouse(t, app, x, y)
		WaitFor[bool](t, app, `!document.querySelector('#panel').hidden`)
		x, y = centreOf(t, app, "#signout")
		moveMouse(t, app, x, y)
		waitAX(t, app, "StaticText", "Highlighted: “Sign out”")
		mouseClick(t, app, x, y)
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	got := actionSelectors(rec.trail)
	want := []string{"hover {id: account}", `assertVisible {text: "Sign out"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	rec.replayGreen(t)

	clickOnly := strings.Replace(accountMenuPage, `menu.addEventListener('mouseenter'`, `document.querySelector('#account').addEventListener('click'`, 1)
	status := rec.replayVariant(t, clickOnly)
	if step, why := failedAt(t, status); step != 1 || !strings.Contains(why, "assertVisible") {
		t.Errorf("replay on a menu that opens only on a click failed at step %d (%s), want step 1's assertVisible:\n%s", step, why, status)
	}
}

// nestedChoresPage is choresPage with its style written in nested CSS, in
// a layer and a media query: the rows reveal their remove button from
// `.row { &:hover .remove {…} }`, and the button's × comes from a nested
// `&::after`.
var nestedChoresPage = strings.NewReplacer(
	`  .remove { display: none; margin-left: auto; border: 0; background: none; font-size: 20px; }
  .remove::after { content: "×"; }
  li:hover .remove { display: block; }`,
	`  @layer app {
    .remove { display: none; margin-left: auto; border: 0; background: none; font-size: 20px;
      &::after { content: "×"; } }
    @media (min-width: 1px) {
      .row { &:hover .remove { display: block; } }
    }
  }`,
	`<li>`, `<li class="row">`,
	`<label>Feed`, `<label data-t="Feed the cat">Feed`,
	`<label>Water`, `<label data-t="Water the plants">Water`,
	`<label>Post`, `<label data-t="Post the letter">Post`,
).Replace(choresPage)

// TestRecordHoverNestedRule: a remove button that a nested `&:hover` rule
// reveals is recorded as for the flat rule: a hover over its row, then the
// tap within the row, and the trail replays green.
func TestRecordHoverNestedRule(t *testing.T) {
	t.Parallel()
	if !strings.Contains(nestedChoresPage, "&:hover") || strings.Contains(nestedChoresPage, "li:hover") {
		t.Fatal("the page's style was not rewritten in nested CSS")
	}
	rec := recordPage(t, nestedChoresPage, func(app context.Context) {
		hoverRow(t, app, "Water the plants")
		x, y := centreOf(t, app, rowLabel("Water the plants")+` ~ .remove`)
		moveMouse(t, app, x, y)
		mouseClick(t, app, x, y)
		WaitFor[bool](t, app, `document.querySelector('#status').textContent === 'Removed Water the plants'`)
		waitAX(t, app, "toolbar", "Trailpin recording")
	})
	got := actionSelectors(rec.trail)
	row := `{role: listitem, textRegex: "(?m)^Water the plants$"}`
	want := []string{"hover " + row, `tap {role: button, name: "×", within: ` + row + "}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the trail's actions are\n  %s\nwant\n  %s\n--- trail\n%s\n--- notes\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml, rec.notes)
	}
	rec.replayGreen(t)
}

// actionSelectors lists the trail's actions, each as its kind and its
// selector.
func actionSelectors(tr *trail.Trail) []string {
	var out []string
	for _, s := range tr.Steps {
		for _, a := range s.Actions {
			sel, _ := trail.ActionSelector(a)
			out = append(out, string(a.Kind())+" "+sel.String())
		}
	}
	return out
}
