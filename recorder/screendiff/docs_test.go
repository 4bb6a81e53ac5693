package screendiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// docs/screen-diffs.md lists every kind and field, and the thresholds with
// their values: a kind or a threshold changed here must be changed there.
func TestDocsListKindsFieldsAndThresholds(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "screen-diffs.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	row := func(key string) string {
		for _, line := range strings.Split(doc, "\n") {
			if strings.HasPrefix(line, "| `"+key+"` |") {
				return line
			}
		}
		return ""
	}
	for _, k := range Kinds() {
		if row(string(k)) == "" {
			t.Errorf("docs/screen-diffs.md has no row for the kind %s", k)
		}
	}
	for kind, fields := range map[Kind][]string{Content: ContentFields, State: StateFields, Style: StyleFields} {
		line := row(string(kind))
		for _, f := range fields {
			if !strings.Contains(line, "`"+f+"`") {
				t.Errorf("docs/screen-diffs.md: the %s row does not name the field %s", kind, f)
			}
		}
	}
	for name, v := range map[string]float64{"MinMove": MinMove, "MinResize": MinResize} {
		want := fmt.Sprintf("| `%s` | %s px", name, strconv.FormatFloat(v, 'f', -1, 64))
		if !strings.HasPrefix(row(name), want) {
			t.Errorf("docs/screen-diffs.md: the %s row should start %q, it reads %q", name, want, row(name))
		}
	}
}
