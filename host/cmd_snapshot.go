package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

func newSnapshotCmd(e *env) *cobra.Command {
	var asJSON, interactive bool
	var viewport, mode string
	var depth int
	cmd := &cobra.Command{
		Use:   "snapshot [--json] [--mode ai|aria] [--interactive] [--viewport WxH] URL",
		Short: "Show what Trailpin sees on a page: its ARIA snapshot, or with --json the whole screen",
		Long: "snapshot loads URL in headless Chromium with Trailpin's page model and prints the page's\n" +
			"ARIA snapshot, the text an agent acts on (- button \"Save\" [ref=e7]). --mode chooses which of\n" +
			"Playwright's renderings it writes: ai (the default, its AI snapshot: refs, generic groups) or\n" +
			"aria (its ariaSnapshot(): no refs, no generic nodes). With --json it prints\n" +
			"the captured screen instead: every node with its ref, role, name, text, states and box.\n" +
			"URL may also be the path of a local HTML file.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			w, h, err := parseViewport(viewport)
			if err != nil {
				return err
			}
			if depth < 0 {
				return &exitcode.Error{Code: 2, Err: fmt.Errorf("--depth %d: give 0 for the whole outline, or how many levels to print", depth)}
			}
			m, err := screen.ParseSnapshotMode(mode)
			if err != nil {
				return &exitcode.Error{Code: 2, Err: fmt.Errorf("--mode: %w", err)}
			}
			target, err := pageURL(args[0])
			if err != nil {
				return err
			}
			captured, err := browser.CaptureURL(cmd.Context(), target, browser.CaptureURLOptions{Width: w, Height: h})
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(captured)
			}
			_, err = io.WriteString(e.stdout, renderSnapshot(captured, screen.SnapshotOptions{Mode: m, Interactive: interactive, Depth: depth}))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the captured screen as JSON")
	cmd.Flags().StringVar(&mode, "mode", "ai", "which of Playwright's renderings to print: ai (refs, as a model reads it) or aria (ariaSnapshot())")
	cmd.Flags().IntVar(&depth, "depth", 0, "print only this many levels below the top lines (0: all)")
	cmd.Flags().BoolVar(&interactive, "interactive", false, "print only what a person can act on (the short form for prompts)")
	cmd.Flags().StringVar(&viewport, "viewport", fmt.Sprintf("%dx%d", browser.DefaultViewportWidth, browser.DefaultViewportHeight), "viewport size in CSS pixels, WIDTHxHEIGHT")
	return cmd
}

// parseViewport reads "1280x720"; a malformed value is a usage error
// (exit 2), as for every other flag.
func parseViewport(s string) (int, int, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil || w <= 0 || h <= 0 {
		return 0, 0, &exitcode.Error{Code: 2, Err: fmt.Errorf("--viewport %q: give WIDTHxHEIGHT in CSS pixels, for example 1280x720", s)}
	}
	return w, h, nil
}

// pageURL accepts an absolute URL, or the path of a local file.
func pageURL(arg string) (string, error) {
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && u.Scheme != "c" && len(u.Scheme) > 1 {
		switch u.Scheme {
		case "http", "https":
			if err := checkHostPort(u, arg); err != nil {
				return "", fmt.Errorf("%w: give a full URL such as http://localhost:3000/", err)
			}
			return arg, nil
		case "file", "data", "about":
			return arg, nil
		}
		return "", fmt.Errorf("%s: Trailpin loads http, https and file URLs", arg)
	}
	if _, err := os.Stat(arg); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: not a URL and no such file; give a full URL such as https://example.com/ or a path to an HTML file", arg)
		}
		return "", err
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// renderSnapshot writes the screen as the ARIA snapshot text people and
// models read (the unquoted form).
func renderSnapshot(s *screen.Screen, o screen.SnapshotOptions) string {
	text := screen.RenderSnapshot(s, o)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text
}
