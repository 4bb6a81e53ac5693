package screen

import (
	"github.com/trailpin/trailpin/e2e/golden"

	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseSnapshot feeds the parser any text. It must never panic; an error
// must be a *SnapshotSyntaxError on a line that exists; and whatever it reads
// must write back (in either form) to text that reads back to the same
// nodes, with writing it again changing nothing.
//
//	go test ./recorder/screen -run '^$' -fuzz FuzzParseSnapshot -fuzztime 1m
func FuzzParseSnapshot(f *testing.F) {
	for _, seed := range []string{
		`- 'button "Status: live" [ref=e4]'`,
		`- 'button "It''s: here" [ref=e7]'`,
		`- button /api/ [ref=e34]`,
		`- text: "a\x1fb"`,
		`- button "x [ref=e98]" [ref=e399]`,
		"- list:\n  - listitem: one\n  - listitem:\n    - text: two\n    - link \"b\" [ref=e3]:\n      - /url: \"#x\"",
		`- treeitem "n" [checked=mixed] [disabled] [expanded] [active] [invalid=grammar] [level=2] [pressed] [selected] [ref=e9] [cursor=pointer]`,
		`- "button \"q\"": "\U0001F600\u00e9\N\_\L\P"`,
		"- button Save [x=y]\n- text: a # b",
		"- a:\n\t- b",
		"- A \"\xff0\"",
		"- aa \"\xed\xa0000\"",
	} {
		f.Add(seed)
	}
	for _, pattern := range []string{"testdata/snapshot/playwright/*.txt", "testdata/snapshot/screens/*.txt"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		nodes, err := ParseSnapshot(text)
		if err != nil {
			var se *SnapshotSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T (%v) is not a *SnapshotSyntaxError", err, err)
			}
			if lines := strings.Count(text, "\n") + 1; se.Line < 1 || se.Line > lines || se.Column < 1 {
				t.Fatalf("error at line %d, column %d of a %d-line text: %v", se.Line, se.Column, lines, err)
			}
			if nodes != nil {
				t.Fatalf("nodes returned with error %v", err)
			}
			return
		}
		want := dumpSnapshot(canonicalSnapshot(nodes))
		for _, o := range []SnapshotOptions{{Quoted: true}, {}} {
			written := FormatSnapshot(nodes, o)
			back, err := ParseSnapshot(written)
			if err != nil {
				t.Fatalf("FormatSnapshot(%+v) wrote text ParseSnapshot cannot read: %v\n%s", o, err, written)
			}
			if got := dumpSnapshot(canonicalSnapshot(back)); got != want {
				t.Fatalf("FormatSnapshot(%+v) reads back differently; first difference at %s\nwritten:\n%s", o, golden.FirstDifference(got, want), written)
			}
			if again := FormatSnapshot(back, o); again != written {
				t.Fatalf("writing what was read back changed the text (%+v); first difference at %s", o, golden.FirstDifference(again, written))
			}
		}
		small := FormatSnapshot(nodes, SnapshotOptions{Interactive: true})
		if _, err := ParseSnapshot(small); err != nil {
			t.Fatalf("interactive form cannot be read: %v\n%s", err, small)
		}
	})
}

// canonicalSnapshot is nodes as any writing of them reads back: states
// stated false are not written, a name too long for the line is left out,
// and invalid UTF-8 stands for U+FFFD wherever it goes through JSON.
func canonicalSnapshot(nodes []*SnapshotNode) []*SnapshotNode {
	out := make([]*SnapshotNode, len(nodes))
	for i, n := range nodes {
		c := *n
		if utf16Len(c.Name) > maxSnapshotNameUnits {
			c.Name = ""
		}
		c.Name = string([]rune(c.Name)) // each invalid byte becomes U+FFFD
		if c.Checked == "false" {
			c.Checked = ""
		}
		if c.Pressed == "false" {
			c.Pressed = ""
		}
		c.Children = canonicalSnapshot(n.Children)
		out[i] = &c
	}
	return out
}
