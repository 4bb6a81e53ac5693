// Package mcp is the MCP door of the recording service (docs/mcp.md): an
// outside agent's MCP client snapshots a page, acts on it by ref and asserts
// with tools named as Playwright MCP names them, and what it does is
// recorded as trail steps marked as that client's, through the same
// recording service (host/recording) a person's recording goes through.
//
// In headless mode the host drives a tab of its own (host/headless): the
// door makes the interactions the extension's recorder would send, from its
// own calls and its own captures, and sends them to the service's
// Interaction operation; it never builds a step itself. The door checks
// every ref against the page as it is now (a stale ref performs nothing)
// and acts only on the recording's app's origins.
//
// In attached mode (attached.go) the same tools are served by a client of
// the agent API of the host Chrome runs: the extension acts and records,
// the door only forwards. Both modes register the tools once (newServer).
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/trailpin/trailpin/host/config"
	"github.com/trailpin/trailpin/host/headless"
	"github.com/trailpin/trailpin/host/recording"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/steps"
)

// A Tab is the page the door acts in: host/headless's Tab, or a fake in
// tests.
type Tab interface {
	Viewport() screen.Viewport
	// Screen captures the page once a load under way ended.
	Screen(ctx context.Context) (*screen.Screen, error)
	Navigate(ctx context.Context, url string) error
	Tap(ctx context.Context, tg headless.Target, c headless.Click) error
	Hover(ctx context.Context, tg headless.Target) error
	Type(ctx context.Context, tg headless.Target, text string) (string, error)
	Select(ctx context.Context, tg headless.Target, labels []string) ([]string, error)
	Press(ctx context.Context, key string, before func() error) error
	// TakeNavigations returns the pages the top frame committed since the
	// last call.
	TakeNavigations() []headless.Navigation
}

// A ReplayResult is how a trail_replay went.
type ReplayResult struct {
	// ExitCode is `host replay`'s (0: every trail passed).
	ExitCode int `json:"exitCode"`
	// Summary is what `host replay` prints.
	Summary string `json:"summary"`
}

// ReplayFunc replays a trail file headless as `host replay FILE` does,
// with the trailpin.yaml of the project folder (or none, for "").
type ReplayFunc func(ctx context.Context, path, project string) (ReplayResult, error)

// Options are what the door is made of.
type Options struct {
	Service *recording.Service
	Tab     Tab
	// Project is the folder of the trailpin.yaml recordings go into when
	// trail_start names none ("" for none).
	Project string
	Replay  ReplayFunc
	Log     *slog.Logger
	// SnapshotLimit caps a snapshot's text, in bytes; 0 means
	// DefaultSnapshotLimit.
	SnapshotLimit int
	// ActionTimeout bounds how long the verify and wait tools poll; 0
	// means 10s.
	ActionTimeout time.Duration
	// Getenv reads the environment (secret values); nil means os.Getenv.
	Getenv func(string) string
	// Version is the host's version, told to clients.
	Version string
}

// DefaultSnapshotLimit is a snapshot's cap: far below the size that breaks
// clients' limits (tens of thousands of tokens), far above a usual page.
const DefaultSnapshotLimit = 40000

// A Door serves the tools of one MCP session.
type Door struct {
	o   Options
	log *slog.Logger

	// rec is the recording under way; nil when none.
	rec *recordingState
	// shown is the screen of the last snapshot the client was given: its
	// refs are the ones the client names.
	shown *screen.Screen
	// saved is the file the last trail_save exported, and savedProject
	// its project's folder.
	saved, savedProject string
	// last is the client's last action, which browser_assert_change
	// checks (nil when another check came since); acts numbers them.
	last *doorAct
	acts int
}

// recordingState is the recording the client's actions go into.
type recordingState struct {
	session string
	project string
	app     string
	// origins are the app's origins, its base URL's first: the only ones
	// the client acts on.
	origins []string
	seq     int64
	// ids names the screens sent with an interaction; sent holds the ids
	// whose wire form went out.
	ids    map[*screen.Screen]string
	sent   map[string]bool
	nextID int
}

