package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
)

// trailInputs are the trail files the CLI tests import: the format's own
// test trails.
var trailInputs = []string{"checkout", "every-action"}

// cliRepo gives the test a fresh home, config and data folder, and a
// repository with the starter trailpin.yaml as the working directory.
func cliRepo(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_RUNTIME_DIR", "") // the agent API's discovery file goes to the data folder
	for _, k := range os.Environ() {
		if name, _, _ := strings.Cut(k, "="); strings.HasPrefix(name, "TRAILPIN_") || name == "CI" {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	repo := filepath.Join(home, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	mustRun(t, nil, "project", "init")
	return repo
}

// mustRun runs the host and fails the test on an error.
func mustRun(t *testing.T, stdin []byte, args ...string) string {
	t.Helper()
	out, errOut, err := run(t, stdin, args...)
	if err != nil {
		t.Fatalf("host %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// copyTrailInput copies a trail from recorder's testdata into dir and
// returns its path there.
func copyTrailInput(t *testing.T, dir, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(trailTestdata(t), name+trail.TrailFileExt))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+trail.TrailFileExt)
	writeFile(t, p, string(src))
	return p
}

// recorderTrails is recorder/trail/testdata/trails, made absolute before any
// test changes the working directory.
var recorderTrails, _ = filepath.Abs(filepath.Join("..", "recorder", "trail", "testdata", "trails"))

// trailTestdata is recorder/trail/testdata/trails as an absolute path.
func trailTestdata(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(recorderTrails); err != nil {
		t.Fatal(err)
	}
	return recorderTrails
}

func loadTrail(t *testing.T, path string) *trail.Trail {
	t.Helper()
	tr, err := storage.LoadTrailFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTrailCommandsEndToEnd runs the whole life of a trail through the
// CLI: import → list → show → export (the same bytes twice) → re-import
// gives an equal trail → an edit by hand → rm.
func TestTrailCommandsEndToEnd(t *testing.T) {
	testdata := trailTestdata(t)
	repo := cliRepo(t)
	incoming := filepath.Join(t.TempDir(), "incoming")
	var inputs []string
	for _, name := range trailInputs {
		inputs = append(inputs, copyTrailInput(t, incoming, name))
	}

	// import
	out := mustRun(t, nil, append([]string{"import"}, inputs...)...)
	for _, want := range []string{
		inputs[0] + ": new trail checkout (version 1); the file's comments and layout are not kept\n",
		inputs[1] + ": new trail every-action (version 1); the file's comments and layout are not kept\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("host import printed\n%s\nwant a line %q", out, want)
		}
	}

	// list
	out = mustRun(t, nil, "trails", "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "SLUG") || !strings.Contains(lines[0], "UPDATED") ||
		!strings.Contains(lines[1], "checkout") || !strings.Contains(lines[1], "Apply a discount at checkout") || !strings.Contains(lines[1], "shop") ||
		!strings.Contains(lines[2], "every-action") {
		t.Errorf("host trails list printed\n%s\nwant a header and both trails", out)
	}
	var listed []trailListEntry
	if err := json.Unmarshal([]byte(mustRun(t, nil, "trails", "list", "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 2 || listed[0].Slug != "checkout" || listed[0].Title != "Apply a discount at checkout" || listed[0].App != "shop" ||
		listed[0].Versions != 1 || listed[0].Updated.IsZero() || listed[1].Slug != "every-action" {
		t.Errorf("host trails list --json = %+v", listed)
	}

	// show: the stored YAML is canonical (it loads and writes back to itself)
	// and is what the format's golden file says the trail writes as.
	shown := map[string][]byte{}
	for _, name := range trailInputs {
		shown[name] = []byte(mustRun(t, nil, "trails", "show", name))
		tr, err := trail.LoadTrail(name, shown[name])
		if err != nil {
			t.Fatalf("host trails show %s printed a trail that does not load: %v", name, err)
		}
		again, err := trail.MarshalTrail(tr)
		if err != nil || !bytes.Equal(again, shown[name]) {
			t.Errorf("the stored %s is not canonical: loaded and written again it differs (%v)", name, err)
		}
		if want := readBytes(t, filepath.Join(testdata, name+".golden.yaml")); !bytes.Equal(shown[name], want) {
			t.Errorf("host trails show %s printed\n%s\nwant the format's golden output\n%s", name, shown[name], want)
		}
		if !tr.Equal(loadTrail(t, filepath.Join(incoming, name+trail.TrailFileExt))) {
			t.Errorf("host trails show %s is not the trail imported", name)
		}
	}

	// export, twice: the same paths and bytes
	trailsDir := filepath.Join(repo, "trails")
	wantPaths := filepath.Join(trailsDir, "checkout.trail.yaml") + "\n" + filepath.Join(trailsDir, "every-action.trail.yaml") + "\n"
	if out := mustRun(t, nil, "export"); out != wantPaths {
		t.Errorf("host export printed %q, want %q", out, wantPaths)
	}
	first := map[string][]byte{}
	for _, name := range trailInputs {
		first[name] = readBytes(t, filepath.Join(trailsDir, name+trail.TrailFileExt))
		if !bytes.Equal(first[name], shown[name]) {
			t.Errorf("exported %s differs from what host trails show printed", name)
		}
	}
	if out := mustRun(t, nil, "export"); out != wantPaths {
		t.Errorf("host export (again) printed %q, want %q", out, wantPaths)
	}
	for _, name := range trailInputs {
		if again := readBytes(t, filepath.Join(trailsDir, name+trail.TrailFileExt)); !bytes.Equal(again, first[name]) {
			t.Errorf("exporting %s twice gave different bytes", name)
		}
	}

	// re-import the export: an equal trail, and no new version
	exported := filepath.Join(trailsDir, "checkout.trail.yaml")
	if out := mustRun(t, nil, "import", exported); out != exported+": unchanged (trail checkout, version 1)\n" {
		t.Errorf("host import (an export) printed %q", out)
	}
	if !loadTrail(t, exported).Equal(loadTrail(t, inputs[0])) {
		t.Errorf("the exported checkout does not load equal to the file imported")
	}

	// An edit by hand is not overwritten; imported, it is version 2, and
	// export then finds the file up to date.
	edited := bytes.Replace(first["checkout"], []byte("intent: Search for headphones"), []byte("intent: Search the shop for headphones"), 1)
	if bytes.Equal(edited, first["checkout"]) {
		t.Fatal("the edit did not apply; the test data changed")
	}
	writeFile(t, exported, string(edited))
	_, errOut, err := run(t, nil, "export", "checkout")
	if err == nil || !errors.Is(err, errHandEdited) || !strings.Contains(err.Error(), "host import "+exported) {
		t.Errorf("host export over a hand-edited file: error = %v, want a refusal naming host import", err)
	}
	if errOut != "" {
		t.Logf("stderr: %s", errOut)
	}
	if got := readBytes(t, exported); !bytes.Equal(got, edited) {
		t.Errorf("a refused export changed the hand-edited file")
	}
	if out := mustRun(t, nil, "import", exported); out != exported+": trail checkout, version 2\n" {
		t.Errorf("host import (edited) printed %q", out)
	}
	if out := mustRun(t, nil, "export", "checkout"); out != exported+"\n" {
		t.Errorf("host export after the import printed %q", out)
	}
	if got := readBytes(t, exported); !bytes.Equal(got, edited) {
		t.Errorf("export after importing the edit rewrote the file")
	}
	if v1 := mustRun(t, nil, "trails", "show", "checkout", "--version", "1"); v1 != string(first["checkout"]) {
		t.Errorf("host trails show checkout --version 1 is not the first version")
	}
	if v2 := mustRun(t, nil, "trails", "show", "Apply a discount at checkout"); v2 != string(edited) {
		t.Errorf("host trails show by title is not the latest version")
	}

	// rm: refused without a terminal or --yes, then done with --yes
	_, _, err = run(t, nil, "trails", "rm", "checkout")
	if err == nil || !strings.Contains(err.Error(), "pass --yes") {
		t.Errorf("host trails rm without --yes and without a terminal: error = %v, want a refusal", err)
	}
	out = mustRun(t, nil, "trails", "rm", "checkout", "every-action", "--yes")
	if want := "removed trail checkout (\"Apply a discount at checkout\", 2 versions)\nremoved trail every-action (\"Every action once\", 1 version)\n"; out != want {
		t.Errorf("host trails rm printed %q, want %q", out, want)
	}
	if out := mustRun(t, nil, "trails", "list", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("host trails list --json after rm = %q, want []", out)
	}
	if _, err := os.Stat(exported); err != nil {
		t.Errorf("rm removed the exported file too: %v", err)
	}
}

func TestTrailsWithoutDatabase(t *testing.T) {
	cliRepo(t)
	db := filepath.Join(os.Getenv("XDG_DATA_HOME"), "trailpin", "trailpin.db")
	out := mustRun(t, nil, "trails", "list")
	if !strings.Contains(out, "no trails in "+db+" yet") {
		t.Errorf("host trails list (no database) printed %q", out)
	}
	if out := mustRun(t, nil, "trails", "list", "--json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("host trails list --json (no database) printed %q, want []", out)
	}
	if _, _, err := run(t, nil, "trails", "show", "checkout"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("host trails show (no database) error = %v, want not found", err)
	}
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("reading commands created the database: %v", err)
	}
}

func TestTrailsErrors(t *testing.T) {
	repo := cliRepo(t)
	mustRun(t, nil, "import", copyTrailInput(t, repo, "checkout"))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"trails", "show", "nope"}, "`host trails list` shows the saved trails"},
		{[]string{"trails", "show", "checkout", "--version", "3"}, "trail checkout has no version 3, only version 1"},
		{[]string{"trails", "show", "checkout", "--version", "-1"}, "versions start at 1"},
		{[]string{"trails", "rm", "checkout", "nope", "--yes"}, "nothing removed"},
		{[]string{"trails", "show"}, "accepts 1 arg"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, _, err := run(t, nil, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("host %s: error = %v, want %q", strings.Join(tt.args, " "), err, tt.want)
			}
		})
	}
	// The failed rm of two trails removed neither.
	if out := mustRun(t, nil, "trails", "list"); !strings.Contains(out, "checkout") {
		t.Errorf("after a failed rm, host trails list = %q, want checkout still there", out)
	}
}

func TestConfirmRemoval(t *testing.T) {
	targets := []storage.TrailVersion{{Slug: "checkout", Title: "Apply a discount", Versions: 2}}
	tests := []struct {
		answer string
		want   bool
	}{
		{"y\n", true},
		{"yes\n", true},
		{" Y \r\n", true},
		{"\n", false},
		{"n\n", false},
		{"yess\n", false},
		{"", false},
	}
	for _, tt := range tests {
		var prompt bytes.Buffer
		got, err := confirmRemoval(strings.NewReader(tt.answer), &prompt, targets)
		if err != nil || got != tt.want {
			t.Errorf("confirmRemoval(%q) = %v, %v; want %v", tt.answer, got, err, tt.want)
		}
		if !strings.Contains(prompt.String(), `checkout  "Apply a discount"  (2 versions)`) || !strings.Contains(prompt.String(), "[y/N]") {
			t.Errorf("confirmRemoval prompt = %q", prompt.String())
		}
	}
}

// TestTrailsRmAsks removes through the interactive path, as on a terminal.
func TestTrailsRmAsks(t *testing.T) {
	repo := cliRepo(t)
	mustRun(t, nil, "import", copyTrailInput(t, repo, "checkout"))
	cfg, err := config.Load(config.Options{Getenv: os.Getenv, Getwd: os.Getwd, GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(context.Background(), cfg.DBPath())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tt := range []struct {
		answer, wantOut string
		wantErr         bool
	}{
		{"n\n", "", true},
		{"y\n", "removed trail checkout (\"Apply a discount at checkout\", 1 version)\n", false},
	} {
		var out, errOut bytes.Buffer
		e := &env{stdin: strings.NewReader(tt.answer), stdout: &out, stderr: &errOut}
		err := runTrailsRm(context.Background(), e, db, []string{"checkout"}, false, true)
		if (err != nil) != tt.wantErr || out.String() != tt.wantOut {
			t.Errorf("rm answered %q: printed %q, error %v; want %q, error %v", tt.answer, out.String(), err, tt.wantOut, tt.wantErr)
		}
		if !strings.Contains(errOut.String(), "Remove trail checkout with all versions?") {
			t.Errorf("rm did not ask: %q", errOut.String())
		}
	}
}

func TestCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Checkout", "Checkout"},
		{"a\tb\nc\x1b[31m", "a b c [31m"},
		{"", "-"},
		{strings.Repeat("é", 70), strings.Repeat("é", 59) + "…"},
	}
	for _, tt := range tests {
		if got := cell(tt.in, maxListTitle); got != tt.want {
			t.Errorf("cell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
