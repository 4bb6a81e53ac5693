package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/trailpin/trailpin/recorder/trail"
)

// Assertions recorded with the recording bar check what a person reads:
// the whole line of a counter split into spans, or the element the person
// widened or narrowed the highlight to; and each fails where its value
// changes, as an app-bug with expected vs actual, not at a step's end
// before it.

// counterPage shows a count split into spans, as list apps write it.
const counterPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tasks</title></head>
<body>
<h1>Tasks</h1>
<ul>
  <li>Feed the cat</li>
  <li>Water the plants</li>
  <li>Call mum</li>
</ul>
<div class="summary">
  <p class="count"><strong>3</strong> <span>tasks</span> <span>open</span></p>
  <p>Updated today</p>
</div>
<footer><span class="done"><strong>2</strong> done</span> <a href="#done">Show done</a></footer>
</body></html>`

// hoverCSS moves the mouse onto the centre of the element sel names, as a
// person's pointer comes to rest there.
func hoverCSS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	x, y := centreOf(t, ctx, sel)
	if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y}); err != nil {
		t.Fatalf("moving the mouse to %s: %v", sel, err)
	}
}

// replayVariant replays the recorded trail against html served in place of
// the page, and returns its status lines.
func (p *pageRecording) replayVariant(t *testing.T, html string) string {
	t.Helper()
	dir := TempDir(t)
	if err := os.WriteFile(filepath.Join(dir, "page.html"), []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := ServeDir(t, dir)
	run := RunHost(t, replayEnv(t, false), nil, "replay", "--format", "status", "--base-url", srv.URL, "--results", TempDir(t), p.path)
	if run.ExitCode == 0 {
		t.Fatalf("host replay of the trail on a changed page passed:\n%s\n--- trail\n%s", run.Stdout, p.yaml)
	}
	return string(run.Stdout)
}

// failedAt returns the step number and the reason of the status lines'
// ASSERTION_FAILED line.
func failedAt(t *testing.T, status string) (int, string) {
	t.Helper()
	m := regexp.MustCompile(`(?m)^ASSERTION_FAILED\|[a-z0-9-]+-(\d+)\|(.*)$`).FindStringSubmatch(status)
	if m == nil {
		t.Fatalf("no ASSERTION_FAILED line in\n%s", status)
	}
	n := 0
	for _, c := range m[1] {
		n = n*10 + int(c-'0')
	}
	return n, m[2]
}

// assertionStep is the 1-based number of the trail's first assertVisible
// step, and its selector.
func (p *pageRecording) assertionStep(t *testing.T) (int, string) {
	t.Helper()
	sels := p.assertedSelectors()
	if len(sels) == 0 {
		t.Fatalf("the trail has no assertVisible:\n%s", p.yaml)
	}
	for i, s := range p.trail.Steps {
		for _, a := range s.Actions {
			if _, ok := a.(trail.AssertVisible); ok {
				return i + 1, sels[0]
			}
		}
	}
	return 0, ""
}

// assertedSelectors lists the selectors of the trail's assertVisible
// actions, in order.
func (p *pageRecording) assertedSelectors() []string {
	var out []string
	for _, s := range p.trail.Steps {
		for _, a := range s.Actions {
			if av, ok := a.(trail.AssertVisible); ok {
				out = append(out, av.Selector.String())
			}
		}
	}
	return out
}

// TestRecordAssertionReadsTheWholeLine: a click on "open" of "3 tasks
// open" with Assert visible asserts the whole line, so a wrong count fails
// the assertion (an assertion on "open" alone would pass); a line with a
// link beside the count is not one piece, and the count's text is taken.
func TestRecordAssertionReadsTheWholeLine(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, counterPage, func(app context.Context) {
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		hoverCSS(t, app, ".count span:last-child")
		waitAX(t, app, "StaticText", "Highlighted: “3 tasks open”")
		clickCSS(t, app, ".count span:last-child")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		clickCSS(t, app, ".done strong")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	got := rec.assertedSelectors()
	if want := []string{`{text: "3 tasks open"}`, `{text: "2 done"}`}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the assertions' selectors are\n  %s\nwant\n  %s\n--- trail\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), rec.yaml)
	}
	rec.replayGreen(t)

	status := rec.replayVariant(t, strings.Replace(counterPage, "<strong>3</strong>", "<strong>4</strong>", 1))
	step, why := failedAt(t, status)
	want := `app-bug: assertVisible {text: "3 tasks open"}: expected "3 tasks open", but `
	if n, _ := rec.assertionStep(t); step != n || !strings.HasPrefix(why, want) || !strings.Contains(why, `"4 tasks open"`) {
		t.Errorf("with 4 tasks open, the replay failed at step %d: %s\nwant step %d: %s… \"4 tasks open\"\n%s", step, why, n, want, status)
	}
}

// TestRecordAssertionWidenedInTheBar: the person changes the highlighted
// element before taking it, with the arrow keys and with the bar's Wider
// and Narrower buttons, and the assertion checks the element chosen.
func TestRecordAssertionWidenedInTheBar(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, counterPage, func(app context.Context) {
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		hoverCSS(t, app, ".count span:last-child")
		waitAX(t, app, "StaticText", "Highlighted: “3 tasks open”")
		// The focus is on the bar's Assert visible button: its keys.
		typeKeys(t, app, kb.ArrowDown)
		waitAX(t, app, "StaticText", "Highlighted: “open”")
		typeKeys(t, app, kb.ArrowUp)
		waitAX(t, app, "StaticText", "Highlighted: “3 tasks open”")
		clickAX(t, app, "button", "Narrower")
		waitAX(t, app, "StaticText", "Highlighted: “open”")
		clickAX(t, app, "button", "Wider")
		waitAX(t, app, "StaticText", "Highlighted: “3 tasks open”")
		clickAX(t, app, "button", "Wider")
		waitAX(t, app, "StaticText", "Highlighted: “3 tasks open Updated today”")
		clickAX(t, app, "button", "Assert this element")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	n, sel := rec.assertionStep(t)
	if want := `{text: "3 tasks open\nUpdated today"}`; sel != want {
		t.Errorf("the assertion's selector is %s, want %s\n--- trail\n%s", sel, want, rec.yaml)
	}
	if strings.Contains(string(rec.yaml), "press:") {
		t.Errorf("the arrow keys that moved the highlight were recorded as presses:\n%s", rec.yaml)
	}
	rec.replayGreen(t)

	status := rec.replayVariant(t, strings.Replace(counterPage, "<strong>3</strong>", "<strong>4</strong>", 1))
	step, why := failedAt(t, status)
	if step != n || !strings.HasPrefix(why, "app-bug: ") || !strings.Contains(why, `expected "3 tasks open\\nUpdated today"`) {
		t.Errorf("with 4 tasks open, the replay failed at step %d: %s\nwant step %d, app-bug, expected \"3 tasks open\\nUpdated today\"\n%s", step, why, n, status)
	}
}

// formPage sends a form in place and says so; a menu opens on More.
const formPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contact</title></head>
<body>
<h1>Contact</h1>
<button id="more" type="button">More</button>
<ul class="menu" hidden>
  <li><a href="#profile">Profile</a></li>
  <li><a href="#settings">Settings</a></li>
  <li><a href="#help">Help</a></li>
  <li><a href="#sign-out">Sign out</a></li>
</ul>
<form id="contact">
  <label for="name">Name</label> <input id="name">
  <button type="submit">Submit</button>
</form>
<div id="sent" hidden>
  <p class="message">Your form has been submitted!</p>
  <a href="#again">Send another</a>
</div>
<script>
  document.querySelector('#more').addEventListener('click', () => { document.querySelector('.menu').hidden = false; });
  document.querySelector('#contact').addEventListener('submit', (e) => {
    e.preventDefault();
    document.querySelector('#contact').hidden = true;
    document.querySelector('#sent').hidden = false;
  });
</script>
</body></html>`

