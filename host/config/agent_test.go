package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trailpin/trailpin/agent/model"
)

// loadModel writes the user config and trailpin.yaml ("" for none), sets
// the variables and loads.
func loadModel(t *testing.T, user, project string, vars map[string]string) (*Config, string, string, error) {
	t.Helper()
	repo := t.TempDir()
	e := testEnv(t, repo)
	for _, k := range []string{"TRAILPIN_MODEL_BASEURL", "TRAILPIN_MODEL_NAME", "TRAILPIN_MODEL_APIKEYENV",
		"TRAILPIN_AGENT_MAXACTIONS", "TRAILPIN_AGENT_STEPDEADLINE", "TRAILPIN_AGENT_MAXCALLS", "TRAILPIN_REPLAY_REPLAYTIMEOUT"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	for k, v := range vars {
		t.Setenv(k, v)
	}
	userFile := filepath.Join(os.Getenv("HOME"), ".config/trailpin/config.yaml")
	projectFile := filepath.Join(repo, "trailpin.yaml")
	if user != "" {
		writeFile(t, userFile, user)
	}
	if project != "" {
		writeFile(t, projectFile, project)
	}
	c, err := Load(e)
	return c, userFile, projectFile, err
}

func TestModelFromTheFileThatWins(t *testing.T) {
	const user = "model:\n  baseURL: http://localhost:11434/v1\n  name: qwen3\n  apiKeyEnv: MY_OWN_KEY\n"
	tests := []struct {
		name, user, project string
		vars                map[string]string
		want                model.Config
		// wantSources are the sources of baseURL, name and apiKeyEnv ("-"
		// when the key is not set).
		wantSources [3]string
	}{
		{"none", "", "", nil, model.Config{}, [3]string{"-", "-", "-"}},
		{"the user's", user, "", nil,
			model.Config{BaseURL: "http://localhost:11434/v1", Name: "qwen3", APIKeyEnv: "MY_OWN_KEY"},
			[3]string{"user {user}:2", "user {user}:3", "user {user}:4"}},
		{"the project's, whole", user, "model:\n  baseURL: http://127.0.0.1:8000/v1\n  name: served\n", nil,
			model.Config{BaseURL: "http://127.0.0.1:8000/v1", Name: "served"},
			[3]string{"project {project}:2", "project {project}:3", "-"}},
		{"a variable over the file that won", user, "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1-mini\n  apiKeyEnv: OPENAI_API_KEY\n",
			map[string]string{"TRAILPIN_MODEL_NAME": "gpt-4.1"},
			model.Config{BaseURL: "https://api.openai.com/v1", Name: "gpt-4.1", APIKeyEnv: "OPENAI_API_KEY"},
			[3]string{"project {project}:2", "env TRAILPIN_MODEL_NAME", "project {project}:4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, userFile, projectFile, err := loadModel(t, tt.user, tt.project, tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Model()
			if err != nil || got != tt.want {
				t.Errorf("Model() = %+v, %v; want %+v", got, err, tt.want)
			}
			settings := map[string]Setting{}
			for _, s := range c.Settings() {
				settings[s.Key] = s
			}
			for i, k := range []string{KeyModelBaseURL, KeyModelName, KeyModelAPIKeyEnv} {
				want := strings.NewReplacer("{user}", userFile, "{project}", projectFile).Replace(tt.wantSources[i])
				s, ok := settings[k]
				got := "-"
				if ok {
					got = s.Source.String()
				}
				if got != want {
					t.Errorf("%s set by %s, want %s", k, got, want)
				}
			}
		})
	}
}

func TestModelConfigErrors(t *testing.T) {
	const pastedKey = "sk-proj-0123456789abcdef"
	tests := []struct {
		name, user, project string
		vars                map[string]string
		says                []string
	}{
		{"the key instead of its variable, in the user config", "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1\n  apiKeyEnv: " + pastedKey + "\n", "", nil,
			[]string{"config.yaml:4: model.apiKeyEnv: is not an environment variable's name", "never the key itself"}},
		{"the key instead of its variable, in a variable", "", "", map[string]string{"TRAILPIN_MODEL_APIKEYENV": pastedKey},
			[]string{"$TRAILPIN_MODEL_APIKEYENV", "is not an environment variable's name"}},
		{"not a URL", "", "model:\n  baseURL: ftp://models.example.com\n  name: m\n", nil,
			[]string{"trailpin.yaml:2: model.baseURL:", "not an http or https URL"}},
		{"unknown model key", "", "model:\n  endpoint: http://localhost:11434/v1\n", nil,
			[]string{"trailpin.yaml:2: model.endpoint: unknown key", "baseURL, name, apiKeyEnv"}},
		{"a budget of zero", "", "agent:\n  maxActions: 0\n", nil,
			[]string{"trailpin.yaml:2: agent.maxActions:", "not more than zero"}},
		{"a budget in words", "", "agent:\n  maxCalls: fifty\n", nil,
			[]string{"trailpin.yaml:2: agent.maxCalls:", "not a whole number"}},
		{"a deadline without a unit", "", "agent:\n  stepDeadline: 120\n", nil,
			[]string{"trailpin.yaml:2: agent.stepDeadline:", "has no unit"}},
		{"a bad budget variable", "", "", map[string]string{"TRAILPIN_AGENT_MAXCALLS": "-3"},
			[]string{"$TRAILPIN_AGENT_MAXCALLS", "not more than zero"}},
		{"agent in the user config", "agent:\n  maxCalls: 5\n", "", nil,
			[]string{"agent", "belongs in a project's trailpin.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, _, err := loadModel(t, tt.user, tt.project, tt.vars)
			if err == nil {
				t.Fatal("Load: no error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Load error %v is not ErrInvalid", err)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("Load error %q does not say %q", err, s)
				}
			}
			if strings.Contains(err.Error(), pastedKey) {
				t.Errorf("Load error %q shows the key", err)
			}
		})
	}
}

