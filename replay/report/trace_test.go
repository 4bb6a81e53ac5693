package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/trailpin/trailpin/e2e/golden"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/replay/diagnose"
)

func TestTraceGolden(t *testing.T) {
	run := sampleRun()
	for _, tt := range []struct {
		name string
		t    TrailRun
	}{
		{"trace-failed.md", run.Trails[1]},
		{"trace-flaky.md", run.Trails[2]},
		{"trace-passed.md", run.Trails[0]},
		{"trace-hostile.md", TrailRun{Attempts: []replay.TrailResult{hostileResult()}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tt.name), RenderTrace(tt.t, nil))
		})
	}
}

// hostileText is what an app can put on its pages: code fences and spans,
// pipes, HTML, comments, headings, lists, links, emphasis, entities,
// escapes and terminal colours.
const hostileText = "``` x`y`` | a <script>alert(1)</script> <!-- hidden --> <b>bold</b>\n# Heading\n* item _em_ **strong** [link](x) ![img](y) &amp; \\` ~~del~~\x1b[31m\n---\n> quote\n1. one"

// hostileResult is a failed attempt in which every string holds hostileText.
func hostileResult() replay.TrailResult {
	res := buyWithDiscount()
	fillStrings(reflect.ValueOf(&res).Elem(), func(old string) string { return old + " " + hostileText })
	res.Slug = "hostile"
	res.Failure.Closest = []diagnose.CloseNode{{Ref: "e1 " + hostileText, Line: hostileText, Score: 0.5, Why: hostileText}}
	res.Log = append(res.Log, replay.LogEntry{Time: at(200), Step: 5, Kind: replay.LogConsole, Level: "error", Text: hostileText, URL: hostileText})
	res.Failure.Screenshot = []byte("\x89PNG")
	return res
}

// fillStrings replaces every string reachable from v (fields, slices,
// pointers) with f(old), except enum-like fields whose value the page
// prints as a fixed word.
func fillStrings(v reflect.Value, f func(string) string) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == reflect.TypeFor[string]() {
			v.SetString(f(v.String()))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fillStrings(v.Field(i), f)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := range v.Len() {
				fillStrings(v.Index(i), f)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			fillStrings(v.Elem(), f)
		}
	}
}

// blockShape lists a Markdown document's structure: every block node's
// kind (with its heading level or table width) and every inline node that
// is markup rather than text (code spans, links, images, emphasis, raw
// HTML), in document order.
func blockShape(t *testing.T, src []byte) []string {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough))
	doc := md.Parser().Parse(text.NewReader(src))
	var shape []string
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text, *ast.String:
			return ast.WalkContinue, nil
		case *ast.Heading:
			shape = append(shape, "heading"+strings.Repeat("#", n.Level))
		default:
			kind := n.Kind().String()
			if n.Kind() == east.KindTableRow || n.Kind() == east.KindTableHeader {
				kind += "/" + strconv.Itoa(n.ChildCount())
			}
			shape = append(shape, kind)
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return shape
}

// TestTraceEscapesAppText renders a failure whose every string holds
// Markdown and HTML, and checks with a Markdown parser that the page has
// exactly the structure of the same failure with plain text: app text
// never became a heading, a list, a table cell, a link, emphasis or HTML.
func TestTraceEscapesAppText(t *testing.T) {
	plain := buyWithDiscount()
	fillStrings(reflect.ValueOf(&plain).Elem(), func(old string) string { return old + " plain words" })
	plain.Slug = "hostile"
	plain.Failure.Closest = []diagnose.CloseNode{{Ref: "e1 plain", Line: "plain", Score: 0.5, Why: "plain"}}
	plain.Log = append(plain.Log, replay.LogEntry{Time: at(200), Step: 5, Kind: replay.LogConsole, Level: "error", Text: "plain", URL: "plain"})
	plain.Failure.Screenshot = []byte("\x89PNG")

	want := blockShape(t, RenderTrace(TrailRun{Attempts: []replay.TrailResult{plain}}, nil))
	page := RenderTrace(TrailRun{Attempts: []replay.TrailResult{hostileResult()}}, nil)
	got := blockShape(t, page)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("app text changed the page's structure:\n got %v\nwant %v\npage:\n%s", got, want, page)
	}
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Convert(page, &html); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "raw HTML omitted", "<b>", "<em>", "<del>", "<blockquote>", "<hr"} {
		if strings.Contains(html.String(), bad) {
			t.Errorf("the rendered page holds %q: app text became markup", bad)
		}
	}
	if !strings.Contains(html.String(), "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the app's text is not shown as text in the rendered page")
	}
	if bytes.Contains(page, []byte("\x1b")) {
		t.Errorf("a terminal escape reached the page")
	}
}

