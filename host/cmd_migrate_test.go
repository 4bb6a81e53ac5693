package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/storage"
)

// copyLegacy copies a legacy trail from recorder's testdata into dir.
func copyLegacy(t *testing.T, dir, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "recorder", "trail", "testdata", "trails", "legacy", name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".trail.yaml")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runHost(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := Run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return out.String() + errOut.String(), err
}

func TestMigrateRewritesALegacyFileThatThenLoads(t *testing.T) {
	dir := t.TempDir()
	p := copyLegacy(t, dir, "checkout")
	if _, err := storage.LoadTrailFile(p); err == nil || !strings.Contains(err.Error(), "host migrate") {
		t.Fatalf("LoadTrailFile(legacy) = %v, want an error saying to run host migrate", err)
	}
	out, err := runHost(t, "migrate", p)
	if err != nil {
		t.Fatalf("host migrate: %v\n%s", err, out)
	}
	for _, want := range []string{p + ": migrated 6 checks", "narrowed textRegex \"Library\"", "line 20 (step 2, assertVisible)"} {
		if !strings.Contains(out, want) {
			t.Errorf("host migrate output lacks %q:\n%s", want, out)
		}
	}
	tr, err := storage.LoadTrailFile(p)
	if err != nil {
		t.Fatalf("LoadTrailFile(migrated) failed:\n%v", err)
	}
	if len(tr.Steps) != 2 {
		t.Errorf("migrated trail has %d steps, want 2", len(tr.Steps))
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), "# The price is what this step is about.") {
		t.Errorf("migration lost a comment:\n%s", data)
	}
	out, err = runHost(t, "migrate", p)
	if err != nil || !strings.Contains(out, "nothing to migrate") {
		t.Errorf("host migrate a second time = %v:\n%s", err, out)
	}
}

func TestMigrateLeavesFilesItCannotMigrateFaithfully(t *testing.T) {
	dir := t.TempDir()
	bad := copyLegacy(t, dir, "unmigratable")
	good := copyLegacy(t, dir, "checkout")
	before, _ := os.ReadFile(bad)
	out, err := runHost(t, "migrate", bad, good)
	if err == nil || exitCode(err) == 0 {
		t.Fatalf("host migrate with unmigratable checks = nil error, want a non-zero exit\n%s", out)
	}
	if !strings.Contains(err.Error(), "3 checks in 1 file could not be migrated") {
		t.Errorf("host migrate error = %v", err)
	}
	for _, want := range []string{"left unchanged: 3 of 4 checks", "line 8 (step 1, assertVisible): not migrated: the selector has an index",
		"ignores case", "could never pass", good + ": migrated 6 checks"} {
		if !strings.Contains(out, want) {
			t.Errorf("host migrate output lacks %q:\n%s", want, out)
		}
	}
	after, _ := os.ReadFile(bad)
	if !bytes.Equal(before, after) {
		t.Errorf("a file with unmigratable checks was rewritten")
	}
	if _, err := storage.LoadTrailFile(good); err != nil {
		t.Errorf("the migratable file beside it was not migrated: %v", err)
	}
}

func TestMigrateDryRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	p := copyLegacy(t, dir, "checkout")
	before, _ := os.ReadFile(p)
	out, err := runHost(t, "migrate", "--dry-run", p)
	if err != nil {
		t.Fatalf("host migrate --dry-run: %v\n%s", err, out)
	}
	for _, want := range []string{"would migrate 6 checks (dry run, nothing written)",
		"-       - assertVisible: {selector: {role: link, textRegex: Library}, expectedText: Library}",
		"+       - assertVisible: {selector: {role: link, text: Library}}"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, out)
		}
	}
	after, _ := os.ReadFile(p)
	if !bytes.Equal(before, after) {
		t.Errorf("--dry-run changed the file")
	}
}

func TestMigrateReportsUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	notYAML := filepath.Join(dir, "x.trail.yaml")
	os.WriteFile(notYAML, []byte("steps: [unclosed"), 0o644)
	out, err := runHost(t, "migrate", filepath.Join(dir, "missing.trail.yaml"), notYAML)
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("host migrate(missing, not YAML) = %v, want exit 1", err)
	}
	if !strings.Contains(out, "no such file") || !strings.Contains(out, "not valid YAML") {
		t.Errorf("host migrate output does not explain both files:\n%s", out)
	}
	if _, err := runHost(t, "migrate"); err == nil {
		t.Errorf("host migrate with no files = nil error, want a usage error")
	}
}

// A legacy trail kept as a symbolic link stays a link once migrated; the
// file it points to is rewritten.
func TestMigrateWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	target := copyLegacy(t, filepath.Join(dir, "shared"), "checkout")
	link := filepath.Join(dir, "checkout.trail.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if out, err := runHost(t, "migrate", link); err != nil {
		t.Fatalf("host migrate: %v\n%s", err, out)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("migrate replaced the link with a file: %v, %v", fi, err)
	}
	if _, err := storage.LoadTrailFile(target); err != nil {
		t.Errorf("the link's target was not migrated: %v", err)
	}
}
