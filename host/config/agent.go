package config

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/agent/model"
)

// The model the agent calls (model.*) and the agent's budgets (agent.*),
// docs/agent.md and docs/config.md.
//
// model.* is accepted in the user config (a person's own model) and in
// trailpin.yaml (the project's CI model). It is taken as a whole from one
// file: when trailpin.yaml sets any model key, the user config's model is
// not used at all, so that a repository's model.baseURL is never paired
// with the key variable a person named for another endpoint. TRAILPIN_MODEL_*
// variables override single keys over whichever file won.
const (
	KeyModelBaseURL   = "model.baseURL"
	KeyModelName      = "model.name"
	KeyModelAPIKeyEnv = "model.apiKeyEnv"
	// KeyModelAllowInsecureHTTP lets the key go over plain http to another
	// machine, which is refused otherwise (docs/agent.md).
	KeyModelAllowInsecureHTTP = "model.allowInsecureHTTP"
	KeyAgentMaxActions        = "agent.maxActions"
	KeyAgentStepDeadline      = "agent.stepDeadline"
	KeyAgentMaxCalls          = "agent.maxCalls"
)

// Budgets of the agent (docs/agent.md).
const (
	// defaultAgentMaxActions is the actions a step may take, replayed ones
	// included: a recorded step rarely has more than a handful, and an agent
	// that needs ten is lost rather than nearly done.
	defaultAgentMaxActions = 10
	// defaultAgentStepDeadline bounds one step with the agent: a few model
	// calls of a slow endpoint, not a run's worth.
	defaultAgentStepDeadline = 2 * time.Minute
	// defaultAgentMaxCalls bounds the model requests of a whole run, so a
	// broken app cannot turn a CI run into a bill.
	defaultAgentMaxCalls = 50
)

