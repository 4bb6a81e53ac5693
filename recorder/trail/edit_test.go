package trail

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/golden"
	"github.com/trailpin/trailpin/recorder/selector"
)

// healedRecording is the new flow of a step whose Apply button was renamed.
var healedRecording = Recording{
	Actions: []Action{
		TypeText{Selector: selector.Selector{Role: "textbox", Name: "Discount code"}, Text: "${param:coupon}"},
		Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}},
	},
	End: &End{URL: "/checkout", Shows: []selector.Selector{{Role: "status"}}},
	Key: testAgentKey + "/6d17851875e2",
}

// TestReplaceRecordingGolden heals each step of a trail commented by hand
// and compares the file with its golden copy; each comment not on the
// replaced recording's lines must still be there, in order.
func TestReplaceRecordingGolden(t *testing.T) {
	file := filepath.Join("testdata", "edit", "commented.trail.yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := LoadTrail(file, src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.Steps {
		t.Run(fmt.Sprintf("step %d", i+1), func(t *testing.T) {
			out, err := ReplaceRecording(file, src, i, healedRecording)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "edit", fmt.Sprintf("commented.step-%d.golden.yaml", i+1)), out)
			if again, err := ReplaceRecording(file, out, i, healedRecording); err != nil || !bytes.Equal(again, out) {
				t.Errorf("replacing the same recording again changed the file (err %v):\n%s", err, again)
			}
		})
	}
}

// TestReplaceRecordingKeepsEveryOtherByte heals every step of every trail
// file in the repository's testdata, as it is and with comments put on
// every line where a comment changes nothing, and checks that the file
// before the step and after it is byte for byte the same, that no comment
// outside the step's recording is lost, and that the file loads as the
// trail with only that step's recording changed.
func TestReplaceRecordingKeepsEveryOtherByte(t *testing.T) {
	var files []string
	for _, pattern := range []string{
		"testdata/trails/*.trail.yaml", "testdata/edit/*.trail.yaml",
		"../../e2e/testdata/record/*.trail.yaml", "../../host/demo/trails/*.trail.yaml",
		"../../replay/testdata/trails/*.trail.yaml",
	} {
		m, _ := filepath.Glob(filepath.FromSlash(pattern))
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d trail files, expected the repository's testdata trails", len(files))
	}
	recordings := []Recording{
		healedRecording,
		{Actions: healedRecording.Actions},
		{Actions: []Action{Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}}}, Key: healedRecording.Key},
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		commented := commentEverywhere(t, file, src)
		for _, variant := range []struct {
			name string
			src  []byte
		}{{"as is", src}, {"commented", commented}} {
			tr, err := LoadTrail(file, variant.src)
			if err != nil {
				t.Fatalf("%s (%s): %v", file, variant.name, err)
			}
			for i := range tr.Steps {
				rec := recordings[i%len(recordings)]
				if !declares(tr, "coupon") {
					rec = Recording{Actions: []Action{Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}}}, Key: rec.Key, End: rec.End}
				}
				t.Run(fmt.Sprintf("%s/%s/step %d", filepath.Base(file), variant.name, i+1), func(t *testing.T) {
					checkReplaced(t, file, variant.src, tr, i, rec)
				})
			}
		}
	}
}

func declares(t *Trail, param string) bool { _, ok := t.Params[param]; return ok }

