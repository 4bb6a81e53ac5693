package recording

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/trailpin/trailpin/host/config"
)

// The popup's project messages: which repo a recording goes into and which
// of its apps the recorded origin is. Both are remembered, in the user config
// (projects, currentProject) and in the project's trailpin.yaml (apps).

// useProject makes the folder dir the current project, adding it to the
// user config when missing, and returns it loaded. create writes a starter
// trailpin.yaml into a folder without one.
func (r *Service) useProject(dir string, create bool) (*config.Project, *ProjectRef, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, nil, err
	}
	if !filepath.IsAbs(dir) {
		return nil, nil, invalid("project folder %q is not an absolute path: choose the folder again", dir)
	}
	dir = filepath.Clean(dir)
	if _, err := config.LoadProject(dir); errors.Is(err, fs.ErrNotExist) {
		if !create {
			return nil, nil, invalid("%s has no %s: send project.set with create: true to write a starter one, or run `host project init` there", dir, config.ProjectFileName)
		}
		if _, err := config.InitProject(dir); err != nil {
			return nil, nil, invalid("%v", err)
		}
	} else if err != nil {
		return nil, nil, invalid("%v", err)
	}
	entry, err := config.AddProject(cfg.UserFile, dir, "")
	if err != nil {
		return nil, nil, invalid("%v", err)
	}
	if _, err := config.SetCurrentProject(cfg.UserFile, entry.Dir); err != nil {
		return nil, nil, invalid("%v", err)
	}
	p, err := config.LoadProject(entry.Dir)
	if err != nil {
		return nil, nil, invalid("%v", err)
	}
	r.learnSecrets(p)
	r.log.Info("project chosen", "project", entry.Name)
	return p, &ProjectRef{Dir: entry.Dir, Name: entry.Name}, nil
}

// currentProject returns the user config's current project; nil without an
// error when none is chosen yet.
func (r *Service) currentProject() (*config.Project, *ProjectRef, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, nil, err
	}
	p, err := config.CurrentProject(cfg.UserFile)
	switch {
	case errors.Is(err, config.ErrUnknownProject):
		return nil, nil, nil
	case err != nil:
		return nil, nil, invalid("%v", err)
	}
	r.learnSecrets(p)
	return p, r.projectRefFor(p.Dir), nil
}

// projectRefFor names the project in dir as the user config does.
func (r *Service) projectRefFor(dir string) *ProjectRef {
	ref := &ProjectRef{Dir: dir, Name: filepath.Base(dir)}
	if r.opts.Config == nil {
		return ref
	}
	list, _, err := config.ListProjects(r.opts.Config.UserFile)
	if err != nil {
		return ref
	}
	for _, e := range list {
		if e.Dir == dir {
			ref.Name = e.Name
		}
	}
	return ref
}

// appFor is the app of p the origin maps to, nil when none.
func appFor(p *config.Project, origin string) *AppRef {
	name, ok := p.AppForOrigin(origin)
	if !ok {
		return nil
	}
	return &AppRef{Name: name, BaseURL: p.Apps[name]}
}

func appList(p *config.Project) []AppRef {
	apps := []AppRef{}
	for _, n := range p.AppNames() {
		apps = append(apps, AppRef{Name: n, BaseURL: p.Apps[n]})
	}
	return apps
}

// ProjectListIn asks for the projects of the user config (project.list).
type ProjectListIn struct{}

// ProjectListOut is the projects of the user config, in file order, and
// the current one's name ("" for none).
type ProjectListOut struct {
	Current  string       `json:"current"`
	Projects []ProjectRef `json:"projects"`
}

// ProjectList lists the projects, for the popup's project menu.
func (r *Service) ProjectList(ctx context.Context, in ProjectListIn) (_ ProjectListOut, err error) {
	defer r.explainDamage(&err)
	cfg, err := r.config()
	if err != nil {
		return ProjectListOut{}, err
	}
	list, current, err := config.ListProjects(cfg.UserFile)
	if err != nil {
		return ProjectListOut{}, invalid("%v", err)
	}
	projects := []ProjectRef{}
	for _, e := range list {
		projects = append(projects, ProjectRef{Dir: e.Dir, Name: e.Name})
	}
	return ProjectListOut{Current: current, Projects: projects}, nil
}

// ProjectSetIn names the project recordings go into (project.set).
type ProjectSetIn struct {
	Dir    string `json:"dir"`
	Create bool   `json:"create"`
	Origin string `json:"origin"`
}

// ProjectSetOut is the project chosen, its apps, and the app of the
// origin asked about (nil, with NeedsApp, when none has it).
type ProjectSetOut struct {
	App      *AppRef     `json:"app"`
	Apps     []AppRef    `json:"apps"`
	NeedsApp bool        `json:"needsApp"`
	Project  *ProjectRef `json:"project"`
}

// ProjectSet makes a folder the current project, and remembers it.
func (r *Service) ProjectSet(ctx context.Context, in ProjectSetIn) (_ ProjectSetOut, err error) {
	defer r.explainDamage(&err)
	if in.Dir == "" {
		return ProjectSetOut{}, invalid("dir is missing: send the repository folder to record into")
	}
	origin := ""
	if in.Origin != "" {
		o, err := config.OriginOf(in.Origin)
		if err != nil {
			return ProjectSetOut{}, invalid("origin: %v", err)
		}
		origin = o
	}
	p, ref, err := r.useProject(in.Dir, in.Create)
	if err != nil {
		return ProjectSetOut{}, err
	}
	out := ProjectSetOut{Project: ref, Apps: appList(p)}
	if origin != "" {
		out.App = appFor(p, origin)
		out.NeedsApp = out.App == nil
	}
	return out, nil
}

// AddAppIn maps an origin to a new app of a project (project.addApp).
type AddAppIn struct {
	Origin  string `json:"origin"`
	Name    string `json:"name"`
	Project string `json:"project"`
}

// AddAppOut is the app added and its project.
type AddAppOut struct {
	App     AppRef      `json:"app"`
	Project *ProjectRef `json:"project"`
}

// ProjectAddApp writes apps.<name>.baseURL into the project's trailpin.yaml.
func (r *Service) ProjectAddApp(ctx context.Context, in AddAppIn) (_ AddAppOut, err error) {
	defer r.explainDamage(&err)
	switch {
	case in.Origin == "":
		return AddAppOut{}, invalid("origin is missing: send the recorded page's origin")
	case in.Name == "":
		return AddAppOut{}, invalid("name is missing: ask the person for the app's name")
	}
	var (
		p   *config.Project
		ref *ProjectRef
	)
	if in.Project != "" {
		p, ref, err = r.useProject(in.Project, false)
	} else {
		p, ref, err = r.currentProject()
		if err == nil && p == nil {
			err = invalid("no project is chosen: send project.set first")
		}
	}
	if err != nil {
		return AddAppOut{}, err
	}
	origin, err := config.OriginOf(in.Origin)
	if err != nil {
		return AddAppOut{}, invalid("origin: %v", err)
	}
	if err := p.AddApp(in.Name, origin); err != nil {
		return AddAppOut{}, invalid("%v", err)
	}
	r.log.Info("app added", "project", ref.Name, "app", in.Name)
	return AddAppOut{App: AppRef{Name: in.Name, BaseURL: p.Apps[in.Name]}, Project: ref}, nil
}
