package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigDocsNameEveryKey keeps docs/config.md in step with the keys and
// variables the host reads.
func TestConfigDocsNameEveryKey(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, k := range projectKeys {
		want = append(want, "`"+k)
	}
	for _, groups := range []struct {
		prefix string
		keys   []string
	}{
		{"apps.<name>.", appKeys}, {"trails.", trailsKeys}, {"cache.", cacheKeys}, {"replay.", replayKeys},
		{"agent.", agentKeys}, {"model.", modelKeys},
	} {
		for _, k := range groups.keys {
			want = append(want, "`"+groups.prefix+k+"`")
		}
	}
	for _, k := range userConfigKeys {
		want = append(want, "`"+k+"`")
	}
	want = append(want, cacheModes...)
	want = append(want, traceModes...)
	for _, d := range append(userKeyDefs, projectKeyDefs...) {
		want = append(want, EnvVar(d.name))
		if d.flag != "" {
			want = append(want, "--"+d.flag)
		}
	}
	want = append(want, "TRAILPIN_APPS_<NAME>_BASEURL", "TRAILPIN_SECRET_<NAME>", "TRAILPIN_USER_<USER>_PASSWORD")
	for _, w := range want {
		if !strings.Contains(string(doc), w) {
			t.Errorf("docs/config.md does not mention %s", w)
		}
	}
}
