package recording

import (
	"context"
	"errors"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/storage"
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
}

// MarkClient notes a span the host's own agent API performed: only the
// door that sent the act knows who made it, never the extension. Spans
// are kept in this process (a host restarted mid-recording forgets them,
// and the steps come out as a person's).
func (r *Service) MarkClient(span ClientSpan) error {
	if err := checkSessionID(span.Session); err != nil {
		return err
	}
	if span.Client == "" || span.Until < span.From {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.clientSpans == nil {
		r.clientSpans = map[string][]ClientSpan{}
	}
	r.clientSpans[span.Session] = append(r.clientSpans[span.Session], span)
	return nil
}

// clientOf is the outside agent whose call made the interaction seq on tab
// in session, "" for none.
func (r *Service) clientOf(session string, tab int, seq int64) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.clientSpans[session] {
		if s.Tab == tab && seq >= s.From && seq <= s.Until {
			return s.Client
		}
	}
	return ""
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
