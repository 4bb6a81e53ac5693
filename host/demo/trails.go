package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Trails holds the demo's example trails (the flows of FLOWS.md as trail
// files), the file their upload step attaches, and the project config that
// names the shop. `host demo` replays them against a shop it serves.
//
//go:embed trails trailpin.yaml
var Trails embed.FS

// TrailsDir is the folder of the example trails inside Trails.
const TrailsDir = "trails"

// ConfigFile is the project config inside Trails; its apps.shop.baseURL is
// a placeholder that `host demo` replaces with the shop's address.
const ConfigFile = "trailpin.yaml"

// WriteTrails writes the example trails, and the file their upload step
// attaches, under dir/trails, so a replay can name real files and lines.
func WriteTrails(dir string) error {
	return fs.WalkDir(Trails, TrailsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(Trails, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("writing the example trail %s: %w", dst, err)
		}
		return nil
	})
}
