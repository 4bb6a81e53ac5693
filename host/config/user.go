package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/yamlerr"
)

// Keys of the user config ($XDG_CONFIG_HOME/trailpin/config.yaml). A key
// another part of the host reads from the user config is added here, or
// every command refuses the file as having an unknown key.
var (
	userConfigKeys   = []string{"db", "dataDir", "extensionId", "model", "projects", "currentProject", "recording", "review"}
	projectEntryKeys = []string{"dir", "name"}
	// projectOnlyKeys are read from trailpin.yaml only.
	projectOnlyKeys = []string{"apps", "trails", "cache", "replay", "agent", "trace", "secrets", "credentials"}
)

// MaxProjectNameLen keeps a project's name short enough for the popup's
// menu.
const MaxProjectNameLen = 100

// userConfigHeader starts a user config the host creates.
const userConfigHeader = "# Trailpin user configuration: the database, the model, and the projects\n# you record into. Keys are described in Trailpin's docs/config.md.\n"

// ErrUnknownProject is wrapped when a project reference names no project
// of the user config.
var ErrUnknownProject = errors.New("unknown project")

// A ProjectEntry is one project the person records into: a repo folder
// with a trailpin.yaml, and the name the popup shows for it.
type ProjectEntry struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
}

// A userConfig is the part of the user config about projects.
type userConfig struct {
	File     string
	Projects []ProjectEntry
	// Current is the name of the project recordings go into, "" for none.
	Current string

	// values are the layered keys the file sets, with their lines.
	values map[string]fileValue
}

// readUserConfig reads and checks the user config; a missing file is an
// empty one.
func readUserConfig(file string) (*userConfig, error) {
	src, err := readConfigBytes(file)
	if errors.Is(err, fs.ErrNotExist) {
		return &userConfig{File: file}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading user config: %w", err)
	}
	return parseUserConfig(file, src)
}

