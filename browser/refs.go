package browser

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/go-json-experiment/json"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Errors a ref can resolve to; test for them with errors.Is on a *RefError.
var (
	// ErrStaleRef: the element the ref named is gone from the page (removed,
	// or its frame loaded another document). A ref never moves to another
	// element, so a stale ref stays stale.
	ErrStaleRef = errors.New("stale ref")
	// ErrUnknownRef: the page never gave out this ref (another page, or a
	// ref from before a navigation).
	ErrUnknownRef = errors.New("unknown ref")
	// ErrBadRef: the text is not a ref at all.
	ErrBadRef = errors.New("not a ref")
)

// A RefError says why a ref names no element.
type RefError struct {
	Ref string
	// Code is the page model's reason: "stale", "unknown" or "bad-ref".
	Code string
	// Message is the page model's explanation, fit to show a person.
	Message string
}

func (e *RefError) Error() string { return e.Message }

// Is makes errors.Is(err, ErrStaleRef) and its kin work.
func (e *RefError) Is(target error) bool {
	switch e.Code {
	case "stale":
		return target == ErrStaleRef
	case "unknown":
		return target == ErrUnknownRef
	case "bad-ref":
		return target == ErrBadRef
	}
	return false
}

// refAnswer is the page model's {error, message, frame, rest} for a ref
// that it cannot resolve itself.
type refAnswer struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Frame   string `json:"frame"`
	Rest    string `json:"rest"`
	// Token is the document a cross-origin frame showed when its refs were
	// given out.
	Token string `json:"token"`
}

func (a refAnswer) err(ref string) error {
	if a.Message == "" {
		a.Message = "page model: " + a.Error
	}
	return &RefError{Ref: ref, Code: a.Error, Message: a.Message}
}

// maxFrameDepth bounds how deep cross-origin frames nest before Trailpin
// stops following them; real pages nest two or three.
const maxFrameDepth = 8

// crossFrame is a cross-origin frame entered from its parent's world.
type crossFrame struct {
	model *Frame
	// dx, dy move the frame's viewport coordinates into its parent's.
	dx, dy float64
	close  func()
}

// enterFrame opens the page model of the cross-origin frame that parent
// numbers as prefix (for example "f3"). A frame in the same process gets
// an isolated world through parent's session; an out-of-process frame (another
// site, under site isolation) is attached as its own target.
func enterFrame(ctx context.Context, parent *Frame, prefix string) (*crossFrame, error) {
	obj, err := parent.element(ctx, "frameElement", prefix)
	if err != nil {
		return nil, err
	}
	defer parent.release(ctx, obj)
	var origin struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	}
	if err := parent.CallOn(ctx, obj, contentOriginScript, &origin); err != nil {
		return nil, fmt.Errorf("measuring frame %s: %w", prefix, err)
	}
	frameID, err := parent.frameIDOf(ctx, obj)
	if err != nil {
		return nil, err
	}
	if m, err := openFrameModel(ctx, parent.session, frameID); err == nil {
		m.ctx = parent.ctx
		return &crossFrame{model: m, dx: origin.X, dy: origin.Y, close: func() {}}, nil
	}
	fctx, cancel := chromedp.NewContext(parent.ctx, chromedp.WithTargetID(target.ID(frameID)), chromedp.WithDetachOnCancel())
	t, err := chromedp.Run(fctx, func(ctx context.Context, t *chromedp.Target) (*chromedp.Target, error) { return t, nil })
	if err != nil {
		cancel()
		return nil, fmt.Errorf("attaching to frame %s: %w", prefix, err)
	}
	m, err := openFrameModel(fctx, t, frameID)
	if err != nil {
		cancel()
		return nil, err
	}
	return &crossFrame{model: m, dx: origin.X, dy: origin.Y, close: cancel}, nil
}

