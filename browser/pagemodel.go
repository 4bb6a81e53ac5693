package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/trailpin/trailpin/extension"
)

// WorldName names the isolated world the page model runs in during replay.
// Like the extension's content script, it shares the page's DOM but not its
// JavaScript globals, so the page cannot see or break it.
const WorldName = "trailpin"

// pageModelVersion is the SCRIPT_VERSION of the embedded page model; an older
// copy found in a page is replaced.
const pageModelVersion = 1

// ErrNotInstalled says the page model is missing from a world (a new
// document, or a world created just now).
var ErrNotInstalled = errors.New("page model not installed")

// Frame is the page model in one frame's isolated world, reached
// through the CDP session of the target that renders the frame.
type Frame struct {
	session   cdp.Session
	frameID   cdp.FrameID
	contextID runtime.ExecutionContextID
	// ctx is the chromedp context of the session; an out-of-process frame
	// has its own, and frames inside it are reached from there.
	ctx context.Context
}

// mainFrameID returns the ID of the top frame of the session's target.
func mainFrameID(ctx context.Context, s cdp.Session) (cdp.FrameID, error) {
	res, err := cdp.Call(ctx, s, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return "", fmt.Errorf("reading the frame tree: %w", err)
	}
	if res.FrameTree == nil || res.FrameTree.Frame == nil {
		return "", errors.New("reading the frame tree: the page has no frame")
	}
	return res.FrameTree.Frame.ID, nil
}

// openFrameModel returns the page model's world in a frame rendered by
// session s. Chrome keeps one world per name and frame document, so the
// page model installed there earlier, and its ref numbering, are found again.
func openFrameModel(ctx context.Context, s cdp.Session, frameID cdp.FrameID) (*Frame, error) {
	res, err := cdp.Call(ctx, s, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
		FrameID:   frameID,
		WorldName: WorldName,
	})
	if err != nil {
		return nil, fmt.Errorf("opening the page model's world in frame %s: %w", frameID, err)
	}
	return &Frame{session: s, frameID: frameID, contextID: res.ExecutionContextID, ctx: ctx}, nil
}

// Session is the CDP session of the target that renders the frame.
func (m *Frame) Session() cdp.Session { return m.session }

// SetTabContext makes ctx, the chromedp context of the frame's tab, the one
// cross-origin frames below are entered from; a Frame opened from a plain
// context needs it before it captures or locates refs in such frames.
func (m *Frame) SetTabContext(ctx context.Context) { m.ctx = ctx }

// CallFunction calls fn, a script of extension/replay/, with args in the
// world and returns its result by value. With await, a promise it returns
// is waited for.
func (m *Frame) CallFunction(ctx context.Context, fn string, await bool, args ...any) (*runtime.RemoteObject, error) {
	return callInContext(ctx, m.session, m.contextID, fn, await, true, args...)
}

// install evaluates the embedded page-model script in the world.
func (m *Frame) install(ctx context.Context) error {
	r, err := cdp.Call(ctx, m.session, runtime.Evaluate, runtime.EvaluateParams{
		Expression: extension.PageModel(),
		ContextID:  m.contextID,
		Silent:     new(true),
	})
	if err != nil {
		return fmt.Errorf("installing the page model: %w", err)
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("installing the page model: %w", &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails})
	}
	return nil
}

// call calls the page model's method with args in the world and decodes
// its JSON-serialisable answer into out. It installs the page model first
// when the world does not have it yet.
func (m *Frame) call(ctx context.Context, out any, method string, args ...any) error {
	// JSON.stringify in the page is faster than the protocol's own
	// serialisation of a large object.
	text, err := m.invoke(ctx, callScript, pageModelVersion, "json", method, args)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(text), out, lenientJSON); err != nil {
		return fmt.Errorf("reading the page model's answer: %w", err)
	}
	return nil
}

// callText calls the page model's method, which answers a string, and
// returns the string, installing the page model first if needed.
func (m *Frame) callText(ctx context.Context, method string, args ...any) (string, error) {
	return m.invoke(ctx, callScript, pageModelVersion, "text", method, args)
}

// invoke calls fn, a replay script that answers a string or null when the
// page model is missing, with args, and returns the string. It installs the
// page model and calls again when the answer was null.
func (m *Frame) invoke(ctx context.Context, fn string, args ...any) (string, error) {
	return m.invokeWith(ctx, fn, false, args)
}

// invokeAwait is invoke for a script that answers a promise of the string.
func (m *Frame) invokeAwait(ctx context.Context, fn string, args ...any) (string, error) {
	return m.invokeWith(ctx, fn, true, args)
}

