package trail

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// schemaPath is the JSON Schema editors use for trail files.
var schemaPath = filepath.Join("..", "..", "docs", "trail.schema.json")

// loaderOnlyRules are the bad trails the schema accepts on purpose: rules
// JSON Schema cannot state (or that editors' regex engines would read
// differently), which the loader enforces. Each must stay accepted by the
// schema, so this list cannot hide drift.
var loaderOnlyRules = map[string]string{
	"aliases.yaml":       "anchors and aliases are resolved before a schema sees the document",
	"bad-regex.yaml":     "whether a pattern compiles as RE2 is not a schema check",
	"references.yaml":    "${…} syntax, declared params and where secrets may appear",
	"two-documents.yaml": "a schema sees one document",
}

func compileTrailSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("%s is not JSON: %v", schemaPath, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("trail.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("trail.schema.json")
	if err != nil {
		t.Fatalf("compiling %s: %v", schemaPath, err)
	}
	return s
}

// schemaInstance turns YAML into the JSON value an editor validates.
func schemaInstance(src []byte) (any, error) {
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, err
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(j))
}

// TestSchemaAcceptsWhatTheLoaderAccepts validates against the schema every
// trail the loader accepts: the testdata trails, their written forms, the
// migrated legacy files and many generated trails.
func TestSchemaAcceptsWhatTheLoaderAccepts(t *testing.T) {
	schema := compileTrailSchema(t)
	check := func(name string, src []byte) {
		t.Helper()
		if _, err := LoadTrail(name, src); err != nil {
			t.Fatalf("LoadTrail(%s): %v", name, err)
		}
		inst, err := schemaInstance(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("schema refuses %s, which the loader accepts:\n%v\n%s", name, err, src)
		}
	}
	var files []string
	for _, pattern := range []string{"*.yaml", "legacy/*.migrated.yaml"} {
		m, _ := filepath.Glob(filepath.Join("testdata", "trails", pattern))
		files = append(files, m...)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		check(file, src)
	}
	g := trailGen{rand.New(rand.NewPCG(3, 4))}
	for i := range 200 {
		out, err := MarshalTrail(g.trail(i))
		if err != nil {
			t.Fatal(err)
		}
		check("generated", out)
	}
}

// TestSchemaRefusesWhatTheLoaderRefuses validates every bad trail: the
// schema must refuse it too, unless it breaks one of the loaderOnlyRules.
func TestSchemaRefusesWhatTheLoaderRefuses(t *testing.T) {
	schema := compileTrailSchema(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "trails", "bad", "*.yaml"))
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := schemaInstance(src)
			refused := err != nil || schema.Validate(inst) != nil
			_, onlyLoader := loaderOnlyRules[name]
			switch {
			case onlyLoader && refused:
				t.Errorf("the schema now refuses %s: remove it from loaderOnlyRules", name)
			case !onlyLoader && !refused:
				t.Errorf("the schema accepts %s, which the loader refuses:\n%s", name, strings.TrimSpace(string(src)))
			}
		})
	}
}

