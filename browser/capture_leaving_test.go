package browser

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestCaptureLeavingIsHidden: an element a running CSS transition carries
// out of sight (a width shrinking to 0) is hidden with what it holds, as it
// will be a moment later, so a capture does not depend on how far into the
// transition it ran. One fading to opacity 0 stays visible, as it is at
// rest (opacity does not hide), and one fading in is shown. A list whose
// visibility a transition carries to hidden (it stays visible until the
// transition ends) is hidden with its options, and a name its label gives a
// field no longer reads the option it held.
func TestCaptureLeavingIsHidden(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/leaving.html")
	before := capture(t, ctx, CaptureOptions{})
	if got := byID(t, before, "lang").Name; got != "Language: JavaScript" {
		t.Errorf("the combobox's name with its list shown is %q, want \"Language: JavaScript\"", got)
	}
	for _, id := range []string{"copy", "copy-button", "toast", "menu", "lang-js"} {
		if !byID(t, before, id).Visible {
			t.Errorf("#%s before any transition: hidden, want visible", id)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`(() => { window.start(); return document.getAnimations().length; })()`)); err != nil {
		t.Fatal(err)
	}
	s := capture(t, ctx, CaptureOptions{})
	for _, id := range []string{"copy", "copy-button", "lang-list", "lang-js"} {
		if byID(t, s, id).Visible {
			t.Errorf("#%s while its transition hides it: visible, want hidden", id)
		}
	}
	if !byID(t, s, "toast").Visible {
		t.Errorf("#toast while it fades to opacity 0: hidden, want visible (as at rest)")
	}
	if !byID(t, s, "menu-before").Visible {
		t.Errorf("#menu-before while it fades in: hidden, want visible")
	}
	if got := byID(t, s, "lang").Name; got != "Language:" {
		t.Errorf("the combobox's name while its list fades out is %q, want \"Language:\" (as a moment later)", got)
	}
	if got := byID(t, s, "copy-button").Name; got != "Copy" {
		t.Errorf("the leaving button's name is %q, want Copy", got)
	}
}
