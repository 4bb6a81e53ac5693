package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/recorder"
	"github.com/trailpin/trailpin/storage"
)

// testDB opens a fresh database.
func testDB(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), filepath.Join(t.TempDir(), "trailpin.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// saveRaw stores content as the next version of slug, as given.
func saveRaw(t *testing.T, db *storage.DB, slug string, content []byte) {
	t.Helper()
	tr, err := recorder.LoadTrail(slug, content)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveTrail(context.Background(), storage.TrailInput{Slug: slug, Title: tr.Title, App: tr.App, Content: content}); err != nil {
		t.Fatal(err)
	}
}

// TestExportTrail checks the function the popup's Export calls.
func TestExportTrail(t *testing.T) {
	ctx := context.Background()
	db := testDB(t)
	golden := readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))
	saveRaw(t, db, "checkout", golden)
	dir := filepath.Join(t.TempDir(), "e2e", "trails")

	path, err := exportTrail(ctx, db, "checkout", dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "checkout.trail.yaml"); path != want {
		t.Errorf("exportTrail = %q, want %q", path, want)
	}
	if got := readBytes(t, path); !bytes.Equal(got, golden) {
		t.Errorf("exportTrail wrote\n%s\nwant the canonical trail\n%s", got, golden)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the exported file's mode = %v, want 0644 (it is part of the repository)", fi.Mode())
	}
	if again, err := exportTrail(ctx, db, "Apply a discount at checkout", dir); err != nil || again != path {
		t.Errorf("exportTrail(by title, again) = %q, %v; want %q", again, err, path)
	}

	t.Run("comment added by hand", func(t *testing.T) {
		writeFile(t, path, "# reviewed\n"+string(golden))
		_, err := exportTrail(ctx, db, "checkout", dir)
		var he *handEditedError
		if !errors.As(err, &he) || !he.LayoutOnly || !errors.Is(err, errHandEdited) || !strings.Contains(err.Error(), "only in comments or layout") {
			t.Errorf("exportTrail over a comment added by hand: error = %v, want a layout-only refusal", err)
		}
		if got := readBytes(t, path); !strings.HasPrefix(string(got), "# reviewed\n") {
			t.Errorf("the refused export changed the file")
		}
	})
	t.Run("step changed by hand", func(t *testing.T) {
		edited := strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1)
		writeFile(t, path, edited)
		_, err := exportTrail(ctx, db, "checkout", dir)
		var he *handEditedError
		if !errors.As(err, &he) || he.LayoutOnly || he.Path != path || he.Slug != "checkout" {
			t.Errorf("exportTrail over an edited step: error = %v, want a refusal that says to import", err)
		}
		if got := string(readBytes(t, path)); got != edited {
			t.Errorf("the refused export changed the file")
		}
	})
	t.Run("an earlier version is replaced", func(t *testing.T) {
		writeFile(t, path, string(golden))
		v2 := []byte(strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1))
		saveRaw(t, db, "checkout", v2)
		if _, err := exportTrail(ctx, db, "checkout", dir); err != nil {
			t.Fatalf("exportTrail over the export of version 1: %v", err)
		}
		if got := readBytes(t, path); !bytes.Equal(got, v2) {
			t.Errorf("the export of version 1 was not replaced by version 2")
		}
	})
	if _, err := exportTrail(ctx, db, "nope", dir); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("exportTrail(unknown) error = %v, want storage.ErrNotFound", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the trails folder holds %d entries, want the one trail file (no temporary files)", len(entries))
	}
}

