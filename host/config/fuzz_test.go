package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// seedConfigs adds every config file under testdata/project to f.
func seedConfigs(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "project", "*", "*.yaml"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add(projectStarter)
}

// FuzzParseProject: any bytes give a project or errors that name the file,
// never a panic.
func FuzzParseProject(f *testing.F) {
	seedConfigs(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := parseProject("/repo/trailpin.yaml", src)
		if err != nil {
			var ce yamlerr.List
			if !errors.As(err, &ce) || len(ce) == 0 || ce[0].File != "/repo/trailpin.yaml" {
				t.Fatalf("parseProject error %v is not a list of errors naming the file", err)
			}
			return
		}
		if p.Replay.ActionTimeout <= 0 || p.TrailsDir == "" || p.Trace == "" {
			t.Fatalf("parseProject accepted a project without its defaults: %+v", *p)
		}
	})
}

// FuzzAddApp: adding an app to any project file that loads either fails
// or gives a file that loads with exactly that app more.
func FuzzAddApp(f *testing.F) {
	seedConfigs(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		before, err := parseProject("/repo/trailpin.yaml", src)
		if err != nil {
			return
		}
		if _, taken := before.Apps["fuzzapp"]; taken {
			return
		}
		if _, taken := before.AppForOrigin("http://fuzz.test:1234"); taken {
			return
		}
		out, err := addMapEntry("/repo/trailpin.yaml", src, "apps", "fuzzapp", []yamlLine{
			{0, "fuzzapp:"}, {1, "baseURL: http://fuzz.test:1234"},
		}, map[string]any{"baseURL": "http://fuzz.test:1234"})
		if err != nil {
			return
		}
		after, err := parseProject("/repo/trailpin.yaml", out)
		if err != nil {
			t.Fatalf("after adding an app the file does not load: %v\n--- before\n%s\n--- after\n%s", err, src, out)
		}
		want := *before
		want.Apps = map[string]string{"fuzzapp": "http://fuzz.test:1234"}
		for k, v := range before.Apps {
			want.Apps[k] = v
		}
		if !reflect.DeepEqual(after.Apps, want.Apps) || after.Replay != want.Replay || after.TrailsDir != want.TrailsDir || after.Trace != want.Trace || after.Cache != want.Cache {
			t.Fatalf("adding an app changed other values\n--- before\n%s\n--- after\n%s", src, out)
		}
	})
}

// FuzzUserConfig: any bytes give a user config or errors, never a panic;
// adding a project to one that loads, and choosing it, gives a file that
// loads with that project current.
func FuzzUserConfig(f *testing.F) {
	seedConfigs(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		u, err := parseUserConfig("config.yaml", src)
		if err != nil {
			return
		}
		if u.Current != "" {
			if _, ok := u.find(u.Current); !ok {
				t.Fatalf("currentProject %q names no project but was accepted", u.Current)
			}
		}
		if _, taken := u.find("/fuzz/repo"); taken {
			return
		}
		if _, taken := u.find("fuzz repo"); taken {
			return
		}
		out, err := appendSeqItem("config.yaml", src, "projects", []yamlLine{{0, "dir: /fuzz/repo"}, {1, "name: fuzz repo"}},
			map[string]any{"dir": "/fuzz/repo", "name": "fuzz repo"})
		if err != nil {
			return
		}
		if out, err = setTopScalar("config.yaml", out, "currentProject", "fuzz repo"); err != nil {
			return
		}
		after, err := parseUserConfig("config.yaml", out)
		if err != nil || after.Current != "fuzz repo" || len(after.Projects) != len(u.Projects)+1 {
			t.Fatalf("after adding a project: %+v, %v\n--- before\n%s\n--- after\n%s", after, err, src, out)
		}
	})
}
