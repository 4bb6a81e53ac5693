package demo

// The example trails are the flows of FLOWS.md written as trail files. These
// tests keep them loadable and canonical, keep them the same flows as
// FLOWS.md (whose tables flows_test.go drives in Chromium), and check every selector
// in them against the live shop with Trailpin's own page model and matcher.

import (
	"context"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/trailpin/trailpin/browser"
	"github.com/trailpin/trailpin/recorder/screen"
	"github.com/trailpin/trailpin/recorder/selector"
	"github.com/trailpin/trailpin/recorder/trail"
)

// loadExampleTrails loads every trail embedded in Trails, by file name.
func loadExampleTrails(t *testing.T) map[string]*trail.Trail {
	t.Helper()
	names, err := fs.Glob(Trails, TrailsDir+"/*"+trail.TrailFileExt)
	if err != nil {
		t.Fatal(err)
	}
	trails := map[string]*trail.Trail{}
	for _, name := range names {
		src, err := fs.ReadFile(Trails, name)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := trail.LoadTrail(name, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		out, err := trail.MarshalTrail(tr)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if string(out) != string(src) {
			t.Errorf("%s is not written the way MarshalTrail writes it:\n%s", name, out)
		}
		if want := trail.Slug(tr.Title) + trail.TrailFileExt; path.Base(name) != want {
			t.Errorf("%s: a trail titled %q belongs in %s", name, tr.Title, want)
		}
		if strings.Contains(string(src), Password) {
			t.Errorf("%s holds the demo password itself, not ${secret:demo-password}", name)
		}
		trails[path.Base(name)] = tr
	}
	return trails
}

func TestExampleTrails(t *testing.T) {
	trails := loadExampleTrails(t)
	if len(trails) != 5 {
		t.Errorf("found %d example trails, want the 5 flows of FLOWS.md", len(trails))
	}
	long := trails["full-shopping-journey.trail.yaml"]
	if long == nil || len(long.Steps) < 40 {
		t.Errorf("the benchmark's long trail is missing or has fewer than 40 steps")
	}
	if big := trails["big-page.trail.yaml"]; big == nil || big.Start != "/big?n=10000" {
		t.Errorf("the big-page trail is missing or does not start at /big?n=10000")
	}
	note, err := fs.ReadFile(Trails, TrailsDir+"/gift-note.txt")
	if err != nil || string(note) != giftNoteText {
		t.Errorf("gift-note.txt = %q, %v; want %q", note, err, giftNoteText)
	}
	src, err := fs.ReadFile(Trails, ConfigFile)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Apps map[string]struct {
			BaseURL string `yaml:"baseURL"`
		} `yaml:"apps"`
		Trails struct {
			Dir string `yaml:"dir"`
		} `yaml:"trails"`
		Secrets map[string]*string `yaml:"secrets"`
	}
	if err := yaml.Unmarshal(src, &cfg); err != nil {
		t.Fatalf("%s: %v", ConfigFile, err)
	}
	if cfg.Apps["shop"].BaseURL == "" || cfg.Trails.Dir != TrailsDir {
		t.Errorf("%s: apps.shop.baseURL = %q, trails.dir = %q", ConfigFile, cfg.Apps["shop"].BaseURL, cfg.Trails.Dir)
	}
	if v, ok := cfg.Secrets["demo-password"]; !ok || v != nil {
		t.Errorf("%s: secrets.demo-password should be declared required (null), not given a value", ConfigFile)
	}
	for name, tr := range trails {
		if tr.App != "shop" {
			t.Errorf("%s: app %q, want shop", name, tr.App)
		}
	}
}

// flowRow renders a trail action the way FLOWS.md writes a row: action,
// target and value.
func flowRow(a trail.Action) (action, target, value string) {
	action = string(a.Kind())
	if sel, ok := trail.ActionSelector(a); ok {
		target = targetOf(sel)
	}
	switch a := a.(type) {
	case trail.Navigate:
		value = a.To
	case trail.TypeText:
		value = a.Text
	case trail.Press:
		value = a.Key
	case trail.SelectOption:
		value = strings.Join(a.Options, ", ")
	case trail.Upload:
		value = strings.Join(a.Files, ", ")
	case trail.Dialog:
		value = map[bool]string{true: "accept", false: "dismiss"}[a.Accept]
	case trail.SwitchTab:
		value = a.URL
	case trail.AssertURL:
		value = a.URL
	case trail.AssertValue:
		value = a.Value
	case trail.AssertState:
		if a.Want == "true" {
			value = a.State
		}
	case trail.AssertNotVisible:
		target = fmt.Sprintf("text %q", a.Text)
	}
	return action, target, value
}

func targetOf(sel selector.Selector) string {
	var s string
	switch {
	case sel.Role != "" && sel.Name != "":
		s = fmt.Sprintf("%s %q", sel.Role, sel.Name)
	case sel.Text != "":
		s = fmt.Sprintf("text %q", sel.Text)
	case sel.Label != "":
		s = fmt.Sprintf("label %q", sel.Label)
	default:
		s = fmt.Sprintf("%+v", sel)
	}
	if sel.Within != nil {
		s += " in " + targetOf(*sel.Within)
	}
	return s
}

