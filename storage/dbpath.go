package storage

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// DefaultPath is where the database lives unless configuration or --db says
// otherwise: trailpin/trailpin.db in the user's data directory
// ($XDG_DATA_HOME, else ~/.local/share; ~/Library/Application Support on
// macOS; %LocalAppData% on Windows).
func DefaultPath() (string, error) {
	home, _ := os.UserHomeDir()
	return defaultPath(runtime.GOOS, os.Getenv, home)
}

func defaultPath(goos string, getenv func(string) string, home string) (string, error) {
	const rel = "trailpin/trailpin.db"
	if dir := getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
		// The XDG spec says a relative value is invalid and must be ignored.
		return filepath.Join(dir, filepath.FromSlash(rel)), nil
	}
	if goos == "windows" {
		if dir := getenv("LocalAppData"); dir != "" {
			return filepath.Join(dir, filepath.FromSlash(rel)), nil
		}
	}
	if home == "" {
		return "", errors.New("finding the default database: no home directory; set XDG_DATA_HOME or pass --db")
	}
	switch goos {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", filepath.FromSlash(rel)), nil
	case "windows":
		return filepath.Join(home, "AppData", "Local", filepath.FromSlash(rel)), nil
	}
	return filepath.Join(home, ".local", "share", filepath.FromSlash(rel)), nil
}
