package screen

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/e2e/browsertest"
)

// Playwright's own snapshots of the probe pages, written by
// testdata/snapshot/playwright/probe.cjs with playwright-core 1.62.1 and
// Chromium. TestPlaywrightOutput reads the committed files on every run;
// TestPlaywrightLive writes them afresh where node and Chromium exist, checks
// the fresh output the same way, and compares it with the committed files
// (-update replaces them).
const playwrightDir = "testdata/snapshot/playwright"

// loneSurrogate is a JSON escape of half a UTF-16 pair; JSON.stringify writes
// a whole pair as the character itself, so an escape is always a lone half.
var loneSurrogate = regexp.MustCompile(`\\ud[89a-f][0-9a-f]{2}`)

var playwrightFiles = []string{"probes.ai.txt", "probes.default.txt", "shop.ai.txt"}

// probeTimeout bounds the probe script: a hang guard, not a speed claim.
const probeTimeout = 3 * time.Minute

func TestPlaywrightOutput(t *testing.T) {
	checkPlaywrightOutput(t, playwrightDir)
}

func TestPlaywrightLive(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not starting Chromium; TestPlaywrightOutput still reads the committed Playwright output")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH, so Playwright cannot run here; TestPlaywrightOutput still reads the committed Playwright output")
	}
	chromium, err := playwrightChromium()
	if err != nil {
		browsertest.Missing(t, fmt.Errorf("%w; TestPlaywrightOutput still reads the committed Playwright output", err))
	}
	if _, err := os.Stat("../../node_modules/playwright-core/package.json"); err != nil {
		t.Skip("playwright-core is not installed; run npm ci in the repository root")
	}
	out := t.TempDir()
	if golden.Update() {
		out = playwrightDir
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "probe.cjs", absOut)
	cmd.Dir = playwrightDir
	cmd.Env = append(os.Environ(), "TRAILPIN_CHROMIUM="+chromium)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node probe.cjs: %v\n%s", err, msg)
	}
	checkPlaywrightOutput(t, out)
	if out == playwrightDir {
		return
	}
	for _, name := range playwrightFiles {
		fresh := readSnapshotFile(t, filepath.Join(out, name))
		committed := readSnapshotFile(t, filepath.Join(playwrightDir, name))
		if fresh != committed {
			t.Errorf("Playwright's output of %s changed since it was committed (go test ./recorder/screen -run TestPlaywrightLive -update takes the new output); first difference at %s",
				name, golden.FirstDifference(fresh, committed))
		}
	}
}

func readSnapshotFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// checkPlaywrightOutput checks that every file Playwright wrote reads back
// to the nodes the probe page holds, and that writing those nodes gives
// Playwright's text back byte for byte.
func checkPlaywrightOutput(t *testing.T, dir string) {
	parsed := map[string][]*SnapshotNode{}
	for _, name := range playwrightFiles {
		t.Run(name, func(t *testing.T) {
			text := readSnapshotFile(t, filepath.Join(dir, name))
			nodes, err := ParseSnapshot(text)
			if err != nil {
				t.Fatalf("ParseSnapshot(Playwright's %s): %v", name, err)
			}
			parsed[name] = nodes
			// The one change allowed: JSON.stringify escapes a lone UTF-16
			// surrogate, which a Go string cannot hold; it reads as U+FFFD
			// (as the page model's JSON does) and is written as such.
			want := loneSurrogate.ReplaceAllString(text, "\uFFFD")
			if got := FormatSnapshot(nodes, SnapshotOptions{Quoted: true}); got != want {
				t.Errorf("FormatSnapshot(ParseSnapshot(%s), Quoted) is not Playwright's text; first difference at %s", name, golden.FirstDifference(got, want))
			}
			plain := FormatSnapshot(nodes, SnapshotOptions{})
			for i, line := range strings.Split(plain, "\n") {
				if strings.HasPrefix(strings.TrimLeft(line, " "), "- '") {
					t.Errorf("unquoted form of %s, line %d, is wrapped in single quotes: %s", name, i+1, line)
				}
			}
			back, err := ParseSnapshot(plain)
			if err != nil {
				t.Fatalf("ParseSnapshot(unquoted form of %s): %v", name, err)
			}
			if got, want := dumpSnapshot(back), dumpSnapshot(nodes); got != want {
				t.Errorf("unquoted form of %s reads back differently; first difference at %s", name, golden.FirstDifference(got, want))
			}
		})
	}
	t.Run("probe names", func(t *testing.T) {
		checkProbeRows(t, parsed["probes.ai.txt"], true)
		checkProbeRows(t, parsed["probes.default.txt"], false)
	})
	t.Run("states", func(t *testing.T) {
		checkProbeStates(t, parsed["probes.ai.txt"])
	})
	t.Run("interactive size", func(t *testing.T) {
		checkInteractiveSize(t, dir, parsed["shop.ai.txt"])
	})
}

