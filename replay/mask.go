package replay

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"github.com/chromedp/cdproto/page"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/storage/redact"
)

// MaskColor is what a screenshot shows where a secret or sensitive element
// is: an opaque box drawn over the element's box, so neither its content
// nor its length shows.
var MaskColor = color.RGBA{R: 0x1f, G: 0x1f, B: 0x1f, A: 0xff}

// maskMargin widens each mask by a few CSS pixels, so a focus ring or a
// caret beside the value is covered too.
const maskMargin = 2

// secretBoxes returns the boxes of a screen's secret nodes (in CSS pixels
// of the viewport), outermost only: a secret node covers its subtree. A
// secret node without a box of its own (a run of text) is covered by the
// box of the element around it.
func secretBoxes(s *screen.Screen) []screen.Box {
	var boxes []screen.Box
	var walk func(n *screen.Node, outer *screen.Box)
	walk = func(n *screen.Node, outer *screen.Box) {
		if n == nil {
			return
		}
		box := n.Box
		if box == nil || box.Width <= 0 || box.Height <= 0 {
			box = nil
		}
		if n.Secret {
			if box == nil {
				box = outer
			}
			if box != nil {
				boxes = append(boxes, *box)
			}
			return
		}
		if box == nil {
			box = outer
		}
		for _, c := range n.Children {
			walk(c, box)
		}
	}
	if s != nil {
		walk(s.Root, nil)
	}
	return boxes
}

// screenshotMasked takes a PNG of the page's viewport and paints over the
// boxes of the secret nodes of s, a capture taken just before. It returns
// the boxes it painted.
func (p *tab) screenshotMasked(ctx context.Context, s *screen.Screen) ([]byte, []screen.Box, error) {
	shot, err := call(ctx, p, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
	if err != nil {
		return nil, nil, fmt.Errorf("taking a screenshot: %w", err)
	}
	boxes := secretBoxes(s)
	out, err := maskPNG(shot.Data, boxes, s.Viewport.Width)
	if err != nil {
		return nil, nil, err
	}
	return out, boxes, nil
}

// maskPNG paints MaskColor over boxes (CSS pixels) in a PNG whose width is
// viewportWidth CSS pixels (the scale of the image follows from it). A PNG
// with nothing to mask is returned as it is.
func maskPNG(data []byte, boxes []screen.Box, viewportWidth int) ([]byte, error) {
	if len(boxes) == 0 {
		return data, nil
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reading the screenshot: %w", err)
	}
	bounds := img.Bounds()
	scale := 1.0
	if viewportWidth > 0 {
		scale = float64(bounds.Dx()) / float64(viewportWidth)
	}
	rgba := image.NewRGBA(bounds)
	draw.Draw(rgba, bounds, img, bounds.Min, draw.Src)
	fill := &image.Uniform{C: MaskColor}
	for _, b := range boxes {
		r := image.Rect(
			int(math.Floor((b.X-maskMargin)*scale)), int(math.Floor((b.Y-maskMargin)*scale)),
			int(math.Ceil((b.X+b.Width+maskMargin)*scale)), int(math.Ceil((b.Y+b.Height+maskMargin)*scale)),
		).Add(bounds.Min).Intersect(bounds)
		draw.Draw(rgba, r, fill, image.Point{}, draw.Src)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, rgba); err != nil {
		return nil, fmt.Errorf("writing the screenshot: %w", err)
	}
	return buf.Bytes(), nil
}

// maskScreen returns the screen whose secret nodes a failure screenshot
// masks: s, which the page model made secret where the page marks it so
// (password fields, one-time codes), captured again with the trail's
// secret values marked too, so that a field or a text showing one is
// covered. Values shorter than redact.MinInside characters are not marked:
// they would cover every text that contains them by chance. Matching never
// uses this capture.
func (r *trailRun) maskScreen(ctx context.Context, s *screen.Screen) *screen.Screen {
	var values []string
	for _, sec := range r.secrets {
		if len([]rune(sec.Value)) >= redact.MinInside {
			values = append(values, sec.Value)
		}
	}
	if len(values) == 0 {
		return s
	}
	opts := r.opts.captureOptions()
	opts.Sensitive.Values = values
	var masked *screen.Screen
	if err := r.page.inWorld(ctx, func(m *browser.Frame) error {
		var err error
		masked, err = browser.CaptureTop(ctx, m, opts)
		return err
	}); err != nil {
		return nil
	}
	return masked
}
