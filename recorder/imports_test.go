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

// mayImport is the import rule of the whole module (docs/architecture.md):
// each package and the Trailpin packages its code may import. The recorder
// is pure and imports only downward inside recorder/, so the one matcher in
// selector is the only place selectors are evaluated. A package missing
// here fails the test until it is given its place.
var mayImport = map[string][]string{
	// The pure model.
	"recorder":                     {},
	"recorder/yamlerr":             {},
	"recorder/screen":              {},
	"recorder/selector":            {"recorder/screen", "recorder/yamlerr"},
	"recorder/screendiff":          {"recorder/screen", "recorder/selector"},
	"recorder/trail":               {"recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/yamlerr"},
	"recorder/steps":               {"recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/trail"},
	"recorder/review":              {"recorder/screen", "recorder/selector", "recorder/trail"},
	"recorder/internal/screentest": {"recorder/screen"},

	// Storage: below everything but the recorder.
	"storage/atomicfile":  {},
	"storage/redact":      {},
	"storage/secrets":     {"recorder/trail"},
	"storage":             {"recorder/screen", "recorder/trail", "storage/atomicfile", "storage/redact"},
	"storage/storagetest": {"storage"},

	// The agent: acts through its Page interface, never through a browser.
	"agent/model":           {"recorder/screen", "storage/redact"},
	"agent/model/modeltest": {},
	"agent":                 {"agent/model", "recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/trail", "replay/assertchange"},
	"agent/agenttest":       {"agent", "agent/model/modeltest", "recorder/screen"},

	// The browser and replay.
	"extension":              {},
	"browser":                {"extension", "recorder/screen", "recorder/trail"},
	"replay/diagnose":        {"recorder/screen", "recorder/selector"},
	"replay/assertchange":    {"recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/trail", "replay/diagnose"},
	"replay/heal":            {"recorder/trail", "storage/atomicfile"},
	"replay/suite/exitcode":  {},
	"replay":                 {"agent", "browser", "extension", "recorder/screen", "recorder/screendiff", "recorder/selector", "recorder/trail", "replay/assertchange", "replay/diagnose", "storage/redact"},
	"replay/report":          {"recorder/screen", "recorder/trail", "replay", "replay/assertchange", "replay/suite/exitcode", "storage/atomicfile"},
	"replay/suite":           {"agent", "agent/model", "browser", "recorder/trail", "replay", "replay/heal", "replay/report", "replay/suite/exitcode", "storage", "storage/redact"},
	"replay/suite/suitetest": {"agent", "recorder/selector", "recorder/trail", "replay"},

	// What every package's tests share.
	"e2e/browsertest": {},
	"e2e/golden":      {},

	// The host: the recording service, the configuration, the doors.
	"installer":      {"storage/atomicfile"},
	"host/nativemsg": {},
	"host/demo":      {},
	"host/config":    {"agent/model", "recorder/review", "recorder/yamlerr", "storage/atomicfile", "storage/secrets"},
	"host/recording": {"agent", "agent/model", "host/config", "recorder/review", "recorder/screen", "recorder/selector", "recorder/steps", "recorder/trail", "replay/assertchange", "storage", "storage/redact", "storage/secrets"},
	// The MCP door and the headless tab it acts in: the door feeds the
	// recording service, the tab drives Chromium through browser/; attached,
	// the door is a client of the agent API (host/agentapi, its error codes
	// from host/nativemsg).
	"host/headless": {"browser", "extension", "recorder/screen", "recorder/trail"},
	// Its browser_assert_change takes the built-in agent's expectation
	// (agent) and, headless, checks it with replay's own code.
	"host/mcp": {"agent", "host/agentapi", "host/config", "host/headless", "host/nativemsg", "host/recording", "recorder/screen", "recorder/selector", "recorder/steps", "recorder/trail", "replay/assertchange", "storage/secrets"},
	// The local agent API: a websocket door speaking the native-messaging
	// envelope (its types and error codes come from host/nativemsg).
	// It renders the snapshots the extension captures and finds refs in
	// them with the recorder's own renderer and matcher; its assertChange
	// takes the built-in agent's expectation (agent) and checks it with
	// replay's own code (replay/assertchange) into a trail's check.
	"host/agentapi": {"agent", "host/nativemsg", "recorder/screen", "recorder/selector", "recorder/trail", "replay/assertchange"},
	"host": {"agent", "agent/model", "browser", "extension", "host/agentapi", "host/config", "host/demo", "host/headless", "host/mcp", "host/nativemsg", "host/recording", "installer",
		"recorder/review", "recorder/screen", "recorder/selector", "recorder/trail", "replay", "replay/heal", "replay/report", "replay/suite", "replay/suite/exitcode",
		"storage", "storage/atomicfile", "storage/redact", "storage/secrets"},
}

