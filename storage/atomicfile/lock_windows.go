//go:build windows

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// lockRange is the byte range locked: the whole file, however long.
const lockRange = ^uint32(0)

// tryLockFile takes f's exclusive lock if it is free; busy says another
// holds it.
func tryLockFile(f *os.File) (busy bool, err error) {
	err = lockFileEx(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return true, nil
	}
	return false, err
}

// lockFile waits for f's exclusive lock.
func lockFile(f *os.File) error { return lockFileEx(f, windows.LOCKFILE_EXCLUSIVE_LOCK) }

func unlockFile(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, lockRange, lockRange, new(windows.Overlapped))
}

func lockFileEx(f *os.File, flags uint32) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, lockRange, lockRange, new(windows.Overlapped))
}
