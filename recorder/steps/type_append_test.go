package steps

import (
	"testing"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// TestTypeOnTheEndIsRecordedAsAppend: typing the extension reports as on
// the end of the field's text (append) is a type with append when the
// field held, on the screen before it, a start of the final value; a value
// that does not start with what the field showed, or a field the app
// rewrote between, is a plain type; so is a typing not on the end.
func TestTypeOnTheEndIsRecordedAsAppend(t *testing.T) {
	field := func(doc, value string) *screen.Screen {
		return shopPage("/", doc, "Pick", el(doc+"-pick", "combobox", labelled("Pick a language"), val(value)))
	}
	cases := []struct {
		name, before, value string
		reported, want      bool
	}{
		{"on the end", "Buy milk", "Buy milkZebra", true, true},
		{"not reported on the end", "Buy milk", "Buy milkZebra", false, false},
		{"the field showed other text", "Tea", "Buy milkZebra", true, false},
		{"the field was empty", "", "Zebra", true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession().add(InteractType, field("d", c.before), "d-pick", func(it *Interaction) {
				it.Value, it.Append = c.value, c.reported
			})
			bt, err := BuildSteps(s.recs, field("d", c.value), BuildOptions{BaseURL: shopOrigin})
			if err != nil {
				t.Fatalf("BuildSteps() failed: %v", err)
			}
			if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 1 {
				t.Fatalf("steps = %#v, want one typing", bt.Steps)
			}
			tt, ok := bt.Steps[0].Actions[0].(trail.TypeText)
			if !ok {
				t.Fatalf("action = %#v, want a type", bt.Steps[0].Actions[0])
			}
			if tt.Text != c.value || tt.Append != c.want {
				t.Errorf("type text %q, append %v; want %q, append %v", tt.Text, tt.Append, c.value, c.want)
			}
		})
	}
}

// TestTypingTwiceAppendsOnlyWhenTheFirstDid: two typings into one field in
// a row are one type of the last value from the screen before the first:
// it appends only when both typings went on the end.
func TestTypingTwiceAppendsOnlyWhenTheFirstDid(t *testing.T) {
	field := func(value string) *screen.Screen {
		return shopPage("/", "d", "Pick", el("d-pick", "combobox", labelled("Pick a language"), val(value)))
	}
	for _, first := range []bool{true, false} {
		s := newSession().
			add(InteractType, field("Buy milk"), "d-pick", func(it *Interaction) { it.Value, it.Append = "Buy milkZ", first }).
			add(InteractType, field("Buy milkZ"), "d-pick", func(it *Interaction) { it.Value, it.Append = "Buy milkZebra", true })
		bt, err := BuildSteps(s.recs, field("Buy milkZebra"), BuildOptions{BaseURL: shopOrigin})
		if err != nil {
			t.Fatalf("BuildSteps() failed: %v", err)
		}
		if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 1 {
			t.Fatalf("steps = %#v, want one typing", bt.Steps)
		}
		tt, ok := bt.Steps[0].Actions[0].(trail.TypeText)
		if !ok || tt.Text != "Buy milkZebra" || tt.Append != first {
			t.Errorf("first typing on the end: %v; action %#v, want type Buy milkZebra with append %v", first, bt.Steps[0].Actions[0], first)
		}
	}
}

// TestKeyPressedAtOnceAfterTyping: a key the extension reports as pressed
// at once after the typing (atOnce) is a press with atOnce, in the
// typing's step; one pressed after a pause is a plain press.
func TestKeyPressedAtOnceAfterTyping(t *testing.T) {
	field := func(value string) *screen.Screen {
		return shopPage("/", "d", "Find", el("d-find", "textbox", labelled("Search"), val(value)))
	}
	for _, atOnce := range []bool{true, false} {
		s := newSession().
			add(InteractType, field("pla"), "d-find", func(it *Interaction) { it.Value, it.Append = "plaz", true }).
			add(InteractPress, field("plaz"), "d-find", func(it *Interaction) { it.Key, it.AtOnce = "Enter", atOnce })
		bt, err := BuildSteps(s.recs, field("plaz"), BuildOptions{BaseURL: shopOrigin})
		if err != nil {
			t.Fatalf("BuildSteps() failed: %v", err)
		}
		if len(bt.Steps) != 1 || len(bt.Steps[0].Actions) != 2 {
			t.Fatalf("steps = %#v, want the typing and its Enter", bt.Steps)
		}
		p, ok := bt.Steps[0].Actions[1].(trail.Press)
		if !ok || p.Key != "Enter" || p.AtOnce != atOnce {
			t.Errorf("reported at once: %v; action %#v, want press Enter with atOnce %v", atOnce, bt.Steps[0].Actions[1], atOnce)
		}
	}
}
