package replay

import (
	"context"
	stdjson "encoding/json"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/extension"
)

// The JavaScript replay runs in a page's world, besides the page model
// itself, lives in extension/replay/ (one function expression per file,
// type-checked with the extension). Replay calls each script with its values
// as call arguments; no value is ever written into a script's source.
var (
	// callScript calls a page-model method (frameModel.call and kin).
	callScript = extension.ReplayScript("call.js")
	// findRefScript checks that a ref still names an element (locate).
	findRefScript = extension.ReplayScript("find-ref.js")
	// contentOriginScript measures where an iframe's content starts.
	contentOriginScript = extension.ReplayScript("content-origin.js")
	// captureScript captures a screen, gzipped when large (captureTop).
	captureScript = extension.ReplayScript("capture.js")
	// aimScript scrolls a target into view and reads it twice (aim).
	aimScript = extension.ReplayScript("aim.js")
	// nextFrameScript waits two of the page's frames (aimInFrame).
	nextFrameScript = extension.ReplayScript("next-frame.js")
	// watchScript installs the change watcher (see wait.go).
	watchScript = extension.ReplayScript("watch.js")
	// watchCountScript reads the watcher's counter.
	watchCountScript = extension.ReplayScript("watch-count.js")
	// watchNextScript waits for the counter to move.
	watchNextScript = extension.ReplayScript("watch-next.js")
	// documentStateScript reads the document's URL and readyState.
	documentStateScript = extension.ReplayScript("document-state.js")
	// selectOptionsScript chooses the options of a <select>.
	selectOptionsScript = extension.ReplayScript("select-options.js")
	// setValueScript sets a native slider, number, date, time or colour input.
	setValueScript = extension.ReplayScript("set-value.js")
	// ariaValueScript reads (and focuses) an ARIA slider or spin button.
	ariaValueScript = extension.ReplayScript("aria-value.js")
	// typingTargetScript says where an action on an element lands: its
	// document's origin, and whether it has the focus (the agent's guard).
	typingTargetScript = extension.ReplayScript("typing-target.js")
)

// documentState is documentStateScript's answer.
type documentState struct {
	Href  string `json:"href"`
	Ready string `json:"ready"`
}

// callArguments encodes args as protocol call arguments. The protocol
// leaves out an empty value (an empty string, list or object, or null),
// which then arrives as undefined: the scripts give such parameters
// defaults.
func callArguments(args []any) ([]*runtime.CallArgument, error) {
	out := make([]*runtime.CallArgument, len(args))
	for i, a := range args {
		v, err := stdjson.Marshal(a)
		if err != nil {
			return nil, fmt.Errorf("encoding an argument for the page: %w", err)
		}
		out[i] = &runtime.CallArgument{Value: v}
	}
	return out, nil
}

// callInContext calls fn, one of the scripts above, in an execution context
// of session s with args, and returns its result: by value, or as a handle
// when byValue is false (primitives come by value either way). With await,
// a promise it returns is waited for.
func callInContext(ctx context.Context, s cdp.Session, contextID runtime.ExecutionContextID, fn string, await, byValue bool, args ...any) (*runtime.RemoteObject, error) {
	callArgs, err := callArguments(args)
	if err != nil {
		return nil, err
	}
	r, err := cdp.Call(ctx, s, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ExecutionContextID:  contextID,
		Arguments:           callArgs,
		ReturnByValue:       new(byValue),
		AwaitPromise:        new(await),
		Silent:              new(true),
	})
	if err != nil {
		return nil, err
	}
	if r.ExceptionDetails != nil {
		return nil, &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	return r.Result, nil
}
