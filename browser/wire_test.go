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