// New returns the door made of o.
func New(o Options) *Door {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.SnapshotLimit <= 0 {
		o.SnapshotLimit = DefaultSnapshotLimit
	}
	if o.ActionTimeout <= 0 {
		o.ActionTimeout = 10 * time.Second
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	return &Door{o: o, log: log}
}

// Server is the MCP server of the door, its tools registered.
func (d *Door) Server() *sdk.Server {
	return newServer(d, d.o.Version, d.log)
}

// Serve serves the door on t until the client closes it or ctx ends.
func (d *Door) Serve(ctx context.Context, t sdk.Transport) error {
	return d.Server().Run(ctx, t)
}

// instructions tell the client how the tools fit together.
const instructions = "Trailpin records what you do in the browser as a trail, a test that replays " +
	"without a model. Start with trail_start (or browser_navigate to a page of the project's app), " +
	"take browser_snapshot to get refs, act by ref, check with the browser_verify_* tools, then " +
	"trail_save with a title and trail_replay the file it wrote. Refs come from the last snapshot " +
	"only; actions are limited to the app's origins. In the person's own browser you act only in " +
	"the tabs they share with you (browser_tabs lists them), once they allowed you."

// clientName is the name the MCP client gave in its initialize request.
func clientName(req *sdk.CallToolRequest) string {
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			// One line: the trail's client: holds it.
			name := strings.Join(strings.Fields(p.ClientInfo.Name), " ")
			if name != "" {
				return screen.Clip(name, 64)
			}
		}
	}
	return "mcp-client"
}

// toolError is a refusal or failure the client reads: what happened and
// what to do.
func toolError(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

// serviceError says a recording service error in the client's words.
func serviceError(what string, err error) error {
	var re *recording.Error
	if errors.As(err, &re) {
		return fmt.Errorf("%s: %s", what, re.Message)
	}
	return fmt.Errorf("%s: %v", what, err)
}

// onApp reports whether url is on one of the recording's origins.
func (r *recordingState) onApp(url string) bool {
	o, err := config.OriginOf(url)
	return err == nil && slices.Contains(r.origins, o)
}

// appOrigins are the origins of app in p: its base URL's, then
// apps.<name>.origins.
func appOrigins(p *config.Project, app string) []string {
	var out []string
	if base, err := config.OriginOf(p.Apps[app]); err == nil {
		out = append(out, base)
	}
	for _, o := range p.Origins[app] {
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// emit sends one interaction to the recording service, with the screen it
// happened on (its wire form the first time it is named), as the
// extension's recorder sends a person's.
func (d *Door) emit(ctx context.Context, client string, it steps.Interaction, s *screen.Screen) error {
	r := d.rec
	if r == nil {
		return nil
	}
	it.Seq = r.seq + 1
	it.Time = time.Now().UnixMilli()
	it.Tab = 1
	it.Client = client
	in := recording.InteractionIn{Session: r.session}
	if s != nil {
		if it.URL == "" {
			it.URL, it.Title = s.URL, s.Title
		}
		id, ok := r.ids[s]
		if !ok {
			r.nextID++
			id = fmt.Sprintf("mcp-%d", r.nextID)
			r.ids[s] = id
		}
		it.Screen = id
		if !r.sent[id] {
			wire, err := screen.EncodeWire(s)
			if err != nil {
				return fmt.Errorf("encoding the screen: %w", err)
			}
			in.Screen = wire
		}
	}
	raw, err := json.Marshal(&it)
	if err != nil {
		return err
	}
	in.Interaction = raw
	if _, err := d.o.Service.Interaction(ctx, in); err != nil {
		return serviceError("recording the "+string(it.Kind), err)
	}
	r.seq = it.Seq
	// An assertChange checks the action right before it: anything else
	// but the pages that action opened comes between them.
	if it.Kind != steps.InteractNavigate && it.Kind != steps.InteractAssertChange {
		d.last = nil
	}
	if it.Screen != "" {
		r.sent[it.Screen] = true
	}
	return nil
}

// recordNavigations records the pages the tab committed since the last
// call: transition says how the first came about (typed for
// browser_navigate, link for an action's), the rest are the page's own
// (script).
func (d *Door) recordNavigations(ctx context.Context, client, transition string) ([]string, error) {
	var urls []string
	for i, n := range d.o.Tab.TakeNavigations() {
		t := transition
		if i > 0 {
			t = "script"
		}
		urls = append(urls, n.URL)
		if d.rec == nil || n.URL == "" || n.URL == "about:blank" {
			continue
		}
		if err := d.emit(ctx, client, steps.Interaction{Kind: steps.InteractNavigate, URL: n.URL, Transition: t}, nil); err != nil {
			return urls, err
		}
	}
	return urls, nil
}