// TopFrame opens the page model in the target's main frame. Chrome names a
// page's main frame after its target, which saves asking for the frame tree
// on every capture; the tree is the fallback.
func TopFrame(ctx context.Context, t *chromedp.Target) (*Frame, error) {
	if m, err := openFrameModel(ctx, t, cdp.FrameID(t.TargetID)); err == nil {
		return m, nil
	}
	frameID, err := mainFrameID(ctx, t)
	if err != nil {
		return nil, err
	}
	return openFrameModel(ctx, t, frameID)
}

// located is where a ref lives: the page model of its frame, the ref as that
// frame knows it, and how far that frame's viewport sits from the top one.
type located struct {
	model  *Frame
	local  string
	dx, dy float64
	close  func()
}

// A RefOption qualifies how a ref is looked up.
type RefOption func(*refOptions)

type refOptions struct {
	document string
}

// InDocument makes the lookup fail with ErrStaleRef unless the page still
// shows the document the ref was captured in (Screen.Document). Refs are
// numbered per document, so after a navigation an old ref could otherwise
// name an element of the new page.
func InDocument(token string) RefOption {
	return func(o *refOptions) { o.document = token }
}

// locate follows ref through cross-origin frames to the frame that holds
// its element, and checks that the element is still there.
func locate(ctx context.Context, t *chromedp.Target, ref string, opts []RefOption) (*located, error) {
	var o refOptions
	for _, opt := range opts {
		opt(&o)
	}
	m, err := TopFrame(ctx, t)
	if err != nil {
		return nil, err
	}
	loc := &located{model: m, local: ref, close: func() {}}
	token := o.document
	for depth := 0; ; depth++ {
		// The frame must still show the document whose refs were given out.
		var found refAnswer
		text, err := loc.model.invoke(ctx, findRefScript, pageModelVersion, ref, loc.local, token)
		if err == nil {
			if err = json.Unmarshal([]byte(text), &found, lenientJSON); err != nil {
				err = fmt.Errorf("reading the page model's answer: %w", err)
			}
		}
		if err != nil {
			loc.close()
			return nil, err
		}
		if found.Error == "" {
			return loc, nil
		}
		if found.Error != "cross-origin" || depth >= maxFrameDepth {
			loc.close()
			return nil, found.err(ref)
		}
		f, err := enterFrame(ctx, loc.model, found.Frame)
		if err != nil {
			loc.close()
			return nil, fmt.Errorf("ref %s: %w", ref, err)
		}
		prev := loc.close
		loc = &located{model: f.model, local: found.Rest, dx: loc.dx + f.dx, dy: loc.dy + f.dy,
			close: func() { f.close(); prev() }}
		token = found.Token
	}
}

// A RefPoint says where to act on the element of a ref, in CSS pixels of the
// top-level viewport (what Input.dispatchMouseEvent takes).
type RefPoint struct {
	// X, Y is the centre of the element's box, or, for an element laid out
	// in pieces (a link wrapped onto two lines) whose box centre lies on
	// something else, the centre of its first piece a click reaches.
	X, Y float64
	Box  screen.Box
	// InViewport says whether the centre is inside its frame's viewport.
	InViewport bool
	// Covered, when known, says whether a click at the centre would land on
	// something else; Hit is the ref of what it would land on.
	Covered *bool
	Hit     string
	// Animating says a CSS transition or animation that ends is running
	// on the element or around it: it is not yet where it will be.
	Animating bool
}

type pointAnswer struct {
	X          float64    `json:"x"`
	Y          float64    `json:"y"`
	Box        screen.Box `json:"box"`
	InViewport bool       `json:"inViewport"`
	Covered    *bool      `json:"covered"`
	Hit        string     `json:"hit"`
	Animating  bool       `json:"animating"`
	refAnswer
}

// Point says where the element of ref is and whether a click at its centre
// would reach it.
func Point(ref string, opts ...RefOption) chromedp.Action[*RefPoint] {
	return refPoint(ref, "point", opts)
}

