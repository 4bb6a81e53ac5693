package trail

import (
	"fmt"
	"path"
	"strings"
)

// CheckLocalPath says why p, a path a trail names (an upload's file), is
// not a path inside the trail's folder; nil when it is. Such a path is
// relative, written with forward slashes, and stays in the folder on every
// operating system: no "..", no absolute or drive path (C:\x, C:x, //host),
// no backslash, nothing empty. Replay opens it through the folder as a root
// as well, which refuses a symbolic link out of it; this rule says so at
// load time, with the line.
func CheckLocalPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("the path is empty")
	case strings.ContainsRune(p, '\\'):
		return fmt.Errorf("file %q has a backslash", p)
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("file %q is an absolute path", p)
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]):
		return fmt.Errorf("file %q is a drive path", p)
	case strings.ContainsRune(p, 0) || strings.ContainsAny(p, "\r\n"):
		return fmt.Errorf("file %q has a control character", p)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return fmt.Errorf("file %q goes up out of the trail's folder (..)", p)
		}
	}
	if c := path.Clean(p); c == "." {
		return fmt.Errorf("file %q names the trail's folder itself, not a file in it", p)
	}
	return nil
}

func isASCIILetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }
