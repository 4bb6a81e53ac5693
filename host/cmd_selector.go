package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay/suite/exitcode"
)

// Exit codes of `host match`, so a script can tell the outcomes apart
// (1 stays the code of every other failure, such as a page that would not
// load).
const (
	exitBadSelector = 2 // the selector cannot be read or can never match
	exitNoMatch     = 3 // no visible element matches
	exitAmbiguous   = 4 // several visible elements match
)

// pageFlags are the flags of the commands that load a page the way
// `host snapshot` does.
type pageFlags struct {
	viewport  string
	sensitive []string
}

func (f *pageFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.viewport, "viewport", fmt.Sprintf("%dx%d", browser.DefaultViewportWidth, browser.DefaultViewportHeight), "viewport size in CSS pixels, WIDTHxHEIGHT")
	cmd.Flags().StringArrayVar(&f.sensitive, "sensitive", nil, "a value to treat as sensitive (repeatable): elements showing it are secret, and no selector names it")
}

// capture loads arg (a URL or a local HTML file) in headless Chromium and
// captures its screen.
func (f *pageFlags) capture(cmd *cobra.Command, arg string) (*screen.Screen, error) {
	w, h, err := parseViewport(f.viewport)
	if err != nil {
		return nil, err
	}
	target, err := pageURL(arg)
	if err != nil {
		return nil, err
	}
	return browser.CaptureURL(cmd.Context(), target, browser.CaptureURLOptions{
		Width: w, Height: h,
		Capture: browser.CaptureOptions{Sensitive: browser.Sensitive{Values: f.sensitive}},
	})
}

func newSuggestSelectorCmd(e *env) *cobra.Command {
	var page pageFlags
	var purpose string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "suggest-selector [--purpose tap|type|select|assert] [--json] URL REF",
		Short: "Show the selector Trailpin would record for an element, and the alternatives",
		Long: "suggest-selector loads URL in headless Chromium, as host snapshot does, and prints the\n" +
			"selector Trailpin generates for the element REF (a ref from host snapshot URL, such as e12)\n" +
			"for a step of the given purpose, then the menu of every other selector that names the\n" +
			"element, best first, with what each depends on. With --json it prints\n" +
			"{\"selector\": {…}, \"menu\": [{\"selector\": {…}, \"checks\": \"…\"}, …]}.\n" +
			"docs/selectors.md explains the rules.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := parsePurpose(purpose)
			if err != nil {
				return err
			}
			captured, err := page.capture(cmd, args[0])
			if err != nil {
				return err
			}
			s, err := selector.Suggest(p, args[1], captured, page.sensitive)
			if errors.Is(err, selector.ErrUnknownRef) {
				return fmt.Errorf("%w; host snapshot %s lists the page's refs", err, args[0])
			}
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(s)
			}
			named, _ := selector.Retarget(p, args[1], captured) // Suggest succeeded, so the ref is known
			return writeSuggestion(e.stdout, p, s, snapshotLines(captured, []*screen.Node{selector.NewMatcher(captured).Node(named)}))
		},
	}
	page.register(cmd)
	cmd.Flags().StringVar(&purpose, "purpose", string(selector.PurposeTap), "what the step does with the element: tap, type, select or assert")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the selector and the menu as JSON")
	return cmd
}

func parsePurpose(s string) (selector.Purpose, error) {
	switch p := selector.Purpose(s); p {
	case selector.PurposeTap, selector.PurposeType, selector.PurposeSelect, selector.PurposeAssert:
		return p, nil
	}
	return "", fmt.Errorf("--purpose %q: use tap, type, select or assert", s)
}

// writeSuggestion prints the element the selector names (the control
// around the ref, when the ref is inside one), the selector as a trail file
// writes it, then the numbered menu.
func writeSuggestion(w io.Writer, p selector.Purpose, s selector.Suggestion, element string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "element: %s", strings.TrimPrefix(element, "- "))
	fmt.Fprintf(&b, "selector: %s\n", selectorYAML(s.Selector))
	if len(s.Menu) > 0 {
		b.WriteString("\nmenu, best first:\n")
	}
	for i, c := range s.Menu {
		fmt.Fprintf(&b, "%3d. %s\n", i+1, selectorYAML(c.Selector))
		note := "depends on " + c.Checks
		if p == selector.PurposeAssert {
			if c.ChecksValue {
				note += "; checks the value"
			} else {
				note += "; checks presence only"
			}
		}
		fmt.Fprintf(&b, "     %s\n", note)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// selectorYAML writes a selector in the form a trail file holds it.
func selectorYAML(s selector.Selector) string {
	out, err := trail.MarshalSelector(s)
	if err != nil {
		return s.String() // a selector always marshals; keep a readable form anyway
	}
	return strings.TrimSuffix(string(out), "\n")
}

func newMatchCmd(e *env) *cobra.Command {
	var page pageFlags
	cmd := &cobra.Command{
		Use:   "match URL SELECTOR",
		Short: "Show what a selector names on a page",
		Long: "match loads URL in headless Chromium, as host snapshot does, matches SELECTOR (inline YAML\n" +
			"such as '{role: button, name: Save}', or JSON) against the page with the same matcher replay\n" +
			"uses, and prints the snapshot line of each matching element.\n" +
			"Exit status: 0 when exactly one visible element matches; 3 when none does; 4 when several\n" +
			"do (all are listed); 2 when the selector cannot be read or can never match (the message\n" +
			"says what to fix); 1 for anything else, such as a page that does not load.\n" +
			"docs/selectors.md explains the rules.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sel, err := parseSelectorArg(args[1])
			if err != nil {
				return &exitcode.Error{Code: exitBadSelector, Err: err}
			}
			screen, err := page.capture(cmd, args[0])
			if err != nil {
				return err
			}
			return writeMatch(e.stdout, screen, sel)
		},
	}
	page.register(cmd)
	return cmd
}

