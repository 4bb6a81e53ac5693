package main

import (
	"fmt"
	"maps"
	"sync"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage/redact"
)

// agentSetup is the agent a run hands stale steps to: its configuration
// (one model client and one allowance of calls for the whole run) and the
// model's name, for the database.
type agentSetup struct {
	cfg   agent.Config
	model string
}

// Budgets of the agent when there is no trailpin.yaml (the project's
// defaults are the same, host/config).
const (
	noProjectMaxActions = agent.DefaultMaxActions
	noProjectMaxCalls   = 50
)

// cacheSettings is cache.mode in effect and cache.strict (or --strict).
func cacheSettings(cfg *config.Config, ci, strictFlag bool) (mode string, strict bool) {
	var c config.CacheConfig
	if cfg.Project != nil {
		c = cfg.Project.Cache
	}
	return c.ModeFor(ci), c.Strict || strictFlag
}

// setupAgent makes the model client when a model is configured (nil
// without one), and says on stderr when model.allowInsecureHTTP lets its
// key go over plain http. Its redactor holds every secret the suite's trails can
// reach, in the form a model request carries them (${secret:NAME}); the
// engine adds each trail's own as well. A model that is configured but
// cannot be used (its key's variable is not set) is an error saying what
// to set.
func setupAgent(e *env, cfg *config.Config, s *replaySetup) (*agentSetup, error) {
	mc, err := cfg.Model()
	if err != nil {
		return nil, err
	}
	if !mc.Configured() {
		return nil, nil
	}
	if n := mc.InsecureNotice(); n != "" {
		// The config allowed it in words; the run says so once.
		fmt.Fprintf(e.stderr, "host: %s\n", n)
	}
	secrets := replay.Secrets(suiteTrails(s.suite), s.opts)
	red := redact.New(secrets, func(name string) string { return "${" + name + "}" })
	client, err := model.New(mc, model.WithRedactor(red), model.WithGetenv(e.getenv))
	if err != nil {
		return nil, fmt.Errorf("the model the agent heals with: %w", err)
	}
	a := &agentSetup{model: mc.Name, cfg: agent.Config{Client: client, MaxActions: noProjectMaxActions,
		StepDeadline: agent.DefaultStepDeadline}}
	maxCalls := noProjectMaxCalls
	if p := cfg.Project; p != nil {
		a.cfg.MaxActions, a.cfg.StepDeadline, maxCalls = p.Agent.MaxActions, p.Agent.StepDeadline, p.Agent.MaxCalls
	}
	a.cfg.Calls = model.NewCallBudget(maxCalls)
	return a, nil
}

// healedFlows are the flows the run's attempts healed, by trail slug and
// step index: a retry replays them, and does not heal a step twice.
type healedFlows struct {
	mu    sync.Mutex
	flows map[string]map[int][]trail.Action
}

// add keeps the verified heals of an attempt.
func (h *healedFlows) add(slug string, res *replay.TrailResult) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, sr := range res.Steps {
		if sr.Status != replay.StatusHealed || sr.Heal == nil || len(sr.Heal.Actions) == 0 {
			continue
		}
		if len(sr.Heal.OffOrigins) > 0 || len(sr.Heal.Refused) > 0 {
			continue // a flow that broke the agent's rules is not replayed either
		}
		if h.flows == nil {
			h.flows = map[string]map[int][]trail.Action{}
		}
		if h.flows[slug] == nil {
			h.flows[slug] = map[int][]trail.Action{}
		}
		h.flows[slug][i] = sr.Heal.Actions
	}
}

// of is a copy of a trail's healed flows (nil when none).
func (h *healedFlows) of(slug string) map[int][]trail.Action {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.flows[slug]) == 0 {
		return nil
	}
	return maps.Clone(h.flows[slug])
}
