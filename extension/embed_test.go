package extension

import (
	"io/fs"
	"strings"
	"testing"
)

func TestID(t *testing.T) {
	id, err := ID()
	if err != nil {
		t.Fatal(err)
	}
	const want = "fjmncidonfkcepgogieobgonbpmpilie"
	if id != want {
		t.Errorf("ID() = %q, want %q", id, want)
	}
}

// TestScriptLists checks the orders pagemodel-files.js and content-files.js
// give: every file of the folder in it once, the namespace's maker first and
// the API last, and the one script holds them all.
func TestScriptLists(t *testing.T) {
	for _, c := range []struct {
		list, folder string
		names        []string
		src          string
	}{
		{"pagemodel-files.js", "pagemodel", PageModelFiles(), PageModel()},
		{"content-files.js", "content", RecorderFiles(), Recorder()},
	} {
		t.Run(c.folder, func(t *testing.T) {
			names := c.names
			all, err := fs.Glob(files, c.folder+"/*.js")
			if err != nil {
				t.Fatal(err)
			}
			if len(names) != len(all) {
				t.Errorf("%s lists %q, want every file of %q", c.list, names, all)
			}
			seen := map[string]bool{}
			for _, n := range names {
				if seen[n] {
					t.Errorf("%s lists %s twice", c.list, n)
				}
				seen[n] = true
			}
			for _, n := range all {
				if !seen[n] {
					t.Errorf("%s is not in %s, so it is never loaded", n, c.list)
				}
			}
			first, last := c.folder+"/core.js", c.folder+"/api.js"
			if len(names) < 2 || names[0] != first || names[len(names)-1] != last {
				t.Errorf("%s lists %q, want %s first and %s last", c.list, names, first, last)
			}
			for _, n := range names {
				b, _ := fs.ReadFile(files, n)
				if !strings.Contains(c.src, string(b)) {
					t.Errorf("the script of %s does not hold %s", c.list, n)
				}
			}
		})
	}
}
