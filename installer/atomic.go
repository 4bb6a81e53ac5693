package installer

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/trailpin/trailpin/storage/atomicfile"
)

// writeManifestFile writes a manifest to name atomically (see atomicfile),
// creating its folder first: a browser's NativeMessagingHosts folder often
// does not exist until a host is installed.
func writeManifestFile(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	return atomicfile.WriteFile(name, data, 0o644)
}