// anything is the rule of the end-to-end tests and benchmarks under e2e/:
// they drive the whole product and may import any of it. e2e/browsertest
// and e2e/golden are the exceptions: every package's tests import them, so
// they import nothing of Trailpin's.
func anything(pkg string) bool {
	return (pkg == "e2e" || strings.HasPrefix(pkg, "e2e/")) && pkg != "e2e/browsertest" && pkg != "e2e/golden"
}

// testMayImport is what a test file may import besides its package's rule.
// Inside the recorder, only the recorder's screen builders and the shared
// test helpers (e2e/browsertest says what a test does without Chromium,
// e2e/golden how it compares with golden files): the model's tests stay as
// pure as the model. Elsewhere a test may put together any part of the
// product to test its own (replay's tests serve the demo shop, the agent's
// store what it healed), but never the host's main package or the e2e
// harness.
func testMayImport(pkg, imp string) bool {
	if imp == "recorder/internal/screentest" || imp == "e2e/browsertest" || imp == "e2e/golden" {
		return true
	}
	if pkg == "recorder" || strings.HasPrefix(pkg, "recorder/") {
		return false
	}
	return imp != "host" && imp != "e2e" && !strings.HasPrefix(imp, "e2e/")
}

// Packages outside the module that only some parts may import: chromedp
// drives a browser, so only the browser driver, the replay engine, the
// headless tab of the MCP door and the tests that start Chromium use it.
// The recording service, the agent and storage never do. The MCP SDK is
// the MCP door's and the host's, which starts it.
var onlyIn = map[string][]string{
	"github.com/chromedp/":                   {"browser", "replay", "host/headless", "e2e/browsertest"},
	"github.com/modelcontextprotocol/go-sdk": {"host/mcp", "host"},
}

// TestImportsFollowTheArchitecture reads the imports of every Go file of
// the module, tests included, and fails on one that breaks the rule.
func TestImportsFollowTheArchitecture(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && d.Name() != "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, err := filepath.Rel("..", path)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		test := strings.HasSuffix(path, "_test.go")
		allowed, ok := mayImport[pkg]
		if !ok && !anything(pkg) {
			t.Errorf("%s: package %s has no place in the import rule (mayImport in recorder/imports_test.go; docs/architecture.md)", rel, pkg)
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			for prefix, parts := range onlyIn {
				if strings.HasPrefix(imp, prefix) && !slices.Contains(parts, pkg) && !anything(pkg) && !test {
					t.Errorf("%s imports %s: only %v may (docs/architecture.md)", fset.Position(spec.Pos()), imp, parts)
				}
			}
			if !strings.HasPrefix(imp, module) || anything(pkg) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			ok := imp == pkg && test || slices.Contains(allowed, imp) || test && testMayImport(pkg, imp)
			if !ok {
				t.Errorf("%s imports %s: %s may import only %v (docs/architecture.md)", fset.Position(spec.Pos()), imp, pkg, allowed)
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

// TestRecorderImportsNothingAbove is the recorder's own rule, said once
// more on its own: a pure package that imported storage, replay or the
// host would drag I/O into the model.
func TestRecorderImportsNothingAbove(t *testing.T) {
	for pkg, allowed := range mayImport {
		if pkg != "recorder" && !strings.HasPrefix(pkg, "recorder/") {
			continue
		}
		for _, imp := range allowed {
			if !strings.HasPrefix(imp, "recorder/") {
				t.Errorf("the rule lets %s import %s, outside the recorder", pkg, imp)
			}
		}
	}
}
