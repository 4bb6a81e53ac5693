//go:build windows

package atomicfile

// syncDir does nothing on Windows: a folder cannot be opened for syncing
// there, and a rename (MoveFileEx) is durable without it.
func syncDir(string) {}
