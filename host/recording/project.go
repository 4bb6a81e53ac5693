package main

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/nativemsg"
)

// The popup's project messages: which repo a recording goes into and which
// of its apps the recorded origin is. Both are remembered, in the user config
// (projects, currentProject) and in the project's trailpin.yaml (apps).

// useProject makes the folder dir the current project, adding it to the
// user config when missing, and returns it loaded. create writes a starter
// trailpin.yaml into a folder without one.
func (r *recording) useProject(dir string, create bool) (*config.Project, *projectRef, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, nil, err
	}
	if !filepath.IsAbs(dir) {
		return nil, nil, badRequest("project folder %q is not an absolute path: choose the folder again", dir)
	}
	dir = filepath.Clean(dir)
	if _, err := config.LoadProject(dir); errors.Is(err, fs.ErrNotExist) {
		if !create {
			return nil, nil, badRequest("%s has no %s: send project.set with create: true to write a starter one, or run `host project init` there", dir, config.ProjectFileName)
		}
		if _, err := config.InitProject(dir); err != nil {
			return nil, nil, badRequest("%v", err)
		}
	} else if err != nil {
		return nil, nil, badRequest("%v", err)
	}
	entry, err := config.AddProject(cfg.UserFile, dir, "")
	if err != nil {
		return nil, nil, badRequest("%v", err)
	}
	if _, err := config.SetCurrentProject(cfg.UserFile, entry.Dir); err != nil {
		return nil, nil, badRequest("%v", err)
	}
	p, err := config.LoadProject(entry.Dir)
	if err != nil {
		return nil, nil, badRequest("%v", err)
	}
	r.learnSecrets(p)
	r.s.Log.Info("project chosen", "project", entry.Name)
	return p, &projectRef{Dir: entry.Dir, Name: entry.Name}, nil
}

// currentProject returns the user config's current project; nil without an
// error when none is chosen yet.
func (r *recording) currentProject() (*config.Project, *projectRef, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, nil, err
	}
	p, err := config.CurrentProject(cfg.UserFile)
	switch {
	case errors.Is(err, config.ErrUnknownProject):
		return nil, nil, nil
	case err != nil:
		return nil, nil, badRequest("%v", err)
	}
	r.learnSecrets(p)
	return p, r.projectRefFor(p.Dir), nil
}

// projectRefFor names the project in dir as the user config does.
func (r *recording) projectRefFor(dir string) *projectRef {
	ref := &projectRef{Dir: dir, Name: filepath.Base(dir)}
	if r.s.Config == nil {
		return ref
	}
	list, _, err := config.ListProjects(r.s.Config.UserFile)
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
func appFor(p *config.Project, origin string) *appRef {
	name, ok := p.AppForOrigin(origin)
	if !ok {
		return nil
	}
	return &appRef{Name: name, BaseURL: p.Apps[name]}
}

func appList(p *config.Project) []appRef {
	apps := []appRef{}
	for _, n := range p.AppNames() {
		apps = append(apps, appRef{Name: n, BaseURL: p.Apps[n]})
	}
	return apps
}

func (r *recording) projectList(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	cfg, err := r.config()
	if err != nil {
		return nativemsg.Reply{}, err
	}
	list, current, err := config.ListProjects(cfg.UserFile)
	if err != nil {
		return nativemsg.Reply{}, badRequest("%v", err)
	}
	projects := []projectRef{}
	for _, e := range list {
		projects = append(projects, projectRef{Dir: e.Dir, Name: e.Name})
	}
	return nativemsg.Reply{Body: map[string]any{"projects": projects, "current": current}}, nil
}

type projectSetRequest struct {
	Dir    string `json:"dir"`
	Create bool   `json:"create"`
	Origin string `json:"origin"`
}

func (r *recording) projectSet(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in projectSetRequest
	if err := req.Decode(&in); err != nil {
		return nativemsg.Reply{}, err
	}
	if in.Dir == "" {
		return nativemsg.Reply{}, badRequest("dir is missing: send the repository folder to record into")
	}
	origin := ""
	if in.Origin != "" {
		o, err := config.OriginOf(in.Origin)
		if err != nil {
			return nativemsg.Reply{}, badRequest("origin: %v", err)
		}
		origin = o
	}
	p, ref, err := r.useProject(in.Dir, in.Create)
	if err != nil {
		return nativemsg.Reply{}, err
	}
	body := map[string]any{"project": ref, "apps": appList(p), "app": nil, "needsApp": false}
	if origin != "" {
		app := appFor(p, origin)
		body["app"], body["needsApp"] = app, app == nil
	}
	return nativemsg.Reply{Body: body}, nil
}

type addAppRequest struct {
	Origin  string `json:"origin"`
	Name    string `json:"name"`
	Project string `json:"project"`
}

func (r *recording) projectAddApp(ctx context.Context, req *nativemsg.Request) (nativemsg.Reply, error) {
	var in addAppRequest
	if err := req.Decode(&in); err != nil {
		return nativemsg.Reply{}, err
	}
	switch {
	case in.Origin == "":
		return nativemsg.Reply{}, badRequest("origin is missing: send the recorded page's origin")
	case in.Name == "":
		return nativemsg.Reply{}, badRequest("name is missing: ask the person for the app's name")
	}
	var (
		p   *config.Project
		ref *projectRef
		err error
	)
	if in.Project != "" {
		p, ref, err = r.useProject(in.Project, false)
	} else {
		p, ref, err = r.currentProject()
		if err == nil && p == nil {
			err = badRequest("no project is chosen: send project.set first")
		}
	}
	if err != nil {
		return nativemsg.Reply{}, err
	}
	origin, err := config.OriginOf(in.Origin)
	if err != nil {
		return nativemsg.Reply{}, badRequest("origin: %v", err)
	}
	if err := p.AddApp(in.Name, origin); err != nil {
		return nativemsg.Reply{}, badRequest("%v", err)
	}
	r.s.Log.Info("app added", "project", ref.Name, "app", in.Name)
	return nativemsg.Reply{Body: map[string]any{"project": ref, "app": appRef{Name: in.Name, BaseURL: p.Apps[in.Name]}}}, nil
}
