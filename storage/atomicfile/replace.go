package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrChanged is wrapped by ReplaceIfUnchanged when the file no longer holds
// what its caller read: another writer (a second run, an editor) saved it
// in between. Nothing is written; the caller reads the file again and
// redoes its change, or says so.
var ErrChanged = errors.New("changed since it was read")

// Test hooks, nil outside tests. beforeRename runs once the file is found
// unchanged and the new content is ready, just before the rename;
// lockWaiting runs when the file's lock is held by another writer, before
// waiting for it.
var (
	beforeRename func(target string, data []byte)
	lockWaiting  func(target string)
)

// Target is the file a write to name lands in: name with its symbolic links
// followed, so that a file a person keeps as a link (into a dotfiles or a
// shared repository) stays a link and its target gets the new content. A
// name that does not resolve (missing, a dangling link) is name itself.
func Target(name string) string {
	if resolved, err := filepath.EvalSymlinks(name); err == nil {
		return resolved
	}
	return name
}

// WriteThrough is WriteFile to Target(name): a symbolic link at name is
// kept and the file it points to is replaced.
func WriteThrough(name string, data []byte, perm fs.FileMode) error {
	return WriteFile(Target(name), data, perm)
}

// ReplaceIfUnchanged replaces the file at name (through symbolic links, see
// Target) with data, but only while it still holds old, the bytes its
// caller read: at the moment of writing, under the file's lock, the file is
// read again and compared, and the new content is renamed over it only
// when they are equal. Otherwise nothing is written and the error wraps
// ErrChanged (also when the file is gone). The file keeps its permissions.
//
// Every writer through ReplaceIfUnchanged takes the same lock, so two of
// them cannot both find the file unchanged and one lose the other's write.
// An editor does not take it; its save is seen unless it lands in the
// instant between the comparison and the rename.
func ReplaceIfUnchanged(name string, old, data []byte, perm fs.FileMode) error {
	target := Target(name)
	unlock, err := lock(target)
	if err != nil {
		return fmt.Errorf("writing %s: taking its lock: %w", name, err)
	}
	defer unlock()
	now, err := os.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("writing %s: %w (it no longer exists)", name, ErrChanged)
	case err != nil:
		return fmt.Errorf("writing %s: %w", name, err)
	case !bytes.Equal(now, old):
		return fmt.Errorf("writing %s: %w", name, ErrChanged)
	}
	if beforeRename != nil {
		beforeRename(target, data)
	}
	return WriteFile(target, data, perm)
}

// lock takes the exclusive lock of the file target: an advisory lock on
// a lock file beside it (".<name>.lock"), released by the returned func,
// which also removes the lock file so that none is left in the person's
// folder. The holder removes it while it still holds the lock, so a writer
// that was waiting on the removed file checks, once it has the lock, that
// its file is still the one at the lock's path, and starts again if not.
func lock(target string) (unlock func(), err error) {
	path := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".lock")
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		busy, err := tryLockFile(f)
		if err == nil && busy {
			if lockWaiting != nil {
				lockWaiting(target)
			}
			err = lockFile(f)
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		held, herr := f.Stat()
		atPath, perr := os.Stat(path)
		if herr == nil && perr == nil && os.SameFile(held, atPath) {
			return func() {
				// Best effort: where an open file cannot be removed
				// (Windows), the next writer locks the same file.
				_ = os.Remove(path)
				_ = unlockFile(f)
				f.Close()
			}, nil
		}
		_ = unlockFile(f)
		f.Close()
	}
}