var (
	modelKeys = []string{"baseURL", "name", "apiKeyEnv", "allowInsecureHTTP"}
	agentKeys = []string{"maxActions", "stepDeadline", "maxCalls"}
	// modelKeyDefs are layered in both files; none has a default.
	modelKeyDefs = []keyDef{
		{name: KeyModelBaseURL, parse: func(s string) (any, error) { return s, checkModelBaseURL(s) }},
		{name: KeyModelName, parse: func(s string) (any, error) { return s, checkModelName(s) }},
		{name: KeyModelAPIKeyEnv, parse: func(s string) (any, error) { return s, checkAPIKeyEnv(s) }},
		{name: KeyModelAllowInsecureHTTP, parse: boolValue},
	}
	agentKeyDefs = []keyDef{
		{name: KeyAgentMaxActions, def: defaultAgentMaxActions, parse: positiveIntValue},
		{name: KeyAgentStepDeadline, def: defaultAgentStepDeadline, parse: parseDurationValue},
		{name: KeyAgentMaxCalls, def: defaultAgentMaxCalls, parse: positiveIntValue},
	}
	// envNameRule is what a variable's name may be; a key pasted in its
	// place (sk-…) never matches.
	envNameRule = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// AgentConfig is agent.*: the agent's budgets.
type AgentConfig struct {
	// MaxActions is the actions one step may take, replayed ones included.
	MaxActions int
	// StepDeadline bounds one step with the agent.
	StepDeadline time.Duration
	// MaxCalls is the model requests one run may send.
	MaxCalls int
}

// DefaultAgent is agent.* when no layer sets it: the agent's budgets
// outside a project, where no file is read at all.
func DefaultAgent() AgentConfig {
	return AgentConfig{MaxActions: defaultAgentMaxActions, StepDeadline: defaultAgentStepDeadline, MaxCalls: defaultAgentMaxCalls}
}

// Model is the model the agent calls, from the file that won (and the
// TRAILPIN_MODEL_* variables). With no model configured it returns the zero
// Config and no error; a configured one that cannot be used is an error
// wrapping ErrInvalid that says what to set.
func (c *Config) Model() (model.Config, error) {
	m := model.Config{BaseURL: c.text(KeyModelBaseURL), Name: c.text(KeyModelName), APIKeyEnv: c.text(KeyModelAPIKeyEnv)}
	m.AllowInsecureHTTP, _ = c.settings[KeyModelAllowInsecureHTTP].value.(bool)
	if !m.Configured() && m.APIKeyEnv == "" {
		return model.Config{}, nil
	}
	if err := m.Check(); err != nil {
		return model.Config{}, fmt.Errorf("%w: %w (model set by %s)", ErrInvalid, err, c.modelSource())
	}
	return m, nil
}

// modelSource says where the model keys came from, for an error.
func (c *Config) modelSource() string {
	var srcs []string
	for _, k := range []string{KeyModelBaseURL, KeyModelName, KeyModelAPIKeyEnv, KeyModelAllowInsecureHTTP} {
		if r, ok := c.settings[k]; ok {
			srcs = append(srcs, k+": "+r.src.String())
		}
	}
	return strings.Join(srcs, ", ")
}

// setsModel reports whether a file's values set any model key.
func setsModel(values map[string]fileValue) bool {
	for k := range values {
		if strings.HasPrefix(k, "model.") {
			return true
		}
	}
	return false
}

// withoutModel is values without the model keys.
func withoutModel(values map[string]fileValue) map[string]fileValue {
	out := make(map[string]fileValue, len(values))
	for k, v := range values {
		if !strings.HasPrefix(k, "model.") {
			out[k] = v
		}
	}
	return out
}

// model decodes a file's model mapping into set.
func (d *configDecoder) model(n *yaml.Node, set func(key string, value any, n *yaml.Node)) {
	for _, f := range d.mapping(n, "model", modelKeys) {
		key := "model." + f.name
		if yamlNull(f.val) {
			continue
		}
		if key == KeyModelAllowInsecureHTTP {
			if b, ok := d.boolean(f.val, key); ok {
				set(key, b, f.val)
			}
			continue
		}
		s, ok := d.str(f.val, key)
		if !ok {
			continue
		}
		var err error
		fix := "see docs/agent.md"
		switch key {
		case KeyModelBaseURL:
			err, fix = checkModelBaseURL(s), "write the endpoint's API root, such as https://api.openai.com/v1 (see docs/agent.md)"
		case KeyModelName:
			err, fix = checkModelName(s), "name the model (for Azure OpenAI, the deployment)"
		case KeyModelAPIKeyEnv:
			err, fix = checkAPIKeyEnv(s), "write the name of the variable that holds the key, such as OPENAI_API_KEY; never the key itself"
		}
		if err != nil {
			d.fail(f.val, key, fix, "%v", err)
			continue
		}
		set(key, s, f.val)
	}
}

// agent decodes trailpin.yaml's agent mapping.
func (d *configDecoder) agent(p *Project, n *yaml.Node) {
	for _, f := range d.mapping(n, "agent", agentKeys) {
		key := "agent." + f.name
		if f.name == "stepDeadline" {
			if v, ok := d.duration(f.val, key); ok {
				p.set(key, v, f.val)
			}
			continue
		}
		if f.val.Kind != yaml.ScalarNode || f.val.Tag == "!!null" {
			d.fail(f.val, key, "write a whole number such as 10", "must be a number, not %s", describeConfigNode(f.val))
			continue
		}
		v, err := positiveInt(f.val.Value)
		if err != nil {
			d.fail(f.val, key, "write a whole number such as 10", "%v", err)
			continue
		}
		p.set(key, v, f.val)
	}
}

// checkModelBaseURL is the client's own check of a base URL, without the
// package's error prefix (the config error says which key it is).
func checkModelBaseURL(s string) error {
	err := model.CheckBaseURL(s)
	if err == nil {
		return nil
	}
	msg := strings.TrimPrefix(err.Error(), model.ErrBadConfig.Error()+": ")
	return errors.New(strings.TrimPrefix(msg, "model.baseURL "))
}

func checkModelName(s string) error {
	if strings.TrimSpace(s) == "" || strings.ContainsAny(s, "\r\n") {
		return errors.New("is not a model name")
	}
	return nil
}

// checkAPIKeyEnv never quotes the value: it may be the key itself.
func checkAPIKeyEnv(s string) error {
	if !envNameRule.MatchString(s) {
		return errors.New("is not an environment variable's name")
	}
	return nil
}

func positiveInt(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if n <= 0 {
		return 0, fmt.Errorf("%q is not more than zero", s)
	}
	return n, nil
}

func positiveIntValue(s string) (any, error) { return positiveInt(s) }
