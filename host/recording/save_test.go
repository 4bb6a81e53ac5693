package recording

import (
	"errors"
	"reflect"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/steps"
	"github.com/trailpin/trailpin/recorder/trail"
)

func editableTrail() *steps.BuiltTrail {
	sel := selector.Selector{Role: "textbox", Name: "Password"}
	return &steps.BuiltTrail{
		Steps: []trail.Step{
			{Intent: "Enter the password", Actions: []trail.Action{trail.TypeText{Selector: sel, Text: "${secret:a}"}}},
			{Intent: "Enter the PIN", Actions: []trail.Action{trail.TypeText{Selector: sel, Text: "${secret:b}"}}},
			{Intent: "Answer the prompt", Actions: []trail.Action{trail.Dialog{Accept: true, PromptText: "${secret:a} and $${secret:b}"}}},
			{Intent: "Open the report", Act: "Open the report"},
		},
		Secrets: []string{"a", "b"},
	}
}

func TestApplyEditsRenamesSecretsAndIntents(t *testing.T) {
	bt := editableTrail()
	// Swapping two names must not chain (a→b→a).
	got, err := applyEdits(bt, map[string]string{"1": "  Enter the PIN code ", "3": "Open the monthly report"},
		map[string]string{"a": "b", "b": "a"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("secrets %v", got)
	}
	if tt := bt.Steps[0].Actions[0].(trail.TypeText); tt.Text != "${secret:b}" {
		t.Errorf("step 0 types %q, want ${secret:b}", tt.Text)
	}
	if tt := bt.Steps[1].Actions[0].(trail.TypeText); tt.Text != "${secret:a}" {
		t.Errorf("step 1 types %q, want ${secret:a}", tt.Text)
	}
	if d := bt.Steps[2].Actions[0].(trail.Dialog); d.PromptText != "${secret:b} and $${secret:b}" {
		t.Errorf("the prompt is %q; an escaped literal must stay as it was", d.PromptText)
	}
	if bt.Steps[1].Intent != "Enter the PIN code" || bt.Steps[3].Intent != "Open the monthly report" || bt.Steps[3].Act != "Open the monthly report" {
		t.Errorf("intents: %q, %q (act %q)", bt.Steps[1].Intent, bt.Steps[3].Intent, bt.Steps[3].Act)
	}
	if bt.Steps[0].Intent != "Enter the password" {
		t.Errorf("an intent not edited changed: %q", bt.Steps[0].Intent)
	}
}

func TestApplyEditsRefuses(t *testing.T) {
	for name, c := range map[string]struct{ intents, secrets map[string]string }{
		"index out of range":  {intents: map[string]string{"4": "x"}},
		"negative index":      {intents: map[string]string{"-1": "x"}},
		"padded index":        {intents: map[string]string{"01": "x"}},
		"empty intent":        {intents: map[string]string{"0": "  "}},
		"two lines":           {intents: map[string]string{"0": "a\nb"}},
		"unknown secret":      {secrets: map[string]string{"c": "d"}},
		"bad new secret name": {secrets: map[string]string{"a": "${x}"}},
	} {
		_, err := applyEdits(editableTrail(), c.intents, c.secrets)
		var re *Error
		if !errors.As(err, &re) || re.Code != Invalid {
			t.Errorf("%s: got %v, want a bad request", name, err)
		}
	}
}
