package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/trail"
)

// uikitAccordion is UIkit's accordion page. Its first accordion opens one
// item at a time: a click on a closed item's title closes the open one,
// eases the clicked one open (wrapping its content in a <div> to animate
// its height), turns both titles' + and − icons, and scrolls.
func uikitAccordion(name string, rewrites map[string]string) *realApp {
	a := *uikit
	a.name = name
	a.start = "/tests/accordion.html"
	a.pages = []string{"tests/accordion.html"}
	a.rewrites = map[string]string{}
	for k, v := range uikit.rewrites {
		a.rewrites[k] = v
	}
	for k, v := range rewrites {
		a.rewrites[k] = v
	}
	return &a
}

// ukSecondItem is the title of the first accordion's second item.
const ukSecondItem = ".uk-accordion-default > li:nth-child(2) > .uk-accordion-title"

// TestRealAppAssertChangeUIkitAccordion records "open Item 2" on UIkit's
// accordion with the recording bar's Assert change, through the real
// extension: the person ticks the title's expanded state, the item's
// content shown and "Nothing else changes" — which the bar must offer: every
// change the click made is named, none is an icon's bar turning, the page
// scrolling or a wrapper the animation added. The trail replays green on
// the unchanged app; on a copy whose click does nothing it fails at the
// assertChange with the diff in words, and on one whose click also shows a
// note it fails naming the note.
func TestRealAppAssertChangeUIkitAccordion(t *testing.T) {
	t.Parallel()
	app := uikitAccordion("uikit-accordion", nil)
	srv := serveApp(t, app, serveOptions{})
	flow := []flowAct{
		click(ukSecondItem, "document.querySelector('.uk-accordion-default > li:nth-child(2)').classList.contains('uk-open')"),
		{Do: "assertChange", Ticks: []string{`state button "Item 2"`, `style region "Item 2"`}, Only: true},
	}
	rec := recordRealApp(t, app, srv.URL, flow)
	t.Logf("trail:\n%s\n--- review notes\n%s", rec.yaml, rec.notes)

	var ac *trail.AssertChange
	tapStep := -1
	for si, s := range rec.trail.Steps {
		for _, a := range s.Actions {
			switch a := a.(type) {
			case trail.Tap:
				tapStep = si + 1
			case trail.AssertChange:
				if ac != nil {
					t.Fatalf("the trail has two assertChange actions, want one:\n%s", rec.yaml)
				}
				ac = &a
				if si+1 != tapStep {
					t.Errorf("the assertChange is in step %d, not with the click (step %d):\n%s", si+1, tapStep, rec.yaml)
				}
			}
		}
	}
	if ac == nil {
		t.Fatalf("the trail has no assertChange:\n%s", rec.yaml)
	}
	var included []string
	for _, m := range ac.MustInclude {
		included = append(included, m.String())
	}
	got := strings.Join(included, "\n")
	for _, want := range []string{"{change: state, selector: {", "to: {expanded: true}", "{change: style, selector: {", "to: {visible: true}"} {
		if !strings.Contains(got, want) {
			t.Errorf("the assertChange's mustInclude does not hold %q:\n%s\n--- trail\n%s", want, got, rec.yaml)
		}
	}
	if len(ac.MustInclude) != 2 {
		t.Errorf("the assertChange includes %d changes, want the 2 ticked:\n%s", len(ac.MustInclude), got)
	}
	if len(ac.Only) < 2 {
		t.Errorf("the assertChange's only names %d changes, want every change of the click (at least the 2 ticked):\n%s", len(ac.Only), rec.yaml)
	}
	for _, m := range ac.Only {
		// The change's own element, not the container a within names it in
		// ("Item 2" within the accordion under "Default" is no wrapper).
		if m.Selector != nil && m.Selector.Role == "generic" || m.Change == trail.ChangeMoved || m.Change == trail.ChangeResized {
			t.Errorf("only names %s: an icon's bar, the page's scroll or a wrapper is no change of the click\n%s", m, rec.yaml)
		}
	}

	t.Run("unchanged", func(t *testing.T) {
		run := replayOn(t, app, rec.path, srv.URL)
		if run.ExitCode != 0 || !strings.HasPrefix(statusLine(run, "RUN_COMPLETED"), "RUN_COMPLETED|passed|") {
			t.Errorf("the recorded trail failed on the unchanged app (exit %d):\n%s\n%s\n%s", run.ExitCode, run.Stdout, run.Stderr, run.traces)
		}
	})
	// The variants are the same app with a script added to its page.
	variant := func(t *testing.T, name, script string) string {
		t.Helper()
		v := uikitAccordion(name, map[string]string{"</body>": "<script>" + script + "</script></body>"})
		vsrv := serveApp(t, v, serveOptions{})
		run := replayOn(t, v, rec.path, vsrv.URL)
		if run.ExitCode == 0 {
			t.Fatalf("the trail passed on the %s copy:\n%s", name, run.Stdout)
		}
		// The status lines, then the summary the host writes to standard error.
		return string(run.Stdout) + string(run.Stderr)
	}
	t.Run("click does nothing", func(t *testing.T) {
		status := variant(t, "uikit-accordion-dead", `document.addEventListener('click', (e) => {
  if (e.target.closest('.uk-accordion-title')) { e.preventDefault(); e.stopImmediatePropagation(); }
}, true);`)
		step, why := failedAt(t, status)
		if step != tapStep || !strings.HasPrefix(why, "app-bug: ") || !strings.Contains(why, "assertChange") || !strings.Contains(why, "not found") {
			t.Errorf("with a click that does nothing, the replay failed at step %d: %s\nwant step %d, an app-bug of the assertChange whose changes are not found\n%s", step, why, tapStep, status)
		}
	})
	t.Run("an extra change", func(t *testing.T) {
		status := variant(t, "uikit-accordion-extra", `document.addEventListener('click', (e) => {
  if (!e.target.closest('.uk-accordion-title')) return;
  const p = document.createElement('p');
  p.setAttribute('role', 'status');
  p.textContent = 'Opened an item';
  document.querySelector('h1').after(p);
}, true);`)
		step, why := failedAt(t, status)
		// The status line is cut to one screen line, and "only" lists every
		// change it names first: what matched none of them is read from
		// the summary's whole error line.
		errLine := regexp.MustCompile(`(?m)^\s*error:\s+(.*)$`).FindStringSubmatch(status)
		if step != tapStep || !strings.HasPrefix(why, "app-bug: ") || errLine == nil || !strings.Contains(errLine[1], "match none of them") || !strings.Contains(errLine[1], "added status [e") {
			t.Errorf("with an extra change, the replay failed at step %d: %s\nwant step %d, an app-bug of only naming the status note\n%s", step, why, tapStep, status)
		}
	})
}
