package recording

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/trailpin/trailpin/agent"
	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/recorder/trail"
	"github.com/trailpin/trailpin/storage"
	"github.com/trailpin/trailpin/storage/secrets"
)

// A ClientSpan is what an outside agent's call performed in a recorded
// tab (host/PROTOCOL.md, Agent API): the interactions the extension
// numbered From to Until (inclusive) on Tab while it acted for Client. The
// steps built from them are marked by: agent with that client; a person's
// interaction, in another tab or outside the span, stays the person's.
type ClientSpan struct {
	Session     string
	Tab         int
	From, Until int64
	Client      string
	// Secret, when set, is the project's secret the client's act typed
	// (tab.type with ${secret:NAME}): the secret field's typing in the
	// span is read from it at replay, whatever name the recorder gave it.
	Secret string
}

// MarkClient notes a span the host's own agent API performed: only the
// door that sent the act knows who made it, never the extension. Spans
// are stored with the recording (the client's name and the secret's name,
// never a value), so a host restarted in the middle of a recording still
// marks the steps the client made before the restart as the client's, and
// reads the secret the client typed by the name it gave.
func (r *Service) MarkClient(span ClientSpan) error {
	if err := checkSessionID(span.Session); err != nil {
		return err
	}
	if (span.Client == "" && span.Secret == "") || span.Until < span.From {
		return nil
	}
	r.mu.Lock()
	if r.clientSpans == nil {
		r.clientSpans = map[string][]ClientSpan{}
	}
	r.clientSpans[span.Session] = append(r.clientSpans[span.Session], span)
	r.mu.Unlock()
	ctx := context.Background()
	db, err := r.database(ctx)
	if err != nil {
		return err
	}
	err = db.AddClientSpan(ctx, span.Session, storage.ClientSpan{Tab: span.Tab, From: span.From, Until: span.Until, Client: span.Client, Secret: span.Secret})
	if errors.Is(err, storage.ErrNotFound) {
		// Nothing of the session is stored: nothing to mark at save.
		return nil
	}
	return err
}

// spansOf are the outside agents' spans of session: those stored with it
// (made by this host process or one before it) and those this process
// noted.
func (r *Service) spansOf(ctx context.Context, db *storage.DB, session string) []ClientSpan {
	r.mu.Lock()
	out := append([]ClientSpan(nil), r.clientSpans[session]...)
	r.mu.Unlock()
	stored, err := db.ClientSpans(ctx, session)
	if err != nil {
		r.log.Warn("reading the outside agents' spans of a recording", "session", session, "err", err)
		return out
	}
	for _, s := range stored {
		out = append(out, ClientSpan{Session: session, Tab: s.Tab, From: s.From, Until: s.Until, Client: s.Client, Secret: s.Secret})
	}
	return out
}

// clientOf is the outside agent whose call made the interaction seq on
// tab, "" for none.
func clientOf(spans []ClientSpan, tab int, seq int64) string {
	for _, s := range spans {
		if s.Client != "" && s.Tab == tab && seq >= s.From && seq <= s.Until {
			return s.Client
		}
	}
	return ""
}

// secretOf is the secret an outside agent's act typed in the interaction
// seq on tab, "" for none.
func secretOf(spans []ClientSpan, tab int, seq int64) string {
	for _, s := range spans {
		if s.Secret != "" && s.Tab == tab && seq >= s.From && seq <= s.Until {
			return s.Secret
		}
	}
	return ""
}

