package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// projectStarter is the trailpin.yaml initProject writes: every key, with
// what it means, commented out where the default is right for most.
//
//go:embed starter.yaml
var projectStarter []byte

// ErrNotAFolder is wrapped when a project folder is not a folder.
var ErrNotAFolder = errors.New("not a folder")

// initProject creates dir/trailpin.yaml with the commented starter config
// and returns it loaded: what the recording host calls when the person
// names a folder without one. dir must exist. An existing trailpin.yaml is
// never replaced: the error wraps fs.ErrExist (call loadProject instead).
func InitProject(dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("creating a project in %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("creating a project: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("creating a project in %s: %w", abs, ErrNotAFolder)
	}
	file := filepath.Join(abs, ProjectFileName)
	if err := createConfigFile(file, projectStarter, projectFileMode); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("creating a project in %s: %s %w", abs, ProjectFileName, fs.ErrExist)
		}
		return nil, fmt.Errorf("creating a project: %w", err)
	}
	return LoadProject(abs)
}
