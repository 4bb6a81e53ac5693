package browser

import (
	"context"
	stdjson "encoding/json"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/extension"
)

// The JavaScript this package runs in a page's world, besides the page model
// itself, lives in extension/replay/ (one function expression per file,
// type-checked with the extension). Each script is called with its values as
// call arguments; no value is ever written into a script's source.
var (
	// callScript calls a page-model method (Frame.call and kin).
	callScript = extension.ReplayScript("call.js")
	// findRefScript checks that a ref still names an element (locate).
	findRefScript = extension.ReplayScript("find-ref.js")
	// contentOriginScript measures where an iframe's content starts.
	contentOriginScript = extension.ReplayScript("content-origin.js")
	// captureScript captures a screen, gzipped when large (CaptureTop).
	captureScript = extension.ReplayScript("capture.js")
)

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

// callInContext calls fn, a script of extension/replay/, in an execution context
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