// singleProblems are one-line actions that each break exactly one rule.
// Loader and schema must both refuse each, so the schema keeps up with
// every rule one at a time, not just one per bad file.
var singleProblems = []string{
	`- tap: {selector: {role: button, nmae: Save}}`,
	`- tap: {selecter: {role: button}}`,
	`- click: {selector: {role: button}}`,
	`- {tap: {selector: {role: button}}, hover: {selector: {role: button}}}`,
	`- {}`,
	`- tap: {selector: {}}`,
	`- tap: {selector: {index: 1}}`,
	`- tap: {selector: {role: button, index: -1}}`,
	`- tap: {selector: {role: buton}}`,
	`- tap: {selector: {role: button, name: ""}}`,
	`- tap: {selector: {text: a, textRegex: b}}`,
	`- tap: {selector: {role: button}, count: 0}`,
	`- tap: {selector: {role: button}, modifiers: [Ctrl]}`,
	`- tap: {selector: {role: button}, modifiers: [Shift, Shift]}`,
	`- tap: {selector: {role: button}, button: left-ish}`,
	`- tap: {selector: {role: button, within: {}}}`,
	`- tap: {}`,
	`- type: {selector: {role: textbox}}`,
	`- type: {selector: {role: textbox}, text: [a]}`,
	`- press: {key: Esc}`,
	`- press: {}`,
	`- select: {selector: {role: combobox}}`,
	`- select: {selector: {role: combobox}, option: a, options: [b]}`,
	`- select: {selector: {role: combobox}, options: []}`,
	`- upload: {selector: {label: F}, files: [/etc/passwd]}`,
	`- upload: {selector: {label: F}, files: ['a\\b.pdf']}`,
	`- upload: {selector: {label: F}, files: ['C:x.pdf']}`,
	`- upload: {selector: {label: F}}`,
	`- dialog: {response: dismiss, promptText: x}`,
	`- dialog: {response: maybe}`,
	`- switchTab: {url: /a, title: A}`,
	`- switchTab: {}`,
	`- navigate: checkout`,
	`- navigate: https://shop.example/x`,
	`- navigate: //cdn.example/x`,
	`- navigate: /a b`,
	`- navigate: {url: /x}`,
	`- assertVisible: {selector: {id: t}, expectedText: x}`,
	`- assertNotVisible: {text: ""}`,
	`- assertValue: {selector: {role: textbox}}`,
	`- assertState: {selector: {role: checkbox}}`,
	`- assertState: {selector: {role: checkbox}, checked: true, disabled: false}`,
	`- assertState: {selector: {role: button}, disabled: mixed}`,
	`- assertUrl: {}`,
	`- assertUrl: {url: /a, pattern: b}`,
	`- assertChange: {}`,
	`- assertChange: {changed: true, settleMs: 5}`,
	`- assertChange: {maxChanges: -1}`,
	`- assertChange: {mustInclude: [{}]}`,
	`- assertChange: {mustInclude: [{change: appeared}]}`,
	`- assertChange: {becameVisible: []}`,
	`- assertChange: {exists: [{role: menu}], retry: 2000}`,
	`- assertChange: {exists: [{role: menu}], retry: {budgetMs: 0}}`,
	`- assertChange: {exists: [{role: menu}], retry: {budgetMs: 60001}}`,
	`- assertChange: {exists: [{role: menu}], retry: {timeout: 2s}}`,
	`- assertChange: {exists: [{role: menu}], retry: {}}`,
	`- assertChange: {changed: true, keepBaseline: false}`,
	`- assertChange: {changed: true, ignore: [{role: timer}]}`,
	`- assertChange: {diffId: d1}`,
	`- assertChange: {settleMs: 100, retry: {budgetMs: 500}}`,
	`- assertChange: {keepBaseline: true}`,
	`- assertChange: {changed: true, diffId: x1}`,
	`- assertChange: {changed: true, diffId: d0}`,
	`- assertChange: {mustInclude: [{change: added, to: {expanded: true}}]}`,
	`- assertChange: {mustInclude: [{change: state, to: {visible: true}}]}`,
	`- assertChange: {mustInclude: [{change: style, to: {expanded: true}}]}`,
	`- assertChange: {mustInclude: [{to: {expandd: true}}]}`,
	`- assertChange: {mustInclude: [{to: {}}]}`,
	`- assertChange: {mustInclude: [{to: {expanded: maybe}}]}`,
	`- assertChange: {mustInclude: [{to: {expanded: mixed}}]}`,
	`- assertChange: {mustInclude: [{to: {level: 0}}]}`,
	`- assertChange: {mustInclude: [{change: state, selector: {role: button}, to: true}]}`,
	`- assertChange: {only: [{change: replaced}]}`,
}

func TestSchemaAndLoaderRefuseEachSingleProblem(t *testing.T) {
	schema := compileTrailSchema(t)
	for _, action := range singleProblems {
		t.Run(action, func(t *testing.T) {
			src := []byte("version: 1\ntrail: One problem\napp: shop\nstart: /\nsteps:\n  - intent: x\n    actions:\n      " + action + "\n")
			if _, err := LoadTrail("one.trail.yaml", src); err == nil {
				t.Errorf("LoadTrail accepts %s", action)
			}
			inst, err := schemaInstance(src)
			if err != nil {
				t.Fatalf("%s is not YAML: %v", action, err)
			}
			if schema.Validate(inst) == nil {
				t.Errorf("the schema accepts %s", action)
			}
		})
	}
	for _, top := range []string{
		"version: 2\n", "version: 1\nviewpoint: {width: 1, height: 1}\n", "version: 1\nviewport: {width: 0, height: 1}\n",
		"version: 1\nlocale: english\n", "version: 1\ntimeZone: Europe Berlin\n", "version: 1\napp: http://x\n",
		"version: 1\nparams: {'bad name': x}\n",
	} {
		src := []byte(top + "trail: T\nstart: /\nsteps:\n  - intent: x\n    act: y\n")
		if !strings.Contains(top, "app:") {
			src = append([]byte("app: shop\n"), src...)
		}
		if _, err := LoadTrail("top.trail.yaml", src); err == nil {
			t.Errorf("LoadTrail accepts %q", src)
		}
		inst, _ := schemaInstance(src)
		if schema.Validate(inst) == nil {
			t.Errorf("the schema accepts %q", src)
		}
	}
}