// TestModelThatCannotBeUsed: each key checks, but together they cannot
// work; Model says so and where the keys came from.
func TestModelThatCannotBeUsed(t *testing.T) {
	c, _, projectFile, err := loadModel(t, "", "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Model()
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, model.ErrBadConfig) || !strings.Contains(err.Error(), "needs an API key") ||
		!strings.Contains(err.Error(), "model.baseURL: project "+projectFile+":2") {
		t.Errorf("Model() error = %v, want a bad configuration naming the missing key and where the model was set", err)
	}
}

func TestAgentBudgets(t *testing.T) {
	tests := []struct {
		name, project string
		vars          map[string]string
		want          AgentConfig
		replayTimeout time.Duration
	}{
		{"defaults", "apps:\n  shop:\n    baseURL: http://localhost:3000\n", nil,
			AgentConfig{MaxActions: 10, StepDeadline: 2 * time.Minute, MaxCalls: 50}, 15 * time.Second},
		{"from trailpin.yaml", "agent:\n  maxActions: 4\n  stepDeadline: 45s\n  maxCalls: 8\nreplay:\n  replayTimeout: 5s\n", nil,
			AgentConfig{MaxActions: 4, StepDeadline: 45 * time.Second, MaxCalls: 8}, 5 * time.Second},
		{"variables over the file", "agent:\n  maxActions: 4\n",
			map[string]string{"TRAILPIN_AGENT_MAXACTIONS": "6", "TRAILPIN_AGENT_STEPDEADLINE": "1m", "TRAILPIN_REPLAY_REPLAYTIMEOUT": "20s"},
			AgentConfig{MaxActions: 6, StepDeadline: time.Minute, MaxCalls: 50}, 20 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, _, err := loadModel(t, "", tt.project, tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			if c.Project.Agent != tt.want || c.Project.Replay.ReplayTimeout != tt.replayTimeout {
				t.Errorf("agent = %+v, replayTimeout %s; want %+v, %s", c.Project.Agent, c.Project.Replay.ReplayTimeout, tt.want, tt.replayTimeout)
			}
		})
	}
}