func checkReplaced(t *testing.T, file string, src []byte, tr *Trail, i int, rec Recording) {
	out, err := ReplaceRecording(file, src, i, rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := indexLines(src)
	// Everything before the step's first line, and from the next step's
	// first line on, is the same bytes.
	before := src[:lines.start(tr.Steps[i].Line)]
	if !bytes.HasPrefix(out, before) {
		t.Errorf("the file before step %d changed:\n%s", i+1, out)
	}
	after := []byte{}
	if i+1 < len(tr.Steps) {
		after = src[lines.start(tr.Steps[i+1].Line):]
	}
	if !bytes.HasSuffix(out, after) {
		t.Errorf("the file after step %d changed:\n%s", i+1, out)
	}
	// No comment is lost but those on the old recording's lines.
	recordingFrom := recordingLine(tr.Steps[i])
	for _, c := range commentMarkers.FindAll(src, -1) {
		at := bytes.Index(src, c)
		line := bytes.Count(src[:at], []byte("\n")) + 1
		if line >= recordingFrom && (i+1 >= len(tr.Steps) || line < tr.Steps[i+1].Line) {
			continue
		}
		if !bytes.Contains(out, c) {
			t.Errorf("comment %q (line %d) is lost:\n%s", c, line, out)
		}
	}
	back, err := LoadTrail(file, out)
	if err != nil {
		t.Fatalf("the edited file does not load: %v\n%s", err, out)
	}
	want := *tr
	want.Steps = append([]Step(nil), tr.Steps...)
	want.Steps[i].Actions, want.Steps[i].End, want.Steps[i].Key = rec.Actions, rec.End, rec.Key
	if d := trailDifference(back, &want); d != "" {
		t.Errorf("the edited file loads as another trail: %s\n%s", d, out)
	}
	if again, err := ReplaceRecording(file, out, i, rec); err != nil || !bytes.Equal(again, out) {
		t.Errorf("replacing the same recording again changed the file (err %v)", err)
	}
}

// recordingLine is the first line of a step's recording: its actions, or
// for a bare goal the line after its last key (nothing of it is replaced).
func recordingLine(s Step) int {
	if len(s.Actions) > 0 {
		return s.Actions[0].SourceLine() - 1 // the `actions:` line
	}
	return 1 << 30
}

var commentMarkers = regexp.MustCompile(`# c\d+[a-z]`)

// commentEverywhere puts a comment line before every line of src and a
// comment at the end of every line, wherever the comment leaves the trail
// the same (not inside a block of text, not inside quotes).
func commentEverywhere(t *testing.T, file string, src []byte) []byte {
	t.Helper()
	want, err := LoadTrail(file, src)
	if err != nil {
		t.Fatal(err)
	}
	same := func(b []byte) bool {
		got, err := LoadTrail(file, b)
		return err == nil && trailDifference(got, want) == ""
	}
	lines := strings.SplitAfter(string(src), "\n")
	var out []string
	for n, l := range lines {
		if l == "" {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		head := fmt.Sprintf("%s# c%dh\n", indent, n)
		tail := strings.TrimRight(l, "\r\n") + fmt.Sprintf("  # c%de", n) + l[len(strings.TrimRight(l, "\r\n")):]
		try := func(candidate []string) bool {
			all := append(append(append([]string{}, out...), candidate...), lines[n+1:]...)
			return same([]byte(strings.Join(all, "")))
		}
		switch {
		case try([]string{head, tail}):
			out = append(out, head, tail)
		case try([]string{head, l}):
			out = append(out, head, l)
		case try([]string{tail}):
			out = append(out, tail)
		default:
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, ""))
}

// TestReplaceRecordingLayouts: files laid out in other ways than the
// writer's still get their step replaced in place, or a clear refusal.
func TestReplaceRecordingLayouts(t *testing.T) {
	const head = "version: 1\ntrail: T\napp: shop\nstart: /\nsteps:\n"
	tap := Recording{Actions: []Action{Tap{Selector: selector.Selector{Role: "button", Name: "Redeem"}}}, Key: healedRecording.Key}
	tests := []struct {
		name, src, want string
		rec             Recording
		step            int
		err             error
	}{
		{"no line break at the end", head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Apply}}",
			head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    key: " + tap.Key, tap, 0, nil},
		{"line breaks of Windows", strings.ReplaceAll(head+"  - intent: a # why\n    actions:\n      - tap: {selector: {role: button, name: Apply}}\n  - intent: b\n    act: b\n", "\n", "\r\n"),
			strings.ReplaceAll(head+"  - intent: a # why\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    key: "+tap.Key+"\n  - intent: b\n    act: b\n", "\n", "\r\n"), tap, 0, nil},
		{"four spaces", "version: 1\ntrail: T\napp: shop\nstart: /\nsteps:\n    -   intent: a\n        actions:\n            - tap: {selector: {role: button, name: Apply}}\n",
			"version: 1\ntrail: T\napp: shop\nstart: /\nsteps:\n    -   intent: a\n        actions:\n            - tap: {selector: {role: button, name: Redeem}}\n        key: " + tap.Key + "\n", tap, 0, nil},
		{"a bare goal gets its recording", head + "  - intent: a\n    act: Log in   # the agent does it\n# end\n",
			head + "  - intent: a\n    act: Log in   # the agent does it\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    key: " + tap.Key + "\n# end\n", tap, 0, nil},
		{"an end and a key removed", head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Apply}}\n    end: {url: /x}\n    key: agent-0+000000000000/000000000000\n  - intent: b\n    act: b\n",
			head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n  - intent: b\n    act: b\n", Recording{Actions: tap.Actions}, 0, nil},
		{"end before actions", head + "  - intent: a\n    end: {url: /x}   # first\n    actions: [{tap: {selector: {role: button, name: Apply}}}]\n",
			head + "  - intent: a\n    end: {url: /checkout, shows: [{role: status}]}   # first\n    actions:\n      - type: {selector: {role: textbox, name: Discount code}, text: '${param:coupon}'}\n      - tap: {selector: {role: button, name: Redeem}}\n    key: " + tap.Key + "\n",
			Recording{Actions: healedRecording.Actions, End: healedRecording.End, Key: tap.Key}, 0, nil},
		{"a list at the key's indent", head + "- intent: a\n  actions:\n  - tap: {selector: {role: button, name: Apply}}\n- intent: b\n  act: b\n",
			head + "- intent: a\n  actions:\n    - tap: {selector: {role: button, name: Redeem}}\n  key: " + tap.Key + "\n- intent: b\n  act: b\n", tap, 0, nil},
		{"an unchanged block-style end keeps its bytes", head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Apply}}\n    end:\n      url: /checkout   # the page it lands on\n      shows:\n        - role: status\n",
			head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    end:\n      url: /checkout   # the page it lands on\n      shows:\n        - role: status\n    key: " + tap.Key + "\n",
			Recording{Actions: tap.Actions, End: healedRecording.End, Key: tap.Key}, 0, nil},
		{"a changed block-style end is rewritten", head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Apply}}\n    end:\n      url: /cart\n",
			head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    end: {url: /checkout, shows: [{role: status}]}\n    key: " + tap.Key + "\n",
			Recording{Actions: tap.Actions, End: healedRecording.End, Key: tap.Key}, 0, nil},
		{"an unchanged key keeps its comment", head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Apply}}\n    key: " + tap.Key + "  # agent v1\n",
			head + "  - intent: a\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    key: " + tap.Key + "  # agent v1\n", tap, 0, nil},
		{"a step in flow style", head + "  - {intent: a, act: b}\n", "", tap, 0, ErrCannotEdit},
		{"steps in flow style", head[:len(head)-1] + " [{intent: a, act: b}]\n", "", tap, 0, ErrCannotEdit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src
			if strings.Contains(src, "${param:") || strings.Contains(tt.name, "end before") {
				src = strings.Replace(src, "start: /\n", "start: /\nparams: {coupon: SUMMER}\n", 1)
				tt.want = strings.Replace(tt.want, "start: /\n", "start: /\nparams: {coupon: SUMMER}\n", 1)
			}
			out, err := ReplaceRecording("t.trail.yaml", []byte(src), tt.step, tt.rec)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("ReplaceRecording = %v, want %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tt.want {
				t.Errorf("ReplaceRecording =\n%q\nwant\n%q", out, tt.want)
			}
		})
	}
}

func TestReplaceRecordingRefuses(t *testing.T) {
	src := []byte("version: 1\ntrail: T\napp: shop\nstart: /\nsteps:\n  - intent: a\n    act: b\n")
	for _, tt := range []struct {
		name string
		src  []byte
		step int
		rec  Recording
		want string
	}{
		{"a file that does not load", []byte("version: 1\nsteps: 3\n"), 0, healedRecording, "does not load"},
		{"no such step", src, 3, healedRecording, "has 1 steps, not a step 4"},
		{"no actions", src, 0, Recording{Key: healedRecording.Key}, "has no actions"},
		{"an undeclared param", src, 0, healedRecording, "would not load"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReplaceRecording("t.trail.yaml", tt.src, tt.step, tt.rec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReplaceRecording = %v, want an error saying %q", err, tt.want)
			}
		})
	}
}