// pairedFlows pairs each example trail with its flow in FLOWS.md. The
// flow's first row opens the trail's start page; every later row is one
// action of the trail, in order.
func pairedFlows(t *testing.T) map[*trail.Trail]*flowDoc {
	t.Helper()
	flows, err := parseFlows("FLOWS.md")
	if err != nil {
		t.Fatal(err)
	}
	byTitle := map[string]*flowDoc{}
	for _, f := range flows {
		byTitle[f.Title] = f
	}
	pairs := map[*trail.Trail]*flowDoc{}
	for name, tr := range loadExampleTrails(t) {
		f := byTitle[tr.Title]
		if f == nil {
			t.Errorf("%s: no flow titled %q in FLOWS.md", name, tr.Title)
			continue
		}
		pairs[tr] = f
	}
	return pairs
}

func TestExampleTrailsFollowFlows(t *testing.T) {
	for tr, f := range pairedFlows(t) {
		t.Run(tr.Title, func(t *testing.T) {
			if first := f.Steps[0]; first.Action != "navigate" || first.Value != tr.Start {
				t.Errorf("FLOWS.md:%d opens %q; the trail starts at %q", first.Line, first.Value, tr.Start)
			}
			rows := f.Steps[1:]
			var actions []trail.Action
			for _, st := range tr.Steps {
				actions = append(actions, st.Actions...)
			}
			if len(actions) != len(rows) {
				t.Errorf("the trail has %d actions, FLOWS.md %d rows after the start", len(actions), len(rows))
			}
			for i := range min(len(actions), len(rows)) {
				row := rows[i]
				action, target, value := flowRow(actions[i])
				if row.Action == "dialog" {
					target = row.Target // the trail does not repeat the dialog's message
				}
				if action != row.Action || target != row.Target || value != row.Value {
					t.Errorf("line %d: %s %s %q; FLOWS.md:%d has %s %s %q",
						actions[i].SourceLine(), action, target, value, row.Line, row.Action, row.Target, row.Value)
				}
			}
		})
	}
}

// selectorWait is how long a selector may take to match one element on the
// live shop: the pages answer within milliseconds, the rest is a loaded
// machine's margin.
const selectorWait = 15 * time.Second

// TestExampleTrailSelectorsOnTheShop walks each flow in Chromium with the
// FLOWS.md driver and, before each action, checks that the trail's selector
// matches exactly one element on the live screen as Trailpin sees it (the
// embedded page model and selector.Match): the selectors are the ones
// replay will look for. It runs one trail at a time, and before the
// package's parallel browser tests, so that it adds no load to their
// deadlines.
func TestExampleTrailSelectorsOnTheShop(t *testing.T) {
	_, dir := loadFlows(t)
	for tr, f := range pairedFlows(t) {
		t.Run(tr.Title, func(t *testing.T) {
			ctx := startBrowser(t)
			srv := httptest.NewServer(New(Options{}))
			t.Cleanup(srv.Close)
			d := newFlowDriver(ctx, srv.URL, dir)
			var actions []trail.Action
			for _, st := range tr.Steps {
				actions = append(actions, st.Actions...)
			}
			if n, err := d.run(f.Steps[:1]); err != nil {
				t.Fatalf("step %d: %v", n, err)
			}
			rows := f.Steps[1:]
			for i, row := range rows {
				if i >= len(actions) {
					break
				}
				if i+1 < len(rows) && rows[i+1].Action == "dialog" {
					// Rows run one at a time here, so arm the dialog's
					// answer as run does for a row before a dialog.
					d.mu.Lock()
					d.armed = rows[i+1].Value
					d.mu.Unlock()
				}
				if sel, ok := trail.ActionSelector(actions[i]); ok {
					if err := matchesOne(d.tab, sel); err != nil {
						t.Fatalf("line %d (%s): %v", actions[i].SourceLine(), actions[i].Kind(), err)
					}
				}
				if n, err := d.run([]flowStep{row}); err != nil {
					t.Fatalf("step %d: %v", n, err)
				}
				if a, ok := actions[i].(trail.AssertNotVisible); ok {
					if err := showsNone(d.tab, a.Text); err != nil {
						t.Fatalf("line %d (assertNotVisible): %v", a.SourceLine(), err)
					}
				}
			}
		})
	}
}

// matchesOne waits until sel matches exactly one shown node of the page.
func matchesOne(ctx context.Context, sel selector.Selector) error {
	return waitScreen(ctx, func(s *screen.Screen) error {
		_, err := selector.Match(s, sel)
		return err
	})
}

// showsNone waits until no shown node's text is text (the driver has
// checked accessible names already).
func showsNone(ctx context.Context, text string) error {
	return waitScreen(ctx, func(s *screen.Screen) error {
		if nodes, err := selector.Match(s, selector.Selector{Text: text}); err == nil || len(nodes) > 0 {
			return fmt.Errorf("%d node(s) still show %s", max(1, len(nodes)), strconv.Quote(text))
		}
		return nil
	})
}

func waitScreen(ctx context.Context, check func(*screen.Screen) error) error {
	deadline := time.Now().Add(selectorWait)
	for {
		s, err := browser.Capture(ctx, browser.CaptureOptions{NoCoverage: true})
		if err == nil {
			if err = check(s); err == nil {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(flowPollInterval):
		}
	}
}
