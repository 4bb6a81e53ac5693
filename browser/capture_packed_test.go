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
// out of the page reads back the same as the plain capture.
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
	plain := capture(t, ctx, CaptureOptions{NoCoverage: true})
	co := CaptureOptions{NoCoverage: true}
	opts := co.pageModelOptions()
	zipped, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (any, error) {
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
		return CaptureTop(ctx, m, co)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(zipped, plain) {
		t.Errorf("the compressed capture differs from the plain one")
	}
}
