package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/replay/heal"
	"github.com/trailpin/trailpin/replay/suite"
	"github.com/trailpin/trailpin/replay/suite/suitetest"
	"github.com/trailpin/trailpin/storage"
)

// readOnlyRun leaves in dir a project with the discount trail and the
// results folder a read-only run that healed its first step wrote. dir is
// two folders below the test's own, so that a path leaving it with
// ../.. stays in the test's folder.
func readOnlyRun(t *testing.T) (dir, file, results string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "work", "shop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "trailpin.yaml"), []byte("apps:\n  shop:\n    baseURL: http://localhost:3000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file = suitetest.WriteDiscountTrail(t, dir)
	results = filepath.Join(dir, "trailpin-results")
	tr, res := suitetest.HealedRun(file)
	(&suite.HealKeeper{ProjectDir: dir}).Keep(context.Background(), suite.Trail{Trail: tr, Slug: res.Slug}, res, heal.ModeReadOnly, results)
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
	suitetest.WantHealedFile(t, got)
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
	if got, _ := os.ReadFile(file); string(got) != suitetest.DiscountTrail {
		t.Errorf("--dry-run changed the trail file:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); !os.IsNotExist(err) {
		t.Errorf("--dry-run made a database (%v)", err)
	}
}

func TestAcceptRefusesATrailFileChangedSinceTheRun(t *testing.T) {
	dir, file, results := readOnlyRun(t)
	edited := strings.Replace(suitetest.DiscountTrail, "# The code comes first.", "# The code comes first, always.", 1)
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
	for _, want := range []string{"read-only", "healed.trail.yaml", "--dry-run", "changed since the run is refused", "host replay FILE", "default trailpin-results", "new version",
		"inside the project's trails folder", "absolute path", "actions, end\n    and key", "which field of which step", "symbolic link stays a link"} {
		if !strings.Contains(out, want) {
			t.Errorf("host accept --help lacks %q:\n%s", want, out)
		}
	}
}

// A results folder is a CI artifact, perhaps from a fork's pull request:
// what it names is written only when it is a trail file inside the trails
// folder, and only when it changes no more than the healed steps'
// recordings. Each case adds one such healed trail beside the run's proper
// one: it is refused with its reason and nothing of it is written, while
// the proper heal is still applied.
func TestAcceptRefusesWhatItDidNotHeal(t *testing.T) {
	tests := []struct {
		name string
		// victim is where a file with the discount trail's bytes is put
		// (relative to the test's folder, two above the project); "" for
		// none.
		victim string
		// source is what healed.json names; "" for the victim's path
		// relative to the project, "abs" for its absolute path.
		source string
		// healed changes the proper healed trail into the one written.
		healed func(string) string
		says   string
	}{
		{name: "/etc/passwd", source: "/etc/passwd", says: `names the trail file by an absolute path, "/etc/passwd"`},
		{name: "a path that leaves the project", victim: "x.trail.yaml", source: "../../x.trail.yaml", says: `"../../x.trail.yaml" is outside the trails folder`},
		{name: "an absolute path to a trail outside the trails folder", victim: "work/other/y.trail.yaml", source: "abs", says: "names the trail file by an absolute path"},
		{name: "a trail outside the trails folder", victim: "work/shop/notes/z.trail.yaml", says: `"notes/z.trail.yaml" is outside the trails folder`},
		{name: "a healed trail that drops the assertion step", victim: "work/shop/trails/second.trail.yaml",
			healed: func(s string) string { return s[:strings.Index(s, "  - intent: The total shows")] },
			says:   "the trail file has 2 steps and the healed trail 1: a heal never adds or removes a step"},
		{name: "a healed trail that changes another step's selector", victim: "work/shop/trails/second.trail.yaml",
			healed: func(s string) string { return strings.Replace(s, "{role: status, text: 10% off}", "{role: status}", 1) },
			says:   `step 2 ("The total shows 10% off", line 12): its actions changed, and it is not a step the run healed`},
		{name: "a healed trail that changes the title", victim: "work/shop/trails/second.trail.yaml",
			healed: func(s string) string { return strings.Replace(s, "trail: Apply a discount", "trail: Anything", 1) },
			says:   `the trail's title (trail:) changed from "Apply a discount" to "Anything"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, file, results := readOnlyRun(t)
			root := filepath.Dir(filepath.Dir(dir))
			proper, err := os.ReadFile(filepath.Join(results, "apply-a-discount", heal.HealedTrailFile))
			if err != nil {
				t.Fatal(err)
			}
			source, victim := tt.source, ""
			if tt.victim != "" {
				victim = filepath.Join(root, filepath.FromSlash(tt.victim))
				if err := os.MkdirAll(filepath.Dir(victim), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(victim, []byte(suitetest.DiscountTrail), 0o644); err != nil {
					t.Fatal(err)
				}
				switch source {
				case "":
					rel, _ := filepath.Rel(dir, victim)
					source = filepath.ToSlash(rel)
				case "abs":
					source = victim
				}
			}
			var before []byte
			if victim == "" {
				before, _ = os.ReadFile(source)
			}
			healed := string(proper)
			if tt.healed != nil {
				healed = tt.healed(healed)
			}
			// The record holds the SHA-256 of the discount trail, the
			// bytes of every victim here: a results folder's author knows
			// the files of a public repository.
			rec := heal.Record{Title: "Apply a discount", Source: source, SourceSHA256: heal.Digest([]byte(suitetest.DiscountTrail)),
				Steps: []heal.HealedStep{{Step: 1, Intent: "Apply the discount code SUMMER", Reason: "healed"}}}
			if _, err := heal.WriteHealed(results, "tampered", rec, []byte(healed)); err != nil {
				t.Fatal(err)
			}
			out, err := runHost(t, "--config", filepath.Join(dir, "trailpin.yaml"), "--db", filepath.Join(dir, "t.db"), "accept", results)
			if exitCodeOf(err) != 1 {
				t.Errorf("host accept = %v, want exit 1\n%s", err, out)
			}
			if !strings.Contains(out, "refused: ") || !strings.Contains(out, tt.says) {
				t.Errorf("host accept's output does not say it refused, saying %q:\n%s", tt.says, out)
			}
			if victim != "" {
				if got, _ := os.ReadFile(victim); string(got) != suitetest.DiscountTrail {
					t.Errorf("the refused heal was written into %s:\n%s", victim, got)
				}
			} else if now, _ := os.ReadFile(source); string(now) != string(before) {
				t.Errorf("%s changed", source)
			}
			// The run's proper heal is still applied.
			got, _ := os.ReadFile(file)
			suitetest.WantHealedFile(t, got)
			if err == nil || !strings.Contains(err.Error(), "1 healed trail applied, 1 healed trail refused") {
				t.Errorf("host accept = %v, want it to say 1 applied, 1 refused", err)
			}
		})
	}
}

// Without a project there is no trails folder to write into: accept writes
// nothing, where it used to find the trail from the working directory.
func TestAcceptWithoutAProjectWritesNothing(t *testing.T) {
	dir, file, results := readOnlyRun(t)
	if err := os.Remove(filepath.Join(dir, "trailpin.yaml")); err != nil {
		t.Fatal(err)
	}
	tempHome(t)
	t.Chdir(dir)
	out, err := runHost(t, "--db", filepath.Join(dir, "t.db"), "accept", results)
	if exitCodeOf(err) != 1 || !strings.Contains(err.Error(), "only into a project's trails folder (trails.dir), and there is no project") {
		t.Errorf("host accept without a project = %v, want exit 1 saying there is no project\n%s", err, out)
	}
	if got, _ := os.ReadFile(file); string(got) != suitetest.DiscountTrail {
		t.Errorf("accept without a project wrote the trail file:\n%s", got)
	}
}

// A trail file kept as a symbolic link (here to a file in a subfolder of the
// trails folder) stays a link; the file it points to gets the heal and
// keeps its mode.
func TestAcceptWritesThroughASymlink(t *testing.T) {
	dir, _, results := readOnlyRun(t)
	link := filepath.Join(dir, "trails", "apply-a-discount.trail.yaml")
	target := filepath.Join(dir, "trails", "kept", "apply-a-discount.trail.yaml")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(link, target); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(target, 0o664); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("kept", "apply-a-discount.trail.yaml"), link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	out, err := runHost(t, "--config", filepath.Join(dir, "trailpin.yaml"), "--db", filepath.Join(dir, "t.db"), "accept", results)
	if err != nil {
		t.Fatalf("host accept: %v\n%s", err, out)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("accept replaced the link with a file: %v, %v", fi, err)
	}
	got, _ := os.ReadFile(target)
	suitetest.WantHealedFile(t, got)
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o664 {
		t.Errorf("the trail file's mode = %v, want 0664 kept", fi.Mode().Perm())
	}
}