// parseSelectorArg reads a selector from the command line. JSON is YAML's
// flow form, so one strict reader takes both and checks what a trail file
// checks (known keys and roles, valid regexes), then what the matcher
// checks (text that can match normalised screen text).
func parseSelectorArg(arg string) (selector.Selector, error) {
	if strings.TrimSpace(arg) == "" {
		return selector.Selector{}, errors.New("the selector is empty: write one such as '{role: button, name: Save}'")
	}
	sel, err := trail.ParseSelector([]byte(arg))
	if err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, ":") {
			msg = "selector" + msg // ":1: …" from the trail reader, which names no file here
		}
		return sel, fmt.Errorf("%s (write the selector as inline YAML such as '{role: button, name: Save}', or as JSON)", msg)
	}
	if err := sel.Validate(); err != nil {
		return sel, err
	}
	return sel, nil
}

// writeMatch matches sel on the screen and prints the snapshot lines of what
// it names. Only one visible match is a success.
func writeMatch(w io.Writer, s *screen.Screen, sel selector.Selector) error {
	got, err := selector.Match(s, sel)
	var amb *selector.AmbiguousError
	var nf *selector.NotFoundError
	var bad *selector.InvalidSelectorError
	switch {
	case err == nil:
		_, err := io.WriteString(w, snapshotLines(s, got))
		return err
	case errors.As(err, &amb):
		if _, werr := io.WriteString(w, snapshotLines(s, amb.Matches)); werr != nil {
			return werr
		}
		return &exitcode.Error{Code: exitAmbiguous, Err: err}
	case errors.As(err, &nf):
		return &exitcode.Error{Code: exitNoMatch, Err: err}
	case errors.As(err, &bad):
		return &exitcode.Error{Code: exitBadSelector, Err: err}
	}
	return err
}

// snapshotLines writes one snapshot line per node, as `host snapshot`
// shows it: the element's own line, with its text when that is all it holds.
// An element the snapshot leaves out (a wrapper that gives its content to
// its parent) gets the line it would have.
func snapshotLines(s *screen.Screen, nodes []*screen.Node) string {
	lines := map[string]string{}
	if parsed, err := screen.ParseSnapshot(screen.RenderSnapshot(s, screen.SnapshotOptions{})); err == nil {
		var visit func(ns []*screen.SnapshotNode)
		visit = func(ns []*screen.SnapshotNode) {
			for _, n := range ns {
				if n.Ref != "" {
					lines[n.Ref] = snapshotLine(n)
				}
				visit(n.Children)
			}
		}
		visit(parsed)
	}
	var b strings.Builder
	for _, n := range nodes {
		line, ok := lines[n.Ref]
		if !ok {
			line = snapshotLine(nodeLine(n))
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// snapshotLine formats n alone: its key, and its text when it holds nothing
// else.
func snapshotLine(n *screen.SnapshotNode) string {
	alone := *n
	alone.URL, alone.Props, alone.Children = "", nil, nil
	if len(n.Children) == 1 && n.Children[0].IsText() && n.URL == "" && len(n.Props) == 0 {
		alone.Children = n.Children
	}
	return screen.FormatSnapshot([]*screen.SnapshotNode{&alone}, screen.SnapshotOptions{})
}

// maxLineText bounds the text written on a line built for an element the
// snapshot leaves out: enough to recognise it.
const maxLineText = 80

// nodeLine builds the snapshot node of an element the snapshot leaves out.
func nodeLine(n *screen.Node) *screen.SnapshotNode {
	role := n.Role
	if role == "" {
		role = "generic"
	}
	sn := &screen.SnapshotNode{Role: role, Name: n.Name, Ref: n.Ref, Level: n.Level, Disabled: n.Disabled}
	if text := strings.ReplaceAll(n.Text, "\n", " "); text != "" && !n.Secret {
		if r := []rune(text); len(r) > maxLineText {
			text = string(r[:maxLineText-1]) + "…"
		}
		sn.Children = []*screen.SnapshotNode{{Role: screen.SnapshotTextRole, Text: text}}
	}
	return sn
}