// TestLoadProjectReadsModelAsWritten: the popup's reading of trailpin.yaml
// accepts the model and agent keys too.
func TestLoadProjectReadsModelAsWritten(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "trailpin.yaml"), "model:\n  baseURL: https://api.openai.com/v1\n  name: gpt-4.1\n  apiKeyEnv: OPENAI_API_KEY\nagent:\n  maxCalls: 20\n")
	p, err := LoadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Agent.MaxCalls != 20 || p.Agent.MaxActions != 10 {
		t.Errorf("agent = %+v, want maxCalls 20 and the default maxActions", p.Agent)
	}
}

// TestModelKeyOverPlainHTTP: a key over plain http to another machine is
// refused with the fix, unless model.allowInsecureHTTP says so, in the
// file the model comes from or in its variable; loopback needs nothing.
func TestModelKeyOverPlainHTTP(t *testing.T) {
	const remote = "model:\n  baseURL: http://10.0.0.5:8000/v1\n  name: m\n  apiKeyEnv: LAN_MODEL_KEY\n"
	tests := []struct {
		name, user, project string
		vars                map[string]string
		allowed             bool // Model() gives a model that allows it
		refused             string
	}{
		{"refused", "", remote, nil, false, "use https (https://10.0.0.5:8000/v1), or, on a network you trust with the key, set model.allowInsecureHTTP: true"},
		{"allowed in trailpin.yaml", "", remote + "  allowInsecureHTTP: true\n", nil, true, ""},
		{"allowed in the user config", remote + "  allowInsecureHTTP: true\n", "", nil, true, ""},
		{"allowed by its variable", "", remote, map[string]string{"TRAILPIN_MODEL_ALLOWINSECUREHTTP": "true"}, true, ""},
		{"turned off by its variable", "", remote + "  allowInsecureHTTP: true\n", map[string]string{"TRAILPIN_MODEL_ALLOWINSECUREHTTP": "false"}, false, "set model.allowInsecureHTTP: true"},
		// The model is taken whole from one file: the user's allowance is
		// not the project's endpoint's.
		{"the user's allowance, the project's model", "model:\n  allowInsecureHTTP: true\n", remote, nil, false, "set model.allowInsecureHTTP: true"},
		{"loopback", "", "model:\n  baseURL: http://127.0.0.1:8000/v1\n  name: m\n  apiKeyEnv: LAN_MODEL_KEY\n", nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("TRAILPIN_MODEL_ALLOWINSECUREHTTP", "")
			os.Unsetenv("TRAILPIN_MODEL_ALLOWINSECUREHTTP")
			c, _, _, err := loadModel(t, tt.user, tt.project, tt.vars)
			if err != nil {
				t.Fatal(err)
			}
			m, err := c.Model()
			if tt.refused != "" {
				if !errors.Is(err, ErrInvalid) || !errors.Is(err, model.ErrBadConfig) || !strings.Contains(err.Error(), "over plain http") || !strings.Contains(err.Error(), tt.refused) {
					t.Errorf("Model() = %+v, %v; want it refused, saying %q", m, err, tt.refused)
				}
				return
			}
			if err != nil || m.AllowInsecureHTTP != tt.allowed || (m.InsecureNotice() != "") != tt.allowed {
				t.Errorf("Model() = %+v, %v (notice %q); want allowInsecureHTTP %v", m, err, m.InsecureNotice(), tt.allowed)
			}
		})
	}
	_, _, _, err := loadModel(t, "", remote+"  allowInsecureHTTP: yes please\n", nil)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "trailpin.yaml:5: model.allowInsecureHTTP: must be true or false") {
		t.Errorf("Load with allowInsecureHTTP in words = %v, want it refused at its line", err)
	}
}
