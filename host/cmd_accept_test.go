package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/storage"
)

// readOnlyRun leaves in dir a project with the discount trail and the
// results folder a read-only run that healed its first step wrote.
func readOnlyRun(t *testing.T) (dir, file, results string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "trailpin.yaml"), []byte("apps:\n  shop:\n    baseURL: http://localhost:3000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file = writeDiscountTrail(t, dir)
	results = filepath.Join(dir, "trailpin-results")
	st, res := healedRun(file)
	(&healKeeper{projectDir: dir}).keep(context.Background(), st, res, heal.ModeReadOnly, results)
	if res.Steps[0].Heal.Decision != "reported" {
		t.Fatalf("the read-only run did not report its heal: %s", res.Steps[0].Heal.Reason)
	}
	return dir, file, results
}

func TestAcceptAppliesAHealedTrailAndSavesAVersion(t *testing.T) {
	dir, file, results := readOnlyRun(t)
	db := filepath.Join(dir, "trailpin.db")
	s, err := storage.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, err := runHost(t, "--config", filepath.Join(dir, "trailpin.yaml"), "--db", db, "accept", results)
	if err != nil {
		t.Fatalf("host accept: %v\n%s", err, out)
	}
	for _, want := range []string{
		file + ": applied the healed step 1",
		"step 1 (Apply the discount code SUMMER): healed by the agent (tapped Redeem); the check after it passed (assertVisible (line 15))",
		"-       - tap: {selector: {role: button, name: Apply}}   # renamed since",
		"+       - tap: {selector: {role: button, name: Redeem}}",
		"saved as trail apply-a-discount, version 1",
		"accepted: 1 healed trail applied, 0 already applied",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("host accept output lacks %q:\n%s", want, out)
		}
	}
	got, _ := os.ReadFile(file)
	wantHealedFile(t, got)
	out, err = runHost(t, "--config", filepath.Join(dir, "trailpin.yaml"), "--db", db, "accept", results)
	if err != nil || !strings.Contains(out, "already applied") {
		t.Errorf("host accept a second time = %v:\n%s", err, out)
	}
}

func TestAcceptDryRunWritesNothing(t *testing.T) {
	dir, file, results := readOnlyRun(t)
	out, err := runHost(t, "--config", filepath.Join(dir, "trailpin.yaml"), "--db", filepath.Join(dir, "none.db"), "accept", "--dry-run", results)
	if err != nil {
		t.Fatalf("host accept --dry-run: %v\n%s", err, out)
	}
	for _, want := range []string{"would apply the healed step 1", "+       - tap: {selector: {role: button, name: Redeem}}", "dry run: 1 healed trail would be applied, nothing written"} {
		if !strings.Contains(out, want) {
			t.Errorf("host accept --dry-run output lacks %q:\n%s", want, out)
		}
	}
	if got, _ := os.ReadFile(file); string(got) != discountTrail {
		t.Errorf("--dry-run changed the trail file:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !os.IsNotExist(err) {
		t.Errorf("--dry-run made a database (%v)", err)
	}
}

func TestAcceptRefusesATrailFileChangedSinceTheRun(t *testing.T) {
	dir, file, results := readOnlyRun(t)
	edited := strings.Replace(discountTrail, "# The code comes first.", "# The code comes first, always.", 1)
	os.WriteFile(file, []byte(edited), 0o644)
	out, err := runHost(t, "--config", filepath.Join(dir, "trailpin.yaml"), "--db", filepath.Join(dir, "t.db"), "accept", results)
	if err == nil || exitCode(err) != 1 {
		t.Fatalf("host accept over a changed file = %v, want exit 1\n%s", err, out)
	}
	for _, want := range []string{"refused: the file changed since the run healed it", "host replay " + file, "merge " + results + "/apply-a-discount/healed.trail.yaml by hand"} {
		if !strings.Contains(out, want) {
			t.Errorf("host accept output lacks %q:\n%s", want, out)
		}
	}
	if got, _ := os.ReadFile(file); string(got) != edited {
		t.Errorf("a refused heal changed the file:\n%s", got)
	}
}

func TestAcceptResultsFolderProblems(t *testing.T) {
	dir, _, results := readOnlyRun(t)
	cfg := filepath.Join(dir, "trailpin.yaml")
	db := filepath.Join(dir, "t.db")
	empty := t.TempDir()
	if out, err := runHost(t, "--config", cfg, "--db", db, "accept", empty); err != nil || !strings.Contains(out, "no healed trails in") {
		t.Errorf("host accept of a folder without heals = %v:\n%s", err, out)
	}
	out, err := runHost(t, "--config", cfg, "--db", db, "accept", filepath.Join(dir, "missing"))
	if err == nil || !strings.Contains(err.Error(), "does not exist: give the folder `host replay --results` wrote") {
		t.Errorf("host accept of a missing folder = %v:\n%s", err, out)
	}
	os.WriteFile(filepath.Join(results, "apply-a-discount", heal.HealedTrailFile), []byte("version: 1\n"), 0o644)
	out, err = runHost(t, "--config", cfg, "--db", db, "accept", results)
	if err == nil || !strings.Contains(out, "is not the file the run wrote") {
		t.Errorf("host accept of a spoiled healed trail = %v:\n%s", err, out)
	}
}

func TestAcceptHelpSaysWhatItDoes(t *testing.T) {
	out, err := runHost(t, "accept", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"read-only", "healed.trail.yaml", "--dry-run", "changed since the run is refused", "host replay FILE", "default trailpin-results", "new version"} {
		if !strings.Contains(out, want) {
			t.Errorf("host accept --help lacks %q:\n%s", want, out)
		}
	}
}
