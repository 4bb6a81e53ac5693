package trail

import (
	"strings"
	"testing"
)

const testAgentKey = "agent-1+3f2a9c1b7d20"

// TestStepKeyIsStable pins the digest (sha256 of "intent\x00<intent>\x00act\x00<act>",
// computed apart from the code): every key committed in a trail file
// was made by this formula, and a change to it would turn each of them
// into a miss.
func TestStepKeyIsStable(t *testing.T) {
	s := Step{Intent: "Apply the discount code ${param:coupon}"}
	if got, want := StepKey(s, testAgentKey), testAgentKey+"/550a29ac10d1"; got != want {
		t.Errorf("StepKey(%q) = %q, want %q", s.Intent, got, want)
	}
	if _, _, ok := splitKey(StepKey(s, testAgentKey)); !ok {
		t.Errorf("StepKey writes a key the loader refuses")
	}
}

func TestRecordingMiss(t *testing.T) {
	recorded := Step{Intent: "Apply the discount code ${param:coupon}", Act: ""}
	key := StepKey(recorded, testAgentKey)
	tests := []struct {
		name     string
		step     Step
		agentKey string
		want     string // "" for a hit, else a word the sentence must hold
	}{
		{"a person's recording has no key and always belongs", Step{Intent: "anything"}, "agent-9+ffffffffffff", ""},
		{"same intent, same agent", Step{Intent: recorded.Intent, Key: key}, testAgentKey, ""},
		{"reworded intent", Step{Intent: "Apply the coupon", Key: key}, testAgentKey, "intent changed"},
		{"an act added", Step{Intent: recorded.Intent, Act: "Apply SUMMER", Key: key}, testAgentKey, "intent changed"},
		{"another prompt version", Step{Intent: recorded.Intent, Key: key}, "agent-2+3f2a9c1b7d20", "another agent configuration (agent-1+3f2a9c1b7d20; this host's is agent-2+3f2a9c1b7d20)"},
		{"both", Step{Intent: "x", Key: key}, "agent-2+000000000000", "intent changed since its recording was made, and the recording was made with another"},
		{"a key from elsewhere", Step{Intent: "x", Key: "not a key"}, testAgentKey, "not a key this host writes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RecordingMiss(tt.step, tt.agentKey)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("RecordingMiss = %q, want a hit", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("RecordingMiss = %q, want it to say %q", got, tt.want)
			}
		})
	}
}

// TestStepKeyLeavesParamValuesOut: the key is of the intent as written, so
// a --param value cannot change it, while the reference's name is part of
// the goal.
func TestStepKeyLeavesParamValuesOut(t *testing.T) {
	a := Step{Intent: "Apply ${param:coupon}"}
	src := "version: 1\ntrail: T\napp: shop\nstart: /\nparams: {coupon: SUMMER}\nsteps:\n  - intent: Apply ${param:coupon}\n    actions:\n      - tap: {selector: {role: button, name: Apply}}\n    key: " + StepKey(a, testAgentKey) + "\n"
	tr, err := LoadTrail("t.trail.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tr.Params["coupon"] = "WINTER"
	if miss := RecordingMiss(tr.Steps[0], testAgentKey); miss != "" {
		t.Errorf("another param value made a miss: %s", miss)
	}
	if StepKey(Step{Intent: "Apply ${param:code}"}, testAgentKey) == StepKey(a, testAgentKey) {
		t.Errorf("a reference to another param gives the same key")
	}
}