// TestRecordEndLeavesTheCheckToTheAssertion: the step that sends the form
// does not check first the message the person asserts right after it, so
// when the message changes the replay fails at the person's assertion, as
// an app-bug with expected vs actual; and the step that opens the menu does
// not pin the whole menu as one text.
func TestRecordEndLeavesTheCheckToTheAssertion(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, formPage, func(app context.Context) {
		clickCSS(t, app, "#more")
		WaitFor[bool](t, app, `!document.querySelector('.menu').hidden`)
		clickCSS(t, app, "#name")
		typeKeys(t, app, "Ada")
		clickCSS(t, app, "#contact button")
		WaitFor[bool](t, app, `!document.querySelector('#sent').hidden`)
		clickAX(t, app, "button", "Assert visible")
		waitAX(t, app, "StaticText", "Click the element that must be visible.")
		clickCSS(t, app, ".message")
		waitAX(t, app, "StaticText", "Added: the element must be visible.")
	})
	n, sel := rec.assertionStep(t)
	if !strings.Contains(sel, "Your form has been submitted!") {
		t.Fatalf("the assertion's selector is %s, want it to pin the message\n--- trail\n%s", sel, rec.yaml)
	}
	for i, s := range rec.trail.Steps {
		if s.End == nil {
			continue
		}
		for _, show := range s.End.Shows {
			if strings.Contains(show.Text, "submitted") || strings.Contains(show.Text, "\n") {
				t.Errorf("step %d (%s) ends showing %s: the message is the assertion's to check, and a menu is not one text\n--- trail\n%s",
					i+1, s.Intent, show, rec.yaml)
			}
		}
	}
	if more := rec.trail.Steps[0]; more.End == nil || len(more.End.Shows) == 0 {
		t.Errorf("the step that opens the menu (%s) ends showing nothing of it:\n%s", more.Intent, rec.yaml)
	} else {
		t.Logf("the menu's step ends showing %v", more.End.Shows)
	}
	rec.replayGreen(t)

	status := rec.replayVariant(t, strings.Replace(formPage, "Your form has been submitted!", "Your form has been received!", 1))
	step, why := failedAt(t, status)
	want := `app-bug: assertVisible ` + sel + `: expected "Your form has been submitted!", but `
	if step != n || !strings.HasPrefix(why, want) || !strings.Contains(why, `"Your form has been received!"`) {
		t.Errorf("with the message changed, the replay failed at step %d: %s\nwant step %d: %s… \"Your form has been received!\"\n%s", step, why, n, want, status)
	}
}

