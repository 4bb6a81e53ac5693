package storage

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/recorder/yamlerr"
)

func sampleTrail(title string) *trail.Trail {
	return &trail.Trail{
		Title: title, App: "shop", Start: "/checkout",
		Steps: []trail.Step{{
			Intent: "Apply the discount",
			Actions: []trail.Action{
				trail.TypeText{Selector: selector.Selector{Role: "textbox", Name: "Discount code"}, Text: "SUMMER"},
				trail.Tap{Selector: selector.Selector{Role: "button", Name: "Apply"}},
			},
			End: &trail.End{URL: "/checkout", Shows: []selector.Selector{{Role: "status"}}},
		}},
	}
}

func TestWriteTrailFileLoadsBackEqual(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "apply.trail.yaml")
	tr := sampleTrail("Apply a discount")
	if err := WriteTrailFile(path, tr); err != nil {
		t.Fatalf("WriteTrailFile: %v", err)
	}
	got, err := LoadTrailFile(path)
	if err != nil {
		t.Fatalf("LoadTrailFile: %v", err)
	}
	if !got.Equal(tr) || got.File != path {
		t.Errorf("LoadTrailFile(WriteTrailFile(t)) = %+v (file %s), want %+v", got, got.File, tr)
	}
	if a := got.Steps[0].Actions[1]; a.SourceLine() == 0 {
		t.Errorf("loaded action %v has no line", a)
	}
	want, _ := trail.MarshalTrail(tr)
	data, _ := os.ReadFile(path)
	if string(data) != string(want) {
		t.Errorf("file holds\n%s\nwant MarshalTrail's bytes\n%s", data, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new trail file mode = %v, want 0644", fi.Mode().Perm())
	}
	assertNoTempFiles(t, dir)
}

func TestReplaceTrailFileKeepsModeAndReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.trail.yaml")
	if err := os.WriteFile(path, []byte(strings.Repeat("old content\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceTrailFile(path, []byte("new\n")); err != nil {
		t.Fatalf("ReplaceTrailFile: %v", err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "new\n" {
		t.Errorf("file = %q, want %q", data, "new\n")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after replace = %v, want the old 0600", fi.Mode().Perm())
	}
	assertNoTempFiles(t, dir)
}

func TestReplaceTrailFileRefusesWithoutLosingAnything(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a-folder.trail.yaml")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceTrailFile(sub, []byte("x")); err == nil {
		t.Errorf("ReplaceTrailFile over a folder = nil, want an error")
	}
	if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
		t.Errorf("the folder is gone after a refused write: %v", err)
	}
	if err := ReplaceTrailFile(filepath.Join(dir, "missing", "x.trail.yaml"), []byte("x")); err == nil {
		t.Errorf("ReplaceTrailFile into a missing folder = nil, want an error")
	}
	assertNoTempFiles(t, dir)
}

func TestWriteTrailFileRefusesAnInvalidTrail(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.trail.yaml")
	tr := sampleTrail("Bad")
	tr.Steps[0].Actions = append(tr.Steps[0].Actions, trail.Tap{}) // an empty selector
	if err := WriteTrailFile(path, tr); err == nil {
		t.Fatalf("WriteTrailFile(empty selector) = nil, want an error")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused trail was written anyway: %v", err)
	}
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestLoadTrailDir(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := func(title string) []byte {
		b, err := trail.MarshalTrail(sampleTrail(title))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	write("b.trail.yaml", good("B"))
	write("a.trail.yaml", good("A"))
	write("checkout/c.trail.yaml", good("C"))
	write(".git/hidden.trail.yaml", []byte("not even yaml: ["))
	write("notes.yaml", []byte("not a trail"))
	write("broken.trail.yaml", []byte("version: 1\ntrail: Broken\napp: shop\nstart: /\nstepz: []\n"))
	write("legacy/old.trail.yaml", []byte("version: 1\ntrail: Old\napp: shop\nstart: /\nsteps:\n  - intent: x\n    actions:\n      - assertVisible: {selector: {id: t}, expectedText: x}\n"))

	trails, err := LoadTrailDir(dir)
	var titles []string
	for _, tr := range trails {
		titles = append(titles, tr.Title)
	}
	if want := []string{"A", "B", "C"}; !slices.Equal(titles, want) {
		t.Errorf("LoadTrailDir titles = %q, want %q (sorted by path, hidden folders skipped)", titles, want)
	}
	if err == nil {
		t.Fatalf("LoadTrailDir = nil error, want the two bad files")
	}
	msg := err.Error()
	for _, want := range []string{"broken.trail.yaml:5: unknown key \"stepz\"", "old.trail.yaml:8: expectedText", "host migrate"} {
		if !strings.Contains(msg, want) {
			t.Errorf("LoadTrailDir error does not contain %q:\n%s", want, msg)
		}
	}
	if !errors.Is(err, trail.ErrLegacyText) || !errors.Is(err, yamlerr.ErrUnknownKey) {
		t.Errorf("LoadTrailDir error does not wrap ErrLegacyText and ErrUnknownKey: %v", err)
	}
}

func TestLoadTrailFileTooLarge(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.trail.yaml")
	if err := os.WriteFile(p, make([]byte, trail.MaxTrailFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTrailFile(p); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("LoadTrailFile(huge) = %v, want a size error", err)
	}
}

func TestNewTrailFilePath(t *testing.T) {
	dir := t.TempDir()
	first, err := NewTrailFilePath(dir, "Apply a discount")
	if err != nil || filepath.Base(first) != "apply-a-discount.trail.yaml" {
		t.Fatalf("NewTrailFilePath = %q, %v", first, err)
	}
	if err := WriteTrailFile(first, sampleTrail("Apply a discount")); err != nil {
		t.Fatal(err)
	}
	second, err := NewTrailFilePath(dir, "Apply a discount")
	if err != nil || filepath.Base(second) != "apply-a-discount-2.trail.yaml" {
		t.Errorf("NewTrailFilePath after a clash = %q, %v; want apply-a-discount-2.trail.yaml", second, err)
	}
	if p, err := NewTrailFilePath(filepath.Join(dir, "new-folder"), "X"); err != nil || filepath.Base(p) != "x.trail.yaml" {
		t.Errorf("NewTrailFilePath(missing folder) = %q, %v", p, err)
	}
}

func TestReplaceTrailFileWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "kept.trail.yaml")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "x.trail.yaml")
	if err := os.Symlink("kept.trail.yaml", link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := ReplaceTrailFile(link, []byte("new\n")); err != nil {
		t.Fatalf("ReplaceTrailFile: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file: %v, %v", fi, err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new\n" {
		t.Errorf("the link's target = %q, want %q", data, "new\n")
	}
}

func TestTrailFileSlug(t *testing.T) {
	tests := []struct {
		file, title, want, wantErr string
	}{
		{"trails/apply-a-discount.trail.yaml", "Anything", "apply-a-discount", ""},
		{"apply-a-discount-2.trail.yaml", "Apply a discount", "apply-a-discount-2", ""},
		{"Checkout.trail.yaml", "Apply a discount", "apply-a-discount", ""},
		{"checkout.yaml", "x", "checkout", ""},
		{"my trail.trail.yaml", "Déjà vu", "deja-vu", ""},
		{"Über.trail.yaml", "Привет", "", "rename the file to NAME.trail.yaml"},
	}
	for _, tt := range tests {
		got, err := TrailFileSlug(tt.file, tt.title)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("TrailFileSlug(%q, %q) = %q, %v; want an error containing %q", tt.file, tt.title, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("TrailFileSlug(%q, %q) = %q, %v; want %q", tt.file, tt.title, got, err, tt.want)
		}
	}
}
