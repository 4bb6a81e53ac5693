package screen

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// awkwardPieces are fragments that YAML, JSON or the snapshot's own syntax
// could misread: every YAML indicator, quotes, escapes, marks, slash names,
// control characters, DEL, C1 controls, JavaScript-only spaces and non-ASCII.
var awkwardPieces = []string{
	"Status: live", "It's: here", "a #b", "#", ": ", ":", "{", "}", "`", "[", "]", ",",
	"&", "*", "!", "|", ">", "@", "%", "?", "-", "- ", "~", "=", "<", "'", "''", `"`, `\`,
	`\n`, `\x41`, `\u0041`, "[ref=e1]", " [ref=e2]", "[x]", "[checked]", "/", "/api/",
	"text", "/url", "\x00", "\x01", "\x08", "\x0b", "\x1f", "\x7f", "\u0080", "\u0085",
	"\u009f", "\u00a0", "\u2028", "\ufeff", "\u200b", "\u00ad", "é", "日本", "😀", "\U0001F600",
	" ", "  ", "\t", "\n", "\r", "123", "1e5", "0x1F", "yes", "No", "null", "true", "y",
	"Infinity", ".5", "x", "word", "",
}

func awkwardSnapshotString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(awkwardPieces[r.IntN(len(awkwardPieces))])
	}
	return b.String()
}

// roundTripRoles are the roles the generator gives elements, with the tag an
// element of that role usually has.
var roundTripRoles = []struct{ role, tag string }{
	{"generic", "div"}, {"generic", "span"}, {"", "div"}, {"button", "button"},
	{"link", "a"}, {"heading", "h2"}, {"paragraph", "p"}, {"list", "ul"},
	{"listitem", "li"}, {"textbox", "input"}, {"textbox", "textarea"},
	{"checkbox", "input"}, {"img", "img"}, {"none", "table"}, {"presentation", "td"},
	{"region", "section"}, {"navigation", "nav"}, {"main", "main"}, {"dialog", "div"},
	{"combobox", "select"}, {"option", "option"}, {"tab", "div"}, {"menuitem", "li"},
	{"x-widget", "x-widget"}, {"iframe", "iframe"},
}

// snapshotSecretMark starts every secret value the generator writes, so a test can
// look for it in the output.
const snapshotSecretMark = "SECRET-VALUE-"

func randomScreenNode(r *rand.Rand, depth int, secrets *int) *Node {
	if depth > 0 && r.IntN(3) == 0 {
		return snapText(awkwardSnapshotString(r))
	}
	rt := roundTripRoles[r.IntN(len(roundTripRoles))]
	n := &Node{Role: rt.role, Tag: rt.tag, Name: awkwardSnapshotString(r), Visible: r.IntN(10) != 0}
	if rt.role == "iframe" {
		body := snapEl("body", "generic", "")
		for range r.IntN(3) {
			body.Children = append(body.Children, randomScreenNode(r, depth+2, secrets))
		}
		n.Children = []*Node{snapEl("html", "document", "", body)}
		return n
	}
	switch r.IntN(4) {
	case 0:
		n.Checked = []string{"true", "false", "mixed"}[r.IntN(3)]
	case 1:
		n.Pressed = []string{"true", "false", "mixed"}[r.IntN(3)]
	case 2:
		n.Expanded, n.Selected = snapBool(r.IntN(2) == 0), snapBool(r.IntN(2) == 0)
	}
	n.Disabled, n.Invalid, n.Level = r.IntN(5) == 0, r.IntN(7) == 0, r.IntN(4)
	if r.IntN(4) == 0 {
		n.URL = awkwardSnapshotString(r)
	}
	if r.IntN(4) == 0 {
		n.Placeholder = awkwardSnapshotString(r)
	}
	n.Value = awkwardSnapshotString(r)
	if r.IntN(12) == 0 {
		n.Secret = true
		*secrets++
		n.Value = fmt.Sprintf("%s%d", snapshotSecretMark, *secrets)
		n.Children = append(n.Children, snapText(fmt.Sprintf("%s%dtext", snapshotSecretMark, *secrets)))
	}
	if r.IntN(40) == 0 {
		n.Name = strings.Repeat("long ", 181)
	}
	if depth < 5 {
		for range r.IntN(5) {
			n.Children = append(n.Children, randomScreenNode(r, depth+1, secrets))
		}
	}
	return n
}

func randomSnapshotScreen(r *rand.Rand) *Screen {
	var content []*Node
	secrets := 0
	for range 1 + r.IntN(6) {
		content = append(content, randomScreenNode(r, 0, &secrets))
	}
	focused := fmt.Sprintf("e%d", r.IntN(20))
	return snapScreen(focused, content...)
}

// checkSnapshotRoundTrip renders s in every form and checks that the text reads back
// to the very nodes written: every element line to the same role, name,
// marks, ref, URL and properties, every text to the same text.
func checkSnapshotRoundTrip(t *testing.T, s *Screen) bool {
	t.Helper()
	ok := true
	for _, o := range []SnapshotOptions{{}, {Quoted: true}, {Interactive: true}, {Interactive: true, Quoted: true}, {Mode: ModeAria}, {Mode: ModeAria, Quoted: true}} {
		text := RenderSnapshot(s, o)
		tree := snapshotTree(s, o.Mode, o.Interactive)
		want := tree
		if o.Interactive {
			want = interactiveOnly(tree)
		}
		nodes, err := ParseSnapshot(text)
		if err != nil {
			t.Errorf("ParseSnapshot(RenderSnapshot(%+v)): %v\n%s", o, err, text)
			ok = false
			continue
		}
		if got, w := dumpSnapshot(nodes), dumpSnapshot(asWritten(want)); got != w {
			t.Errorf("RenderSnapshot(%+v) reads back differently; first difference at %s\ntext:\n%s", o, golden.FirstDifference(got, w), text)
			ok = false
		}
		if strings.Contains(text, snapshotSecretMark) {
			t.Errorf("RenderSnapshot(%+v) shows a secret value:\n%s", o, text)
			ok = false
		}
		if o.Quoted {
			continue
		}
		for i, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " "), "- '") {
				t.Errorf("RenderSnapshot(%+v) line %d is wrapped in single quotes: %s", o, i+1, line)
				ok = false
			}
		}
	}
	return ok
}

func TestSnapshotRoundTripGenerated(t *testing.T) {
	const screens = 400 // each has up to ~6^5 nodes; a few hundred cover the pieces in many combinations
	r := rand.New(rand.NewPCG(1, 2))
	for i := range screens {
		if !checkSnapshotRoundTrip(t, randomSnapshotScreen(r)) {
			t.Fatalf("screen %d failed; stopping at the first failing screen", i)
		}
	}
}

// TestSnapshotRoundTripPieces puts each awkward piece, alone and between
// words, in every place a string reaches the text.
func TestSnapshotRoundTripPieces(t *testing.T) {
	for _, piece := range awkwardPieces {
		for _, s := range []string{piece, "a" + piece + "b", piece + " tail", "/" + piece + "/"} {
			t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
				screen := snapScreen("e9",
					snapEl("button", "button", s, snapText("x")),
					snapEl("heading", "heading", s, snapText(s+" more")),
					snapWith(snapEl("a", "link", s), func(n *Node) { n.URL = s }),
					snapWith(snapEl("input", "textbox", s), func(n *Node) { n.Value, n.Placeholder = s, s+"!" }),
					snapEl("li", "listitem", "", snapText(s)),
					snapEl("div", "generic", "", snapText(s), snapEl("button", "button", "b", snapText("b"))),
				)
				checkSnapshotRoundTrip(t, screen)
			})
		}
	}
}
