package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/trail"
)

// CaptureOptions says what a capture reports beyond its defaults.
type CaptureOptions struct {
	// TestIDAttributes are read in order as a node's test id; nil means
	// data-testid, data-test-id, data-test.
	TestIDAttributes []string
	// Sensitive is what the session marked sensitive.
	Sensitive Sensitive
	// CoverRefs are more refs whose centre is hit-tested (interactive nodes
	// always are), e.g. the target of the next action.
	CoverRefs []string
	// NoCoverage skips the hit tests altogether.
	NoCoverage bool
	// Only, when set, makes CaptureTop return a partial screen
	// (Screen.Partial): the nodes these selector parts could match, with
	// what the matcher reads around them (docs/screen-schema.md). Each part
	// is a selector or one of its within scopes, without within or index.
	Only []SelectorPart
	// FieldRoles are the roles the matcher takes for fields, with Only: an
	// unlabelled field may take its label from the text before it.
	FieldRoles []string
}

// A SelectorPart is what a partial capture filters by: the properties of
// one selector, or of one of its within scopes (recorder/selector).
type SelectorPart struct {
	Role        string `json:"role,omitempty"`
	Name        string `json:"name,omitempty"`
	Text        string `json:"text,omitempty"`
	TextRegex   string `json:"textRegex,omitempty"`
	TestID      string `json:"testId,omitempty"`
	ID          string `json:"id,omitempty"`
	Label       string `json:"label,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
}

// Sensitive is what the session marked sensitive; the page model makes the
// matching nodes secret (no value, no text, no name from their content).
type Sensitive struct {
	// Refs are elements whose whole subtree is secret.
	Refs []string
	// Values are strings that are secret wherever they show.
	Values []string
}

// pageModelOptions is the options object of the page model's capture()
// (extension/pagemodel/capture.js, docs/screen-schema.md).
type pageModelOptions struct {
	TestIDAttributes []string          `json:"testIdAttributes,omitempty"`
	Sensitive        *sensitiveOptions `json:"sensitive,omitempty"`
	Coverage         string            `json:"coverage,omitempty"`
	CoverRefs        []string          `json:"coverRefs,omitempty"`
	RefPrefix        string            `json:"refPrefix,omitempty"`
	Only             []SelectorPart    `json:"only,omitempty"`
	FieldRoles       []string          `json:"fieldRoles,omitempty"`
}

type sensitiveOptions struct {
	Refs   []string `json:"refs,omitempty"`
	Values []string `json:"values,omitempty"`
}

func (o CaptureOptions) pageModelOptions() pageModelOptions {
	p := pageModelOptions{TestIDAttributes: o.TestIDAttributes, CoverRefs: o.CoverRefs, Only: o.Only}
	if len(o.Only) > 0 {
		p.FieldRoles = o.FieldRoles
	}
	if len(o.Sensitive.Refs) > 0 || len(o.Sensitive.Values) > 0 {
		p.Sensitive = &sensitiveOptions{Refs: o.Sensitive.Refs, Values: o.Sensitive.Values}
	}
	if o.NoCoverage {
		p.Coverage = "none"
	}
	return p
}

// inFrame returns the options for the capture of the frame whose refs start
// with prefix: refs outside that frame are dropped, and the prefix is taken
// off the others, as that frame's page model knows them without it.
func (p pageModelOptions) inFrame(prefix string) pageModelOptions {
	local := func(refs []string) []string {
		var out []string
		for _, r := range refs {
			rest, ok := strings.CutPrefix(r, prefix)
			if ok && (strings.HasPrefix(rest, "e") || strings.HasPrefix(rest, "f")) {
				out = append(out, rest)
			}
		}
		return out
	}
	q := p
	q.RefPrefix = prefix
	q.CoverRefs = local(p.CoverRefs)
	if p.Sensitive != nil {
		q.Sensitive = &sensitiveOptions{Refs: local(p.Sensitive.Refs), Values: p.Sensitive.Values}
	}
	return q
}

// ErrSchema is returned when the page model in the page speaks another
// screen schema than this program.
var ErrSchema = errors.New("page model screen schema mismatch")

// Capture captures the screen of the page in the chromedp context ctx: the
// page model runs in an isolated world of every frame (installed on first
// use), and cross-origin frames are captured in their own frame and merged
// under their iframe node with refs prefixed f<K>.
func Capture(ctx context.Context, opts CaptureOptions) (*screen.Screen, error) {
	return chromedp.Run(ctx, CaptureAction(opts))
}

// CaptureAction is Capture as an action, to run among others.
func CaptureAction(opts CaptureOptions) chromedp.Action[*screen.Screen] {
	return func(ctx context.Context, t *chromedp.Target) (*screen.Screen, error) {
		// A navigation can replace the document (and its world) between
		// finding the frame and capturing it; one retry is enough then.
		var lastErr error
		for range 2 {
			m, err := TopFrame(ctx, t)
			if err != nil {
				return nil, err
			}
			s, err := captureFrame(ctx, m, opts.pageModelOptions(), 0)
			if err == nil {
				return s, nil
			}
			if ctx.Err() != nil {
				return nil, err
			}
			lastErr = err
		}
		return nil, lastErr
	}
}

// captureFrame captures the document of m's frame and, below it, the
// cross-origin frames it contains.
func captureFrame(ctx context.Context, m *Frame, opts pageModelOptions, depth int) (*screen.Screen, error) {
	// The wire form, gzipped when large (capture_packed.go): moving a large
	// screen out of the browser costs more than compressing it.
	text, err := m.invokeAwait(ctx, captureScript, pageModelVersion, compressAbove, opts)
	if err != nil {
		return nil, fmt.Errorf("capturing the screen: %w", err)
	}
	data, err := unpackScreen(text)
	if err != nil {
		return nil, err
	}
	s, err := screen.DecodeWire(data)
	if err != nil {
		return nil, fmt.Errorf("capturing the screen: %w", err)
	}
	if s.Schema != screen.ScreenSchema {
		return nil, fmt.Errorf("%w: the page model wrote schema %d, this program reads %d", ErrSchema, s.Schema, screen.ScreenSchema)
	}
	if s.Root == nil {
		return nil, errors.New("capturing the screen: the page model returned no root")
	}
	countLook(s, len(text))
	if depth < maxFrameDepth {
		fillCrossOriginFrames(ctx, m, s, s.Root, opts, depth)
	}
	return s, nil
}

// fillCrossOriginFrames captures each cross-origin frame below n in its own
// frame and hangs its document under the iframe node. A frame that cannot be
// captured (it went away, it is still loading) stays an empty iframe node: a
// screen is never refused because of one frame.
func fillCrossOriginFrames(ctx context.Context, m *Frame, s *screen.Screen, n *screen.Node, opts pageModelOptions, depth int) {
	for _, c := range n.Children {
		fillCrossOriginFrames(ctx, m, s, c, opts, depth)
	}
	if !n.CrossOrigin || n.Frame == "" || len(n.Children) > 0 {
		return
	}
	local := strings.TrimPrefix(n.Frame, opts.RefPrefix)
	f, err := enterFrame(ctx, m, local)
	if err != nil {
		return
	}
	defer f.close()
	sub, err := captureFrame(ctx, f.model, opts.inFrame(n.Frame), depth+1)
	if err != nil {
		return
	}
	// Tell the parent which document the frame showed: if it is another
	// document than the one its number was bound to, the frame is renumbered
	// and the refs just captured move to the new prefix.
	var bound struct {
		Frame string `json:"frame"`
		refAnswer
	}
	if err := m.call(ctx, &bound, "bindFrame", local, sub.Document); err != nil || bound.Error != "" {
		return
	}
	if prefix := opts.RefPrefix + bound.Frame; prefix != n.Frame {
		reprefix(sub.Root, n.Frame, prefix)
		if rest, ok := strings.CutPrefix(sub.Focused, n.Frame); ok {
			sub.Focused = prefix + rest
		}
		n.Frame = prefix
	}
	shiftBoxes(sub.Root, f.dx, f.dy)
	n.Origin = trail.PageOrigin(sub.URL)
	n.Children = []*screen.Node{sub.Root}
	if s.Focused == n.Ref && sub.Focused != "" {
		s.Focused = sub.Focused
	}
}

// reprefix renames the refs (and frame prefixes) in n's subtree that start
// with old.
func reprefix(n *screen.Node, old, prefix string) {
	if rest, ok := strings.CutPrefix(n.Ref, old); ok {
		n.Ref = prefix + rest
	}
	if rest, ok := strings.CutPrefix(n.Frame, old); ok {
		n.Frame = prefix + rest
	}
	for _, c := range n.Children {
		reprefix(c, old, prefix)
	}
}

// shiftBoxes moves every box in n's subtree by dx, dy.
func shiftBoxes(n *screen.Node, dx, dy float64) {
	if dx == 0 && dy == 0 {
		return
	}
	if n.Box != nil {
		n.Box.X += dx
		n.Box.Y += dy
	}
	for _, c := range n.Children {
		shiftBoxes(c, dx, dy)
	}
}
