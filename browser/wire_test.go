package browser

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trailpin/trailpin/recorder/screen"
)

// TestWireFormMatchesScreen checks that the packed transfer decodes to the
// very screen capture() returns, on every fixture page.
func TestWireFormMatchesScreen(t *testing.T) {
	t.Parallel()
	for _, page := range []string{"refs.html", "secrets.html", "shadow.html", "frames.html", "visibility.html", "states.html"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			ctx := newTab(t, site.URL+"/"+page)
			opts := pageModelOptions{Sensitive: &sensitiveOptions{Values: []string{"Inside"}}}
			type pair struct{ plain, wire *screen.Screen }
			got, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (pair, error) {
				m, err := TopFrame(ctx, tg)
				if err != nil {
					return pair{}, err
				}
				var plain screen.Screen
				if err := m.call(ctx, &plain, "capture", opts); err != nil {
					return pair{}, err
				}
				text, err := m.callText(ctx, "captureWire", opts)
				if err != nil {
					return pair{}, err
				}
				wire, err := screen.DecodeWire([]byte(text))
				return pair{&plain, wire}, err
			})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.plain, got.wire) {
				a, _ := json.MarshalIndent(got.plain, "", " ")
				b, _ := json.MarshalIndent(got.wire, "", " ")
				t.Errorf("wire form decodes to another screen:\nplain %s\nwire  %s", a, b)
			}
		})
	}
}

// TestWireFormCodesRefsRolesAndTags checks that the page model writes an
// element's ref "e<N>", common role and tag as numbers (what keeps the wire
// short and its quotes few), and that the screen is the same for it.
func TestWireFormCodesRefsRolesAndTags(t *testing.T) {
	t.Parallel()
	ctx := newTab(t, site.URL+"/refs.html")
	text, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (string, error) {
		m, err := TopFrame(ctx, tg)
		if err != nil {
			return "", err
		}
		return m.callText(ctx, "captureWire", pageModelOptions{})
	})
	if err != nil {
		t.Fatal(err)
	}
	var top struct {
		Root []json.RawMessage `json:"root"`
	}
	if err := json.Unmarshal([]byte(text), &top); err != nil {
		t.Fatal(err)
	}
	if len(top.Root) < 3 || string(top.Root[0]) != "1" || string(top.Root[1]) != "1" || string(top.Root[2]) != "45" {
		t.Errorf("root element starts %s, want ref 1 (e1), role 1 (document), tag 45 (html)", text[:min(len(text), 200)])
	}
	s, err := screen.DecodeWire([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Root.Ref != "e1" || s.Root.Role != "document" || s.Root.Tag != "html" {
		t.Errorf("root decodes to %s %s %s", s.Root.Ref, s.Root.Role, s.Root.Tag)
	}
}
