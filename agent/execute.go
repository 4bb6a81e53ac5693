package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// A result is what one tool call came to: what the model is told, the
// screen it sees next, and whether the run ends.
type result struct {
	outcome string
	screen  string
	stop    bool
}

// execute runs one tool call on the page.
func (r *run) execute(ctx context.Context, call model.ToolCall) result {
	var a toolArgs
	if call.Name == ToolAssertChange {
		// Its arguments are of their own shape (change.go).
		return r.assertChange(ctx, call)
	}
	if err := call.Decode(&a); err != nil {
		// The client checked the arguments against the schema; this is a
		// schema and a struct that disagree.
		r.stop(VerdictModelError, err.Error())
		return result{outcome: err.Error(), stop: true}
	}
	switch call.Name {
	case ToolDone:
		if len(r.out.FailedChecks) > 0 {
			// A failed assertChange never passes a step, whatever the
			// model concludes after it.
			v := VerdictBlocked
			if r.failedOnEvidence {
				v = VerdictAppBug
			}
			r.stop(v, "the agent called done after its assertChange failed: "+strings.Join(r.out.FailedChecks, "; "))
			return result{outcome: "done refused: an assertChange of this step failed", stop: true}
		}
		r.stop(VerdictDone, a.Summary)
		return result{outcome: "done: " + screen.OneLine(a.Summary), stop: true}
	case ToolFail:
		v := VerdictBlocked
		if a.Kind == failKindAppBug {
			v = VerdictAppBug
		}
		r.stop(v, a.Reason)
		return result{outcome: "fail (" + a.Kind + "): " + screen.OneLine(a.Reason), stop: true}
	case ToolSnapshot:
		return r.lookAgain(ctx, "Here is the screen.", a.Full)
	}
	if takesRef(call.Name) && r.matcher.Node(a.Ref) == nil {
		return r.refused(ctx, fmt.Sprintf("Refused: %q is not a ref of the latest snapshot, and a ref is never taken for another element. Use a ref from this screen.", a.Ref))
	}
	if call.Name == ToolNavigate && !validPath(a.Path) {
		if origin, why := r.offOrigin(call.Name, a); why != "" {
			return r.refuseOffOrigin(call.Name, origin, why)
		}
		return r.lookAgain(ctx, fmt.Sprintf("Refused: navigate takes a path of the app that starts with / (or back, forward, reload), not %q.", a.Path), false)
	}
	if why := r.notOffered(call.Name, a); why != "" {
		return r.refuseRef(ctx, why)
	}
	if acts(call.Name) {
		if origin, why := r.offOrigin(call.Name, a); why != "" {
			return r.refuseOffOrigin(call.Name, origin, why)
		}
	}
	if acts(call.Name) {
		if r.used >= r.cfg.MaxActions {
			r.stop(VerdictBudget, r.actionsSpent())
			return result{outcome: "refused: no actions left in this step", stop: true}
		}
		r.used++
		r.out.Acted++
	}
	acted, started := r.shown, time.Now()
	summary, err := r.perform(ctx, call.Name, a)
	var off *OffOriginError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		r.pageFailed(ctx, call.Name+" was running", err)
		return result{outcome: call.Name + ": " + err.Error(), stop: true}
	case errors.As(err, &off):
		if acts(call.Name) {
			r.used--
			r.out.Acted--
		}
		return r.refuseOffOrigin(call.Name, off.Origin, off.Why+" at the moment it acted")
	case errors.Is(err, ErrStaleRef):
		if acts(call.Name) {
			r.used--
			r.out.Acted--
		}
		return r.refused(ctx, fmt.Sprintf("Refused: %s is no longer on the page (%v). Nothing was done; a ref is never taken for another element. Use a ref from this screen.", a.Ref, err))
	case errors.Is(err, ErrPageGone):
		r.stop(VerdictPageError, call.Name+": "+err.Error())
		return result{outcome: call.Name + ": " + err.Error(), stop: true}
	default:
		return r.lookAgain(ctx, fmt.Sprintf("%s failed: %v", call.Name, err), false)
	}
	before := len(r.out.Actions)
	r.record(call.Name, a, acted)
	res := r.lookAgain(ctx, summary+r.actionsLeft(call.Name), false)
	if acts(call.Name) && r.shown != nil {
		if o := OriginOf(r.shown.URL); !r.origins.allow(o) {
			r.noteOff(o)
		}
	}
	if acts(call.Name) && !res.stop {
		// What an assertChange after it checks: from the screen it
		// started from to the one right after it.
		recorded := -1
		if len(r.out.Actions) == before+1 {
			recorded = len(r.out.Actions)
		}
		r.last = &lastAction{id: fmt.Sprintf("a%d", r.out.Acted), n: r.out.Acted, started: started, before: acted, after: r.shown, recorded: recorded}
	}
	return res
}

// perform calls the Page method of a tool.
func (r *run) perform(ctx context.Context, tool string, a toolArgs) (string, error) {
	switch tool {
	case ToolTap:
		return r.page.Tap(ctx, a.Ref)
	case ToolType:
		return r.page.Type(ctx, a.Ref, a.Text)
	case ToolSelect:
		return r.page.Select(ctx, a.Ref, a.Option)
	case ToolPress:
		return r.page.Press(ctx, a.Key)
	case ToolNavigate:
		return r.page.Navigate(ctx, a.Path)
	case ToolAssertVisible:
		return r.page.AssertVisible(ctx, a.Ref)
	case ToolAssertNotWith:
		return r.page.AssertNotVisibleWithText(ctx, a.Text)
	}
	return "", fmt.Errorf("the agent has no tool %q", tool)
}

func (r *run) actionsLeft(tool string) string {
	if !acts(tool) {
		return "."
	}
	return fmt.Sprintf(". You can act %d more times in this step.", r.cfg.MaxActions-r.used)
}

// refused answers a call that was not carried out, with a fresh screen.
func (r *run) refused(ctx context.Context, why string) result {
	return r.lookAgain(ctx, why, false)
}

// lookAgain captures the screen after a call and answers it with outcome
// and that screen.
func (r *run) lookAgain(ctx context.Context, outcome string, full bool) result {
	if err := r.look(ctx); err != nil {
		r.pageFailed(ctx, "reading the screen", err)
		return result{outcome: outcome, stop: true}
	}
	return result{outcome: outcome, screen: r.screenBlock(r.shown, full)}
}

// record adds a performed action to the outcome as a trail action, its
// selector generated from the screen the model acted on.
func (r *run) record(tool string, a toolArgs, on *screen.Screen) {
	var purpose selector.Purpose
	switch tool {
	case ToolPress:
		r.out.Actions = append(r.out.Actions, trail.Press{Key: a.Key})
		return
	case ToolNavigate:
		r.out.Actions = append(r.out.Actions, trail.Navigate{To: a.Path})
		return
	case ToolAssertNotWith:
		r.out.Actions = append(r.out.Actions, trail.AssertNotVisible{Text: a.Text})
		return
	case ToolTap:
		purpose = selector.PurposeTap
	case ToolType:
		purpose = selector.PurposeType
	case ToolSelect:
		purpose = selector.PurposeSelect
	case ToolAssertVisible:
		purpose = selector.PurposeAssert
	default:
		return
	}
	if tool == ToolType && r.cfg.Redact(a.Text) != a.Text {
		// The model never sees a secret's value; a text that holds one
		// must not reach a trail file.
		r.out.NotRecorded = append(r.out.NotRecorded, "type "+a.Ref+": the text holds a secret's value instead of its ${secret:NAME} reference")
		return
	}
	sel, err := selector.Generate(purpose, a.Ref, on, r.cfg.Sensitive)
	if err != nil {
		r.out.NotRecorded = append(r.out.NotRecorded, r.cfg.Redact(fmt.Sprintf("%s %s: %v", tool, a.Ref, err)))
		return
	}
	switch tool {
	case ToolTap:
		r.out.Actions = append(r.out.Actions, trail.Tap{Selector: sel})
	case ToolType:
		r.out.Actions = append(r.out.Actions, trail.TypeText{Selector: sel, Text: a.Text})
	case ToolSelect:
		r.out.Actions = append(r.out.Actions, trail.SelectOption{Selector: sel, Options: []string{a.Option}})
	case ToolAssertVisible:
		r.out.Actions = append(r.out.Actions, trail.AssertVisible{Selector: sel})
	}
}
