package e2e

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The README's pictures of the popup and of the recording bar are taken by
// TestRecordShopTrail while it records, so they show what the extension
// shows now. go test -run TestRecordShopTrail ./e2e -update writes them to
// docs/img; without -update the test checks that it took them and that the
// README's files are there.
// docImage is a picture of the README, in docs/img.
func docImage(name string) string { return filepath.Join(RepoRoot(), "docs", "img", name) }

// keepScreenshot checks that shot is a picture of a sensible size and, with
// -update, writes it to docs/img/name; without, checks the file is there.
func keepScreenshot(t *testing.T, name string, shot []byte) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot for %s is not a PNG: %v", name, err)
	}
	if cfg.Width < 200 || cfg.Height < 40 {
		t.Errorf("the screenshot for %s is %dx%d: too small to show anything", name, cfg.Width, cfg.Height)
	}
	path := docImage(name)
	if golden.Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Errorf("the README's picture %s is missing: run go test ./e2e -run TestRecordShopTrail -update", path)
		return
	}
	defer f.Close()
	if _, err := png.DecodeConfig(f); err != nil {
		t.Errorf("%s is not a PNG (%v): run go test ./e2e -run TestRecordShopTrail -update", path, err)
	}
}

// screenshotBar takes the recording bar with a margin of the page around it.
func screenshotBar(t *testing.T, app context.Context) []byte {
	t.Helper()
	bar := waitAX(t, app, "toolbar", "Trailpin recording")
	quads, err := chromedp.Call(app, dom.GetContentQuads, dom.GetContentQuadsParams{BackendNodeID: bar.backend})
	if err != nil || len(quads.Quads) == 0 {
		t.Fatalf("finding the recording bar: %v", err)
	}
	q := quads.Quads[0]
	const margin = 16
	x0, y0 := min(q[0], q[6])-margin, min(q[1], q[3])-margin
	x1, y1 := max(q[2], q[4])+margin, max(q[5], q[7])+margin
	shot, err := chromedp.Call(app, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format: page.CaptureScreenshotFormatPng,
		Clip:   &page.Viewport{X: x0, Y: y0, Width: x1 - x0, Height: y1 - y0, Scale: 1},
	})
	if err != nil {
		t.Fatalf("taking the recording bar: %v", err)
	}
	return shot.Data
}

// screenshotPopup takes the popup's content.
func screenshotPopup(t *testing.T, popup context.Context) []byte {
	t.Helper()
	shot, err := chromedp.Run(popup, chromedp.Screenshot(chromedp.CSS("main")))
	if err != nil {
		t.Fatalf("taking the popup: %v", err)
	}
	return shot
}
