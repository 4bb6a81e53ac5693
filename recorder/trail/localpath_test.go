package trail

import "testing"

func TestCheckLocalPath(t *testing.T) {
	for p, ok := range map[string]bool{
		"note.txt": true, "files/invoice.pdf": true, "photo one.png": true, "files/./note.txt": true, "a/b/../c.txt": false,
		"../note.txt": false, "../../../../etc/passwd": false, "files/..": false, "..": false,
		"/etc/passwd": false, "//server/share/x": false,
		`C:\x`: false, "C:/x": false, "c:x": false, `files\note.txt`: false,
		"": false, ".": false, "./": false, "a\x00b": false,
	} {
		if err := CheckLocalPath(p); (err == nil) != ok {
			t.Errorf("CheckLocalPath(%q) = %v, want ok %v", p, err, ok)
		}
	}
}
