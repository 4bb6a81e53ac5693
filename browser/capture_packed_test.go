package browser

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
)

func TestUnpackScreen(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(`{"schema":1}`))
	zw.Close()
	tests := []struct {
		in, want, err string
	}{
		{`j{"schema":1}`, `{"schema":1}`, ""},
		{"z" + base64.StdEncoding.EncodeToString(zipped.Bytes()), `{"schema":1}`, ""},
		{"z!!!", "", "compressed answer"},
		{"x{}", "", "unknown form"},
		{"", "", "empty"},
	}
	for _, tc := range tests {
		got, err := unpackScreen(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("unpackScreen(%.10q) error = %v, want one about %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("unpackScreen(%.10q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestCaptureTopLarge: a screen large enough to be compressed on its way
// out of the page reads back the same as the plain wire text, through
// CaptureTop and Capture alike.
func TestCaptureTopLarge(t *testing.T) {
	t.Parallel()
	var page strings.Builder
	page.WriteString(`<!doctype html><title>Large</title><ul>`)
	for i := range 6000 {
		fmt.Fprintf(&page, `<li id="row-%d"><span>Row %d — naïve café</span> <button>Select</button></li>`, i, i)
	}
	page.WriteString(`</ul>`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page.String()))
	}))
	t.Cleanup(srv.Close)
	ctx := newTab(t, srv.URL)
	co := CaptureOptions{NoCoverage: true}
	opts := co.pageModelOptions()
	var plain *screen.Screen
	var wireLen int
	zipped, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (*screen.Screen, error) {
		m, err := TopFrame(ctx, tg)
		if err != nil {
			return nil, err
		}
		wire, err := m.callText(ctx, "captureWire", opts)
		if err != nil {
			return nil, err
		}
		if n := len(utf16.Encode([]rune(wire))); n < compressAbove {
			return nil, fmt.Errorf("the page's screen is %d code units in the wire form, too small to be compressed (%d)", n, compressAbove)
		}
		wireLen = len(wire)
		if plain, err = screen.DecodeWire([]byte(wire)); err != nil {
			return nil, err
		}
		return CaptureTop(ctx, m, co)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(zipped, plain) {
		t.Errorf("the compressed capture through CaptureTop differs from the plain one")
	}
	before := ReadCaptureStats()
	CountCaptures()
	viaCapture := capture(t, ctx, co)
	if !reflect.DeepEqual(viaCapture, plain) {
		t.Errorf("the compressed capture through Capture differs from the plain one")
	}
	// Compressed, the look moved a fraction of the plain wire text (the
	// bound leaves room for the small captures of tests running alongside).
	if moved := ReadCaptureStats().WireBytes - before.WireBytes; moved >= int64(wireLen/2) {
		t.Errorf("Capture moved %d bytes, the plain wire text alone is %d", moved, wireLen)
	}
}
