package heal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const healedSrc = "version: 1\ntrail: Apply a discount\napp: shop\nstart: /checkout\nsteps:\n  - intent: Apply the code # kept\n    actions:\n      - tap: {selector: {role: button, name: Redeem}}\n    key: agent-1+3f2a9c1b7d20/6d17851875e2\n"

func testRecord() Record {
	return Record{Title: "Apply a discount", Source: "trails/apply-a-discount.trail.yaml", SourceSHA256: Digest([]byte("before")),
		Steps: []HealedStep{{Step: 1, Intent: "Apply the code", Reason: "saved: the check after it passed", Calls: 2}}}
}

func TestWriteAndReadHealed(t *testing.T) {
	dir := t.TempDir()
	path, err := WriteHealed(dir, "apply-a-discount", testRecord(), []byte(healedSrc))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "apply-a-discount", HealedTrailFile); path != want {
		t.Errorf("WriteHealed = %s, want %s", path, want)
	}
	// A trail folder with only a trace page is not a healed trail.
	if err := os.MkdirAll(filepath.Join(dir, "sign-in"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "sign-in", "trace.md"), []byte("# trace"), 0o644)
	got, problems, err := ReadHealed(dir)
	if err != nil || len(problems) > 0 || len(got) != 1 {
		t.Fatalf("ReadHealed = %d healed, %v, %v; want 1", len(got), problems, err)
	}
	h := got[0]
	want := testRecord()
	want.Version, want.HealedSHA256 = RecordVersion, Digest([]byte(healedSrc))
	if string(h.Trail) != healedSrc || h.Record.Source != want.Source || h.Record.SourceSHA256 != want.SourceSHA256 ||
		h.Record.HealedSHA256 != want.HealedSHA256 || len(h.Record.Steps) != 1 || h.Record.Steps[0] != want.Steps[0] {
		t.Errorf("ReadHealed = %+v, want %+v", h.Record, want)
	}
	if err := RemoveHealed(dir, "apply-a-discount"); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := ReadHealed(dir); len(got) != 0 {
		t.Errorf("RemoveHealed left %d healed trails", len(got))
	}
}

func TestWriteHealedRefuses(t *testing.T) {
	dir := t.TempDir()
	if _, err := WriteHealed(dir, "../x", testRecord(), []byte(healedSrc)); err == nil {
		t.Errorf("WriteHealed accepts a slug that leaves the results folder")
	}
	if _, err := WriteHealed(dir, "x", testRecord(), []byte("version: 1\n")); err == nil || !strings.Contains(err.Error(), "does not load") {
		t.Errorf("WriteHealed of a trail that does not load = %v", err)
	}
}

func TestReadHealedProblems(t *testing.T) {
	write := func(t *testing.T, dir string) {
		t.Helper()
		if _, err := WriteHealed(dir, "good", testRecord(), []byte(healedSrc)); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteHealed(dir, "bad", testRecord(), []byte(healedSrc)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		spoil func(bad string)
		says  string
	}{
		{"the trail edited after the run", func(bad string) {
			os.WriteFile(filepath.Join(bad, HealedTrailFile), []byte(healedSrc+"# edited\n"), 0o644)
		}, "not the file the run wrote"},
		{"the record missing", func(bad string) { os.Remove(filepath.Join(bad, HealedRecordFile)) }, "copy the whole results folder"},
		{"the trail missing", func(bad string) { os.Remove(filepath.Join(bad, HealedTrailFile)) }, "copy the whole results folder"},
		{"the record not JSON", func(bad string) { os.WriteFile(filepath.Join(bad, HealedRecordFile), []byte("{"), 0o644) }, "not a healed-trail record"},
		{"another version", func(bad string) {
			os.WriteFile(filepath.Join(bad, HealedRecordFile), []byte(`{"version": 9}`), 0o644)
		}, "version 9"},
		{"an unknown field", func(bad string) {
			os.WriteFile(filepath.Join(bad, HealedRecordFile), []byte(`{"version": 1, "sorce": "x"}`), 0o644)
		}, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir)
			tt.spoil(filepath.Join(dir, "bad"))
			got, problems, err := ReadHealed(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || filepath.Base(got[0].Dir) != "good" {
				t.Errorf("ReadHealed returned %d healed trails, want the good one", len(got))
			}
			if len(problems) != 1 || !errors.Is(problems[0], ErrBrokenHealed) || !strings.Contains(problems[0].Error(), tt.says) {
				t.Errorf("ReadHealed problems = %v, want one saying %q", problems, tt.says)
			}
		})
	}
}

func TestReadHealedNoFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "results.zip")
	os.WriteFile(file, []byte("PK"), 0o644)
	for _, tt := range []struct{ path, says string }{
		{filepath.Join(dir, "missing"), "does not exist"},
		{file, "is a file, not a folder"},
	} {
		if _, _, err := ReadHealed(tt.path); !errors.Is(err, ErrNoResults) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("ReadHealed(%s) = %v, want ErrNoResults saying %q", tt.path, err, tt.says)
		}
	}
}
