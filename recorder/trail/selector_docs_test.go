package trail

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/recorder/selector"
)

// TestSelectorDocsExamples keeps docs/selectors.md in step with the code:
// every selector in its YAML examples reads as a trail file reads it, and
// each count-tolerant pattern it shows is what the generator writes for the
// text in the comment beside it ("Review sale / 3 items").
func TestSelectorDocsExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "selectors.md"))
	if err != nil {
		t.Fatal(err)
	}
	selectors, patterns := 0, 0
	for _, block := range yamlBlock.FindAllStringSubmatch(string(doc), -1) {
		for _, line := range strings.Split(block[1], "\n") {
			line = strings.TrimSpace(line)
			switch {
			case strings.HasPrefix(line, "{"):
				if _, err := ParseSelector([]byte(line)); err != nil {
					t.Errorf("selector %s in selectors.md does not read: %v", line, err)
				}
				selectors++
			case strings.HasPrefix(line, "textRegex:"):
				entry, comment, _ := strings.Cut(line, "#")
				var got map[string]string
				if err := yaml.Unmarshal([]byte(entry), &got); err != nil {
					t.Fatalf("%s: %v", entry, err)
				}
				text := strings.ReplaceAll(strings.TrimSpace(comment), " / ", "\n")
				if _, want := selector.PinText(text); got["textRegex"] != want {
					t.Errorf("selectors.md shows %q for %q, the generator writes %q", got["textRegex"], text, want)
				}
				patterns++
			}
		}
	}
	if selectors < 2 || patterns < 2 {
		t.Errorf("found %d selectors and %d count patterns in selectors.md; the examples moved", selectors, patterns)
	}
}
