//go:build !windows

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLockFile takes f's exclusive lock if it is free; busy says another
// holds it.
func tryLockFile(f *os.File) (busy bool, err error) {
	err = flock(f, unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}

// lockFile waits for f's exclusive lock.
func lockFile(f *os.File) error { return flock(f, unix.LOCK_EX) }

func unlockFile(f *os.File) error { return flock(f, unix.LOCK_UN) }

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
