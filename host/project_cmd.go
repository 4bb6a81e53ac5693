package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage/secrets"
)

func newProjectCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "project",
		Short: "Set up trailpin.yaml, and choose the projects recordings go into",
		Long: "A project is a repository folder with a trailpin.yaml (docs/config.md). The user config\n" +
			"lists the projects you record into and the current one; the popup offers the same list.",
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newProjectInitCmd(e), newProjectShowCmd(e), newProjectListCmd(e), newProjectAddCmd(e), newProjectUseCmd(e))
	return cmd
}

// userFile is the user config's path, without reading any config: the
// project commands must work even where a broken trailpin.yaml is found.
func (e *env) userFile() (string, error) { return config.UserFile(e.getenv, e.goos) }

// dirArg is the folder an optional argument names, the working directory
// by default.
func (e *env) dirArg(args []string) (string, error) {
	if len(args) > 0 {
		return filepath.Abs(args[0])
	}
	return e.getwd()
}

func newProjectInitCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Create a commented trailpin.yaml in DIR (default: the working directory)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := e.dirArg(args)
			if err != nil {
				return err
			}
			p, err := config.InitProject(dir)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "created %s\nadd your app under apps:, and `host project add %s` to record into it from the toolbar\n", p.File, p.Dir)
			return err
		},
	}
}

func newProjectShowCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "show",
		Short: "Print the configuration commands use here; secrets show as <set> or <missing>, never their values",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := e.config(cmd)
			if err != nil {
				return err
			}
			if cfg.Project == nil {
				wd, _ := e.getwd()
				return config.NoProjectError(wd)
			}
			return writeProject(e.stdout, cfg, e.getenv)
		},
	}
}

// writeProject prints the configuration in effect, each key with the
// layer that set it (default, user or project file and line, variable,
// flag). Secret values are never printed: only whether each has one, and
// from where.
func writeProject(w io.Writer, cfg *config.Config, getenv func(string) string) error {
	p := cfg.Project
	fmt.Fprintf(w, "project: %s\n", p.File)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "key\tvalue\tset by")
	for _, s := range cfg.Settings() {
		value, source := s.Value, s.Source.String()
		switch s.Key {
		case config.KeyDB:
			value = cfg.DBPath()
		case config.KeyTrailsDir:
			value = p.TrailsPath()
		case config.KeyCacheMode:
			ci := getenv("CI") != ""
			value = p.Cache.ModeFor(ci)
			if s.Source.Layer == config.LayerDefault && ci {
				source += " (CI is set)"
			}
		}
		if value == "" {
			value = "(none)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, value, source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(p.Apps) == 0 {
		fmt.Fprintln(w, "apps: none yet (the popup adds one when you record, or add apps.NAME.baseURL)")
	}
	for _, name := range p.AppNames() {
		if o := p.Origins[name]; len(o) > 0 {
			fmt.Fprintf(w, "apps.%s.origins: %s (the agent may act there too)\n", name, strings.Join(o, ", "))
		}
	}
	writeModelStatus(w, cfg, getenv)
	r := secrets.NewResolver(p.Secrets, getenv)
	tw = tabwriter.NewWriter(w, 0, 4, 1, ' ', 0)
	fmt.Fprintln(tw, "secrets:")
	for _, name := range sortedKeys(p.Secrets.Secrets) {
		writeSecretStatus(tw, r, trail.Ref{Kind: trail.RefSecret, Name: name}, name, secrets.SecretEnv(name))
	}
	fmt.Fprintln(tw, "credentials:")
	for _, user := range sortedKeys(p.Secrets.Credentials) {
		for _, field := range trail.UserFields {
			writeSecretStatus(tw, r, trail.Ref{Kind: trail.RefUser, Name: user + "." + field}, user+"."+field, secrets.UserEnv(user, field))
		}
	}
	return tw.Flush()
}

// writeModelStatus says which model the agent would call and whether its
// key's variable is set; never the key.
func writeModelStatus(w io.Writer, cfg *config.Config, getenv func(string) string) {
	m, err := cfg.Model()
	if err == nil && m.InsecureNotice() != "" {
		m.BaseURL += " over plain http (model.allowInsecureHTTP: true)"
	}
	switch {
	case err != nil:
		fmt.Fprintf(w, "model: cannot be used: %v\n", err)
	case !m.Configured():
		fmt.Fprintln(w, "model: none (a step that no longer replays is not healed; see docs/agent.md)")
	case m.APIKeyEnv == "":
		fmt.Fprintf(w, "model: %s at %s, no API key\n", m.Name, m.BaseURL)
	case getenv(m.APIKeyEnv) == "":
		fmt.Fprintf(w, "model: %s at %s, key in $%s: <missing> (set %s)\n", m.Name, m.BaseURL, m.APIKeyEnv, m.APIKeyEnv)
	default:
		fmt.Fprintf(w, "model: %s at %s, key in $%s: <set>\n", m.Name, m.BaseURL, m.APIKeyEnv)
	}
}

func writeSecretStatus(w io.Writer, r *secrets.Resolver, ref trail.Ref, label, env string) {
	src := r.SourceOf(ref)
	if src == secrets.Missing {
		fmt.Fprintf(w, "  %s:\t%s (set %s)\n", label, src, env)
		return
	}
	fmt.Fprintf(w, "  %s:\t%s\n", label, src)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func newProjectListCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the projects you record into; * marks the current one",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			file, err := e.userFile()
			if err != nil {
				return err
			}
			list, current, err := config.ListProjects(file)
			if err != nil {
				return err
			}
			if len(list) == 0 {
				_, err := fmt.Fprintln(e.stdout, "no projects yet: `host project add DIR` adds a repository folder with a trailpin.yaml")
				return err
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			for _, p := range list {
				mark := " "
				if p.Name == current {
					mark = "*"
				}
				fmt.Fprintf(tw, "%s %s\t%s\n", mark, cell(p.Name, config.MaxProjectNameLen), p.Dir)
			}
			return tw.Flush()
		},
	}
}

func newProjectAddCmd(e *env) *cobra.Command {
	var name string
	var use bool
	cmd := &cobra.Command{
		Use:   "add [DIR] [--name NAME] [--use]",
		Short: "Add a repository folder with a trailpin.yaml to the projects you record into",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := e.dirArg(args)
			if err != nil {
				return err
			}
			file, err := e.userFile()
			if err != nil {
				return err
			}
			p, err := config.AddProject(file, dir, name)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "project %s: %s\n", p.Name, p.Dir)
			if use {
				if _, err := config.SetCurrentProject(file, p.Name); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "recordings now go into %s\n", p.Name)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the name the popup shows (default: the folder's name)")
	cmd.Flags().BoolVar(&use, "use", false, "also make it the project recordings go into")
	return cmd
}

func newProjectUseCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "use NAME|DIR",
		Short: "Choose the project recordings go into",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file, err := e.userFile()
			if err != nil {
				return err
			}
			// A name first; else a folder, as given relative to here.
			p, err := config.SetCurrentProject(file, args[0])
			if errors.Is(err, config.ErrUnknownProject) {
				if abs, aerr := filepath.Abs(args[0]); aerr == nil && abs != args[0] {
					if st, serr := os.Stat(abs); serr == nil && st.IsDir() {
						p, err = config.SetCurrentProject(file, abs)
					}
				}
			}
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(e.stdout, "recordings now go into %s (%s)\n", p.Name, p.Dir)
			return err
		},
	}
}
