package trail

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// TestDocsExamplesLoad loads every YAML example in docs/trail-format.md, so
// the documentation cannot drift from the loader: whole trails load as
// they are, lists of actions load inside a trail, and the legacy example is
// refused with how to migrate.
func TestDocsExamplesLoad(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "trail-format.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := yamlBlock.FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 15 {
		t.Fatalf("found %d YAML examples in trail-format.md, expected one per action at least", len(blocks))
	}
	for i, b := range blocks {
		example := b[1]
		switch {
		case strings.HasPrefix(example, "#"):
			continue
		case strings.HasPrefix(example, "version:"):
			if _, err := LoadTrail("trail-format.md", []byte(example)); err != nil {
				t.Errorf("example %d does not load:\n%v\n%s", i+1, err, example)
			}
			continue
		}
		wrapped := "version: 1\ntrail: Example\napp: shop\nstart: /\nparams: {coupon: SUMMER, order: \"1\"}\nsteps:\n  - intent: Example\n    actions:\n" +
			indentLines(example, "      ")
		_, err := LoadTrail("trail-format.md", []byte(wrapped))
		if strings.Contains(example, "expectedText") {
			if !errors.Is(err, ErrLegacyText) {
				t.Errorf("legacy example %d loads without the migration error: %v", i+1, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("example %d does not load inside a trail:\n%v\n%s", i+1, err, example)
		}
	}
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}