// parseUserConfig checks a user config's bytes strictly: every key known,
// each value of the right kind.
func parseUserConfig(file string, src []byte) (*userConfig, error) {
	u := &userConfig{File: file, values: map[string]fileValue{}}
	root, err := parseConfigYAML(file, src)
	if err != nil {
		return nil, err
	}
	d := &configDecoder{file: file}
	var current *yaml.Node
	for _, e := range d.mapping(root, "", userConfigKeys) {
		switch e.name {
		case "db", "dataDir":
			if s, ok := d.nonEmpty(e.val, e.name, "name a path, or leave the key out for the default"); ok {
				u.values[e.name] = fileValue{value: s, line: e.val.Line}
			}
		case "extensionId":
			if s, ok := d.str(e.val, e.name); ok {
				u.values[e.name] = fileValue{value: s, line: e.val.Line}
			}
		case "model":
			d.model(e.val, func(key string, v any, n *yaml.Node) { u.values[key] = fileValue{value: v, line: n.Line} })
		case "projects":
			u.Projects = d.projectEntries(e.val)
		case "recording":
			for _, r := range d.mapping(e.val, "recording", []string{"pruneUnsavedAfter"}) {
				if v, ok := d.duration(r.val, KeyPruneUnsavedAfter); ok {
					u.values[KeyPruneUnsavedAfter] = fileValue{value: v, line: r.val.Line}
				}
			}
		case "review":
			for _, r := range d.mapping(e.val, "review", []string{"threshold"}) {
				if v, ok := d.probability(r.val, KeyReviewThreshold); ok {
					u.values[KeyReviewThreshold] = fileValue{value: v, line: r.val.Line}
				}
			}
		case "currentProject":
			if !yamlNull(e.val) {
				if s, ok := d.nonEmpty(e.val, e.name, "name one of projects, or leave the key out"); ok {
					u.Current, current = s, e.val
				}
			}
		}
	}
	for _, e := range d.errs {
		if slices.Contains(projectOnlyKeys, e.Path) {
			e.Msg = "belongs in a project's trailpin.yaml, not in the user config"
			e.Fix = "move it to the trailpin.yaml at your repository's root (see docs/config.md)"
		}
	}
	if current != nil {
		if p, ok := u.find(u.Current); ok {
			u.Current = p.Name
		} else {
			d.fail(current, "currentProject", "name one of projects ("+strings.Join(u.names(), ", ")+"), or leave the key out",
				"%q names no project", u.Current)
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return u, nil
}

func (d *configDecoder) projectEntries(n *yaml.Node) []ProjectEntry {
	if yamlNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.fail(n, "projects", "write a list of `- dir: /path/to/repo` items", "must be a list, not %s", describeConfigNode(n))
		return nil
	}
	var list []ProjectEntry
	names, dirs := map[string]bool{}, map[string]bool{}
	for i, item := range n.Content {
		path := fmt.Sprintf("projects[%d]", i)
		var p ProjectEntry
		var nameNode *yaml.Node
		for _, f := range d.mapping(item, path, projectEntryKeys) {
			switch f.name {
			case "dir":
				if dir, ok := d.nonEmpty(f.val, path+".dir", "name the repository folder that holds trailpin.yaml"); ok {
					if !filepath.IsAbs(dir) {
						d.fail(f.val, path+".dir", "write the folder's absolute path", "%q is not an absolute path", dir)
						continue
					}
					p.Dir = filepath.Clean(dir)
				}
			case "name":
				if name, ok := d.nonEmpty(f.val, path+".name", "name the project, or leave the key out for the folder's name"); ok {
					if err := checkProjectName(name); err != nil {
						d.fail(f.val, path+".name", "use a short name on one line", "%v", err)
						continue
					}
					p.Name, nameNode = name, f.val
				}
			}
		}
		if p.Dir == "" {
			if item.Kind == yaml.MappingNode && !slices.ContainsFunc(d.errs, func(e *yamlerr.Error) bool { return strings.HasPrefix(e.Path, path) }) {
				d.fail(item, path, "add `dir: /path/to/repo`", "the project has no dir")
			}
			continue
		}
		if p.Name == "" {
			p.Name, nameNode = filepath.Base(p.Dir), item
		}
		switch {
		case dirs[p.Dir]:
			d.fail(item, path+".dir", "keep one of them", "%s is listed twice", p.Dir)
		case names[p.Name]:
			d.fail(nameNode, path+".name", "give each project its own name", "another project is named %q", p.Name)
		default:
			dirs[p.Dir], names[p.Name] = true, true
			list = append(list, p)
		}
	}
	return list
}

func checkProjectName(name string) error {
	if len(name) > MaxProjectNameLen || strings.ContainsAny(name, "\r\n") || strings.TrimSpace(name) != name {
		return fmt.Errorf("%q is not a project name", name)
	}
	return nil
}

// find returns the project ref names: its name, else its folder.
func (u *userConfig) find(ref string) (ProjectEntry, bool) {
	for _, p := range u.Projects {
		if p.Name == ref {
			return p, true
		}
	}
	if filepath.IsAbs(ref) {
		for _, p := range u.Projects {
			if p.Dir == filepath.Clean(ref) {
				return p, true
			}
		}
	}
	return ProjectEntry{}, false
}

func (u *userConfig) names() []string {
	names := make([]string, len(u.Projects))
	for i, p := range u.Projects {
		names[i] = p.Name
	}
	return names
}

// listProjects returns the projects of the user config in file order and
// the name of the current one ("" for none): what the popup offers.
func ListProjects(userFile string) ([]ProjectEntry, string, error) {
	u, err := readUserConfig(userFile)
	if err != nil {
		return nil, "", err
	}
	return u.Projects, u.Current, nil
}

// currentProject loads the project recordings go into. The error wraps
// ErrUnknownProject when the user config names none.
func CurrentProject(userFile string) (*Project, error) {
	u, err := readUserConfig(userFile)
	if err != nil {
		return nil, err
	}
	p, ok := u.find(u.Current)
	if !ok || u.Current == "" {
		return nil, fmt.Errorf("no current project in %s: %w (choose one in the popup, or run `host project use NAME`)", userFile, ErrUnknownProject)
	}
	return LoadProject(p.Dir)
}

// addProject adds the repo folder dir to the user config's projects under
// name ("" for the folder's name, made unique with -2, -3…) and returns the
// entry. dir must hold a trailpin.yaml that loads: when it has none, the
// error wraps fs.ErrNotExist (call initProject first). A folder already
// listed is returned as it is. The user config is re-read, edited in place
// (comments kept) and written atomically; it is created when missing.
func AddProject(userFile, dir, name string) (ProjectEntry, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ProjectEntry{}, fmt.Errorf("adding project %s: %w", dir, err)
	}
	if _, err := LoadProject(abs); err != nil {
		return ProjectEntry{}, fmt.Errorf("adding project %s: %w", abs, err)
	}
	if name != "" {
		if err := checkProjectName(name); err != nil {
			return ProjectEntry{}, fmt.Errorf("adding project %s: %w: use a short name on one line", abs, err)
		}
	}
	src, err := readConfigBytes(userFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src = []byte(userConfigHeader)
		if err := os.MkdirAll(filepath.Dir(userFile), userDirMode); err != nil {
			return ProjectEntry{}, fmt.Errorf("adding project %s: %w", abs, err)
		}
	case err != nil:
		return ProjectEntry{}, fmt.Errorf("adding project %s: %w", abs, err)
	}
	u, err := parseUserConfig(userFile, src)
	if err != nil {
		return ProjectEntry{}, fmt.Errorf("adding project %s: fix the user config first: %w", abs, err)
	}
	if have, ok := u.find(abs); ok {
		if name != "" && name != have.Name {
			return ProjectEntry{}, fmt.Errorf("adding project %s: it is already listed as %q in %s", abs, have.Name, userFile)
		}
		return have, nil
	}
	entry := ProjectEntry{Name: name, Dir: abs}
	if name == "" {
		entry.Name = freeProjectName(u, filepath.Base(abs))
	} else if _, taken := u.find(name); taken {
		return ProjectEntry{}, fmt.Errorf("adding project %s: another project is named %q; choose another name", abs, name)
	}
	out, err := appendSeqItem(userFile, src, "projects", []yamlLine{
		{0, "dir: " + yamlScalar(entry.Dir)},
		{1, "name: " + yamlScalar(entry.Name)},
	}, map[string]any{"dir": entry.Dir, "name": entry.Name})
	if err != nil {
		return ProjectEntry{}, fmt.Errorf("adding project %s to %s: %w", abs, userFile, err)
	}
	if err := writeUserConfig(userFile, out); err != nil {
		return ProjectEntry{}, fmt.Errorf("adding project %s: %w", abs, err)
	}
	return entry, nil
}

