package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayModelKeyOverPlainHTTP: host replay refuses a model whose key
// would go over plain http to another machine, saying what to do, before
// it opens a browser; allowed in trailpin.yaml, it says so once on stderr;
// over loopback it says nothing. The browser to attach to is not there,
// so each run ends right after its model is set up.
func TestReplayModelKeyOverPlainHTTP(t *testing.T) {
	const key = "tk-lan-model-key-5150"
	tests := []struct {
		name, model string
		refused     bool
		notices     int
	}{
		{"refused", "model:\n  baseURL: http://10.0.0.5:8000/v1\n  name: m\n  apiKeyEnv: LAN_MODEL_KEY\n", true, 0},
		{"allowed", "model:\n  baseURL: http://10.0.0.5:8000/v1\n  name: m\n  apiKeyEnv: LAN_MODEL_KEY\n  allowInsecureHTTP: true\n", false, 1},
		{"loopback", "model:\n  baseURL: http://127.0.0.1:8000/v1\n  name: m\n  apiKeyEnv: LAN_MODEL_KEY\n", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := cliRepo(t)
			writeFile(t, filepath.Join(repo, "trailpin.yaml"), "apps:\n  shop:\n    baseURL: http://localhost:3000\n"+tt.model)
			trailFile := filepath.Join(repo, "trails", "open.trail.yaml")
			writeFile(t, trailFile, "version: 1\ntrail: Open\napp: shop\nstart: /\nsteps:\n  - intent: see the shop\n    actions:\n      - assertVisible: {selector: {role: heading}}\n")
			t.Setenv("LAN_MODEL_KEY", key)
			_, errOut, err := run(t, nil, "replay", "--browser-url", "ws://127.0.0.1:1/devtools/browser/none", trailFile)
			if err == nil {
				t.Fatal("host replay without a browser succeeded")
			}
			if tt.refused {
				if exitCode(err) != 2 || !strings.Contains(err.Error(), "over plain http") || !strings.Contains(err.Error(), "use https (https://10.0.0.5:8000/v1)") ||
					!strings.Contains(err.Error(), "set model.allowInsecureHTTP: true") {
					t.Errorf("host replay = exit %d, %v; want a usage error saying to use https or allow it", exitCode(err), err)
				}
			} else if strings.Contains(err.Error(), "plain http") {
				t.Errorf("host replay refused the model: %v", err)
			}
			said := strings.Count(errOut, "model.allowInsecureHTTP is true: the API key in $LAN_MODEL_KEY goes to 10.0.0.5:8000 over plain http")
			if said != tt.notices {
				t.Errorf("stderr says it %d times, want %d:\n%s", said, tt.notices, errOut)
			}
			if strings.Contains(errOut+err.Error(), key) {
				t.Error("the output shows the key")
			}
		})
	}
}