func (m *Frame) invokeWith(ctx context.Context, fn string, await bool, args []any) (string, error) {
	text, err := m.invokeOnce(ctx, fn, await, args)
	if errors.Is(err, ErrNotInstalled) {
		if err := m.install(ctx); err != nil {
			return "", err
		}
		text, err = m.invokeOnce(ctx, fn, await, args)
	}
	return text, err
}

func (m *Frame) invokeOnce(ctx context.Context, fn string, await bool, args []any) (string, error) {
	r, err := callInContext(ctx, m.session, m.contextID, fn, await, true, args...)
	if err != nil {
		return "", err
	}
	if r == nil || r.Type != runtime.RemoteObjectTypeString {
		return "", ErrNotInstalled
	}
	var text string
	if err := json.Unmarshal([]byte(r.Value), &text, lenientJSON); err != nil {
		return "", fmt.Errorf("reading the page model's answer: %w", err)
	}
	return text, nil
}

// lenientJSON reads the page model's JSON: text from a page may hold lone
// UTF-16 surrogates, which JSON.stringify escapes and a strict decoder
// refuses; a capture must not fail over one odd character.
var lenientJSON = jsontext.AllowInvalidUTF8(true)

// element returns a handle on the element that the page model's method
// (answering {element} or {error, message}) finds; the caller releases it.
func (m *Frame) element(ctx context.Context, method string, args ...any) (runtime.RemoteObjectID, error) {
	obj, err := m.elementOnce(ctx, method, args)
	if errors.Is(err, ErrNotInstalled) {
		if err := m.install(ctx); err != nil {
			return "", err
		}
		obj, err = m.elementOnce(ctx, method, args)
	}
	return obj, err
}

func (m *Frame) elementOnce(ctx context.Context, method string, args []any) (runtime.RemoteObjectID, error) {
	r, err := callInContext(ctx, m.session, m.contextID, callScript, false, false, pageModelVersion, "element", method, args)
	if err != nil {
		return "", err
	}
	switch {
	case r == nil:
		return "", ErrNotInstalled
	case r.Type == runtime.RemoteObjectTypeObject && r.ObjectID != "" && r.Subtype == runtime.RemoteObjectSubtypeNode:
		return r.ObjectID, nil
	case r.Type == runtime.RemoteObjectTypeString:
		var text string
		if err := json.Unmarshal(r.Value, &text); err != nil {
			return "", fmt.Errorf("reading the page model's answer: %w", err)
		}
		var answer refAnswer
		if err := json.Unmarshal([]byte(text), &answer); err != nil {
			return "", fmt.Errorf("reading the page model's answer: %w", err)
		}
		return "", answer.err("")
	default:
		return "", ErrNotInstalled
	}
}

// release frees a handle; a failure only leaks until the page navigates.
func (m *Frame) release(ctx context.Context, obj runtime.RemoteObjectID) {
	_, _ = cdp.Call(ctx, m.session, runtime.ReleaseObject, runtime.ReleaseObjectParams{ObjectID: obj})
}

// CallOn calls fn (a script of extension/replay/) with this = obj in the world
// and decodes its JSON result into out.
func (m *Frame) CallOn(ctx context.Context, obj runtime.RemoteObjectID, fn string, out any) error {
	r, err := cdp.Call(ctx, m.session, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn,
		ObjectID:            obj,
		ReturnByValue:       new(true),
		Silent:              new(true),
	})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	if r.Result == nil {
		return errors.New("calling the page model: no result")
	}
	return json.Unmarshal(r.Result.Value, out)
}

// frameIDOf returns the frame an iframe element (a handle in this world)
// holds.
func (m *Frame) frameIDOf(ctx context.Context, obj runtime.RemoteObjectID) (cdp.FrameID, error) {
	res, err := cdp.Call(ctx, m.session, dom.DescribeNode, dom.DescribeNodeParams{ObjectID: obj})
	if err != nil {
		return "", fmt.Errorf("finding the frame of an iframe: %w", err)
	}
	if res.Node == nil || res.Node.FrameID == "" {
		return "", errors.New("finding the frame of an iframe: the iframe holds no frame")
	}
	return res.Node.FrameID, nil
}

// CallOnArgs calls fn (a JavaScript function source) with this = obj and
// JSON arguments in the world, and decodes its JSON result into out.
func (m *Frame) CallOnArgs(ctx context.Context, obj runtime.RemoteObjectID, fn string, out any, args ...any) error {
	callArgs, err := callArguments(args)
	if err != nil {
		return err
	}
	r, err := cdp.Call(ctx, m.session, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		FunctionDeclaration: fn, ObjectID: obj, Arguments: callArgs, ReturnByValue: new(true), Silent: new(true),
	})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return &chromedp.ExceptionError{ExceptionDetails: r.ExceptionDetails}
	}
	if r.Result == nil || out == nil {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}
