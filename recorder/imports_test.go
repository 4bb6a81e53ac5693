package recorder

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/trailpin/trailpin/"

// mayImport is the import rule of the recorder: each package and the
// Trailpin packages it may import. Imports point downward only, so the one
// matcher in selector is the only place selectors are evaluated and nothing
// low knows about what is built on it. A package missing here fails the test
// until it is given its place.
var mayImport = map[string][]string{
	"recorder":                     {},
	"recorder/yamlerr":             {},
	"recorder/screen":              {},
	"recorder/selector":            {"recorder/screen", "recorder/yamlerr"},
	"recorder/screendiff":          {"recorder/screen", "recorder/selector"},
	"recorder/trail":               {"recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/yamlerr"},
	"recorder/steps":               {"recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/trail"},
	"recorder/internal/screentest": {"recorder/screen"},
}

// testsMayImport are what tests may import besides: the screen builders,
// what a test does without a browser, and (for a package's external test)
// the package itself.
// e2e/browsertest says what a test does without Chromium, and e2e/golden how
// it compares with golden files, the same way in every package; neither
// imports anything of Trailpin's.
var testsMayImport = []string{"recorder/internal/screentest", "e2e/browsertest", "e2e/golden"}

// TestImportsPointDown reads the imports of every Go file under recorder/,
// tests included, and fails on one that breaks the rule: a package that
// imports one above it, or any Trailpin package outside the recorder.
func TestImportsPointDown(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Join("recorder", filepath.Dir(path)))
		allowed, ok := mayImport[pkg]
		if !ok {
			t.Errorf("%s: package %s has no place in the import rule (mayImport in %s)", path, pkg, "recorder/imports_test.go")
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		test := strings.HasSuffix(path, "_test.go")
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			ok := imp == pkg && test || slices.Contains(allowed, imp) || test && slices.Contains(testsMayImport, imp)
			if !ok {
				t.Errorf("%s imports %s: %s may import only %v (imports point downward, docs/architecture.md)", fset.Position(spec.Pos()), imp, pkg, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range mayImport {
		if !seen[pkg] {
			t.Errorf("the import rule names %s, which has no Go files: update mayImport", pkg)
		}
	}
}
