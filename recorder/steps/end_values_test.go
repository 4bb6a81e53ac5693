package steps

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/internal/screentest"
	"github.com/trailpin/trailpin/recorder/screen"
)

func (s *session) set(sc *screen.Screen, ref, value string) *session {
	return s.add(InteractSet, sc, ref, func(it *Interaction) { it.Value = value })
}

func slider(ref, name, value string) *screentest.Spec {
	return el(ref, "slider", screentest.Name(name), screentest.Tag("input"), val(value))
}

func box(ref, name, state string, opts ...screentest.Opt) *screentest.Spec {
	return el(ref, "checkbox", append([]screentest.Opt{screentest.Name(name), screentest.Tag("input"), checked(state)}, opts...)...)
}

// endValuesOf lists the end values of each step, one line per step:
// "selector property=want; …".
func endValuesOf(t *testing.T, s *session, final *screen.Screen) []string {
	t.Helper()
	bt, err := BuildSteps(s.recs, final, BuildOptions{BaseURL: shopOrigin})
	if err != nil {
		t.Fatalf("BuildSteps() failed: %v", err)
	}
	var out []string
	for _, st := range bt.Steps {
		var vs []string
		if st.End != nil {
			for _, v := range st.End.Values {
				vs = append(vs, v.Selector.String()+" "+v.Property+"="+v.Want)
			}
		}
		out = append(out, strings.Join(vs, "; "))
	}
	return out
}

// TestBuildStepsEndValues: a step's end pins the value of the controls the
// step acted on and the checked state of any box it changed; not a value
// the step did not set, a secret, a box that only appeared, or what the
// next assertion checks.
func TestBuildStepsEndValues(t *testing.T) {
	page := func(kids ...*screentest.Spec) *screen.Screen { return shopPage("/settings", "d", "Settings", kids...) }
	tests := []struct {
		name string
		rec  func() (*session, *screen.Screen)
		want []string
	}{
		{
			name: "the value a set left, not a total the page computed",
			rec: func() (*session, *screen.Screen) {
				before := page(slider("vol", "Volume", "50"), el("total", "textbox", screentest.Name("Total"), val("10")))
				after := page(slider("vol", "Volume", "73"), el("total", "textbox", screentest.Name("Total"), val("14")))
				return newSession().set(before, "vol", "73"), after
			},
			want: []string{"{role: slider, name: Volume} value=73"},
		},
		{
			name: "every box a select-all checked, not one that only appeared",
			rec: func() (*session, *screen.Screen) {
				before := page(leaf("all", "button", "Select all"), box("a", "Apples", "false"), box("b", "Pears", "false"),
					box("c", "Plums", "", screentest.Hidden()))
				after := page(leaf("all", "button", "Select all"), box("a", "Apples", "true"), box("b", "Pears", "true"),
					box("c", "Plums", "true"))
				return newSession().click(before, "all"), after
			},
			want: []string{"{role: checkbox, name: Apples} checked=true; {role: checkbox, name: Pears} checked=true"},
		},
		{
			name: "no secret, and not what the next assertion checks",
			rec: func() (*session, *screen.Screen) {
				before := page(el("pw", "textbox", screentest.Name("Password"), screentest.Secret()), slider("vol", "Volume", "50"))
				typed := page(el("pw", "textbox", screentest.Name("Password"), screentest.Secret()), slider("vol", "Volume", "50"))
				moved := page(el("pw", "textbox", screentest.Name("Password"), screentest.Secret()), slider("vol", "Volume", "20"))
				return newSession().secret(before, "pw", "password").set(typed, "vol", "20").assertValue(moved, "vol", "20"), moved
			},
			want: []string{"", "", ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, final := tt.rec()
			got := endValuesOf(t, s, final)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("end values =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}
