package browser

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strconv"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/runtime"

	"github.com/trailpin/trailpin/recorder/screen"
)

// Moving a screen out of the page. A screen of a large page is megabytes of
// JSON (about 2.4 MB for 10,000 elements, 0.7 MB in the wire form), and
// moving it through the protocol costs about as much as capturing it. The
// page packs the screen in the wire form (captureWire) and compresses a
// large one before handing it over (gzip, which the browser does natively),
// for every capture (Capture and CaptureTop alike; e2e/bench/pagemodel
// times both ways), so each look at a large page moves about 130 KB;
// a small screen comes as it is, where compressing would cost more than it
// saves. On /big?n=10000 the wire form halves the page's gzip time (about
// 20 ms instead of 40 per look) and the JSON decoded here.

// compressAbove is the size of screen JSON, in UTF-16 code units, from
// which the page compresses it: about where gzip's cost in the page falls
// below the transfer it saves.
const compressAbove = 256 << 10

// CaptureTop captures the top document of m's frame (and, below it, its
// cross-origin frames) as Capture does, compressing a large screen on the
// way out of the page.
func CaptureTop(ctx context.Context, m *Frame, co CaptureOptions) (*screen.Screen, error) {
	opts := co.pageModelOptions()
	// The script answers "j" + the wire JSON, or "z" + the gzipped wire
	// JSON in base64; null when the page model is not installed.
	r, err := callInContext(ctx, m.session, m.contextID, captureScript, true, true, pageModelVersion, compressAbove, opts)
	if err != nil {
		return nil, fmt.Errorf("capturing the screen: %w", err)
	}
	if r == nil || r.Type != runtime.RemoteObjectTypeString {
		// Not installed in this world: the plain capture installs it.
		return captureFrame(ctx, m, opts, 0)
	}
	var text string
	if err := jsonv2.Unmarshal(r.Value, &text, lenientJSON); err != nil {
		return nil, fmt.Errorf("reading the page model's answer: %w", err)
	}
	data, err := unpackScreen(text)
	if err != nil {
		return nil, err
	}
	s, err := screen.DecodeWire(data)
	if err != nil {
		return nil, fmt.Errorf("reading the page model's answer: %w", err)
	}
	if s.Schema != screen.ScreenSchema {
		return nil, fmt.Errorf("%w: the page model wrote schema %d, this program reads %d", ErrSchema, s.Schema, screen.ScreenSchema)
	}
	if s.Root == nil {
		return nil, errors.New("capturing the screen: the page model returned no root")
	}
	countLook(s, len(text))
	fillCrossOriginFrames(ctx, m, s, s.Root, opts, 0)
	return s, nil
}

// unpackScreen returns the JSON of a captureScript answer (extension/replay/capture.js).
func unpackScreen(text string) ([]byte, error) {
	if text == "" {
		return nil, errors.New("reading the page model's answer: it is empty")
	}
	switch text[0] {
	case 'j':
		return []byte(text[1:]), nil
	case 'z':
		zipped, err := base64.StdEncoding.DecodeString(text[1:])
		if err != nil {
			return nil, fmt.Errorf("reading the page model's compressed answer: %w", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped))
		if err != nil {
			return nil, fmt.Errorf("reading the page model's compressed answer: %w", err)
		}
		data, err := io.ReadAll(zr)
		if err != nil {
			return nil, fmt.Errorf("reading the page model's compressed answer: %w", err)
		}
		return data, nil
	}
	return nil, fmt.Errorf("reading the page model's answer: unknown form %s", strconv.QuoteRune(rune(text[0])))
}
