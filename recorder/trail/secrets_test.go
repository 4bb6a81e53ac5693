package trail

import (
	"errors"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
)

func TestCheckNoSecrets(t *testing.T) {
	const password = "hunter2-Secret"
	base := func() *Trail {
		return &Trail{Title: "Log in", App: "shop", Start: "/login", Steps: []Step{{
			Intent: "Log in as the admin",
			Actions: []Action{
				TypeText{Origin: Origin{Line: 9}, Selector: selector.Selector{Label: "Password"}, Text: "${user:admin.password}"},
				Tap{Selector: selector.Selector{Role: "button", Name: "Log in"}},
			},
		}}}
	}
	tests := []struct {
		name      string
		change    func(*Trail)
		wantPlace string // "" means no error
	}{
		{"references only", func(*Trail) {}, ""},
		{"typed value", func(t *Trail) {
			t.Steps[0].Actions[0] = TypeText{Origin: Origin{Line: 9}, Selector: selector.Selector{Label: "Password"}, Text: password}
		}, "step 1, type (line 9): text"},
		{"selector text", func(t *Trail) {
			t.Steps[0].Actions[1] = AssertVisible{Selector: selector.Selector{Role: "status", Text: "Welcome " + password}}
		}, "step 1, action 2 (assertVisible): selector.text"},
		{"nested within", func(t *Trail) {
			t.Steps[0].Actions[1] = Tap{Selector: selector.Selector{Role: "button", Within: &selector.Selector{Name: password}}}
		}, "step 1, action 2 (tap): selector.within.name"},
		{"intent", func(t *Trail) { t.Steps[0].Intent = "Type " + password }, "step 1: intent"},
		{"param default", func(t *Trail) { t.Params = map[string]string{"pw": password} }, "params.pw"},
		{"end shows", func(t *Trail) {
			t.Steps[0].End = &End{Shows: []selector.Selector{{Text: password}}}
		}, "step 1: end.shows[0].text"},
		{"short value only whole", func(t *Trail) { t.Steps[0].Intent = "Type 1234 into the field" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := base()
			tt.change(tr)
			err := CheckNoSecrets(tr, []string{"", "1234", password})
			if tt.wantPlace == "" {
				if err != nil {
					t.Fatalf("CheckNoSecrets = %v, want nil", err)
				}
				return
			}
			var se *SecretInTrailError
			if !errors.As(err, &se) {
				t.Fatalf("CheckNoSecrets = %v, want *SecretInTrailError", err)
			}
			if len(se.Places) != 1 || se.Places[0] != tt.wantPlace {
				t.Errorf("CheckNoSecrets places = %q, want [%q]", se.Places, tt.wantPlace)
			}
			if strings.Contains(err.Error(), password) || strings.Contains(err.Error(), "hunter") {
				t.Errorf("CheckNoSecrets error shows the secret: %v", err)
			}
		})
	}
	if err := CheckNoSecrets(base(), []string{"1234"}); err != nil {
		t.Errorf("CheckNoSecrets with a short value absent = %v, want nil", err)
	}
	tr := base()
	tr.Steps[0].Actions[1] = AssertNotVisible{Text: "1234"}
	if err := CheckNoSecrets(tr, []string{"1234"}); err == nil {
		t.Errorf("CheckNoSecrets(text equal to a short secret) = nil, want an error")
	}
}