// ScrollIntoView scrolls the element of ref to the middle of the viewport
// (instantly) and says where it is now.
func ScrollIntoView(ref string, opts ...RefOption) chromedp.Action[*RefPoint] {
	return refPoint(ref, "scrollIntoView", opts)
}

func refPoint(ref, method string, opts []RefOption) chromedp.Action[*RefPoint] {
	return func(ctx context.Context, t *chromedp.Target) (*RefPoint, error) {
		loc, err := locate(ctx, t, ref, opts)
		if err != nil {
			return nil, err
		}
		defer loc.close()
		var a pointAnswer
		if err := loc.model.call(ctx, &a, method, loc.local); err != nil {
			return nil, err
		}
		if a.Error != "" {
			return nil, a.err(ref)
		}
		p := &RefPoint{X: a.X + loc.dx, Y: a.Y + loc.dy, Box: a.Box, InViewport: a.InViewport, Covered: a.Covered}
		p.Box.X += loc.dx
		p.Box.Y += loc.dy
		if a.Hit != "" {
			p.Hit = loc.prefix(ref) + a.Hit
		}
		return p, nil
	}
}

// WithElement runs fn with a handle on the element of ref, in its frame's
// page-model world (cross-origin frames are followed). The handle is
// released when fn returns.
func WithElement(ctx context.Context, t *chromedp.Target, ref string, fn func(m *Frame, obj runtime.RemoteObjectID) error) error {
	loc, err := locate(ctx, t, ref, nil)
	if err != nil {
		return err
	}
	defer loc.close()
	obj, err := loc.model.element(ctx, "elementForRef", loc.local)
	if err != nil {
		return err
	}
	defer loc.model.release(ctx, obj)
	return fn(loc.model, obj)
}

// ReadAim reads the answer of extension/replay/aim.js for ref, an element of
// the top frame: where the element was right after it was scrolled into
// view, and two frames later.
func ReadAim(text, ref string) (first, second *RefPoint, err error) {
	var answer struct {
		First, Second pointAnswer
		refAnswer
	}
	// encoding/json matches the script's "first" and "second" to the
	// fields, case-insensitively.
	if err := stdjson.Unmarshal([]byte(text), &answer); err != nil {
		return nil, nil, fmt.Errorf("reading the page model's answer: %w", err)
	}
	for _, a := range []refAnswer{answer.refAnswer, answer.First.refAnswer, answer.Second.refAnswer} {
		if a.Error != "" {
			return nil, nil, a.err(ref)
		}
	}
	return answer.First.refPoint(), answer.Second.refPoint(), nil
}

func (a pointAnswer) refPoint() *RefPoint {
	return &RefPoint{X: a.X, Y: a.Y, Box: a.Box, InViewport: a.InViewport, Covered: a.Covered, Hit: a.Hit, Animating: a.Animating}
}

// prefix returns the frame prefix that ref has outside loc's frame.
func (loc *located) prefix(ref string) string {
	return strings.TrimSuffix(ref, loc.local)
}

// Describe returns the node of ref as a capture would report it, without its
// children: a cheap way to re-check one element (visible yet? enabled?).
func Describe(ref string, opts CaptureOptions, refOpts ...RefOption) chromedp.Action[*screen.Node] {
	return func(ctx context.Context, t *chromedp.Target) (*screen.Node, error) {
		loc, err := locate(ctx, t, ref, refOpts)
		if err != nil {
			return nil, err
		}
		defer loc.close()
		var n struct {
			screen.Node
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		o := opts.pageModelOptions()
		if err := loc.model.call(ctx, &n, "describe", loc.local, o); err != nil {
			return nil, err
		}
		if n.Error != "" {
			return nil, refAnswer{Error: n.Error, Message: n.Message}.err(ref)
		}
		node := n.Node
		node.Ref = loc.prefix(ref) + node.Ref
		shiftBoxes(&node, loc.dx, loc.dy)
		return &node, nil
	}
}
