package replay

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// uploadFiles opens the files an upload names through the trail's folder as
// a root (os.Root), so that no path, and no symbolic link, leads out of the
// folder, whatever the trail says; and it copies each into a folder private
// to this attempt, whose paths it returns for the browser (which reads files
// by path). The browser attaches what was read through the root, not what a
// path names a moment later. A file that is missing or leads out is a
// missing-test-data failure that names the trail file and line.
func (r *trailRun) uploadFiles(files []string, line int) ([]string, error) {
	where := r.trail.File
	switch {
	case where != "" && line > 0:
		where = fmt.Sprintf("%s:%d", where, line)
	case line > 0:
		where = fmt.Sprintf("line %d", line)
	case where == "":
		where = "the trail"
	}
	root, err := os.OpenRoot(r.dir)
	if err != nil {
		return nil, &stepError{Reason: StopMissingData, Class: ClassMissingTestData, Missing: r.dir, Line: line,
			Msg: fmt.Sprintf("upload (%s): the trail's folder %s cannot be opened: %v", where, r.dir, err), Err: err}
	}
	defer root.Close()
	staged, err := r.uploadDir()
	if err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		p, err := copyFromRoot(root, filepath.FromSlash(f), filepath.Join(staged, fmt.Sprint(i)))
		if err != nil {
			full := filepath.Join(r.dir, filepath.FromSlash(f))
			msg := fmt.Sprintf("upload (%s): the file %s does not exist; put it in the trail's folder %s", where, f, r.dir)
			if !errors.Is(err, fs.ErrNotExist) {
				msg = fmt.Sprintf("upload (%s): the file %s cannot be read from the trail's folder %s (%v): "+
					"an upload attaches only files inside that folder, so put the file itself there, not a link to it, "+
					"and give its path relative to the trail", where, f, r.dir, err)
			}
			return nil, &stepError{Reason: StopMissingData, Class: ClassMissingTestData, Missing: full, Line: line, Msg: msg, Err: err}
		}
		paths[i] = p
	}
	return paths, nil
}

// uploadDir is this attempt's private folder for the files it uploads,
// made on first use and removed when the attempt ends.
func (r *trailRun) uploadDir() (string, error) {
	if r.uploads != "" {
		return r.uploads, nil
	}
	dir, err := os.MkdirTemp("", "trailpin-upload-")
	if err != nil {
		return "", err
	}
	r.uploads = dir
	r.closers = append(r.closers, func() { os.RemoveAll(dir) })
	return dir, nil
}

// copyFromRoot copies the regular file name of root into a new folder dir,
// under its own base name (the page sees the name), and returns the copy's
// absolute path.
func copyFromRoot(root *os.Root, name, dir string) (string, error) {
	src, err := root.Open(name)
	if err != nil {
		return "", err
	}
	defer src.Close()
	st, err := src.Stat()
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", name)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, filepath.Base(name))
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return "", err
	}
	if err := out.Close(); err != nil {
		return "", err
	}
	return filepath.Abs(dst)
}
