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

// TestPageModelFiles checks the order pagemodel-files.js gives: every file of
// pagemodel/ in it once, the namespace's maker first and the API last.
func TestPageModelFiles(t *testing.T) {
	names := PageModelFiles()
	all, err := fs.Glob(files, "pagemodel/*.js")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(all) {
		t.Errorf("PageModelFiles() = %q, want every file of %q", names, all)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("PageModelFiles() lists %s twice", n)
		}
		seen[n] = true
	}
	for _, n := range all {
		if !seen[n] {
			t.Errorf("%s is not in pagemodel-files.js, so neither the extension nor replay loads it", n)
		}
	}
	if len(names) < 2 || names[0] != "pagemodel/core.js" || names[len(names)-1] != "pagemodel/api.js" {
		t.Errorf("PageModelFiles() = %q, want pagemodel/core.js first and pagemodel/api.js last", names)
	}
	src := PageModel()
	for _, n := range names {
		b, _ := fs.ReadFile(files, n)
		if !strings.Contains(src, string(b)) {
			t.Errorf("PageModel() does not hold %s", n)
		}
	}
}
