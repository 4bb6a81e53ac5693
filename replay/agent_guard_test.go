package replay

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
)

// guardRun opens the guard page with query, for a step that names the
// staff PIN, and the agent's page on it.
func guardRun(t *testing.T, query string) (*trailRun, context.Context, *agentPage) {
	t.Helper()
	tr := inlineTrail(t, `version: 1
trail: Guard
app: fixture
start: /agent_guard.html?`+query+`
steps:
  - intent: type the staff PIN ${secret:staff-pin} into the note
    act: type the staff PIN ${secret:staff-pin} into the note
`)
	r, ctx := openRun(t, tr, site.URL, Options{ActionTimeout: 5 * time.Second, Lookup: pinLookup})
	return r, ctx, newAgentPage(r, 0)
}

// refOn is the ref of the element sel names on the page's screen now.
func refOn(t *testing.T, ctx context.Context, page *agentPage, sel selector.Selector) (string, *screen.Screen) {
	t.Helper()
	s, err := page.Screen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := selector.Match(s, sel)
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return nodes[0].Ref, s
}

// valueOf is the value of the field sel names, read from a fresh screen.
func valueOf(t *testing.T, ctx context.Context, page *agentPage, sel selector.Selector) string {
	t.Helper()
	s, err := page.Screen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := selector.Match(s, sel)
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return nodes[0].Value
}

var (
	noteField = selector.Selector{Role: "textbox", Name: "Note"}
	elsewhere = selector.Selector{Role: "textbox", Name: "Elsewhere"}
	cardField = selector.Selector{Role: "textbox", Name: "Card number"}
)

// TestAgentPageGuardsTheMomentItActs: replay's page for the agent checks,
// when it acts and from the page as it is then, that the page and the
// element's frame are on the app's origins, and, right before the keys of
// a type go out, that the field still has the focus: a secret goes
// nowhere else, whatever the screen the model read said.
func TestAgentPageGuardsTheMomentItActs(t *testing.T) {
	t.Parallel()
	foreign := agent.OriginOf(crossSite.URL)
	frameSrc := url.QueryEscape(crossSite.URL + "/agent_guard_frame.html")

	t.Run("a field in a frame of another origin", func(t *testing.T) {
		t.Parallel()
		_, ctx, page := guardRun(t, "frame="+frameSrc)
		card, _ := refOn(t, ctx, page, cardField)
		for name, act := range map[string]func() (string, error){
			"type": func() (string, error) { return page.Type(ctx, card, "${secret:staff-pin}") },
			"tap":  func() (string, error) { return page.Tap(ctx, card) },
		} {
			_, err := act()
			var off *agent.OffOriginError
			if !errors.As(err, &off) || off.Origin != foreign || !strings.Contains(off.Why, "is in a frame of "+foreign) {
				t.Errorf("%s in the frame: %v; want an OffOriginError naming %s", name, err, foreign)
			}
		}
		if v := valueOf(t, ctx, page, cardField); v != "" {
			t.Errorf("the frame's field holds %d characters, want nothing typed", len(v))
		}
	})

	t.Run("the focus moves on from the field", func(t *testing.T) {
		t.Parallel()
		_, ctx, page := guardRun(t, "thief=field")
		note, _ := refOn(t, ctx, page, noteField)
		_, err := page.Type(ctx, note, "${secret:staff-pin}")
		if err == nil || !strings.Contains(err.Error(), `the focus left textbox "Note" before typing, so nothing was typed`) {
			t.Errorf("Type with the focus taken away: %v; want it refused", err)
		}
		if v := valueOf(t, ctx, page, elsewhere); v != "" {
			t.Errorf("the field the focus went to holds %d characters, want nothing typed", len(v))
		}
	})

	t.Run("the focus moves into a frame of another origin", func(t *testing.T) {
		t.Parallel()
		_, ctx, page := guardRun(t, "thief=frame&frame="+frameSrc)
		refOn(t, ctx, page, cardField) // the frame has loaded
		note, _ := refOn(t, ctx, page, noteField)
		_, err := page.Type(ctx, note, "${secret:staff-pin}")
		if err == nil || !strings.Contains(err.Error(), "the focus left") {
			t.Errorf("Type with the focus taken into the frame: %v; want it refused", err)
		}
		if v := valueOf(t, ctx, page, cardField); v != "" {
			t.Errorf("the frame's field holds %d characters, want nothing typed", len(v))
		}
	})

	t.Run("a key pressed once the page is on another origin", func(t *testing.T) {
		t.Parallel()
		r, ctx, page := guardRun(t, "")
		refOn(t, ctx, page, noteField)
		if err := r.page.load(ctx, crossSite.URL+"/agent_guard.html"); err != nil {
			t.Fatal(err)
		}
		_, err := page.Press(ctx, "a")
		var off *agent.OffOriginError
		if !errors.As(err, &off) || off.Origin != foreign || off.Why != "the page is on "+foreign {
			t.Errorf("Press on another origin: %v; want an OffOriginError naming the page's origin", err)
		}
	})

	t.Run("the field on the app, focused", func(t *testing.T) {
		t.Parallel()
		_, ctx, page := guardRun(t, "")
		note, _ := refOn(t, ctx, page, noteField)
		if got, err := page.Type(ctx, note, "${secret:staff-pin}"); err != nil || !strings.Contains(got, `typed "${secret:staff-pin}" into textbox "Note"`) {
			t.Errorf("Type on the app = %q, %v", got, err)
		}
		if v := valueOf(t, ctx, page, noteField); v != staffPIN {
			t.Errorf("the note holds %d characters, want the PIN typed", len(v))
		}
	})
}