// wizardPage changes its one heading when the person continues.
const wizardPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Order</title></head>
<body>
<main>
  <h2 id="title">Your details</h2>
  <p>Fill in the form, then continue.</p>
  <button type="button" id="next">Continue</button>
</main>
<script>
  document.querySelector('#next').addEventListener('click', () => {
    document.querySelector('#title').textContent = 'Shipping address';
  });
</script>
</body></html>`

// TestRecordEndStateShowsOtherText: a step's end that finds its node with
// other text in it fails as an app-bug with expected vs actual, as an
// assertion would, not as a node gone missing (selector-drift).
func TestRecordEndStateShowsOtherText(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, wizardPage, func(app context.Context) {
		clickCSS(t, app, "#next")
		WaitFor[bool](t, app, `document.querySelector('#title').textContent === 'Shipping address'`)
		waitAX(t, app, "heading", "Shipping address")
	})
	if len(rec.trail.Steps) != 1 || rec.trail.Steps[0].End == nil || len(rec.trail.Steps[0].End.Shows) == 0 {
		t.Fatalf("want one step whose end shows the new heading:\n%s", rec.yaml)
	}
	end := rec.trail.Steps[0].End.Shows[0]
	if end.String() != `{role: heading, name: "Shipping address"}` {
		t.Fatalf("the step's end shows %s, want the new heading by role and name:\n%s", end, rec.yaml)
	}
	rec.replayGreen(t)

	status := rec.replayVariant(t, strings.Replace(wizardPage, "'Shipping address'", "'Billing address'", 1))
	step, why := failedAt(t, status)
	want := `app-bug: the step's end state did not show {role: heading, name: "Shipping address"}: expected "Shipping address", but {role: heading} shows "Billing address"`
	if step != 1 || !strings.HasPrefix(why, want) {
		t.Errorf("with another heading, the replay failed at step %d: %s\nwant step 1: %s\n%s", step, why, want, status)
	}
}

// twoFormsPage shows the same form twice, as a component gallery does:
// only the drop-downs' choices tell them apart.
const twoFormsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Forms</title></head>
<body>
<h2>Horizontal</h2>
<form><label for="h-select">Select</label>
  <select id="h-select"><option>Option 01</option><option selected>Option 02</option></select></form>
<h2>Stacked</h2>
<form><label for="s-select">Select</label>
  <select id="s-select"><option selected>Option 01</option><option>Option 02</option></select></form>
</body></html>`

// TestRecordAssertValueOnADropDown: Assert value on a drop-down names the
// drop-down, not the option it shows, so when the value differs the check
// fails as an app-bug with expected vs actual (a selector pinning "Option
// 02" would match nothing, as selector-drift).
func TestRecordAssertValueOnADropDown(t *testing.T) {
	t.Parallel()
	rec := recordPage(t, twoFormsPage, func(app context.Context) {
		clickAX(t, app, "button", "Assert value")
		waitAX(t, app, "StaticText", "Click the field whose value must stay.")
		clickCSS(t, app, "#h-select")
		waitAX(t, app, "StaticText", "Added: the field's value must stay.")
	})
	var sel string
	for _, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			if av, ok := a.(trail.AssertValue); ok && av.Value == "Option 02" {
				sel = av.Selector.String()
			}
		}
	}
	if sel == "" || strings.Contains(sel, "Option") {
		t.Fatalf("want an assertValue of Option 02 whose selector names the drop-down, not its choice:\n%s", rec.yaml)
	}
	rec.replayGreen(t)

	status := rec.replayVariant(t, strings.Replace(twoFormsPage, "<option>Option 01</option><option selected>Option 02</option>",
		"<option selected>Option 01</option><option>Option 02</option>", 1))
	_, why := failedAt(t, status)
	if !strings.HasPrefix(why, "app-bug: ") || !strings.Contains(why, `"Option 02"`) || !strings.Contains(why, `"Option 01"`) {
		t.Errorf("with another option chosen, the replay failed with %s\nwant app-bug, expected \"Option 02\" and actual \"Option 01\"\n%s", why, status)
	}
}
