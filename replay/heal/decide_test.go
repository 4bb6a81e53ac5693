package heal

import (
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

var redeem = trail.Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}}

// verified is a heal every rule lets through: the agent tapped the renamed
// button, the step passed and the assertion after it passed.
func verified() Facts {
	return Facts{ModelAnswered: true, Verdict: "done", Reason: "tapped Redeem", StepPassed: true,
		Stopped: "target-not-found", Actions: []trail.Action{redeem}, CheckPassed: "assertVisible (line 14)"}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Facts)
		mode   string
		want   Action
		says   string
	}{
		{"verified, read-write", func(*Facts) {}, ModeReadWrite, Saved, "saved: the check after it passed (assertVisible (line 14))"},
		{"verified, read-only", func(*Facts) {}, ModeReadOnly, Reported, "read-only"},
		{"verified, read-only points at host accept", func(*Facts) {}, ModeReadOnly, Reported, "host accept"},
		{"verified, off", func(*Facts) {}, ModeOff, Reported, "cache.mode is off"},
		{"a bare goal under cache.strict", func(f *Facts) { f.Stopped = "" }, ModeStrict, Reported, "not saved, cache.strict never writes a recording"},
		{"no check under cache.strict", func(f *Facts) { f.Stopped, f.CheckPassed = "", "" }, ModeStrict, Dropped, "no check passed"},
		{"a bare goal", func(f *Facts) { f.Stopped = "" }, ModeReadWrite, Saved, "saved"},
		{"cancelled", func(f *Facts) { f.Cancelled = true }, ModeReadWrite, "", "nothing is written"},
		{"cancelled agent", func(f *Facts) { f.Verdict = "cancelled" }, ModeReadWrite, "", "nothing is written"},
		{"no model answered", func(f *Facts) {
			f.ModelAnswered, f.Verdict, f.StepPassed, f.Reason = false, "model-error", false, "model m: rate-limited after 3 attempts"
		}, ModeReadWrite, Kept, "no model answered: model m: rate-limited after 3 attempts"},
		{"the step failed", func(f *Facts) { f.Verdict, f.StepPassed, f.Reason = "app-bug", false, "the Apply button does nothing" }, ModeReadWrite, Dropped, "the step failed (app-bug: the Apply button does nothing)"},
		{"done, but the step's end did not show", func(f *Facts) { f.StepPassed = false }, ModeReadWrite, Dropped, "the step failed"},
		{"budget", func(f *Facts) { f.Verdict, f.StepPassed = "budget", false }, ModeReadWrite, Dropped, "(budget"},
		{"repaired an end-mismatch", func(f *Facts) { f.Stopped = "end-mismatch" }, ModeReadWrite, Dropped, "end-mismatch"},
		{"changed nothing", func(f *Facts) { f.Actions = nil }, ModeReadWrite, Dropped, "changed nothing that could be checked"},
		{"only looked", func(f *Facts) {
			f.Actions = []trail.Action{trail.AssertVisible{Selector: selector.Selector{Role: "status"}}}
		}, ModeReadWrite, Dropped, "changed nothing"},
		{"an action with no selector", func(f *Facts) { f.NotRecorded = []string{`tap of a canvas`} }, ModeReadWrite, Dropped, "no selector could be made for tap of a canvas"},
		{"the check after it failed", func(f *Facts) { f.CheckPassed, f.CheckFailed = "", "assertVisible (line 14)" }, ModeReadWrite, Dropped, "the check after it failed (assertVisible (line 14))"},
		{"no check after it", func(f *Facts) { f.CheckPassed = "" }, ModeReadWrite, Dropped, "no check passed after it"},
		{"no check, read-only writes nothing either", func(f *Facts) { f.CheckPassed = "" }, ModeReadOnly, Dropped, "no check passed"},
		{"an unknown mode", func(*Facts) {}, "sometimes", Dropped, "not read-write"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := verified()
			tt.change(&f)
			d := Decide(f, tt.mode)
			if d.Action != tt.want || !strings.Contains(d.Reason, tt.says) {
				t.Errorf("Decide = %q %q, want %q saying %q", d.Action, d.Reason, tt.want, tt.says)
			}
			why := WhyNotSaved(f)
			if verifiedHeal := tt.want == Saved || tt.want == Reported || tt.mode == "sometimes"; verifiedHeal != (why == "") {
				t.Errorf("WhyNotSaved = %q, but Decide says %q", why, d.Action)
			}
			if d.Action != Saved && !strings.HasPrefix(d.Reason, "not saved") && d.Action != "" {
				t.Errorf("Decide = %q %q: a flow not saved must say so first", d.Action, d.Reason)
			}
		})
	}
}
