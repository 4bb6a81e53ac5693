package steps_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
)

// fixturePages are the selector corpus's pages: minimal pages of the shapes
// real apps have (rows of unnamed checkboxes, glyph checkboxes).
var fixturePages = filepath.Join("..", "..", "recorder", "selector", "testdata", "selectors", "pages")

// recordOnFixture opens a corpus page in headless Chromium and returns a
// recording on it and the context the tab runs in.
func recordOnFixture(t *testing.T, page string) *liveRecording {
	t.Helper()
	if testing.Short() {
		t.Skip("starts Chromium; skipped with -short")
	}
	path, err := browser.FindChrome()
	if err != nil {
		browsertest.Missing(t, err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(fixturePages)))
	t.Cleanup(srv.Close)
	opts, err := browser.AllocatorOptions(browser.LaunchOptions{ExecPath: path, Headless: true, UserDataDir: t.TempDir(), Width: 1280, Height: 800})
	if err != nil {
		t.Fatal(err)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(tab, 2*time.Minute) // generous: the machine is shared
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"/"+page)); err != nil {
		t.Fatalf("opening %s: %v", page, err)
	}
	r := &liveRecording{t: t, ctx: ctx, base: srv.URL}
	r.record(steps.InteractNavigate, nil, "", func(it *steps.Interaction) { it.URL, it.Transition = srv.URL+"/"+page, "typed" })
	return r
}

// TestRowCheckboxesAreNamedByTheirRow clicks the unnamed checkboxes of todo
// rows (issue 11, defect 4): plain ones, and ones that draw ☐ / ☑ from their
// own ::after. Each step must be named after its row's title, never after
// the glyph, and its selector must find the box by the row's title, with no
// index, on the screen it was recorded on.
func TestRowCheckboxesAreNamedByTheirRow(t *testing.T) {
	r := recordOnFixture(t, "todos.html")
	row := func(title string) selector.Selector {
		return selector.Selector{Role: "checkbox", Within: &selector.Selector{Role: "listitem", TextRegex: "(?m)^" + title + "$"}}
	}
	r.click(row("Feed the cat"), "")
	r.click(row("Brush the cat"), "")
	r.click(row("Repot the plants"), "")
	bt, err := steps.BuildSteps(r.recs, r.capture(), steps.BuildOptions{BaseURL: r.base})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	want := []string{
		"Check Feed the cat :: check {role: checkbox, within: {role: listitem, text: \"Feed the cat\"}}",
		`Check Brush the cat :: check {role: checkbox, within: {role: listitem, textRegex: "(?m)^Brush the cat$"}}`,
		`Uncheck Repot the plants :: uncheck {role: checkbox, within: {role: listitem, textRegex: "(?m)^Repot the plants$"}}`,
	}
	var got []string
	for _, s := range bt.Steps {
		for _, a := range s.Actions {
			sel, _ := trail.ActionSelector(a)
			got = append(got, s.Intent+" :: "+string(a.Kind())+" "+sel.String())
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildSteps() steps =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	r.checkSelectors(bt)
	// The box shows ☑ now: the recorded selector still finds it.
	after := r.capture()
	for _, title := range []string{"Brush the cat", "Repot the plants"} {
		if got, err := selector.Match(after, row(title)); err != nil || len(got) != 1 {
			t.Errorf("after the clicks, %s matches %d elements: %v", row(title), len(got), err)
		}
	}
}

// TestUnlabelledControlsAreNamedByWhatIsAroundThem double-clicks a count to
// reveal its text box and types into it, and chooses in two unlabelled
// drop-downs (issue 11, defect 16). The text box is found by its row, not
// by its position among the page's text boxes nor by the value it holds;
// the drop-downs by their fieldset's legend, their row and the text beside
// them, never by the option they show; each step is named after the same.
func TestUnlabelledControlsAreNamedByWhatIsAroundThem(t *testing.T) {
	r := recordOnFixture(t, "unlabelled.html")
	s := r.capture()
	count := r.find(s, selector.Selector{Text: "12", Within: &selector.Selector{Role: "row", TextRegex: `^Apples\s`}})
	r.record(steps.InteractClick, s, count, func(it *steps.Interaction) { it.Count = 2 })
	p, err := chromedp.Run(r.ctx, browser.ScrollIntoView(count))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(r.ctx, chromedp.MouseClickXY(p.X, p.Y, chromedp.ClickCount(2))); err != nil {
		t.Fatalf("double-clicking the count: %v", err)
	}
	box := selector.Selector{Role: "textbox", Within: &selector.Selector{Role: "row", TextRegex: `^Apples\b`}}
	r.waitFor("the revealed text box", func(n *screen.Screen) bool {
		got, err := selector.Match(n, box)
		return err == nil && len(got) == 1
	})
	r.typeInto(box, "13", "")
	r.choose(selector.Selector{Role: "combobox", Within: &selector.Selector{Role: "group", Name: "Fruit"}}, `fieldset[data-key="fruit"] select`, "Pears")
	r.choose(selector.Selector{Role: "combobox", Within: &selector.Selector{Role: "listitem", TextRegex: `^Bottom shelf\s`}}, `li[data-key="bottom"] select`, "Honey")
	r.choose(selector.Selector{Role: "combobox", Within: &selector.Selector{Role: "generic", TextRegex: `^Size\s`}}, `div[data-key="size"] select`, "Large")
	bt, err := steps.BuildSteps(r.recs, r.capture(), steps.BuildOptions{BaseURL: r.base})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	want := []string{
		`Double-click "12" :: tap {text: "12"}`,
		`Type 13 into Apples :: type {role: textbox, within: {role: row, text: Apples}}`,
		`Select Pears in Fruit :: select {role: combobox, within: {role: group, name: Fruit}}`,
		`Select Honey in Bottom shelf :: select {role: combobox, within: {role: listitem, textRegex: "^Bottom shelf\\s"}}`,
		`Select Large in Size :: select {role: combobox, within: {role: generic, textRegex: "^Size\\s"}}`,
	}
	var got []string
	for _, s := range bt.Steps {
		for _, a := range s.Actions {
			sel, _ := trail.ActionSelector(a)
			got = append(got, s.Intent+" :: "+string(a.Kind())+" "+sel.String())
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BuildSteps() steps =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	r.checkSelectors(bt)
}

// choose records the choice of option in the drop-down sel names and
// makes it in the page (css selects the same drop-down there).
func (r *liveRecording) choose(sel selector.Selector, css, option string) {
	r.t.Helper()
	s := r.capture()
	ref := r.find(s, sel)
	r.record(steps.InteractSelect, s, ref, func(it *steps.Interaction) { it.Options = []string{option} })
	if err := chromedp.Do(r.ctx, chromedp.SetValue(chromedp.CSS(css), option)); err != nil {
		r.t.Fatalf("choosing %s in %s: %v", option, sel, err)
	}
}