// TestTraceRedactsEverything plants a secret in every string of a failed
// and a flaky trail and checks that no written page, status line, JUnit
// report or summary holds it.
func TestTraceRedactsEverything(t *testing.T) {
	const secret = "S3cretValue42"
	plant := func(res replay.TrailResult) replay.TrailResult {
		v := reflect.ValueOf(&res).Elem()
		plantAll(v, secret)
		res.Failure.Closest = []diagnose.CloseNode{{Ref: secret, Line: secret, Why: secret}}
		res.Log = append(res.Log, replay.LogEntry{Kind: replay.LogKind(secret), Level: secret, Text: secret, URL: secret, Step: 1})
		return res
	}
	failed := buyWithDiscount()
	failed.Failure.Screenshot = []byte("png")
	run := Run{
		Started: runStart, Stopped: secret,
		Trails: []TrailRun{
			{Attempts: []replay.TrailResult{plant(failed)}},
			{Attempts: []replay.TrailResult{plant(bigPage(1)), bigPage(2)}},
		},
		Traces: map[string]string{"x": secret},
	}
	redact := Redactor(func(s string) string { return strings.ReplaceAll(s, secret, "${secret:planted}") })
	outputs := map[string]func(r Redactor) string{
		"trace page": func(r Redactor) string {
			return string(RenderTrace(run.Trails[0], r)) + string(RenderTrace(run.Trails[1], r))
		},
		"status lines": func(r Redactor) string {
			var b bytes.Buffer
			sw := NewStatusWriter(&b, WithRedactor(r))
			for _, tr := range run.Trails {
				for _, a := range tr.Attempts {
					sw.Trail(a)
				}
			}
			sw.Done(run)
			return b.String()
		},
		"JUnit": func(r Redactor) string {
			var b bytes.Buffer
			WriteJUnit(&b, run, WithRedactor(r))
			return b.String()
		},
		"summary": func(r Redactor) string {
			var b bytes.Buffer
			WriteSummary(&b, run, WithRedactor(r))
			return b.String()
		},
	}
	for name, render := range outputs {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(render(nil), secret) {
				t.Fatalf("without a redactor the planted secret does not reach the %s; the test proves nothing", name)
			}
			if got := render(redact); strings.Contains(got, secret) {
				t.Errorf("the secret reached the %s:\n%s", name, got)
			}
		})
	}
	dir := t.TempDir()
	if _, err := WriteTrace(dir, run.Trails[0], redact); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(secret)) {
				t.Errorf("the secret reached %s", p)
			}
		}
		return nil
	})
}

// plantAll sets every string reachable from v to hold the secret.
func plantAll(v reflect.Value, secret string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + " " + secret)
	case reflect.Struct:
		for i := range v.NumField() {
			plantAll(v.Field(i), secret)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := range v.Len() {
				plantAll(v.Index(i), secret)
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			plantAll(v.Elem(), secret)
		}
	}
}

func TestWriteTrace(t *testing.T) {
	dir := t.TempDir()
	flaky := sampleRun().Trails[2]
	flaky.Attempts[0].Failure.Screenshot = []byte("\x89PNG attempt 1")
	path, err := WriteTrace(dir, flaky, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "big-page", "trace.md"); path != want {
		t.Errorf("WriteTrace wrote %s, want %s", path, want)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("![The screen at failure](screenshot.png)")) {
		t.Errorf("the page does not show screenshot.png:\n%s", page)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "big-page", "screenshot.png")); err != nil || string(b) != "\x89PNG attempt 1" {
		t.Errorf("screenshot.png = %q, %v", b, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "big-page", "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RemoveTrace(dir, "big-page"); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "big-page"))
	if len(entries) != 1 || entries[0].Name() != "notes.txt" {
		t.Errorf("RemoveTrace left %v, want only notes.txt", entries)
	}
	if err := RemoveTrace(dir, "never-ran"); err != nil {
		t.Errorf("RemoveTrace of a trail without a folder: %v", err)
	}
	for _, slug := range []string{"", "..", "a/b", `a\b`} {
		bad := TrailRun{Attempts: []replay.TrailResult{{Slug: slug, Status: replay.StatusFailed}}}
		if _, err := WriteTrace(dir, bad, nil); !errors.Is(err, ErrBadSlug) {
			t.Errorf("WriteTrace with slug %q: err = %v, want ErrBadSlug", slug, err)
		}
	}
}

func TestParseTraceMode(t *testing.T) {
	tests := []struct {
		in   string
		want TraceMode
		ok   bool
	}{
		{"on", TraceOn, true},
		{"OFF", TraceOff, true},
		{"retain-on-failure", TraceRetainOnFailure, true},
		{"", TraceRetainOnFailure, true},
		{"always", "", false},
	}
	for _, tt := range tests {
		got, err := ParseTraceMode(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseTraceMode(%q) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestTraceModeKeep(t *testing.T) {
	run := sampleRun()
	skipped := TrailRun{Attempts: []replay.TrailResult{{Slug: "s", Status: replay.StatusSkipped}}}
	tests := []struct {
		mode                                  TraceMode
		passed, failed, flaky, skippedTrailed bool
	}{
		{TraceRetainOnFailure, false, true, true, false},
		{TraceOn, true, true, true, false},
		{TraceOff, false, false, false, false},
	}
	for _, tt := range tests {
		got := []bool{tt.mode.Keep(run.Trails[0]), tt.mode.Keep(run.Trails[1]), tt.mode.Keep(run.Trails[2]), tt.mode.Keep(skipped)}
		want := []bool{tt.passed, tt.failed, tt.flaky, tt.skippedTrailed}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s.Keep(passed, failed, flaky, skipped) = %v, want %v", tt.mode, got, want)
		}
	}
}