// TestExportOlderLayout stores a version as written by hand (not in the
// layout this host writes): export writes the canonical layout, and still
// knows the canonical form of that version as its own earlier export.
func TestExportOlderLayout(t *testing.T) {
	ctx := context.Background()
	db := testDB(t)
	raw := readBytes(t, filepath.Join(trailTestdata(t), "checkout.trail.yaml"))
	golden := readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))
	if bytes.Equal(raw, golden) {
		t.Fatal("the test needs a trail whose file differs from its canonical form")
	}
	saveRaw(t, db, "checkout", raw)
	dir := t.TempDir()
	path := filepath.Join(dir, "checkout.trail.yaml")

	// The stored bytes themselves count as an earlier export.
	writeFile(t, path, string(raw))
	if _, err := exportTrail(ctx, db, "checkout", dir); err != nil {
		t.Fatalf("exportTrail over the stored bytes: %v", err)
	}
	if got := readBytes(t, path); !bytes.Equal(got, golden) {
		t.Errorf("export wrote\n%s\nwant the canonical layout\n%s", got, golden)
	}
	// So does the canonical form of an earlier version.
	saveRaw(t, db, "checkout", []byte(strings.Replace(string(golden), "Search for headphones", "Search for speakers", 1)))
	writeFile(t, path, string(golden))
	if _, err := exportTrail(ctx, db, "checkout", dir); err != nil {
		t.Errorf("exportTrail over version 1 in today's layout: %v", err)
	}
}

func TestCanonicalTrailIsAFixedPoint(t *testing.T) {
	for _, name := range trailInputs {
		golden := readBytes(t, filepath.Join(trailTestdata(t), name+".golden.yaml"))
		raw := readBytes(t, filepath.Join(trailTestdata(t), name+recorder.TrailFileExt))
		for _, in := range [][]byte{raw, golden} {
			out, err := canonicalTrail(name, in)
			if err != nil || !bytes.Equal(out, golden) {
				t.Errorf("canonicalTrail(%s) = %v error, output equal to golden %v", name, err, bytes.Equal(out, golden))
			}
		}
	}
	if _, err := canonicalTrail("broken", []byte("version: 1\n")); err == nil || !strings.Contains(err.Error(), "does not load") {
		t.Errorf("canonicalTrail(a broken stored trail) error = %v", err)
	}
}

// TestExportRefusalWritesNothing exports two trails when one file was
// edited by hand: neither is written, --force writes both.
func TestExportRefusalWritesNothing(t *testing.T) {
	repo := cliRepo(t)
	for _, name := range trailInputs {
		mustRun(t, nil, "import", copyTrailInput(t, t.TempDir(), name))
	}
	trails := filepath.Join(repo, "trails")
	handWritten := filepath.Join(trails, "checkout.trail.yaml")
	writeFile(t, handWritten, "# a teammate's version\n")
	_, _, err := run(t, nil, "export")
	if err == nil || !strings.Contains(err.Error(), "nothing written") || !strings.Contains(err.Error(), handWritten) {
		t.Errorf("host export with a hand-written file: error = %v", err)
	}
	if _, err := os.Stat(filepath.Join(trails, "every-action.trail.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused export wrote the other trail")
	}
	if _, _, err := run(t, nil, "export", "every-action", "nope"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("host export of an unknown trail: error = %v, want not found", err)
	}
	if _, err := os.Stat(filepath.Join(trails, "every-action.trail.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an export naming an unknown trail wrote the others")
	}
	out := mustRun(t, nil, "export", "--force")
	if strings.Count(out, "\n") != 2 {
		t.Errorf("host export --force printed %q, want both paths", out)
	}
	if got := readBytes(t, handWritten); !bytes.Equal(got, readBytes(t, filepath.Join(trailTestdata(t), "checkout.golden.yaml"))) {
		t.Errorf("host export --force did not overwrite the hand-written file")
	}
}

// TestExportRefusesSecretValues: a stored trail that holds the value of a
// secret configured later is not written into the repository.
func TestExportRefusesSecretValues(t *testing.T) {
	repo := cliRepo(t)
	mustRun(t, nil, "import", copyTrailInput(t, t.TempDir(), "checkout"))
	// "headphones" is typed in step 2; configure it as a secret's value.
	writeFile(t, filepath.Join(repo, "trailpin.yaml"), "secrets:\n  search-term: headphones\n")
	_, _, err := run(t, nil, "export")
	var se *recorder.SecretInTrailError
	if !errors.As(err, &se) {
		t.Fatalf("host export of a trail holding a secret value: error = %v, want a SecretInTrailError", err)
	}
	if _, err := os.Stat(filepath.Join(repo, "trails", "checkout.trail.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the trail holding a secret value was written")
	}
}
