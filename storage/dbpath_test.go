package storage

import (
	"path/filepath"
	"testing"
)

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		name string
		goos string
		env  map[string]string
		home string
		want string
	}{
		{"XDG_DATA_HOME", "linux", map[string]string{"XDG_DATA_HOME": "/data"}, "/home/ana", "/data/trailpin/trailpin.db"},
		{"relative XDG_DATA_HOME is ignored", "linux", map[string]string{"XDG_DATA_HOME": "data"}, "/home/ana", "/home/ana/.local/share/trailpin/trailpin.db"},
		{"linux", "linux", nil, "/home/ana", "/home/ana/.local/share/trailpin/trailpin.db"},
		{"macOS", "darwin", nil, "/Users/ana", "/Users/ana/Library/Application Support/trailpin/trailpin.db"},
		{"XDG_DATA_HOME on macOS", "darwin", map[string]string{"XDG_DATA_HOME": "/data"}, "/Users/ana", "/data/trailpin/trailpin.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := defaultPath(tt.goos, func(k string) string { return tt.env[k] }, tt.home)
			if err != nil || got != filepath.FromSlash(tt.want) {
				t.Errorf("defaultPath(%s) = %q, %v; want %q", tt.goos, got, err, tt.want)
			}
		})
	}
	if _, err := defaultPath("linux", func(string) string { return "" }, ""); err == nil {
		t.Errorf("defaultPath without a home = nil error, want one saying to pass --db")
	}
}