func freeProjectName(u *userConfig, base string) string {
	if len(base) > MaxProjectNameLen || checkProjectName(base) != nil {
		base = "project"
	}
	name := base
	for n := 2; ; n++ {
		if _, taken := u.find(name); !taken {
			return name
		}
		name = base + "-" + strconv.Itoa(n)
	}
}

// setCurrentProject makes the project ref names (its name or folder) the
// one recordings go into, and returns it. The error wraps
// ErrUnknownProject when no project matches.
func SetCurrentProject(userFile, ref string) (ProjectEntry, error) {
	src, err := readConfigBytes(userFile)
	if errors.Is(err, fs.ErrNotExist) {
		src, err = nil, nil
	}
	if err != nil {
		return ProjectEntry{}, fmt.Errorf("choosing project %q: %w", ref, err)
	}
	u, err := parseUserConfig(userFile, src)
	if err != nil {
		return ProjectEntry{}, fmt.Errorf("choosing project %q: fix the user config first: %w", ref, err)
	}
	p, ok := u.find(ref)
	if !ok {
		known := "none yet"
		if len(u.Projects) > 0 {
			known = strings.Join(u.names(), ", ")
		}
		return ProjectEntry{}, fmt.Errorf("choosing project %q: %w (projects: %s); add it with `host project add DIR`", ref, ErrUnknownProject, known)
	}
	if u.Current == p.Name {
		return p, nil
	}
	out, err := setTopScalar(userFile, src, "currentProject", p.Name)
	if err != nil {
		return ProjectEntry{}, fmt.Errorf("choosing project %q in %s: %w", ref, userFile, err)
	}
	if err := writeUserConfig(userFile, out); err != nil {
		return ProjectEntry{}, fmt.Errorf("choosing project %q: %w", ref, err)
	}
	return p, nil
}

// writeUserConfig checks an edited user config and writes it atomically.
func writeUserConfig(file string, out []byte) error {
	if _, err := parseUserConfig(file, out); err != nil {
		return fmt.Errorf("the edited user config does not load (nothing written): %w", err)
	}
	return writeConfigFile(file, out, userFileMode)
}
