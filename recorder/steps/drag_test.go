package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

func at(x, y, w, h float64) screentest.Opt {
	return screentest.Node(func(n *screen.Node) { n.Box = &screen.Box{X: x, Y: y, Width: w, Height: h} })
}

// boardScreen is a board of two named lists, To do at the left and Done at
// the right, each card 30 pixels high from the top of its list; a card
// keeps its ref when it moves, as the page model's refs do.
func boardScreen(doc string, todo, done []string) *screen.Screen {
	column := func(key, name string, x float64, cards []string) *screentest.Spec {
		var items []*screentest.Spec
		for k, c := range cards {
			items = append(items, leaf(doc+"-"+strings.ReplaceAll(c, " ", "-"), "listitem", c, at(x+10, 50+float64(k)*30, 180, 30)))
		}
		return el(doc+"-"+key, "list", screentest.Name(name), at(x, 40, 200, 300), screentest.Kids(items...))
	}
	return shopPage("/board", doc, "Board", column("todo", "To do", 0, todo), column("done", "Done", 300, done))
}

// TestBuildStepsDrag: a card dragged into the other list is a drag from the
// card to the list it was dropped in, the element the screen from before
// the drag shows at the drop point (the card itself, moving with the
// pointer, does not count); a drop away from the element's centre keeps
// where, and the step's end pins the card in its new list.
func TestBuildStepsDrag(t *testing.T) {
	before := boardScreen("d", []string{"Write docs", "Fix bug"}, []string{"Ship it"})
	after := boardScreen("d", []string{"Fix bug"}, []string{"Ship it", "Write docs"})
	s := newSession().add(InteractDrag, before, "d-Write-docs", func(it *Interaction) { it.Drop = &Point{X: 400, Y: 200} })
	bt, err := BuildSteps(s.recs, after, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 1 {
		t.Fatalf("BuildSteps() gave %+v, want one step with one drag", bt.Steps)
	}
	d, ok := bt.Steps[0].Actions[0].(trail.Drag)
	if !ok {
		t.Fatalf("the action is %T, want trail.Drag", bt.Steps[0].Actions[0])
	}
	if got, want := d.Selector.String()+" → "+d.To.String(), `{text: "Write docs"} → {role: list, name: Done}`; got != want {
		t.Errorf("drag = %s, want %s", got, want)
	}
	if d.Offset != nil {
		t.Errorf("a drop near the list's centre has offset %+v, want none", *d.Offset)
	}
	out, err := trail.MarshalTrail(&trail.Trail{Version: 1, Title: "Board", App: "shop", Start: bt.Start, Steps: bt.Steps})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out)
	if !strings.Contains(string(out), "Drag") {
		t.Errorf("the intent does not say drag:\n%s", out)
	}
	end := bt.Steps[0].End
	pinned := false
	if end != nil {
		for _, sel := range end.Shows {
			if strings.Contains(sel.String(), "Write docs") && sel.Within != nil && strings.Contains(sel.Within.String(), "Done") {
				pinned = true
			}
		}
	}
	if !pinned {
		t.Errorf("the end does not pin the card in Done:\n%s", out)
	}

	// Dropped on the lower edge of the card below it: the offset keeps it.
	s = newSession().add(InteractDrag, before, "d-Write-docs", func(it *Interaction) { it.Drop = &Point{X: 20, Y: 108} })
	bt, err = BuildSteps(s.recs, boardScreen("d", []string{"Fix bug", "Write docs"}, []string{"Ship it"}), BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	d = bt.Steps[0].Actions[0].(trail.Drag)
	if end := bt.Steps[0].End; end == nil || len(end.Shows) == 0 || end.Shows[0].String() != `{role: list, name: "To do", textRegex: "(?m)^Fix bug\nWrite docs$"}` {
		t.Errorf("the end of a move within the list does not pin the new order: %+v", end)
	}
	if got, want := d.To.String(), `{text: "Fix bug"}`; got != want {
		t.Errorf("dropped on %s, want %s", got, want)
	}
	if d.Offset == nil || *d.Offset != (trail.Offset{X: 10, Y: 28}) {
		t.Errorf("offset = %+v, want {10 28}", d.Offset)
	}
}