// ClientSecret is the value of the project's secret name, for an outside
// agent that types it into a secret field of a tab recorded in session
// (tab.type with ${secret:NAME}, docs/agent-api.md): read as replay reads
// it (TRAILPIN_SECRET_<NAME>, then secrets: in trailpin.yaml), and from
// then on redacted by storage and the log. No value is an error that
// names the variable to set.
func (r *Service) ClientSecret(ctx context.Context, session, name string) (string, error) {
	dir, err := r.agent.projectOf(ctx, session)
	if err != nil {
		return "", err
	}
	cfg, err := r.agent.configFor(dir)
	if err != nil {
		return "", err
	}
	var sc secrets.Config
	if p := cfg.Project; p != nil {
		sc = p.Secrets
		r.learnSecrets(p)
	}
	v, err := secrets.NewResolver(sc, r.agent.getenv).Lookup(trail.Ref{Kind: trail.RefSecret, Name: name})
	if err != nil {
		return "", invalid("%v", err)
	}
	if v == "" {
		return "", invalid("the secret %s is empty: set TRAILPIN_SECRET_%s where Chrome starts the host, or secrets: in trailpin.yaml", name, secretEnvName(name))
	}
	r.learnValues(map[string]string{name: v})
	return v, nil
}

// secretEnvName is a secret's name as its variable spells it.
func secretEnvName(name string) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(strings.ToUpper(name))
}

// AppOrigins are the origins an outside agent may act on in a tab showing
// pageURL: those of the recording's app when the tab is recorded in
// session, else those of the current project's app with the page's origin,
// else the page's origin alone (docs/agent.md, What the agent may and may
// not do).
func (r *Service) AppOrigins(ctx context.Context, session, pageURL string) ([]string, error) {
	origin, err := config.OriginOf(pageURL)
	if err != nil {
		return nil, invalid("the tab shows %q, which is not an http or https page: navigate it to the app first", pageURL)
	}
	var project *config.Project
	if session != "" {
		db, err := r.database(ctx)
		if err != nil {
			return nil, err
		}
		sess, err := db.Session(ctx, session)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return nil, err
		default:
			if start, err := config.OriginOf(sess.StartURL); err == nil {
				origin = start
			}
			if dir, err := r.agent.projectOf(ctx, session); err == nil && dir != "" {
				project, _, _ = r.useProject(dir, false)
			}
		}
	}
	if project == nil {
		project, _, _ = r.currentProject()
	}
	origins, _ := appOrigins(project, origin)
	return origins, nil
}

// A ClientAgent is the built-in agent set up for a goal an outside agent
// gave through the agent API (tab.act): the person's model and budgets,
// the app's origins, and the redactor that knows every secret value the
// recording could fill in.
type ClientAgent struct {
	Config agent.Config
	// Secrets and Users are the references the goal offers (those it
	// names), which the model is told it may type; Fill puts their values
	// into a text at the moment it is typed and refuses any other.
	Secrets, Users []string
	Fill           func(string) (string, error)
	Model          string
	ActionTimeout  time.Duration
	// Count stores the model requests of the outcome, as a recording's.
	Count func(*agent.Outcome)
}

// ClientAgent sets up the agent for goal in a tab showing pageURL,
// recorded in session ("" when not): the project's (else the user's)
// model and budgets, acting only on origins (AppOrigins). No model is an
// error that says how to configure one.
func (r *Service) ClientAgent(ctx context.Context, session, pageURL, goal string) (_ *ClientAgent, err error) {
	defer r.explainDamage(&err)
	goal, err = oneLine("goal", goal, maxGoalRunes)
	if err != nil {
		return nil, err
	}
	origins, err := r.AppOrigins(ctx, session, pageURL)
	if err != nil {
		return nil, err
	}
	dir, err := r.agent.projectOf(ctx, session)
	if err != nil {
		return nil, err
	}
	ra, err := r.agent.setup(dir, goal, nil)
	if errors.Is(err, errNoModel) {
		return nil, invalid("%s", noModelMessage)
	}
	if err != nil {
		return nil, err
	}
	ra.cfg.Origins = origins
	if ra.project != nil {
		_, ra.cfg.App = appOrigins(ra.project, origins[0])
	}
	g := &liveGoal{id: "api", session: session, text: goal}
	return &ClientAgent{Config: ra.cfg, Secrets: ra.secrets, Users: ra.users, Fill: ra.fill, Model: ra.model,
		ActionTimeout: ra.actionTimeout, Count: func(out *agent.Outcome) { r.agent.countCalls(g, ra, out) }}, nil
}
