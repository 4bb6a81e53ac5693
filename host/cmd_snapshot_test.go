package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/browsertest"
	"github.com/trailpin/trailpin/recorder/screen"
)

func TestParseViewport(t *testing.T) {
	for _, tc := range []struct {
		in      string
		w, h    int
		wantErr bool
	}{
		{"1280x720", 1280, 720, false},
		{" 800X600 ", 800, 600, false},
		{"800", 0, 0, true},
		{"0x600", 0, 0, true},
		{"axb", 0, 0, true},
		{"-5x10", 0, 0, true},
	} {
		w, h, err := parseViewport(tc.in)
		if (err != nil) != tc.wantErr || w != tc.w || h != tc.h {
			t.Errorf("parseViewport(%q) = %d, %d, %v; want %d, %d, error %v", tc.in, w, h, err, tc.w, tc.h, tc.wantErr)
		}
	}
}

func TestPageURL(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte("<p>hi</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		in, want string
		wantErr  bool
	}{
		{"https://example.com/a?b=1", "https://example.com/a?b=1", false},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/", false},
		{page, "file://" + filepath.ToSlash(page), false},
		{filepath.Join(dir, "missing.html"), "", true},
		{"ftp://example.com/", "", true},
		{"http://127.0.0.1:/", "", true},
		{"http:///page", "", true},
	} {
		got, err := pageURL(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("pageURL(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
	if _, err := pageURL(filepath.Join(dir, "missing.html")); err == nil || !strings.Contains(err.Error(), "full URL") {
		t.Errorf("pageURL of a missing file: error %v, want one that says to give a full URL", err)
	}
}

// TestSnapshotCommand runs `host snapshot` against a page in real headless
// Chromium.
func TestSnapshotCommand(t *testing.T) {
	browsertest.Need(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>Checkout</title><h1>Review sale</h1>
<label for="pw">Password</label><input id="pw" type="password" value="s3cret-value">
<button id="save">Save</button>`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	var out, errOut bytes.Buffer
	if err := Run(ctx, []string{"snapshot", "--json", "--viewport", "800x600", srv.URL}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("host snapshot --json: %v (stderr %q)", err, errOut.String())
	}
	if strings.Contains(out.String(), "s3cret-value") {
		t.Errorf("snapshot JSON shows the password")
	}
	var s screen.Screen
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatalf("snapshot --json is not a screen: %v\n%s", err, out.String())
	}
	if s.Schema != screen.ScreenSchema || s.Title != "Checkout" || s.Viewport != (screen.Viewport{Width: 800, Height: 600}) {
		t.Errorf("screen schema %d title %q viewport %+v, want %d, Checkout, 800x600", s.Schema, s.Title, s.Viewport, screen.ScreenSchema)
	}
	found := false
	var walk func(n *screen.Node)
	walk = func(n *screen.Node) {
		if n.ID == "save" && n.Role == "button" && n.Name == "Save" && n.Visible {
			found = true
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(s.Root)
	if !found {
		t.Errorf("no visible button \"Save\" in the screen:\n%s", out.String())
	}

	out.Reset()
	if err := Run(ctx, []string{"snapshot", srv.URL}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("host snapshot: %v", err)
	}
	if text := out.String(); !strings.Contains(text, `button "Save"`) || !strings.Contains(text, "[ref=e") {
		t.Errorf("snapshot text has no line for the Save button with its ref:\n%s", text)
	}

	out.Reset()
	if err := Run(ctx, []string{"snapshot", "--mode", "aria", srv.URL}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("host snapshot --mode aria: %v", err)
	}
	if text := out.String(); !strings.Contains(text, `- button "Save"`) || strings.Contains(text, "[ref=") || strings.Contains(text, "generic") {
		t.Errorf("snapshot --mode aria should list the Save button without refs or generic nodes, as ariaSnapshot() does:\n%s", text)
	}

	err := Run(ctx, []string{"snapshot", "--viewport", "wide", srv.URL}, strings.NewReader(""), &out, &errOut)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "WIDTHxHEIGHT") {
		t.Errorf("snapshot --viewport wide: error %v (exit %d), want a usage error (exit 2) that shows the expected form", err, exitCode(err))
	}
	err = Run(ctx, []string{"snapshot", "--mode", "yaml", srv.URL}, strings.NewReader(""), &out, &errOut)
	if exitCode(err) != 2 || !strings.Contains(err.Error(), "use ai") {
		t.Errorf("snapshot --mode yaml: error %v (exit %d), want a usage error (exit 2) that names the modes", err, exitCode(err))
	}
}
