package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// rename is os.Rename; a test replaces it to see what a failed rename leaves,
// which folder permissions cannot show when the tests run as root.
var rename = os.Rename

// WriteFile replaces name with data. An existing file keeps its
// permissions; a new one gets perm. A name that exists and is not a
// regular file (a folder, a device) is refused and left alone. The folder
// must exist. A symbolic link at name is replaced by the new file; a
// caller that wants to write through the link resolves it first.
func WriteFile(name string, data []byte, perm fs.FileMode) (err error) {
	if fi, statErr := os.Stat(name); statErr == nil {
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("writing %s: not a regular file", name)
		}
		perm = fi.Mode().Perm()
	}
	tmp, err := writeTemp(name, data, perm)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err = rename(tmp, name); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	syncDir(filepath.Dir(name))
	return nil
}

// Create writes data to a new file name with permissions perm, and refuses
// with an error wrapping fs.ErrExist when name exists, whatever it is: it
// never replaces anything. Like WriteFile, a reader never sees part of the
// content.
func Create(name string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(name, data, perm)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	defer os.Remove(tmp)
	// A hard link fails when name exists, where a rename would replace it.
	if err := os.Link(tmp, name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("creating %s: %w", name, fs.ErrExist)
		}
		// Some file systems have no hard links: create exclusively instead,
		// which still refuses an existing name but may show a short file
		// to a reader while it is written.
		if err := createExclusive(name, data, perm); err != nil {
			return fmt.Errorf("creating %s: %w", name, err)
		}
	}
	syncDir(filepath.Dir(name))
	return nil
}

// writeTemp writes data, synced, to a new temporary file beside name and
// returns its path. On error nothing is left behind.
func writeTemp(name string, data []byte, perm fs.FileMode) (path string, err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return "", err
	}
	if err = f.Chmod(perm); err != nil {
		return "", err
	}
	if err = f.Sync(); err != nil {
		return "", err
	}
	if err = f.Close(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

func createExclusive(name string, data []byte, perm fs.FileMode) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}
