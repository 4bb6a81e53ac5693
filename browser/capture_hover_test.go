package browser

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// hoverOver rests the mouse on the centre of the element with id, as a
// person's pointer does, and waits until the browser says it is hovered.
func hoverOver(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`, id)
	p, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ X, Y float64 }](js))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p.X, p.Y)); err != nil {
		t.Fatal(err)
	}
	hovered, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById(%q).matches(':hover')`, id)))
	if err != nil || !hovered {
		t.Fatalf("#%s is not hovered after the mouse moved onto it (%v)", id, err)
	}
}

// TestHoverRevealed: what a :hover rule alone shows is marked with the
// element whose hover shows it, and is no part of its ancestors' text; what
// shows anyway, or a rule whose media does not apply, is not marked.
func TestHoverRevealed(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/hover.html")
	before := capture(t, ctx, CaptureOptions{})
	if got := byID(t, before, "row").Text; got != "Feed the cat" {
		t.Errorf("row text with the pointer elsewhere = %q, want %q", got, "Feed the cat")
	}
	for _, id := range []string{"remove", "remove-other", "tools", "tip"} {
		if n := byID(t, before, id); n.RevealedBy != "" {
			t.Errorf("#%s with the pointer elsewhere: revealedBy = %q, want none", id, n.RevealedBy)
		}
	}

	hoverOver(t, ctx, "row")
	s := capture(t, ctx, CaptureOptions{})
	row := byID(t, s, "row")
	if n := byID(t, s, "remove"); !n.Visible || n.RevealedBy != row.Ref || n.Name != "×" {
		t.Errorf("#remove under the pointer: visible=%v revealedBy=%q name=%q, want visible, revealedBy %s, name ×", n.Visible, n.RevealedBy, n.Name, row.Ref)
	}
	if row.Text != "Feed the cat" || row.RevealedBy != "" {
		t.Errorf("hovered row: text %q, revealedBy %q; want %q and none (the × it shows is not its text)", row.Text, row.RevealedBy, "Feed the cat")
	}
	for _, id := range []string{"remove-other", "never"} {
		if n := byID(t, s, id); n.Visible || n.RevealedBy != "" {
			t.Errorf("#%s: visible=%v revealedBy=%q, want hidden and not marked", id, n.Visible, n.RevealedBy)
		}
	}

	hoverOver(t, ctx, "link")
	s = capture(t, ctx, CaptureOptions{})
	if n := byID(t, s, "link"); n.RevealedBy != "" {
		t.Errorf("a hovered link that a rule only dims is marked revealedBy %q", n.RevealedBy)
	}
	if got := byID(t, s, "para").Text; got != "Read the guide first." {
		t.Errorf("paragraph around a hovered link reads %q", got)
	}

	hoverOver(t, ctx, "card")
	s = capture(t, ctx, CaptureOptions{})
	card := byID(t, s, "card")
	for _, id := range []string{"tools", "share"} {
		if n := byID(t, s, id); n.RevealedBy != card.Ref {
			t.Errorf("#%s under a hovered card: revealedBy %q, want %s", id, n.RevealedBy, card.Ref)
		}
	}
	if card.Text != "Report" {
		t.Errorf("hovered card reads %q, want %q", card.Text, "Report")
	}

	// Inside an open shadow root, by the shadow root's own rules.
	hover := `document.querySelector('todo-row').shadowRoot.getElementById('shadow-view')`
	p, err := chromedp.Run(ctx, chromedp.Evaluate[struct{ X, Y float64 }](`(() => { const r = `+hover+`.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p.X, p.Y)); err != nil {
		t.Fatal(err)
	}
	s = capture(t, ctx, CaptureOptions{})
	if n, view := byID(t, s, "shadow-x"), byID(t, s, "shadow-view"); !n.Visible || n.RevealedBy != view.Ref || view.Text != "Shadow row" {
		t.Errorf("#shadow-x under a hovered shadow row: visible=%v revealedBy=%q, row text %q; want visible, revealedBy %s, row text %q",
			n.Visible, n.RevealedBy, view.Text, view.Ref, "Shadow row")
	}

	// A zero width that the hover widens (Swagger UI's copy buttons); a
	// width the hover only changes shows anyway.
	hoverOver(t, ctx, "op")
	s = capture(t, ctx, CaptureOptions{})
	if n, op := byID(t, s, "copy"), byID(t, s, "op"); !n.Visible || n.RevealedBy != op.Ref {
		t.Errorf("#copy under a hovered #op: visible=%v revealedBy=%q, want visible, revealedBy %s", n.Visible, n.RevealedBy, op.Ref)
	}
	if n := byID(t, s, "wide"); n.RevealedBy != "" {
		t.Errorf("#wide, shown with or without the pointer, is marked revealedBy %q", n.RevealedBy)
	}

	hoverOver(t, ctx, "help")
	s = capture(t, ctx, CaptureOptions{})
	if n, help := byID(t, s, "tip"), byID(t, s, "help"); !n.Visible || n.RevealedBy != help.Ref {
		t.Errorf("#tip after a hovered #help: visible=%v revealedBy=%q, want visible, revealedBy %s", n.Visible, n.RevealedBy, help.Ref)
	}
}
