package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trailpin/trailpin/e2e/golden"
)

// newRepo makes a folder with a trailpin.yaml.
func newRepo(t *testing.T, parent, name string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	writeFile(t, filepath.Join(dir, "trailpin.yaml"), "apps:\n  shop:\n    baseURL: http://localhost:3000\n")
	return dir
}

// TestUserConfigEditsGolden adds two projects to every user config in
// testdata/project/user and makes the second current; comments and layout
// must stay. Paths in the golden files read {repos}.
func TestUserConfigEditsGolden(t *testing.T) {
	for _, input := range goldenInputs(t, "user") {
		t.Run(filepath.Base(input), func(t *testing.T) {
			src, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			repos := t.TempDir()
			file := filepath.Join(t.TempDir(), "config.yaml")
			writeFile(t, file, string(src))
			shop := newRepo(t, repos, "shop")
			admin := newRepo(t, repos, "admin")
			if _, err := AddProject(file, shop, ""); err != nil {
				t.Fatal(err)
			}
			if _, err := AddProject(file, admin, "Back office"); err != nil {
				t.Fatal(err)
			}
			if _, err := SetCurrentProject(file, "Back office"); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, goldenName(input, ".golden.yaml"), []byte(strings.ReplaceAll(string(got), repos, "{repos}")))
			u, err := readUserConfig(file)
			if err != nil {
				t.Fatal(err)
			}
			if u.Current != "Back office" || len(u.Projects) < 2 {
				t.Errorf("after the edits: current %q, projects %v; want Back office current and both projects", u.Current, u.Projects)
			}
		})
	}
}

func TestUserConfigErrorsGolden(t *testing.T) {
	for _, input := range goldenInputs(t, "userbad") {
		t.Run(filepath.Base(input), func(t *testing.T) {
			src, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			_, err = parseUserConfig(filepath.Base(input), src)
			if err == nil {
				t.Fatalf("parseUserConfig(%s) = nil error, want problems", input)
			}
			golden.Check(t, goldenName(input, ".err"), []byte(err.Error()+"\n"))
		})
	}
}

func TestUserProjects(t *testing.T) {
	repos := t.TempDir()
	file := filepath.Join(t.TempDir(), "trailpin", "config.yaml")
	shop := newRepo(t, repos, "shop")
	otherShop := newRepo(t, filepath.Join(repos, "team"), "shop")

	list, current, err := ListProjects(file)
	if err != nil || len(list) != 0 || current != "" {
		t.Fatalf("ListProjects(no file) = %v, %q, %v; want nothing", list, current, err)
	}
	if _, err := CurrentProject(file); !errors.Is(err, ErrUnknownProject) {
		t.Errorf("CurrentProject(no file) error = %v, want ErrUnknownProject", err)
	}

	first, err := AddProject(file, shop, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := (ProjectEntry{Name: "shop", Dir: shop}); first != want {
		t.Errorf("AddProject(shop) = %+v, want %+v", first, want)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the new user config has mode %v, want 0600", fi.Mode())
	}
	second, err := AddProject(file, otherShop, "")
	if err != nil || second.Name != "shop-2" {
		t.Errorf("AddProject(another folder named shop) = %+v, %v; want the name shop-2", second, err)
	}
	again, err := AddProject(file, shop+"/", "")
	if err != nil || again != first {
		t.Errorf("AddProject(listed folder) = %+v, %v; want the existing entry", again, err)
	}
	if _, err := AddProject(file, shop, "renamed"); err == nil || !strings.Contains(err.Error(), `already listed as "shop"`) {
		t.Errorf("AddProject(listed folder, other name) error = %v", err)
	}
	if _, err := AddProject(file, filepath.Join(repos, "team"), "shop"); err == nil {
		t.Errorf("AddProject(folder without trailpin.yaml) = nil error")
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("AddProject(folder without trailpin.yaml) error = %v, want fs.ErrNotExist so the caller can offer initProject", err)
	}

	if _, err := SetCurrentProject(file, "nope"); !errors.Is(err, ErrUnknownProject) || !strings.Contains(err.Error(), "shop, shop-2") {
		t.Errorf("SetCurrentProject(unknown) error = %v, want ErrUnknownProject listing the projects", err)
	}
	if p, err := SetCurrentProject(file, otherShop); err != nil || p != second {
		t.Errorf("SetCurrentProject(by folder) = %+v, %v; want %+v", p, err, second)
	}
	list, current, err = ListProjects(file)
	if err != nil || !reflect.DeepEqual(list, []ProjectEntry{first, second}) || current != "shop-2" {
		t.Errorf("listProjects = %v, %q, %v; want both projects, shop-2 current", list, current, err)
	}
	p, err := CurrentProject(file)
	if err != nil || p.Dir != otherShop {
		t.Errorf("currentProject = %v, %v; want the project in %s", p, err, otherShop)
	}

	// The user config is strict for every command.
	e := testEnv(t, t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", filepath.Dir(filepath.Dir(file)))
	if _, err := load(e, "", nil); err != nil {
		t.Errorf("loadConfig with the edited user config: %v", err)
	}
	writeFile(t, file, "projects: []\ncurrentProject: gone\n")
	if _, err := load(e, "", nil); err == nil || !strings.Contains(err.Error(), file+`:2: currentProject: "gone" names no project`) {
		t.Errorf("loadConfig with a stale currentProject error = %v, want its file and line", err)
	}
}

func TestLoadConfigReadsTheProject(t *testing.T) {
	repo := t.TempDir()
	wd := filepath.Join(repo, "web")
	e := testEnv(t, wd)
	writeFile(t, filepath.Join(repo, "trailpin.yaml"), "db: state/trailpin.db\ntrails:\n  dir: e2e\n")
	cfg, err := load(e, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Project == nil || cfg.Project.TrailsPath() != filepath.Join(repo, "e2e") {
		t.Fatalf("loadConfig Project = %v, want the project in %s", cfg.Project, repo)
	}
	if got, want := cfg.DBPath(), filepath.Join(repo, "state/trailpin.db"); got != want {
		t.Errorf("DBPath() = %q, want %q (relative to the project)", got, want)
	}
	t.Setenv("TRAILPIN_DB", "/env.db")
	if cfg, err = load(e, "", nil); err != nil || cfg.DBPath() != "/env.db" {
		t.Errorf("with TRAILPIN_DB set, DBPath() = %q, %v; want /env.db", cfg.DBPath(), err)
	}

	writeFile(t, filepath.Join(repo, "trailpin.yaml"), "trails:\n  dir: e2e\nreplay:\n  actionTimeout: 10\n")
	if _, err := load(e, "", nil); err == nil || !strings.Contains(err.Error(), filepath.Join(repo, "trailpin.yaml")+`:4: replay.actionTimeout: "10" has no unit`) {
		t.Errorf("loadConfig with a bad duration error = %v, want file:line: key", err)
	}
}
