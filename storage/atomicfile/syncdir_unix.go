//go:build !windows

package atomicfile

import "os"

// syncDir makes a rename in dir durable. It is best effort: by the time it
// runs the new content is in place and synced, and some file systems (NFS,
// FUSE) refuse to sync a folder, which must not fail a write that readers
// already see.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
