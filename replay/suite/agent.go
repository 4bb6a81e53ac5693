package suite

import (
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/agent/model"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/replay"
	"github.com/trailpin/trailpin/storage/redact"
)

// AgentOptions say which model the agent a run hands stale steps to calls,
// and its budgets.
type AgentOptions struct {
	// Model is the configured model (model.Config.Configured).
	Model model.Config
	// Secrets are every secret the suite's trails can reach (Secrets):
	// the model client hides them, in the form a model request carries
	// them (${secret:NAME}); the engine adds each trail's own as well.
	Secrets []redact.Secret
	// Getenv reads the model key's variable.
	Getenv func(string) string
	// MaxActions and StepDeadline bound one step; MaxCalls is the model
	// requests the whole run may send.
	MaxActions   int
	StepDeadline time.Duration
	MaxCalls     int
}

// NewAgent makes the agent of a run: one model client and one allowance of
// calls for the whole run. A model that cannot be used (its key's variable
// is not set) is an error saying what to set.
func NewAgent(o AgentOptions) (*agent.Config, error) {
	red := redact.New(o.Secrets, func(name string) string { return "${" + name + "}" })
	client, err := model.New(o.Model, model.WithRedactor(red), model.WithGetenv(o.Getenv))
	if err != nil {
		return nil, fmt.Errorf("the model the agent heals with: %w", err)
	}
	return &agent.Config{Client: client, MaxActions: o.MaxActions, StepDeadline: o.StepDeadline,
		Calls: model.NewCallBudget(o.MaxCalls)}, nil
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