// checkProbeRows checks each row of the probe list: the probe string as a
// button's name, a link's /url, a paragraph's text and a text run.
func checkProbeRows(t *testing.T, nodes []*SnapshotNode, ai bool) {
	if nodes == nil {
		t.Fatal("no parsed snapshot to check")
	}
	b, err := os.ReadFile(filepath.Join(playwrightDir, "probes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var probes []string
	if err := json.Unmarshal(b, &probes); err != nil {
		t.Fatal(err)
	}
	list := findSnapshotNode(nodes, func(n *SnapshotNode) bool { return n.Role == "list" && len(n.Children) == len(probes) })
	if list == nil {
		t.Fatalf("no list of %d probe rows in the snapshot", len(probes))
	}
	refs := regexp.MustCompile(` ref="e[0-9]+"`)
	for i, s := range probes {
		name := normalizeSnapshotSpace(s)
		if utf16Len(name) > maxSnapshotNameUnits {
			name = ""
		}
		text := normalizeSnapshotSpace(s)
		link := fmt.Sprintf("link %q url=%q", fmt.Sprintf("link %d", i), s)
		var want []string
		if ai {
			// Refs differ row by row; each must be e<N>, and reads as "ref".
			want = []string{
				fmt.Sprintf("button %q ref", name), `  text "b"`,
				strings.Replace(link, " url=", " ref url=", 1) + ` [cursor="pointer"]`,
				`paragraph "" ref`, fmt.Sprintf("  text %q", text),
				`generic "" ref`, fmt.Sprintf("  text %q", text), `  button "x" ref`,
			}
		} else {
			want = []string{
				fmt.Sprintf("button %q", name), `  text "b"`,
				link,
				`paragraph ""`, fmt.Sprintf("  text %q", text),
				fmt.Sprintf("text %q", text), `button "x"`,
			}
		}
		got := refs.ReplaceAllString(strings.TrimSuffix(dumpSnapshot(list.Children[i].Children), "\n"), " ref")
		if w := strings.Join(want, "\n"); got != w {
			t.Errorf("probe %d (%q), ai=%v: row reads as\n%s\nwant\n%s", i, s, ai, got, w)
		}
	}
}

// checkProbeStates checks the marks of the fixed part of the probe page.
func checkProbeStates(t *testing.T, nodes []*SnapshotNode) {
	tests := []struct{ role, name, want string }{
		{"link", "Home", `link "Home" ref="e4" url="/" [cursor="pointer"]`},
		{"link", "Data link", `link "Data link" ref="e5" url="data:text/plain,…" [cursor="pointer"]`},
		{"link", "Empty href", `link "Empty href" ref="e6" /url="" [cursor="pointer"]`},
		{"heading", "Level one", `heading "Level one" ref="e8" level=1`},
		{"heading", "Level seven", `heading "Level seven" ref="e14" level=7`},
		{"checkbox", "Checked box", `checkbox "Checked box" ref="e15" checked="true"`},
		{"checkbox", "Mixed box", `checkbox "Mixed box" ref="e16" checked="mixed"`},
		{"checkbox", "Plain box", `checkbox "Plain box" ref="e17"`},
		{"radio", "Radio on", `radio "Radio on" ref="e18" checked="true"`},
		{"switch", "Dark mode", `switch "Dark mode" checked="true"`},
		{"button", "Disabled button", `button "Disabled button" ref="e20" disabled`},
		{"button", "Open menu", `button "Open menu" ref="e21" expanded`},
		{"button", "Closed menu", `button "Closed menu" ref="e22"`},
		{"button", "Bold", `button "Bold" ref="e23" pressed="true"`},
		{"button", "Italic", `button "Italic" ref="e24" pressed="mixed"`},
		{"tab", "First tab", `tab "First tab" ref="e26" selected`},
		{"textbox", "Email", `textbox "Email" ref="e29" invalid="true"`},
		{"textbox", "Notes", `textbox "Notes" ref="e31" invalid="grammar"`},
		{"textbox", "Focused field", `textbox "Focused field" ref="e34" active`},
		{"option", "Large", `option "Large" selected`},
		{"img", "Logo: Trailpin", `img "Logo: Trailpin" ref="e39"`},
		{"button", "In frame: yes", `button "In frame: yes" ref="f1e2"`},
	}
	for _, tt := range tests {
		n := findSnapshotNode(nodes, func(n *SnapshotNode) bool { return n.Role == tt.role && n.Name == tt.name })
		if n == nil {
			t.Errorf("no %s %q in Playwright's snapshot", tt.role, tt.name)
			continue
		}
		leaf := *n
		leaf.Children = nil
		if got := strings.TrimSuffix(dumpSnapshot([]*SnapshotNode{&leaf}), "\n"); got != tt.want {
			t.Errorf("%s %q reads as %s, want %s", tt.role, tt.name, got, tt.want)
		}
	}
	frame := findSnapshotNode(nodes, func(n *SnapshotNode) bool { return n.Role == "iframe" })
	if frame == nil || len(frame.Children) != 1 || frame.Children[0].Ref != "f1e1" {
		t.Errorf("the iframe does not hold the frame's body (ref f1e1): %s", dumpSnapshot([]*SnapshotNode{frame}))
	}
}

// checkInteractiveSize compares the interactive-only form of Playwright's
// AI snapshot of the shop page with the whole of it. The form must stay
// well under half the size; both figures are logged for the record.
func checkInteractiveSize(t *testing.T, dir string, nodes []*SnapshotNode) {
	if nodes == nil {
		t.Fatal("no parsed snapshot to check")
	}
	full := readSnapshotFile(t, filepath.Join(dir, "shop.ai.txt"))
	small := FormatSnapshot(nodes, SnapshotOptions{Interactive: true})
	t.Logf("shop page: Playwright AI snapshot %d characters, interactive-only form of it %d (%.0f%%)",
		len([]rune(full)), len([]rune(small)), 100*float64(len(small))/float64(len(full)))
	if 2*len(small) > len(full) {
		t.Errorf("interactive-only form is %d bytes, more than half of the %d-byte AI snapshot:\n%s", len(small), len(full), small)
	}
	for _, want := range []string{`- searchbox "Search" [ref=`, `- button "Add to cart" [ref=`, `- link "Next" [ref=`, `- navigation "Main":`} {
		if !strings.Contains(small, want) {
			t.Errorf("interactive-only form lacks %q:\n%s", want, small)
		}
	}
}

// findNode returns the first node, depth first, for which match holds.
func findSnapshotNode(nodes []*SnapshotNode, match func(*SnapshotNode) bool) *SnapshotNode {
	for _, n := range nodes {
		if match(n) {
			return n
		}
		if found := findSnapshotNode(n.Children, match); found != nil {
			return found
		}
	}
	return nil
}

// TestRenderSnapshotKeepsPlaywrightOutline turns Playwright's AI snapshots
// back into screens and renders them: an outline Playwright has already
// cleaned up must come out unchanged, so nothing Playwright's AI mode keeps
// is dropped, merged or unwrapped here. Only what a screen cannot carry is
// taken out first: [cursor=pointer], [invalid=grammar], and the empty /url
// of href="" (a screen holds the resolved href, never an empty one).
func TestRenderSnapshotKeepsPlaywrightOutline(t *testing.T) {
	for _, name := range []string{"probes.ai.txt", "shop.ai.txt"} {
		t.Run(name, func(t *testing.T) {
			nodes, err := ParseSnapshot(readSnapshotFile(t, filepath.Join(playwrightDir, name)))
			if err != nil {
				t.Fatal(err)
			}
			nodes = withoutScreenlessMarks(nodes)
			want := FormatSnapshot(nodes, SnapshotOptions{Quoted: true})
			got := RenderSnapshot(screenFromSnapshot(nodes), SnapshotOptions{Quoted: true})
			if got != want {
				t.Errorf("rendering Playwright's outline changed it; first difference at %s", golden.FirstDifference(got, want))
			}
		})
	}
}

func withoutScreenlessMarks(nodes []*SnapshotNode) []*SnapshotNode {
	for _, n := range nodes {
		n.Extra = nil
		if n.Invalid != "" {
			n.Invalid = "true"
		}
		if len(n.Props) > 0 && n.Props[0] == (SnapshotProp{Name: "url"}) {
			n.Props = n.Props[1:]
		}
		withoutScreenlessMarks(n.Children)
	}
	return nodes
}

// screenFromSnapshot builds the screen a page model would capture for an
// outline: each element a node, each text a run, a field's text its value.
func screenFromSnapshot(nodes []*SnapshotNode) *Screen {
	s := &Screen{Schema: ScreenSchema}
	var convert func(n *SnapshotNode) *Node
	convert = func(n *SnapshotNode) *Node {
		if n.IsText() {
			return snapText(n.Text)
		}
		e := &Node{Tag: "div", Role: n.Role, Name: n.Name, Ref: n.Ref, Visible: true, URL: n.URL,
			Checked: n.Checked, Pressed: n.Pressed, Disabled: n.Disabled, Level: n.Level, Invalid: n.Invalid != ""}
		if n.Expanded {
			e.Expanded = snapBool(true)
		}
		if n.Selected {
			e.Selected = snapBool(true)
		}
		if n.Active {
			s.Focused = n.Ref
		}
		for _, p := range n.Props {
			if p.Name == "placeholder" {
				e.Placeholder = p.Value
			}
		}
		switch n.Role {
		case "iframe":
			e.Tag = "iframe"
		case "textbox", "searchbox", "spinbutton", "slider":
			if len(n.Children) == 1 && n.Children[0].IsText() {
				e.Tag, e.Value = "input", n.Children[0].Text
				return e
			}
		}
		for _, c := range n.Children {
			e.Children = append(e.Children, convert(c))
		}
		return e
	}
	body := snapEl("body", "generic", "")
	if len(nodes) == 1 && nodes[0].Role == "generic" && nodes[0].Name == "" {
		body = convert(nodes[0])
		body.Tag = "body"
		if !nodes[0].Active && s.Focused == "" {
			s.Focused = "elsewhere" // the body is not focused, so something else is
		}
	} else {
		for _, n := range nodes {
			body.Children = append(body.Children, convert(n))
		}
	}
	s.Root = snapEl("html", "document", "", body)
	return s
}

// playwrightChromium is the browser the Playwright probe drives: CHROME_PATH
// as everywhere else, else TRAILPIN_CHROMIUM (the probe's own variable), else
// /usr/bin/chromium.
func playwrightChromium() (string, error) {
	for _, v := range []string{"CHROME_PATH", "TRAILPIN_CHROMIUM"} {
		if p := os.Getenv(v); p != "" {
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("%s=%s: %w", v, p, err)
			}
			return p, nil
		}
	}
	const debian = "/usr/bin/chromium"
	if _, err := os.Stat(debian); err != nil {
		return "", fmt.Errorf("no Chromium at %s", debian)
	}
	return debian, nil
}
