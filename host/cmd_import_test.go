package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestImportIsAllOrNothing(t *testing.T) {
	repo := cliRepo(t)
	good := copyTrailInput(t, repo, "checkout")
	bad := filepath.Join(repo, "typo.trail.yaml")
	writeFile(t, bad, string(readBytes(t, filepath.Join(trailTestdata(t), "bad", "unknown-top-key.yaml"))))
	legacy := filepath.Join(repo, "legacy.trail.yaml")
	writeFile(t, legacy, string(readBytes(t, filepath.Join(trailTestdata(t), "legacy", "checkout.yaml"))))

	out, errOut, err := run(t, nil, "import", good, bad, legacy)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "nothing imported: 2 files of 3 could not be imported") {
		t.Errorf("host import with bad files: error = %v, want nothing imported", err)
	}
	for _, want := range []string{
		bad + `:5: unknown key "viewpoint" in a trail file: did you mean "viewport"?`,
		"host migrate " + legacy,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("host import stderr lacks %q:\n%s", want, errOut)
		}
	}
	if out != "" {
		t.Errorf("host import with bad files printed %q, want nothing on stdout", out)
	}
	if listed := mustRun(t, nil, "trails", "list", "--json"); strings.TrimSpace(listed) != "[]" {
		t.Errorf("after a refused import, trails = %s, want none", listed)
	}

	out, errOut, err = run(t, nil, "import", "--keep-going", good, bad)
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "1 file could not be imported") {
		t.Errorf("host import --keep-going: error = %v, want exit 1 naming the bad file count", err)
	}
	if !strings.Contains(out, good+": new trail checkout (version 1)") || !strings.Contains(errOut, bad+":5:") {
		t.Errorf("host import --keep-going printed\n%s\n%s", out, errOut)
	}
	var listed []trailListEntry
	if err := json.Unmarshal([]byte(mustRun(t, nil, "trails", "list", "--json")), &listed); err != nil || len(listed) != 1 || listed[0].Slug != "checkout" {
		t.Errorf("after --keep-going, trails = %+v, %v; want checkout only", listed, err)
	}
}

func TestImportFolderAndDuplicates(t *testing.T) {
	repo := cliRepo(t)
	incoming := filepath.Join(repo, "incoming")
	for _, name := range trailInputs {
		copyTrailInput(t, incoming, name)
	}
	out := mustRun(t, nil, "import", incoming)
	if strings.Count(out, ": new trail ") != 2 {
		t.Errorf("host import FOLDER printed\n%s\nwant two new trails", out)
	}
	other := copyTrailInput(t, filepath.Join(repo, "other"), "checkout")
	_, errOut, err := run(t, nil, "import", filepath.Join(incoming, "checkout.trail.yaml"), other)
	if err == nil || !strings.Contains(errOut, other+": names the same trail (checkout) as "+filepath.Join(incoming, "checkout.trail.yaml")) {
		t.Errorf("host import of two files for one trail: error %v, stderr %q", err, errOut)
	}
	if _, _, err := run(t, nil, "import", filepath.Join(repo, "missing.trail.yaml")); err == nil {
		t.Errorf("host import of a missing file succeeded")
	}
	if _, _, err := run(t, nil, "import", filepath.Join(repo, "trails")); err == nil {
		t.Errorf("host import of a folder without trails succeeded")
	}
}

// TestImportRefusesSecretValues imports a trail that types a secret's
// value in plain text: it is refused, and the message does not repeat it.
func TestImportRefusesSecretValues(t *testing.T) {
	repo := cliRepo(t)
	const value = "sk_live_5up3rs3cr3t"
	writeFile(t, filepath.Join(repo, "trailpin.yaml"), "secrets:\n  stripe-key: null\n")
	t.Setenv("TRAILPIN_SECRET_STRIPE_KEY", value)
	src := strings.Replace(string(readBytes(t, filepath.Join(trailTestdata(t), "checkout.trail.yaml"))),
		`text: "${param:coupon}"`, "text: "+value, 1)
	if !strings.Contains(src, value) {
		t.Fatal("the test trail changed; the secret was not placed")
	}
	file := filepath.Join(repo, "leak.trail.yaml")
	writeFile(t, file, src)
	out, errOut, err := run(t, nil, "import", file)
	if err == nil || !strings.Contains(errOut, "holds a secret value in step 4, type (line 30): text") {
		t.Errorf("host import of a trail with a secret value: error %v, stderr %q; want a refusal naming the place", err, errOut)
	}
	if strings.Contains(out+errOut+err.Error(), value) {
		t.Errorf("host import printed the secret value")
	}
}

func TestImportWithoutProject(t *testing.T) {
	repo := cliRepo(t)
	file := copyTrailInput(t, t.TempDir(), "checkout")
	if err := os.Remove(filepath.Join(repo, "trailpin.yaml")); err != nil {
		t.Fatal(err)
	}
	// Import needs no project: the trail goes into the user's database.
	if out := mustRun(t, nil, "import", file); !strings.Contains(out, "new trail checkout") {
		t.Errorf("host import without a project printed %q", out)
	}
	_, _, err := run(t, nil, "export")
	if err == nil || !strings.Contains(err.Error(), "no trailpin.yaml in "+repo) || !strings.Contains(err.Error(), "--dir") {
		t.Errorf("host export without a project or --dir: error = %v", err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if out := mustRun(t, nil, "export", "--dir", dir); out != filepath.Join(dir, "checkout.trail.yaml")+"\n" {
		t.Errorf("host export --dir printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "checkout.trail.yaml")); errors.Is(err, os.ErrNotExist) {
		t.Errorf("host export --dir wrote nothing")
	}
}
